#include "core/anim/resource_cache.h"

#include <cstring>
#include <utility>

#include "core/common/content_key.h"
#include "core/md5/md5_parser.h"
#include "core/md5/mesh_pack.h"

namespace md5stage::anim {

std::uint64_t ResourceCache::HashBytes(std::string_view bytes) { return MixHash64(bytes); }

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
  // Two independent hashes and the size must all agree: a file is never taken for another whose
  // 64-bit hash alone collides with it.
  const ContentKey content = MakeContentKey(bytes);
  key += std::to_string(content.mix);
  key += ':';
  key += std::to_string(content.crc);
  key += ':';
  key += std::to_string(content.size);
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
  // A figure may be handed the mesh's pack (`md5stage pack`) under the .md5mesh's name.
  Result<md5::MeshFile> parsed = md5::IsMeshPack(bytes) ? md5::DecodeMeshPack(name, bytes, limits_)
                                                        : md5::ParseMd5Mesh(name, bytes, limits_);
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
