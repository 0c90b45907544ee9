#include "leg_ik.h"

#include <algorithm>
#include <cmath>

namespace md5stage::assetgen {

TwoBoneSolution SolveTwoBone(const TwoBoneChain& chain, const Vec3& root, const Vec3& target,
                             const Vec3& pole, double max_extension) {
  const double upper = glm::length(chain.bind_middle - chain.bind_root);
  const double lower = glm::length(chain.bind_end - chain.bind_middle);
  Vec3 to_target = target - root;
  double distance = glm::length(to_target);
  Vec3 axis = to_target / distance;
  double reach = (upper + lower) * max_extension;
  double shortest = std::abs(upper - lower) * 1.0001;
  TwoBoneSolution solution;
  solution.reached = distance <= reach && distance >= shortest;
  distance = std::clamp(distance, shortest, reach);
  // Law of cosines: how far along the root->target axis the middle joint sits, and how far off it.
  double along = (upper * upper - lower * lower + distance * distance) / (2.0 * distance);
  double off = std::sqrt(std::max(0.0, upper * upper - along * along));
  Vec3 bend = OrthogonalUnit(pole, axis);
  solution.middle = root + axis * along + bend * off;
  solution.end = root + axis * distance;

  // Both bones keep the plane spanned by their direction and the bend direction.
  Vec3 bind_upper_dir = glm::normalize(chain.bind_middle - chain.bind_root);
  Vec3 bind_lower_dir = glm::normalize(chain.bind_end - chain.bind_middle);
  Vec3 bind_side = glm::normalize(glm::cross(bind_upper_dir, chain.bind_bend));
  Vec3 upper_dir = glm::normalize(solution.middle - root);
  Vec3 lower_dir = glm::normalize(solution.end - solution.middle);
  Vec3 side = glm::normalize(glm::cross(upper_dir, bend));
  solution.upper_rotation = FrameRotation(bind_upper_dir, glm::cross(bind_side, bind_upper_dir),
                                          upper_dir, glm::cross(side, upper_dir));
  solution.lower_rotation = FrameRotation(bind_lower_dir, glm::cross(bind_side, bind_lower_dir),
                                          lower_dir, glm::cross(side, lower_dir));
  return solution;
}

}  // namespace md5stage::assetgen
