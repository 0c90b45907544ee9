#include "core/anim/resource_cache.h"

#include <cstring>
#include <utility>

#include "core/md5/md5_parser.h"

namespace md5stage::anim {

std::uint64_t ResourceCache::HashBytes(std::string_view bytes) {
  // 8 bytes per step (multiply-xorshift), then the tail; plenty for telling files apart.
  std::uint64_t hash = 0x9E3779B97F4A7C15ull ^ bytes.size();
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    hash = (hash ^ word) * 0xBF58476D1CE4E5B9ull;
    hash ^= hash >> 31;
    p += 8;
    left -= 8;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, p, left);
  hash = (hash ^ tail) * 0x94D049BB133111EBull;
  hash ^= hash >> 29;
  return hash;
}

namespace {

// The object under `key` if it is still alive; expired entries are dropped on the way (a load is
// rare and the map small, so a sweep per load keeps it bounded by the live objects).
template <typename T>
std::shared_ptr<T> FindAlive(std::unordered_map<std::string, std::weak_ptr<T>>& map,
                             const std::string& key) {
  std::shared_ptr<T> found;
  for (auto it = map.begin(); it != map.end();) {
    std::shared_ptr<T> alive = it->second.lock();
    if (!alive) {
      it = map.erase(it);
      continue;
    }
    if (it->first == key) found = std::move(alive);
    ++it;
  }
  return found;
}

}  // namespace

std::string ResourceCache::Key(std::string_view name, std::string_view bytes) {
  std::string key(name);
  key += '\0';
  key += std::to_string(HashBytes(bytes));
  key += ':';
  key += std::to_string(bytes.size());
  return key;
}

Result<std::shared_ptr<const Model>> ResourceCache::LoadModel(std::string_view name,
                                                              std::string_view bytes) {
  std::string key = Key(name, bytes);
  if (std::shared_ptr<const Model> found = FindAlive(models_, key)) {
    ++hits_;
    return found;
  }
  ++parses_;
  Result<md5::MeshFile> parsed = md5::ParseMd5Mesh(name, bytes, limits_);
  if (!parsed.ok()) return parsed.error();
  std::shared_ptr<const Model> model =
      Model::Create(std::make_shared<const md5::MeshFile>(std::move(parsed).value()));
  models_.emplace(std::move(key), model);
  return model;
}

Result<std::shared_ptr<const Animation>> ResourceCache::LoadAnimation(std::string_view name,
                                                                      std::string_view bytes) {
  std::string key = Key(name, bytes);
  if (std::shared_ptr<const Animation> found = FindAlive(animations_, key)) {
    ++hits_;
    return found;
  }
  ++parses_;
  Result<md5::AnimFile> parsed = md5::ParseMd5Anim(name, bytes, limits_);
  if (!parsed.ok()) return parsed.error();
  auto animation = std::make_shared<const Animation>(
      Animation::FromAnimFile(std::make_shared<const md5::AnimFile>(std::move(parsed).value())));
  animations_.emplace(std::move(key), animation);
  return animation;
}

void ResourceCache::Clear() {
  models_.clear();
  animations_.clear();
}

}  // namespace md5stage::anim
