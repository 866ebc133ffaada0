// UVM-lite verification harness: seeds, scoreboard, coverage and wave files.
// The simulation context for a Verilated model is in sim_context.h.
#pragma once

#include "common/gtkw.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace simt::tb {

// "Suite.Test" of the running GoogleTest test, with '/' replaced (for file names).
std::string currentTestName();

// Seeds of a random test: SIMT_SEED (default fixed, so CI is deterministic), and
// SIMT_REPEAT consecutive seeds from there for nightly-style runs.
constexpr uint64_t kDefaultSeed = 0x5EED2026;
uint64_t baseSeed();
int repeatCount();
std::vector<uint64_t> testSeeds();
// Scale factor for random-test lengths (SIMT_SCALE, default 1).
int lengthScale();

// Seeded random source. A test names its seed in every failure through SCOPED_TRACE
// (see SIMT_SEED_TRACE below), so a failure can be replayed with SIMT_SEED=<seed>.
class Rng {
 public:
  explicit Rng(uint64_t seed) : seed_(seed), gen_(seed) {}
  uint64_t seed() const { return seed_; }
  uint64_t bits64() { return gen_(); }
  uint64_t bits(int n) { return n >= 64 ? gen_() : (gen_() & ((1ull << n) - 1)); }
  // Uniform in [0, n).
  int below(int n) { return static_cast<int>(gen_() % static_cast<uint64_t>(n)); }
  int range(int lo, int hi) { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(int percent) { return below(100) < percent; }

 private:
  uint64_t seed_;
  std::mt19937_64 gen_;
};

#define SIMT_SEED_TRACE(seed) \
  SCOPED_TRACE("replay with SIMT_SEED=" + std::to_string(seed) + " SIMT_REPEAT=1")

// Compares the observation of the DUT with the golden model's, field by field, once per
// transaction or cycle. The first mismatches fail the test with both values and the context.
class Scoreboard {
 public:
  using Fields = std::vector<std::pair<std::string, uint64_t>>;
  explicit Scoreboard(std::string block, int maxReports = 5)
      : block_(std::move(block)), maxReports_(maxReports) {}
  // Returns true when every field matches.
  bool check(const std::string& context, const Fields& model, const Fields& dut);
  uint64_t checks() const { return checks_; }
  uint64_t mismatches() const { return mismatches_; }
  bool clean() const { return mismatches_ == 0; }

 private:
  std::string block_;
  int maxReports_;
  uint64_t checks_ = 0;
  uint64_t mismatches_ = 0;
};

// Functional coverage bins. A test declares the bins it must hit, samples them while it
// runs, and requires them at the end; the hit counts are written to
// build/coverage/<test>.txt for the verification plan.
class Coverage {
 public:
  explicit Coverage(std::string name) : name_(std::move(name)) {}
  void define(const std::string& bin) { bins_.emplace(bin, 0); }
  void define(std::initializer_list<const char*> bins) {
    for (const char* b : bins) define(b);
  }
  // Counts a hit; the bin must have been defined (a typo fails the test).
  void hit(const std::string& bin);
  void sample(const std::string& bin, bool cond) {
    if (cond) hit(bin);
  }
  uint64_t hits(const std::string& bin) const;
  // Whether every bin was hit (a random test may run on until it is, up to a cap).
  bool allHit() const {
    for (const auto& [bin, n] : bins_) {
      if (n == 0) return false;
    }
    return true;
  }
  // Fails the test for each bin never hit, and writes the report.
  void requireAllHit() const;
  std::string report() const;

 private:
  std::string name_;
  std::map<std::string, uint64_t> bins_;
};

// A group of signals in a GTKWave save file: {group name, full signal paths}.
// Wave save files (sim/common/gtkw.h), shared with `simt run --wave`.
using wave::WaveGroup;
using wave::waveSignal;
using wave::writeGtkwSave;

}  // namespace simt::tb
