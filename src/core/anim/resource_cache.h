// Loads each MD5 file once: keyed by name and contents (size and two independent hashes, a
// ContentKey), every instance gets the same immutable
// Model / Animation (shared_ptr); instances own only their Pose. The cache holds them weakly, so a
// removed model's memory is freed (a viewer that drops and removes models for hours stays flat).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/anim/animation.h"
#include "core/anim/model.h"
#include "core/common/result.h"
#include "core/md5/md5_limits.h"

namespace md5stage::anim {

class ResourceCache {
 public:
  explicit ResourceCache(md5::Md5Limits limits = md5::Md5Limits()) : limits_(limits) {}

  // Parses on the first request for (name, bytes); later requests with the same name and the
  // same bytes (the same ContentKey) return the same object while something still holds it
  // (otherwise they parse again). Failures are not cached. Load warnings are in Model::warnings() /
  // Animation::source().warnings.
  Result<std::shared_ptr<const Model>> LoadModel(std::string_view name, std::string_view bytes);
  Result<std::shared_ptr<const Animation>> LoadAnimation(std::string_view name,
                                                         std::string_view bytes);

  // Objects in the cache that are still alive.
  std::size_t model_count() const { return CountAlive(models_); }
  std::size_t animation_count() const { return CountAlive(animations_); }
  int hits() const { return hits_; }
  int parses() const { return parses_; }
  void Clear();

  // The key's 64-bit hash (MixHash64; the key also holds the CRC-32 and size).
  static std::uint64_t HashBytes(std::string_view bytes);

 private:
  static std::string Key(std::string_view name, std::string_view bytes);
  template <typename T>
  static std::size_t CountAlive(const std::unordered_map<std::string, std::weak_ptr<T>>& map) {
    std::size_t alive = 0;
    for (const auto& entry : map) alive += entry.second.expired() ? 0 : 1;
    return alive;
  }

  md5::Md5Limits limits_;
  std::unordered_map<std::string, std::weak_ptr<const Model>> models_;
  std::unordered_map<std::string, std::weak_ptr<const Animation>> animations_;
  int hits_ = 0;
  int parses_ = 0;
};

}  // namespace md5stage::anim
