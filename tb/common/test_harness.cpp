// The harness itself must fail loudly: an RTL assertion, a scoreboard mismatch and an unhit
// coverage bin each turn into a GoogleTest failure.
#include <gtest/gtest-spi.h>

#include "Vtoken_deque.h"
#include "common/harness.h"
#include "common/sim_context.h"

namespace simt::tb {
namespace {

TEST(Harness, RtlAssertionFailsTheTest) {
  SimContext<Vtoken_deque> sim("simt_token_deque");
  sim.reset();
  // A maintenance read of a queue that is not stalled violates the deque's assertion.
  sim->push_valid_i = 0;
  sim->pop_valid_i = 0;
  sim->mnt_valid_i = 1;
  sim->mnt_op_i = 1;  // MntRead
  sim->mnt_warp_i = 0;
  EXPECT_TRUE(sim.ok());
  EXPECT_NONFATAL_FAILURE(sim.tick(), "RTL assertion failed in simt_token_deque");
  EXPECT_FALSE(sim.ok());
}

TEST(Harness, ScoreboardReportsMismatch) {
  Scoreboard sb("demo");
  EXPECT_TRUE(sb.check("cycle 1", {{"a", 1}, {"b", 2}}, {{"a", 1}, {"b", 2}}));
  EXPECT_NONFATAL_FAILURE(sb.check("cycle 2", {{"a", 1}, {"b", 2}}, {{"a", 1}, {"b", 3}}),
                          "b: model=0x2 rtl=0x3");
  EXPECT_EQ(sb.mismatches(), 1u);
  EXPECT_EQ(sb.checks(), 2u);
}

TEST(Harness, UnhitCoverageBinFailsTheTest) {
  Coverage cov("demo");
  cov.define({"hit_me", "never"});
  cov.hit("hit_me");
  EXPECT_NONFATAL_FAILURE(cov.requireAllHit(), "bin 'never' never hit");
  EXPECT_NONFATAL_FAILURE(cov.hit("typo"), "undefined bin 'typo'");
}

TEST(Harness, SeedsAreDeterministic) {
  Rng a(42), b(42), c(43);
  const uint64_t x = a.bits64();
  EXPECT_EQ(x, b.bits64());
  EXPECT_NE(x, c.bits64());
  EXPECT_FALSE(testSeeds().empty());
}

}  // namespace
}  // namespace simt::tb
