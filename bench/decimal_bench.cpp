// The decimal parser's two ways to a float, on every float literal of the parse corpora, read in
// place in the file bytes as the MD5 readers read them: the inline fast path (falling back to
// fast_float) against fast_float alone. Run both in one process (interleaved repetitions): the
// inline path stays only while it is the faster. And the writer's way back (float_text/...): the
// same floats as shortest round-trip fixed text.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench_registry.h"
#include "bench_util.h"
#include "core/common/number_text.h"
#include "core/md5/decimal_parser.h"

namespace md5stage::bench {
namespace {

struct Literals {
  const Corpus* corpus = nullptr;
  // (file, offset) of each float literal: a token starting with a sign, digit or point that
  // holds a point, the way exporters write every float of the vert, weight, joint and frame
  // lines.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> starts;
  std::size_t bytes = 0;
};

bool IsTokenSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

Literals FindLiterals(const Corpus& corpus) {
  Literals literals;
  literals.corpus = &corpus;
  for (std::uint32_t f = 0; f < corpus.files.size(); ++f) {
    const std::string& text = corpus.files[f].bytes;
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && IsTokenSpace(text[i])) ++i;
      const std::size_t start = i;
      bool has_point = false;
      while (i < text.size() && !IsTokenSpace(text[i])) has_point |= text[i++] == '.';
      const char first = start < text.size() ? text[start] : ' ';
      const bool numeric =
          first == '-' || first == '+' || first == '.' || static_cast<unsigned>(first - '0') < 10u;
      if (numeric && has_point) {
        literals.starts.emplace_back(f, static_cast<std::uint32_t>(start));
        literals.bytes += i - start;
      }
    }
  }
  return literals;
}

const Literals& CorpusLiterals(const std::string& name) {
  static std::map<std::string, Literals> cache;
  auto found = cache.find(name);
  if (found != cache.end()) return found->second;
  // Mesh and animation literals together: the corpus the parse benchmarks read.
  static std::map<std::string, Corpus> merged;
  Corpus& all = merged[name];
  all.name = name;
  for (const Corpus* part : {&MeshCorpus(name), &AnimCorpus(name)}) {
    all.files.insert(all.files.end(), part->files.begin(), part->files.end());
    all.total_bytes += part->total_bytes;
  }
  return cache.emplace(name, FindLiterals(all)).first->second;
}

template <const char* (*Parse)(const char*, const char*, float*)>
void ParseLiterals(benchmark::State& state, const std::string& name) {
  const Literals& literals = CorpusLiterals(name);
  if (literals.starts.empty()) {
    state.SkipWithError(("no float literals in corpus " + name).c_str());
    return;
  }
  const std::vector<BenchFile>& files = literals.corpus->files;
  for (const auto& [file, offset] : literals.starts) {
    float value;
    const std::string& text = files[file].bytes;
    if (Parse(text.data() + offset, text.data() + text.size(), &value) == nullptr) {
      state.SkipWithError(("not a number in " + files[file].path).c_str());
      return;
    }
  }
  for (auto _ : state) {
    float sum = 0.0f;
    for (const auto& [file, offset] : literals.starts) {
      const std::string& text = files[file].bytes;
      float value;
      Parse(text.data() + offset, text.data() + text.size(), &value);
      sum += value;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(literals.starts.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(literals.bytes));
  state.counters["literals"] = static_cast<double>(literals.starts.size());
}

// The other way: every float of the corpus written as the MD5 writer writes it (shortest
// round-trip fixed text). `Append` is the build's writer (to_chars natively, Dragonbox digits in
// wasm) or the Dragonbox one natively too, so one native run compares the two and the wasm run
// says what the browser pays.
template <void (*Append)(float, std::string&)>
void WriteLiterals(benchmark::State& state, const std::string& name) {
  const Literals& literals = CorpusLiterals(name);
  if (literals.starts.empty()) {
    state.SkipWithError(("no float literals in corpus " + name).c_str());
    return;
  }
  std::vector<float> values;
  values.reserve(literals.starts.size());
  for (const auto& [file, offset] : literals.starts) {
    const std::string& text = literals.corpus->files[file].bytes;
    float value = 0.0f;
    md5::ParseDecimalFloat(text.data() + offset, text.data() + text.size(), &value);
    values.push_back(value);
  }
  std::string out;
  for (auto _ : state) {
    out.clear();
    for (const float value : values) {
      Append(value, out);
      out.push_back(' ');
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(values.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(out.size()));
  state.counters["floats"] = static_cast<double>(values.size());
}

}  // namespace

void RegisterDecimalBenchmarks() {
  for (const char* name : kCorpusNames) {
    const std::string corpus = name;
    benchmark::RegisterBenchmark(
        ("decimal_float/inline_fast_path/" + corpus).c_str(),
        [corpus](benchmark::State& s) { ParseLiterals<md5::ParseDecimalFloat>(s, corpus); });
    benchmark::RegisterBenchmark(
        ("decimal_float/fast_float/" + corpus).c_str(),
        [corpus](benchmark::State& s) { ParseLiterals<md5::ParseDecimalFloatGeneral>(s, corpus); });
    benchmark::RegisterBenchmark(
        ("float_text/shortest_fixed/" + corpus).c_str(),
        [corpus](benchmark::State& s) { WriteLiterals<AppendShortestFixed>(s, corpus); });
    benchmark::RegisterBenchmark(
        ("float_text/dragonbox_digits/" + corpus).c_str(),
        [corpus](benchmark::State& s) { WriteLiterals<AppendShortestFixedByDigits>(s, corpus); });
  }
}

}  // namespace md5stage::bench
