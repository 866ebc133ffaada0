// simt_find_next_set (N=32, no wrap) against model::findNextSet: exhaustive start indices
// over random and structured vectors.
#include "Vfind_next_set.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/common/find_next_set.h"

namespace simt::tb {
namespace {

constexpr int kN = 32;

TEST(FindNextSet, RandomVectorsEveryStart) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<Vfind_next_set> sim("simt_find_next_set", seed);
    Scoreboard sb("find_next_set");
    Coverage cov("find_next_set");
    cov.define({"found", "not_found", "answer_at_start", "answer_last_bit", "empty_vector",
                "full_vector"});
    const int vectors = 2000 * lengthScale();
    for (int v = 0; v < vectors && sim.ok(); ++v) {
      uint32_t vec;
      switch (rng.below(4)) {
        case 0: vec = static_cast<uint32_t>(rng.bits(32)); break;
        case 1: vec = 1u << rng.below(kN); break;  // one-hot
        case 2: vec = static_cast<uint32_t>(rng.bits(32) & rng.bits(32) & rng.bits(32)); break;
        default: vec = rng.chance(50) ? 0u : 0xFFFFFFFFu; break;
      }
      for (int start = 0; start < kN; ++start) {
        sim->vec_i = vec;
        sim->start_i = static_cast<uint8_t>(start);
        sim.eval();
        const auto want = model::findNextSet(vec, kN, start, /*wrap=*/false);
        const std::string ctx = "vec=" + std::to_string(vec) + " start=" + std::to_string(start);
        sb.check(ctx, {{"found", want.has_value()}, {"idx", want.value_or(0)}},
                 {{"found", sim->found_o}, {"idx", want ? sim->idx_o : 0u}});
        cov.sample("found", want.has_value());
        cov.sample("not_found", !want.has_value());
        cov.sample("answer_at_start", want && *want == start);
        cov.sample("answer_last_bit", want && *want == kN - 1);
        cov.sample("empty_vector", vec == 0);
        cov.sample("full_vector", vec == 0xFFFFFFFFu);
      }
    }
    EXPECT_TRUE(sb.clean());
    EXPECT_GT(sb.checks(), 0u);
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
