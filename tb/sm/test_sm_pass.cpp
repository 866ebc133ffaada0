// simt_sm_pass (the pass sequencer, docs/blocks/sm.md "Passes") on its own against
// model::SmPass at 8 and 16 lanes (and 4 FP lanes beside 8 or 16): a random stream of
// instructions in EXEC, each with a random executing mask (sparse, dense, empty, single
// groups) and class (on the lanes or not; on the FP lanes, in groups of FpLanes), held
// in EXEC exactly as long as more_o says (or until it faults in a pass, stop_i: it leaves
// EXEC then), with idle cycles between; every cycle's pass_o, threads_o and more_o are
// compared (pass_o and its registered per-lane copies; an FP instruction's FP group and its
// copies), each pass's group is the one the register file was told to read for it the
// cycle before (pass_next_o), and every instruction's passes are the groups with work.
#include <cstdint>

#include "Vsm_pass16f4.h"
#include "Vsm_pass8.h"
#include "Vsm_pass8f4.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/sm/pass.h"

namespace simt::tb {
namespace {

uint32_t randomMask(Rng& rng) {
  switch (rng.below(5)) {
    case 0: return 0;
    case 1: return ~0u;
    case 2: return static_cast<uint32_t>(rng.bits(32));
    case 3: return 1u << rng.below(32);  // one thread: one group
    default: return static_cast<uint32_t>(rng.bits(32)) & static_cast<uint32_t>(rng.bits(32)) &
                    static_cast<uint32_t>(rng.bits(32));  // sparse
  }
}

template <class Dut>
void randomStream(int lanes, int fpLanes, const char* name) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<Dut> sim(name, seed);
    auto& d = sim.dut();
    d.valid_i = 0;
    d.multi_i = 0;
    d.stop_i = 0;
    d.mask_i = 0;
    d.mask_next_i = 0;
    d.fp_i = 0;
    sim.reset();
    model::SmPass m(lanes, fpLanes);
    const int fpBits = fpLanes == 32 ? 1 : __builtin_ctz(32 / fpLanes);
    // What EXEC holds next: an idle cycle or an instruction. The unit registers its per-lane
    // copies of the pass from the next cycle's mask (mask_next_i, decode's in the core), so
    // the stream is drawn one item ahead.
    struct Item {
      bool idle = false;
      bool multi = false;
      bool fp = false;  // on the FP lanes (on the lanes: multi)
      uint32_t mask = 0;
      int faultAt = -1;  // a fault in this pass (1 in 10 instructions): it leaves EXEC there
    };
    auto draw = [&]() {
      Item it;
      it.idle = rng.chance(20);
      it.multi = it.idle ? rng.below(2) : rng.chance(70);
      it.fp = fpLanes < lanes && it.multi && rng.chance(40);
      it.mask = it.idle ? static_cast<uint32_t>(rng.bits(32)) : randomMask(rng);
      if (!it.idle && rng.chance(10)) it.faultAt = rng.below(m.passes(it.mask, it.fp));
      return it;
    };
    Item next = draw();
    uint64_t insts = 0, multiPass = 0, skipped = 0, stopped = 0, fpInsts = 0;
    const int n = 3000 * lengthScale();
    for (int i = 0; i < n && sim.ok(); ++i) {
      const Item cur = next;
      next = draw();
      d.mask_next_i = next.mask;
      if (cur.idle) {  // an idle cycle: nothing in EXEC
        d.valid_i = 0;
        d.multi_i = cur.multi;
        d.stop_i = rng.below(2);
        d.mask_i = cur.mask;
        sim.eval();
        const model::SmPass::Cycle c = m.step(false, d.multi_i, d.stop_i, d.mask_i);
        ASSERT_EQ(d.more_o, 0u) << "nothing in EXEC, no pass follows";
        ASSERT_EQ(static_cast<int>(d.pass_o), c.pass);
        sim.tick();
        continue;
      }
      const bool multi = cur.multi;
      const bool fp = cur.fp;
      const uint32_t mask = cur.mask;
      const int faultAt = cur.faultAt;
      d.valid_i = 1;
      d.multi_i = multi;
      d.mask_i = mask;
      d.fp_i = fp;
      int cycles = 0;
      uint32_t covered = 0;
      int last = -1;
      int readNext = -1;  // the group the register file read for this pass (pass_next_o)
      for (;;) {
        const bool stop = cycles == faultAt;
        d.stop_i = stop;
        sim.eval();
        const model::SmPass::Cycle c = m.step(true, multi, stop, mask, fp);
        ASSERT_EQ(static_cast<int>(d.pass_o), c.pass) << "instruction " << insts << ", cycle " << cycles;
        if (readNext >= 0) {
          ASSERT_EQ(c.pass, readNext) << "the register file read another group for this pass, instruction "
                                      << insts << ", cycle " << cycles;
        }
        if (fp) {
          for (int l = 0; l < fpLanes; ++l) {
            ASSERT_EQ(static_cast<int>((d.fpass_lanes_o >> (l * fpBits)) & ((1u << fpBits) - 1)), c.fpPass)
                << "FP lane " << l << "'s copy, instruction " << insts << ", cycle " << cycles;
          }
        }
        for (int l = 0; l < lanes; ++l) {
          const int bits = lanes == 32 ? 1 : __builtin_ctz(32 / lanes);
          ASSERT_EQ(static_cast<int>((d.pass_lanes_o >> (l * bits)) & ((1u << bits) - 1)), c.pass)
              << "lane " << l << "'s copy, instruction " << insts << ", cycle " << cycles;
        }
        ASSERT_EQ(d.threads_o, c.threads) << "instruction " << insts << ", cycle " << cycles;
        ASSERT_EQ(d.more_o != 0, c.more) << "instruction " << insts << ", cycle " << cycles;
        ASSERT_GT(fp ? c.fpPass : c.pass, last) << "groups in ascending order";
        last = fp ? c.fpPass : c.pass;
        covered |= c.threads;
        ++cycles;
        const bool more = d.more_o;
        readNext = more && !stop ? static_cast<int>(d.pass_next_o) : -1;
        sim.tick();
        if (stop) break;
        if (!more) break;
      }
      if (faultAt >= 0) {
        ++stopped;
        ++insts;
        continue;
      }
      ASSERT_EQ(cycles, multi ? m.passes(mask, fp) : 1) << "mask " << std::hex << mask;
      if (multi) {
        ASSERT_EQ(mask & ~covered, 0u) << "every executing thread was on the lanes";
      }
      multiPass += cycles > 1;
      skipped += multi && mask != 0 && cycles < m.groups();
      fpInsts += fp;
      ++insts;
    }
    ASSERT_TRUE(sim.ok());
    EXPECT_GT(multiPass, 0u);
    EXPECT_GT(skipped, 0u) << "some instruction skipped a group without work";
    EXPECT_GT(stopped, 0u) << "some instruction faulted in a pass";
    if (fpLanes < lanes) EXPECT_GT(fpInsts, 0u);
    std::printf("SmPassRtl(%d lanes, %d FP lanes): %llu instructions, %llu in several passes, %llu skipped a "
                "group, %llu on the FP lanes\n",
                lanes, fpLanes, static_cast<unsigned long long>(insts), static_cast<unsigned long long>(multiPass),
                static_cast<unsigned long long>(skipped), static_cast<unsigned long long>(fpInsts));
  }
}

