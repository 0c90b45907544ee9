// Per-character animation costs: sample + local-to-model (ns per joint), crossfades, the full
// character pose job, and CPU skinning (ns per vertex), for the walker and imprimis_bones.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/anim/character_pose_job.h"
#include "core/anim/jobs.h"
#include "core/anim/pose.h"

namespace md5stage::bench {
namespace {

using anim::JointTransform;

// Steps of slightly more than a 60 Hz frame, so successive samples land at different blend
// factors between animation frames.
constexpr float kTimeStep = 1.0f / 59.0f;

bool Usable(benchmark::State& state, const Character& character) {
  if (character.ok()) return true;
  state.SkipWithError(("character not available: " + character.name).c_str());
  return false;
}

void SampleLocalToModel(benchmark::State& state, const Character& character) {
  if (!Usable(state, character)) return;
  const int joints = character.joint_count();
  std::vector<JointTransform> locals(joints);
  std::vector<glm::mat4> models(joints);
  anim::SampleJob sample;
  sample.animation = character.animations[0].get();
  sample.output = locals;
  anim::LocalToModelJob to_model;
  to_model.skeleton = &character.model->skeleton();
  to_model.locals = locals;
  to_model.models = models;
  float time = 0.0f;
  for (auto _ : state) {
    sample.time = time;
    const bool ok = sample.Run() && to_model.Run();
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(models.data());
    benchmark::ClobberMemory();
    time += kTimeStep;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * joints);
  state.counters["joints"] = joints;
}

void Blend(benchmark::State& state, const Character& character) {
  if (!Usable(state, character)) return;
  const int joints = character.joint_count();
  std::vector<JointTransform> from(joints), to(joints), out(joints);
  for (int i = 0; i < 2; ++i) {
    anim::SampleJob sample;
    sample.animation = character.animations[i].get();
    sample.time = 0.3f;
    sample.output = i == 0 ? anim::Span<JointTransform>(from) : anim::Span<JointTransform>(to);
    sample.Run();
  }
  anim::BlendJob blend;
  blend.from = from;
  blend.to = to;
  blend.output = out;
  float weight = 0.1f;
  for (auto _ : state) {
    blend.weight = weight;
    benchmark::DoNotOptimize(blend.Run());
    benchmark::ClobberMemory();
    weight = weight > 0.9f ? 0.1f : weight + 0.013f;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * joints);
}

// The whole per-character job; with `crossfade`, two samples and a blend before the matrices.
void CharacterPose(benchmark::State& state, const Character& character, bool crossfade) {
  if (!Usable(state, character)) return;
  const int joints = character.joint_count();
  anim::Pose pose(joints);
  anim::CharacterPoseJob job;
  job.model = character.model.get();
  job.animation = character.animations[1].get();
  job.root_motion = anim::RootMotion::kStripHorizontal;
  if (crossfade) {
    job.fade_from = character.animations[0].get();
    job.fade_weight = 0.4f;
  }
  job.world = glm::mat4(glm::vec4(0, 1, 0, 0), glm::vec4(-1, 0, 0, 0), glm::vec4(0, 0, 1, 0),
                        glm::vec4(3, 4, 0, 1));
  job.pose = &pose;
  float time = 0.0f;
  for (auto _ : state) {
    job.time = time;
    job.fade_from_time = time + 0.25f;
    benchmark::DoNotOptimize(job.Run());
    benchmark::DoNotOptimize(pose.palette.data());
    benchmark::ClobberMemory();
    time += kTimeStep;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * joints);
}

int TotalVertices(const anim::Model& model) {
  int vertices = 0;
  for (int m = 0; m < model.mesh_count(); ++m) {
    vertices += static_cast<int>(model.mesh(m).vertices.size());
  }
  return vertices;
}

// A mid-walk pose for the skinning benchmarks.
anim::Pose PoseOf(const Character& character) {
  anim::Pose pose(character.joint_count());
  anim::CharacterPoseJob job;
  job.model = character.model.get();
  job.animation = character.animations[0].get();
  job.time = 0.37f;
  job.pose = &pose;
  job.Run();
  return pose;
}

// The reference formula: every weight of every vertex, positions and normals.
void SkinReference(benchmark::State& state, const Character& character) {
  if (!Usable(state, character)) return;
  const anim::Model& model = *character.model;
  const anim::Pose pose = PoseOf(character);
  std::vector<std::vector<glm::vec3>> positions, normals;
  std::vector<anim::SkinningJob> jobs(model.mesh_count());
  positions.resize(model.mesh_count());
  normals.resize(model.mesh_count());
  for (int m = 0; m < model.mesh_count(); ++m) {
    positions[m].resize(model.mesh(m).vertices.size());
    normals[m].resize(model.mesh(m).vertices.size());
    jobs[m].model = &model;
    jobs[m].mesh_index = m;
    jobs[m].joint_matrices = pose.models;
    jobs[m].positions = positions[m];
    jobs[m].normals = normals[m];
  }
  for (auto _ : state) {
    for (const anim::SkinningJob& job : jobs) benchmark::DoNotOptimize(job.Run());
    benchmark::ClobberMemory();
  }
  const int vertices = TotalVertices(model);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * vertices);
  state.counters["vertices"] = vertices;
  state.counters["weights"] = model.source().weight_count();
}

// What the vertex shader does: 4 weights per vertex through the palette.
void SkinPalette(benchmark::State& state, const Character& character) {
  if (!Usable(state, character)) return;
  const anim::Model& model = *character.model;
  const anim::Pose pose = PoseOf(character);
  const std::size_t vertex_count = model.gpu().vertices.size();
  std::vector<glm::vec3> positions(vertex_count), normals(vertex_count);
  anim::PaletteSkinningJob job;
  job.model = &model;
  job.palette = pose.palette;
  job.positions = positions;
  job.normals = normals;
  for (auto _ : state) {
    benchmark::DoNotOptimize(job.Run());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(vertex_count));
  state.counters["vertices"] = static_cast<double>(vertex_count);
}

}  // namespace

void RegisterAnimBenchmarks() {
  for (const char* name : kCorpusNames) {
    const std::string character = name;
    auto get = [character]() -> const Character& { return GetCharacter(character); };
    benchmark::RegisterBenchmark(("sample_l2m/" + character).c_str(),
                                 [get](benchmark::State& s) { SampleLocalToModel(s, get()); });
    benchmark::RegisterBenchmark(("blend/" + character).c_str(),
                                 [get](benchmark::State& s) { Blend(s, get()); });
    benchmark::RegisterBenchmark(("character_pose/" + character).c_str(),
                                 [get](benchmark::State& s) { CharacterPose(s, get(), false); });
    benchmark::RegisterBenchmark(("crossfade/" + character).c_str(),
                                 [get](benchmark::State& s) { CharacterPose(s, get(), true); });
    benchmark::RegisterBenchmark(("skin_cpu/" + character).c_str(),
                                 [get](benchmark::State& s) { SkinReference(s, get()); });
    benchmark::RegisterBenchmark(("skin_palette/" + character).c_str(),
                                 [get](benchmark::State& s) { SkinPalette(s, get()); });
  }
}

}  // namespace md5stage::bench