TEST(SmPassRtl, EightLanesFollowTheModelOnRandomMasks) { randomStream<Vsm_pass8>(8, 8, "simt_sm_pass8"); }
// FP instructions in groups of 4 threads beside ALU ones in groups of 8 (the board's core) or 16.
TEST(SmPassRtl, EightLanesWithFourFpLanesFollowTheModelOnRandomMasks) {
  randomStream<Vsm_pass8f4>(8, 4, "simt_sm_pass8f4");
}
TEST(SmPassRtl, SixteenLanesWithFourFpLanesFollowTheModelOnRandomMasks) {
  randomStream<Vsm_pass16f4>(16, 4, "simt_sm_pass16f4");
}

TEST(SmPass, AModelOfThirtyTwoLanesNeverSequences) {
  model::SmPass m(32);
  for (uint32_t mask : {0u, 1u, 0x80000000u, ~0u}) {
    const model::SmPass::Cycle c = m.step(true, true, false, mask);
    EXPECT_EQ(c.pass, 0);
    EXPECT_EQ(c.threads, ~0u);
    EXPECT_FALSE(c.more);
    EXPECT_EQ(m.passes(mask), 1);
  }
  EXPECT_THROW(model::SmPass(12), std::invalid_argument);
  EXPECT_THROW(model::SmPass(8, 16), std::invalid_argument);
  EXPECT_THROW(model::SmPass(8, 3), std::invalid_argument);
}

}  // namespace
}  // namespace simt::tb
