// Directed tests of the verilated SM core (rtl/sm/simt_sm.sv) through its runner: faults
// with their cause, warp, pc and thread; deadlock and timeout reports; CTA launch when more
// CTAs than slots; token-queue re-centring by the runtime; the retire stream and counters.
// The kernel suite runs on the core as well (test_kernels.cpp, engine rtl).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"
#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"

namespace simt::rtl {
namespace {

using model::RunConfig;
using model::RunResult;
using model::RunStatus;

RunResult runRtl(const std::string& src, RunConfig cfg = RunConfig{}) {
  const auto k = assembler::assemble(src, "inline.s");
  return SmRtl(k, cfg).run();
}

RunResult runModel(const std::string& src, RunConfig cfg = RunConfig{}) {
  const auto k = assembler::assemble(src, "inline.s");
  return model::SmModel(k, cfg).run();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SmRtl, IllegalInstructionFaultsWithWarpAndPc) {
  auto k = assembler::assemble("nop\nnop\nexit\n", "inline.s");
  k.code[1] = 0x7F;  // an opcode no instruction has
  const RunResult r = SmRtl(k, RunConfig{}).run();
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "fault: illegal instruction")) << r.message;
  EXPECT_TRUE(has(r.message, "pc 1, inline.s:2")) << r.message;
}

TEST(SmRtl, JumpOutsideTheCodeFaults) {
  const RunResult r = runRtl("mov r1, 1000\njmx r1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "instruction address out of range")) << r.message;
  EXPECT_TRUE(has(r.message, "pc 1000")) << r.message;
}

// A warp that jumps outside the code while the other warps run loads and ALU loops: its
// fault waits until the core has drained (issue #26: the PC check reads registered state),
// nothing else issues meanwhile, and the model faults the same way in lockstep.
TEST(SmRtl, JumpOutsideTheCodeBesideBusyWarpsFaultsOnceTheCoreDrains) {
  const std::string src =
      ".shared 512\n"
      ".launch ctas=1 threads=128\n"
      "mov r1, %tid\n"
      "shl r2, r1, 2\n"
      "st.shared [r2], r1\n"
      "mov r3, %warpid\n"
      "setp.eq p1, r3, 2\n"
      "mov r4, 1000\n"
      "@p1 jmx r4\n"
      "mov r5, 0\n"
      "loop:\n"
      "ld.shared r6, [r2]\n"
      "add r5, r5, r6\n"
      "add r5, r5, 1\n"
      "setp.lt p2, r5, 4000\n"
      "@p2 bra loop\n"
      "exit\n";
  const RunResult r = runRtl(src);
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "instruction address out of range")) << r.message;
  EXPECT_TRUE(has(r.message, "warp 2, pc 1000")) << r.message;
  const RunResult c = cosim::Cosim(assembler::assemble(src, "inline.s"), RunConfig{}).run();
  EXPECT_EQ(c.status, RunStatus::Error) << c.message;
}

TEST(SmRtl, SharedOutOfRangeNamesTheFirstFailingThread) {
  const RunResult r =
      runRtl(".shared 16\nmov r1, %tid\nshl r1, r1, 2\nld.shared r2, [r1]\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "shared access out of range at 16")) << r.message;
  EXPECT_TRUE(has(r.message, "thread 4")) << r.message;
}

TEST(SmRtl, GlobalFaultsAreMisalignmentThenRange) {
  const std::string prog = ".data\nd: .zero 16\n.text\nmov r1, %tid\nshl r1, r1, 2\n";
  RunResult r = runRtl(prog + "add r1, r1, 2\nld.global r2, [r1]\nexit\n");
  EXPECT_TRUE(has(r.message, "misaligned global access at 2")) << r.message;
  EXPECT_TRUE(has(r.message, "thread 0")) << r.message;
  r = runRtl(prog + "st.global [r1], r1\nexit\n");
  EXPECT_TRUE(has(r.message, "global access out of range at 16")) << r.message;
  EXPECT_TRUE(has(r.message, "thread 4")) << r.message;
  r = runRtl(prog + "ld.global.v4 r4, [r1+4]\nexit\n");
  EXPECT_TRUE(has(r.message, "misaligned global access at 4")) << "v4 needs 16-byte alignment: "
                                                               << r.message;
}

TEST(SmRtl, ParamFaults) {
  RunResult r = runRtl(".param 5, 6\nld.param r1, [8]\nexit\n");
  EXPECT_TRUE(has(r.message, "fault: param access out of range")) << r.message;
  r = runRtl(".param 5, 6\nld.param r1, [2]\nexit\n");
  EXPECT_TRUE(has(r.message, "fault: misaligned param access")) << r.message;
}

TEST(SmRtl, TrapFaults) {
  const RunResult r = runRtl("nop\ntrap\n");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "fault: trap (warp slot 0, cta 0 warp 0, pc 1")) << r.message;
}

TEST(SmRtl, ACtaLargerThanTheCoreIsRefusedWithAMessage) {
  RunConfig cfg;
  cfg.threads = 512;  // 16 warps; the core has 8 warp slots
  const RunResult r = runRtl("exit\n", cfg);
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "needs more than the core's 8 warp slots")) << r.message;
}

TEST(SmRtl, MaxCyclesStopsWithTimeoutAndAReport) {
  RunConfig cfg;
  cfg.maxCycles = 500;
  const RunResult r = runRtl("loop: bra loop\n", cfg);
  EXPECT_EQ(r.status, RunStatus::Timeout);
  EXPECT_EQ(model::exitCode(r.status), 3);
  EXPECT_TRUE(has(r.message, "timeout after 500 cycles")) << r.message;
  EXPECT_TRUE(has(r.message, "pc=0")) << "the spinning warp's pc: " << r.message;
}

TEST(SmRtl, StrandedThreadsAreADeadlockNamingThem) {
  // `sync` without a label and without a SYNC token: the threads wait for nothing.
  const RunResult r = runRtl("sync\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Deadlock);
  EXPECT_TRUE(has(r.message, "stranded")) << r.message;
  EXPECT_TRUE(has(r.message, "SYNC=0xffffffff")) << r.message;
  EXPECT_EQ(model::exitCode(r.status), 2);
}

TEST(SmRtl, AWarpHeldAtABusyBarrierIdIsNamedInTheDeadlockReport) {
  // Warp 0 waits at barrier 1 (pc 2) for all 64 threads; warp 1 reaches id 1 at another pc.
  const RunResult r = runRtl(
      ".launch ctas=1 threads=64\nmov r1, %warpid\nsetp.ne p0, r1, 0\n@p0 bra other\n"
      "bar.sync 1\nexit\nother: nop\nbar.sync 1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Deadlock);
  EXPECT_TRUE(has(r.message, "held: its barrier id is busy")) << r.message;
  EXPECT_TRUE(has(r.message, "barrier 1 of resident cta index 0 is busy")) << r.message;
}

TEST(SmRtl, ADeadlockReportSaysWhereACriticalSectionWaits) {
  // An exclusive section nested in another can never start: it waits for every execution
  // slot to be free while the outer section, whose thread waits for it, holds one.
  const RunResult r = runRtl(
      ".launch ctas=1 threads=32\nbar.top.ocs 1\nbar.top.ocs.ex 2, 1\nbar.bot.ocs 2\nbar.bot.ocs 1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Deadlock);
  EXPECT_TRUE(has(r.message, "barrier 1 of resident cta index 0 is busy: a critical section in service")) << r.message;
  EXPECT_TRUE(has(r.message, "barrier 2 of resident cta index 0 is busy: an exclusive critical section waiting for an "
                             "execution slot (it waits until every slot is free"))
      << r.message;
}

TEST(SmRtl, MoreCtasThanSlotsLaunchAsSlotsFree) {
  // 12 CTAs of 3 warps on 8 warp slots: at most 2 resident at once; each writes its ids.
  const std::string src =
      ".launch ctas=12 threads=96\n.data\nout: .zero 4608\n.text\n"
      "mov r1, %gtid\nshl r2, r1, 2\nmov r3, %ctaid\nmul r3, r3, 1000\nmov r4, %tid\n"
      "add r3, r3, r4\nst.global [r2+out], r3\nexit\n";
  const RunResult r = runRtl(src);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  for (uint32_t g = 0; g < 12 * 96; ++g) EXPECT_EQ(r.global[g], (g / 96) * 1000 + g % 96) << g;
}

// The per-warp L1 counters (seed 001's miss rate): two warps of one CTA. A load of 32 lanes
// on consecutive words is 2 line requests: warp 0 loads 4 distinct lines (4 accesses, 4
// misses), warp 1 loads the same 2 lines 4 times (8 accesses, 2 misses). With fewer lanes
// than a line has words (64-byte lines: 16) the load/store unit requests a line once per group
// of lanes on it (docs/blocks/sm.md, "Groups of lanes in the load/store unit"): k = 16/L
// requests a line, the first a miss, the others, right behind it, merged into its MSHR
// (counted as misses and as merges).
TEST(SmRtl, L1CountsAccessesAndMissesPerWarp) {
  constexpr int kLanes = simt::rtl::CoreGeometry::kNumLanes;
  constexpr uint64_t k = kLanes >= 16 ? 1 : 16 / kLanes;
  const std::string src =
      ".launch ctas=1 threads=64\n.data\nbuf: .zero 1024\n.text\n"
      "mov r1, %laneid\nshl r1, r1, 2\nmov r2, %warpid\nsetp.ne p0, r2, 0\n"
      "@p0 bra W1\n"
      "ld.global r3, [r1+buf]\nld.global r3, [r1+buf+128]\nexit\n"  // warp 0: 4 lines, once
      "W1: ld.global r3, [r1+buf+512]\nld.global r3, [r1+buf+512]\n"  // warp 1: 2 lines, 4 times
      "ld.global r3, [r1+buf+512]\nld.global r3, [r1+buf+512]\nexit\n";
  const RunResult r = runRtl(src);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  auto stat = [&](const std::string& n) { return r.stats.count(n) ? r.stats.at(n) : ~0ull; };
  EXPECT_EQ(stat("l1.warp0_accesses"), 4u * k);
  EXPECT_EQ(stat("l1.warp0_misses"), 4u * k);
  EXPECT_EQ(stat("l1.warp1_accesses"), 8u * k);
  EXPECT_EQ(stat("l1.warp1_misses"), 2u * k);
  EXPECT_EQ(stat("l1.mshr_merges"), 6u * (k - 1));  // every line's requests after its first
  EXPECT_EQ(stat("l1.hits") + stat("l1.misses") + stat("l1.mshr_merges"), 12u * k + 6u * (k - 1));
}

TEST(SmRtl, SharedMemoryIsPerCtaAndZeroedAtLaunch) {
  // Each CTA adds its id into shared word 0 (starting from 0) and stores the result; a CTA
  // reusing the shared region of a finished one must see zero again.
  const std::string src =
      ".launch ctas=6 threads=256\n.shared 64\n.data\nout: .zero 24\n.text\n"
      "mov r1, %tid\nsetp.ne p0, r1, 0\n@p0 exit\nmov r2, %ctaid\nadd r2, r2, 1\n"
      "atom.shared.add r3, [0], r2\nld.shared r4, [0]\nshl r5, r2, 2\n"
      "st.global [r5+out-4], r4\nexit\n";
  const RunResult r = runRtl(src);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  for (uint32_t c = 0; c < 6; ++c) EXPECT_EQ(r.global[c], c + 1) << c;
}

TEST(SmRtl, TokenQueueOverflowIsReCentredByTheRuntime) {
  // 20 nested ssy push 20 SYNC tokens at the front of a 32-entry queue that starts in the
  // middle: the front end overflows, the runtime re-centres it, nothing is lost.
  std::string src = ".data\nout: .zero 4\n.text\nmov r1, 0\n";
  for (int i = 0; i < 20; ++i) src += "ssy l" + std::to_string(i) + "\nadd r1, r1, 1\n";
  for (int i = 19; i >= 0; --i) src += "sync l" + std::to_string(i) + "\nl" + std::to_string(i) + ":\n";
  src += "mov r2, %tid\nsetp.eq p0, r2, 0\n@p0 st.global [out], r1\nexit\n";
  const RunResult r = runRtl(src);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.global[0], 20u);
  EXPECT_GE(r.stats.at("queue_overflows"), 1u);
}

TEST(SmRtl, CountersAgreeWithTheModelOnAKernelWithoutRaces) {
  // Divergence, calls and memory, but nothing whose outcome depends on timing: the core
  // issues exactly the instructions the model issues.
  const std::string src =
      ".launch ctas=2 threads=64\n.data\nout: .zero 512\n.text\n"
      "mov r1, %gtid\nand r2, r1, 3\nssy join\nsetp.eq p0, r2, 0\n@p0 bra zero\n"
      "cal twice\nbra store\nzero: mov r3, 7\nstore: sync join\njoin: shl r4, r1, 2\n"
      "st.global [r4+out], r3\nexit\ntwice: add r3, r1, r1\nret\n";
  const RunResult rtl = runRtl(src);
  const RunResult mdl = runModel(src);
  ASSERT_EQ(rtl.status, RunStatus::Ok) << rtl.message;
  EXPECT_EQ(rtl.global, mdl.global);
  EXPECT_EQ(rtl.instructions, mdl.instructions);
  EXPECT_EQ(rtl.threadInstructions, mdl.threadInstructions);
  EXPECT_EQ(rtl.stats.at("tokens_popped"), mdl.stats.at("tokens_popped"));
  EXPECT_EQ(rtl.stats.at("tokens_discarded"), mdl.stats.at("tokens_discarded"));
  EXPECT_GT(rtl.stats.at("tokens_popped"), 0u);
  EXPECT_GT(rtl.cycles, rtl.instructions) << "several cycles per instruction";
}

// The pipeline (docs/blocks/sm.md, "Timing"): independent ALU instructions retire one per
// cycle from two or more warps (issue, decode and execute overlap), one every 2 cycles from
// a single warp (it issues again in its own EXEC cycle). Cycle counts, not wall-clock time.
// Runs a kernel on the core and keeps every retired instruction (cycle, warp, pc).
struct Traced {
  RunResult result;
  std::vector<Retired> retired;
  std::vector<uint64_t> cyclesAt(uint32_t pc, int warp = -1) const {
    std::vector<uint64_t> c;
    for (const Retired& r : retired) {
      if (r.pc == pc && (warp < 0 || r.warp == warp)) c.push_back(r.cycle);
    }
    return c;
  }
};
Traced runTraced(const std::string& src) {
  SmRtl core(assembler::assemble(src, "inline.s"), RunConfig{});
  Traced t;
  core.onRetire([&](const Retired& r) {
    t.retired.push_back(r);
    return std::string{};
  });
  t.result = core.run();
  return t;
}

std::vector<uint64_t> retireCycles(int warps, int adds) {
  std::string src = ".launch ctas=1 threads=" + std::to_string(32 * warps) + "\nmov r1, %tid\n";
  for (int i = 0; i < adds; ++i) src += "add r" + std::to_string(2 + i % 8) + ", r1, " + std::to_string(i) + "\n";
  src += "exit\n";
  const Traced t = runTraced(src);
  EXPECT_EQ(t.result.status, RunStatus::Ok) << t.result.message;
  std::vector<uint64_t> cycles;
  for (const Retired& r : t.retired) cycles.push_back(r.cycle);
  return cycles;
}

// The figures below are for 32 lanes; on fewer an ALU instruction of a full warp spends
// kPasses cycles in EXEC (the next one waits in DE meanwhile).
constexpr uint64_t kPasses = simt::rtl::CoreGeometry::kPasses;

TEST(SmRtl, SimpleInstructionsOfTwoWarpsRetireOnePerCycle) {
  for (int warps : {2, 4}) {
    const std::vector<uint64_t> c = retireCycles(warps, 40);
    ASSERT_EQ(c.size(), static_cast<size_t>(warps * 42));
    // After the launch, every warp streams adds: the middle of the run is one per cycle (one
    // per pass sequence on fewer lanes).
    for (size_t i = c.size() / 4; i < 3 * c.size() / 4; ++i) {
      EXPECT_EQ(c[i], c[i - 1] + kPasses) << warps << " warps, retire " << i;
    }
  }
}

// Passes visit only the groups of lanes with an executing thread: a warp of 8 threads
// streams adds as fast as a full warp does on 32 lanes, whatever the lane count (8 or more).
TEST(SmRtl, APartialWarpTakesOnePassPerGroupWithWork) {
  std::string src = ".launch ctas=1 threads=16\nmov r1, %tid\nsetp.lt p1, r1, 8\n";
  for (int i = 0; i < 24; ++i) src += "@p1 add r" + std::to_string(2 + i % 8) + ", r1, " + std::to_string(i) + "\n";
  src += "exit\n";
  const Traced t = runTraced(src);
  ASSERT_EQ(t.result.status, RunStatus::Ok) << t.result.message;
  std::vector<uint64_t> c;
  for (const Retired& r : t.retired) c.push_back(r.cycle);
  ASSERT_EQ(c.size(), 27u);
  // One warp: each guarded add (threads 0-7 execute: one group) retires every second cycle.
  for (size_t i = 8; i < 24; ++i) EXPECT_EQ(c[i], c[i - 1] + 2) << "retire " << i;
}

TEST(SmRtl, ABarrierReleaseTakesTwoCycles) {
  // Four warps reach bar.sync; the last arrival's CHECK hands the first wake to the
  // divergence unit (a sleeping warp wakes in one cycle) and issues the woken warp at once:
  // its next instruction retires 2 cycles after the last arrival (in its last pass); a core
  // built with -GIssueBypass=0 issues it a cycle later.
  const Traced t = runTraced(".launch ctas=1 threads=128\nmov r1, %tid\nbar.sync 0\nadd r2, r1, 1\nexit\n");
  ASSERT_EQ(t.result.status, RunStatus::Ok);
  const uint64_t lastArrival = t.cyclesAt(1).back(), firstAfter = t.cyclesAt(2).front();
  EXPECT_EQ(firstAfter - lastArrival,
            2u + (kPasses - 1) + simt::rtl::CoreGeometry::kReissueDelay);
}

TEST(SmRtl, AWarpHeldAtABusyIdRetriesWhenTheSchedulersScoreboardSeesItFree) {
  // Seed 000 [0099]: warp 1 reaches id 1 at tag B (pc 13) while warps 0 and 2 hold it at tag A
  // (pc 11, COUNT 64): the unit refuses the arrival and the warp is held; the warp scheduler
  // keeps a copy of the id's table entry, filled through the unit's read port and updated by
  // its update stream, and issues warp 1 again once the entry is idle (A done).
  const Traced t = runTraced(
      ".launch ctas=1 threads=96\nmov r1, %warpid\nmov r20, 0\nsetp.eq p1, r1, 1\n@p1 mov r20, 5\n"
      "setp.eq p2, r1, 2\n@p2 mov r20, 60\nd: setp.gt p6, r20, 0\n@!p6 bra go\nsub r20, r20, 1\nbra d\n"
      "go: @p1 bra wb\nbar.sync 1, 64\nexit\nwb: bar.sync 1, 32\nexit\n");
  ASSERT_EQ(t.result.status, RunStatus::Ok) << t.result.message;
  EXPECT_GE(t.result.stats.at("barrier_refusals"), 1u) << "warp 1 must have met the id busy";
  ASSERT_EQ(t.cyclesAt(11, 2).size(), 1u);
  ASSERT_EQ(t.cyclesAt(13).size(), 1u);
  const uint64_t aDone = t.cyclesAt(11, 2)[0], bArrival = t.cyclesAt(13)[0];
  EXPECT_GT(bArrival, aDone) << "warp 1 arrived at tag B while tag A held the id";
  // 16 measured: A's wake pass over the CTA's warp slots (the id frees at its end), the
  // update reaching the copy, issue, decode, the arrival's request and retire (17 without
  // IssueBypass: the woken warp issues a cycle later).
  EXPECT_LE(bArrival - aDone, 16u + simt::rtl::CoreGeometry::kReissueDelay)
      << "from A's completing arrival to B's";
}

TEST(SmRtl, AnOrderedSectionHandsOffToTheNextThreadInTwoCycles) {
  // Consecutive threads of one warp with a blocking bottom: the finished thread sleeps at its
  // bottom, the CHECK that retires the bottom wakes the next one and issues it.
  const Traced t = runTraced(".launch ctas=1 threads=4\nmov r1, %tid\nbar.top.ocs 1\nadd r2, r1, 1\nbar.bot.ocs 1\nexit\n");
  ASSERT_EQ(t.result.status, RunStatus::Ok);
  const std::vector<uint64_t> bodies = t.cyclesAt(2), bottoms = t.cyclesAt(3);
  ASSERT_EQ(bodies.size(), 4u);
  const uint64_t handOff = 2 + simt::rtl::CoreGeometry::kReissueDelay;  // (-GIssueBypass=0: 3)
  for (size_t i = 0; i + 1 < bodies.size(); ++i) EXPECT_EQ(bodies[i + 1] - bottoms[i], handOff) << "thread " << i + 1;
}

TEST(SmRtl, ASingleWarpRetiresASimpleInstructionEverySecondCycle) {
  const std::vector<uint64_t> c = retireCycles(1, 40);
  ASSERT_EQ(c.size(), 42u);
  // The warp issues again in its instruction's last pass: passes + 1 cycles apart.
  for (size_t i = 5; i < 38; ++i) EXPECT_EQ(c[i], c[i - 1] + kPasses + 1) << "retire " << i;
}

TEST(SmRtl, RetireStreamReportsEveryIssuedInstruction) {
  const Traced t = runTraced(".launch ctas=1 threads=40\nmov r1, %tid\nsetp.lt p0, r1, 3\n@p0 add r1, r1, 1\nexit\n");
  const RunResult& r = t.result;
  const std::vector<Retired>& seen = t.retired;
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  ASSERT_EQ(seen.size(), r.instructions);
  ASSERT_EQ(seen.size(), 8u) << "4 instructions x 2 warps";
  for (const Retired& x : seen) {
    if (x.pc == 2) {
      EXPECT_EQ(x.exec, x.warp == 0 ? 0x7u : 0u) << "guard of warp " << x.warp;
    }
    if (x.pc == 0) {
      EXPECT_EQ(x.exec, x.warp == 0 ? 0xFFFFFFFFu : 0xFFu) << "launch masks";
    }
  }
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GT(seen[i].cycle, seen[i - 1].cycle);
}

TEST(SmRtl, ClockReadsTheCycleCounter) {
  const RunResult r = runRtl(
      ".launch ctas=1 threads=1\n.data\nt: .zero 8\n.text\nmov r1, %clock\nnop\nnop\n"
      "mov r2, %clock\nst.global [t], r1\nst.global [t+4], r2\nexit\n");
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_GT(r.global[1], r.global[0] + 3) << "three instructions of several cycles each";
  EXPECT_LT(r.global[1], r.cycles);
}

TEST(SmRtl, ALaunchWhileTheBarrierUnitWakesASectionThreadDoesNotHang) {
  const auto k = assembler::assembleFile(std::string(SIMT_REGRESS_DIR) + "/launch_during_section_wake.s");
  RunConfig cfg;
  cfg.timeoutOrigin = model::TimeoutOrigin::LastParticipant;
  cfg.maxCycles = 400'000;
  const RunResult r = cosim::Cosim(k, cfg).run();
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
}

TEST(SmRtl, AnArrivalWithoutParticipantsStartsTheTimeoutUnderFirstAny) {
  const auto k = assembler::assembleFile(std::string(SIMT_REGRESS_DIR) + "/nonparticipant_first_arrival.s");
  auto waitedOfWarp0 = [&](model::TimeoutOrigin origin) {
    RunConfig cfg;
    cfg.timeoutOrigin = origin;
    const RunResult r = SmRtl(k, cfg).run();
    EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
    return r.global.empty() ? 0u : r.global[0];
  };
  EXPECT_GE(waitedOfWarp0(model::TimeoutOrigin::FirstParticipant), 300u);
  EXPECT_LT(waitedOfWarp0(model::TimeoutOrigin::FirstArrival), 300u)
      << "the non-participating arrival did not start the TIMEOUT";
  RunConfig cfg;
  cfg.timeoutOrigin = model::TimeoutOrigin::FirstArrival;
  const RunResult c = cosim::Cosim(k, cfg).run();
  EXPECT_EQ(c.status, RunStatus::Ok) << c.message;
}

// A TIMEOUT already elapsed (from a non-participating arrival of the same warp) fires while
// the participants' arrival is in flight; the co-simulation applies it, and the wake of those
// threads, only after the model has taken that arrival (random program 9 of seed 1509).
TEST(SmRtl, ATimeoutFiringOnTheArrivalInFlightIsFollowedAfterIt) {
  const auto k = assembler::assembleFile(std::string(SIMT_REGRESS_DIR) + "/timeout_elapsed_same_warp.s");
  RunConfig cfg;
  cfg.timeoutOrigin = model::TimeoutOrigin::FirstArrival;
  const RunResult c = cosim::Cosim(k, cfg).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  EXPECT_EQ(c.stats.at("cosim_timeouts_checked"), 1u);
  ASSERT_GE(c.global.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(c.global[t], t) << "thread " << t;
}

TEST(SmRtl, IdleCyclesAreSplitByReason) {
  // The only warp sleeps at an impatient barrier until its TIMEOUT (COUNT 64 never comes):
  // the core idles for the barrier.
  const RunResult r = runRtl(".launch ctas=1 threads=32\nbar.sync.imp 1, 64, 0, 300\nexit\n");
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  const uint64_t idle = r.stats.at("issue_idle_cycles");
  EXPECT_EQ(idle, r.stats.at("idle_barrier_cycles") + r.stats.at("idle_queue_service_cycles") +
                      r.stats.at("idle_memory_cycles") + r.stats.at("idle_other_cycles"));
  EXPECT_GT(r.stats.at("idle_barrier_cycles"), 0u);
  EXPECT_EQ(r.stats.at("idle_queue_service_cycles"), 0u) << "no queue overflow here";
}

// Latency hiding (docs/blocks/sm.md, "the scoreboard"): a load retires once its requests are
// out, so the independent instructions after it run during its latency, and the one that
// reads the loaded register waits for it (idle, waiting for memory: one warp, nothing else to
// run). Against the same program with the use right after the load.
TEST(SmRtl, IndependentInstructionsRunWhileALoadIsInFlight) {
  const std::string head = ".launch ctas=1 threads=32\n.data\nv: .word 7\n.text\nld.global r2, [v]\n";
  std::string independent;
  for (int i = 0; i < 20; ++i) independent += "add r3, r3, 1\n";
  const std::string use = "add r4, r2, 1\n";
  RunConfig cfg;
  cfg.memLatency = 100;
  const RunResult overlapped = runRtl(head + independent + use + "exit\n", cfg);
  const RunResult serial = runRtl(head + use + independent + "exit\n", cfg);
  ASSERT_EQ(overlapped.status, RunStatus::Ok) << overlapped.message;
  ASSERT_EQ(serial.status, RunStatus::Ok) << serial.message;
  // The 20 adds (2 cycles each with one warp) hide 40 of the 100 cycles.
  EXPECT_LE(overlapped.cycles + 30, serial.cycles) << overlapped.cycles << " vs " << serial.cycles;
  EXPECT_GT(serial.stats.at("idle_memory_cycles"), 90u);
  EXPECT_LT(overlapped.stats.at("idle_memory_cycles"), serial.stats.at("idle_memory_cycles") - 30);
  // And in lockstep with the model, whose register file has the loaded word at once.
  const auto k = assembler::assemble(head + independent + use + "exit\n", "inline.s");
  const RunResult c = cosim::Cosim(k, cfg).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  EXPECT_GE(c.stats.at("cosim_memory_windows_checked"), 1u);
}

// The scoreboard wakes a warp when the last load its instruction waits for is written, not at
// the first: an add of two loads, the second of 32 lines (a lane a line, the last written
// over 100 cycles after the first at the default bandwidth), waits once (in DE both are out:
// three independent adds let the second take its in-flight slot first) and issues once the
// second is written. Counter 30 counts give-backs: 2 for the one wait (a lone warp is
// fetched again in the cycle DE gives it back, before its wait is registered: given back
// again; 1 without IssueBypass, where a given-back warp is the scheduler's the next cycle).
// Waking it at the first load's response made that 4.
TEST(SmRtl, AnInstructionWaitingForTwoLoadsWaitsOnce) {
  const std::string src = ".launch ctas=1 threads=32\n.data\nv: .word 7\nw: .zero 2048\n.text\n"
                          "mov r1, %tid\nshl r1, r1, 6\n"  // 64 bytes a lane: a line each
                          "ld.global r2, [v]\nld.global r3, [r1+w]\n"
                          "add r5, r5, 1\nadd r5, r5, 1\nadd r5, r5, 1\nadd r4, r2, r3\nexit\n";
  RunConfig cfg;
  cfg.memLatency = 40;
  const RunResult r = runRtl(src, cfg);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.stats.at("scoreboard_give_backs"), 2u - simt::rtl::CoreGeometry::kReissueDelay);
  const RunResult c = cosim::Cosim(assembler::assemble(src, "inline.s"), cfg).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
}

// DE reads its operands whenever it would go but for the scoreboard (docs/blocks/sm.md, the
// register file's readers: de_rd): a warp given back for a load leaves the ports holding
// its operands, unused, and the next instruction in EXEC (another warp's, on passes) reads
// its own. Four warps, each loading a word and using it at once (given back while the load
// is out) between ALU instructions on every group; in lockstep with the model, every
// result stored and checked.
TEST(SmRtl, AWarpGivenBackForTheScoreboardLeavesTheOthersOperandsAlone) {
  const std::string src = ".launch ctas=1 threads=128\n.data\nv: .zero 512\nout: .zero 512\n.text\n"
                          "mov r1, %tid\nshl r2, r1, 2\nst.global [r2+v], r1\nmembar\n"
                          "mul r5, r1, 3\nld.global r3, [r2+v]\nadd r4, r3, r5\n"
                          "mul r6, r4, 5\nld.global r7, [r2+v]\nsub r6, r6, r7\n"
                          "st.global [r2+out], r6\nexit\n";
  RunConfig cfg;
  cfg.memLatency = 30;
  const RunResult r = runRtl(src, cfg);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_GT(r.stats.at("scoreboard_give_backs"), 4u) << "each warp waits for its loads";
  const RunResult c = cosim::Cosim(assembler::assemble(src, "inline.s"), cfg).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  ASSERT_GE(c.global.size(), 256u);
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(c.global[128 + t], (t + 3 * t) * 5 - t) << "thread " << t;
}

// A CTA whose warps are done retires while its stores are still being acknowledged (they write
// no register; the memory performs requests in the order it takes them), but not while a load
// of it is in flight (its registers and warp slots wait for the response). Four CTAs of 256
// threads, each filling the 8 warp slots, at a 200-cycle memory: the stores' latency is paid
// about once, the loads' once per CTA.
TEST(SmRtl, ACtaRetiresWhileItsStoresAreAcknowledgedButNotWhileItsLoadsAreInFlight) {
  const std::string head = ".launch ctas=4 threads=256\n.data\nout: .zero 4096\n.text\n"
                           "mov r1, %gtid\nshl r2, r1, 2\n";
  const std::string stores = head + "st.global [r2+out], r1\nexit\n";
  const std::string loads = head + "ld.global r3, [r2+out]\nexit\n";
  RunConfig cfg;
  cfg.memLatency = 200;
  const RunResult st = runRtl(stores, cfg);
  const RunResult ld = runRtl(loads, cfg);
  ASSERT_EQ(st.status, RunStatus::Ok) << st.message;
  ASSERT_EQ(ld.status, RunStatus::Ok) << ld.message;
  EXPECT_GT(ld.cycles, 4u * 200u);
  EXPECT_LT(st.cycles + 2u * 200u, ld.cycles) << st.cycles << " vs " << ld.cycles;
  // In lockstep with the model, which retires the CTAs where the core does; every word stored.
  for (const std::string& src : {stores, loads}) {
    const RunResult c = cosim::Cosim(assembler::assemble(src, "inline.s"), cfg).run();
    ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
    EXPECT_GE(c.stats.at("cosim_memory_windows_checked"), 1u);
    if (src == stores) {
      ASSERT_GE(c.global.size(), 1024u);
      for (uint32_t t = 0; t < 1024; ++t) EXPECT_EQ(c.global[t], t) << "work-item " << t;
    }
  }
}

// Two warps: one waits for its load while the other computes; a warp's load into a register
// another instruction of it overwrites (WAW) keeps the newer value.
TEST(SmRtl, AWarpWaitingForALoadLetsTheOtherRunAndWriteAfterWriteKeepsTheNewerValue) {
  const std::string src =
      ".launch ctas=1 threads=64\n.data\nv: .word 5\nout: .zero 256\n.text\n"
      "mov r1, %tid\nshl r5, r1, 2\n"
      "ld.global r2, [v]\nmov r2, 9\n"          // WAW: the mov must win
      "ld.global r6, [v]\nadd r7, r6, r1\n"     // RAW
      "add r8, r2, r7\nst.global [r5+out], r8\nexit\n";
  RunConfig cfg;
  cfg.memLatency = 60;
  const auto k = assembler::assemble(src, "inline.s");
  const RunResult c = cosim::Cosim(k, cfg).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  ASSERT_GE(c.global.size(), 65u);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(c.global[1 + t], 9u + 5u + t) << "thread " << t;
}

// FP32 latency hiding: a register-writing FP instruction lets the core go on the cycle after
// its start; its result is written later, and the instruction that reads it waits for it
// (the scoreboard), as for a load. fdiv takes 27 cycles: independent adds fill them.
TEST(SmRtl, IndependentInstructionsRunWhileAnFpDivisionIsInFlight) {
  const std::string head = ".launch ctas=1 threads=32\n.text\nmov r1, %tid\nfcvt.f32.s32 r1, r1\n"
                           "mov r3, 3\nfcvt.f32.s32 r3, r3\nfdiv r2, r1, r3\n";
  std::string independent;
  for (int i = 0; i < 12; ++i) independent += "add r4, r4, 1\n";
  const std::string use = "fadd r5, r2, r2\n";
  const RunResult overlapped = runRtl(head + independent + use + "exit\n");
  const RunResult serial = runRtl(head + use + independent + "exit\n");
  ASSERT_EQ(overlapped.status, RunStatus::Ok) << overlapped.message;
  ASSERT_EQ(serial.status, RunStatus::Ok) << serial.message;
  EXPECT_LE(overlapped.cycles + 15, serial.cycles) << overlapped.cycles << " vs " << serial.cycles;
  // In lockstep: every FP result, written late, is the model's (the memory window).
  const auto k = assembler::assemble(head + independent + use + "fsqrt r6, r5\nfmul r7, r6, r6\n"
                                     "fsetp.lt p1, r7, r5\n@p1 fneg r8, r7\nexit\n", "inline.s");
  const RunResult c = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  EXPECT_GE(c.stats.at("cosim_memory_windows_checked"), 1u);
}

// ---- Several FP instructions in flight (issue #24, docs/blocks/fpu.md "the result queue") --

// 8 warps, each converting its thread id and then n independent ffma: every FP instruction
// of every warp (n + 1 each); with a store of the first result (the timing runs leave it
// out: the run's end waits for the store's memory latency).
std::string fpOverlapProgram(int n, bool store) {
  std::string src = ".launch ctas=1 threads=256\n.data\nout: .zero 1024\n.text\n"
                    "mov r1, %tid\nfcvt.f32.s32 r1, r1\n";
  for (int i = 0; i < n; ++i) src += "ffma r" + std::to_string(2 + i % 20) + ", r1, 1.5, r1\n";
  if (store) src += "mov r30, %tid\nshl r30, r30, 2\nst.global [r30+out], r2\n";
  return src + "exit\n";
}

// The FP unit takes a new pipelined instruction while others are in flight: back-to-back
// ffma of 8 warps overlap. With one instruction in flight (before issue #24) DE's next FP
// instruction was given back until the result before it was written (its warp then waited
// for the write and issued again): this program took 1,010 cycles (measured on the core
// before the change), 878 now, where each ffma takes the core's own steps (READB, READC,
// EXEC, FPU, CTRL, CHECK with the next DE: 6 cycles) and nothing more. With fewer FP lanes
// (a core built with -GNumLanes or -GFpLanes) each FP instruction holds EXEC one cycle more
// per further pass, the 32-lane figure's bound grows by that.
TEST(SmRtl, BackToBackFfmaOfSeveralWarpsOverlapInTheFpUnit) {
  const int n = 16;
  const uint64_t fpInsts = 8 * (n + 1);
  const uint64_t oldCycles = 1010;  // before issue #24, measured (32 lanes)
  const uint64_t passCycles = fpInsts * (simt::rtl::CoreGeometry::kFpPasses - 1);
  const RunResult r = runRtl(fpOverlapProgram(n, false));
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_LE(r.cycles + 100, oldCycles + passCycles)
      << r.cycles << " cycles for " << fpInsts << " FP instructions in " << simt::rtl::CoreGeometry::kFpPasses
      << " passes each";
  EXPECT_EQ(r.stats.at("issue_idle_cycles"), 0u) << "some warp always has an FP instruction to run";
  std::printf("fp overlap: %llu FP instructions of 8 warps in %llu cycles (before: %llu)\n",
              static_cast<unsigned long long>(fpInsts), static_cast<unsigned long long>(r.cycles),
              static_cast<unsigned long long>(oldCycles));
  // In lockstep, and the results are the threads' own: 1.5 t + t.
  const auto k = assembler::assemble(fpOverlapProgram(n, true), "inline.s");
  const RunResult c = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  ASSERT_GE(c.global.size(), 256u);
  for (uint32_t t = 0; t < 256; ++t) {
    const float want = 1.5f * static_cast<float>(t) + static_cast<float>(t);
    uint32_t bits;
    std::memcpy(&bits, &want, 4);
    EXPECT_EQ(c.global[t], bits) << "thread " << t;
  }
}

// A dependent FP instruction still waits (RAW): an fadd reading a division's result is given
// back until the quotient is written (its warp idle, waiting: counter 22), an fadd of other
// registers is not (before issue #24 both waited, 93 cycles). And a chain of ffma, each
// reading the one before, in 8 warps at once gives each thread's value.
TEST(SmRtl, ADependentFpInstructionWaitsForTheResultItReads) {
  const std::string head = ".launch ctas=1 threads=32\n.text\nmov r1, %tid\nfcvt.f32.s32 r1, r1\n"
                           "mov r3, 3\nfcvt.f32.s32 r3, r3\nfdiv r2, r1, r3\n";
  std::string adds;  // after the fadd: they run during the division only if the fadd does not wait
  for (int i = 0; i < 12; ++i) adds += "add r5, r5, 1\n";
  const RunResult dep = runRtl(head + "fadd r4, r2, r2\n" + adds + "exit\n");
  const RunResult ind = runRtl(head + "fadd r4, r1, r1\n" + adds + "exit\n");
  ASSERT_EQ(dep.status, RunStatus::Ok) << dep.message;
  ASSERT_EQ(ind.status, RunStatus::Ok) << ind.message;
  EXPECT_GE(dep.cycles, ind.cycles + 15) << dep.cycles << " vs " << ind.cycles;
  EXPECT_GT(dep.stats.at("idle_memory_cycles"), ind.stats.at("idle_memory_cycles"));

  std::string chain = ".launch ctas=1 threads=256\n.data\nout: .zero 1024\n.text\n"
                      "mov r1, %tid\nfcvt.f32.s32 r1, r1\nmov r2, r1\n";
  for (int i = 0; i < 10; ++i) chain += "ffma r2, r2, 0.5, r1\n";
  chain += "mov r30, %tid\nshl r30, r30, 2\nst.global [r30+out], r2\nexit\n";
  const auto k = assembler::assemble(chain, "inline.s");
  const RunResult c = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  ASSERT_GE(c.global.size(), 256u);
  for (uint32_t t = 0; t < 256; ++t) {
    float x = static_cast<float>(t);
    for (int i = 0; i < 10; ++i) x = std::fma(x, 0.5f, static_cast<float>(t));
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    EXPECT_EQ(c.global[t], bits) << "thread " << t;
  }
}

// WAW keeps program order: an fadd into the register a division in flight will write waits
// for the division (else its result, 24 cycles earlier, would be overwritten by the older
// one); so does an ALU instruction. Two warps, each with both cases.
TEST(SmRtl, FpWriteAfterWriteKeepsProgramOrder) {
  const std::string src =
      ".launch ctas=1 threads=64\n.data\nout: .zero 512\n.text\n"
      "mov r1, %tid\nfcvt.f32.s32 r1, r1\nmov r3, 3\nfcvt.f32.s32 r3, r3\n"
      "fdiv r2, r1, r3\nfadd r2, r1, r1\n"        // the fadd must win
      "fsqrt r4, r1\nmov r4, 7\n"                 // the mov must win
      "mov r30, %tid\nshl r30, r30, 3\nst.global [r30+out], r2\nst.global [r30+out+4], r4\nexit\n";
  const auto k = assembler::assemble(src, "inline.s");
  const RunResult c = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  ASSERT_GE(c.global.size(), 128u);
  for (uint32_t t = 0; t < 64; ++t) {
    const float want = static_cast<float>(t) + static_cast<float>(t);
    uint32_t bits;
    std::memcpy(&bits, &want, 4);
    EXPECT_EQ(c.global[2 * t], bits) << "thread " << t;
    EXPECT_EQ(c.global[2 * t + 1], 7u) << "thread " << t;
  }
}

// A division runs alongside pipelined FP instructions: six independent fmul start while the
// fdiv is in flight (before issue #24 each waited for it, and for each other); a second
// warp's fdiv waits for the iterative unit (one at a time) and both quotients are right.
TEST(SmRtl, PipelinedFpInstructionsRunAlongsideADivision) {
  const std::string head = ".launch ctas=1 threads=32\n.data\nout: .zero 128\n.text\n"
                           "mov r1, %tid\nfcvt.f32.s32 r1, r1\nmov r3, 3\nfcvt.f32.s32 r3, r3\n"
                           "fdiv r2, r1, r3\n";
  std::string muls;
  for (int i = 0; i < 6; ++i) muls += "fmul r" + std::to_string(4 + i) + ", r1, r3\n";
  const std::string use = "fadd r10, r2, r2\n";
  const std::string tail = "mov r30, %tid\nshl r30, r30, 2\nst.global [r30+out], r10\nexit\n";
  // (Timed without the store.) Before issue #24 both took 93 cycles.
  const RunResult overlapped = runRtl(head + muls + use + "exit\n");
  const RunResult serial = runRtl(head + use + muls + "exit\n");
  ASSERT_EQ(overlapped.status, RunStatus::Ok) << overlapped.message;
  ASSERT_EQ(serial.status, RunStatus::Ok) << serial.message;
  EXPECT_LE(overlapped.cycles + 12, serial.cycles) << overlapped.cycles << " vs " << serial.cycles;
  // Two warps (64 threads), both dividing: lockstep, and each quotient doubled.
  std::string two = head + muls + use + tail;
  two.replace(two.find("threads=32"), 10, "threads=64");
  two.replace(two.find("out: .zero 128"), 14, "out: .zero 256");
  const auto k = assembler::assemble(two, "inline.s");
  const RunResult c = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  for (uint32_t t = 0; t < 64; ++t) {
    const float q = static_cast<float>(t) / 3.0f;
    const float want = q + q;
    uint32_t bits;
    std::memcpy(&bits, &want, 4);
    EXPECT_EQ(c.global[t], bits) << "thread " << t;
  }
}

// An FP result never takes the write port from a shared load (which writes in MEM, like
// EXEC in EXEC): 8 warps interleave FP instructions and shared loads, a division among them,
// in lockstep with the model (the core asserts one writer per cycle). nbody's local tiles
// met this first (CompilerFloat.KernelsOnTheRtlCoreGiveTheModelsBits).
TEST(SmRtl, FpResultsWaitWhileASharedLoadWrites) {
  std::string src = ".launch ctas=1 threads=256\n.shared 1024\n.text\nmov r1, %tid\nshl r5, r1, 2\n"
                    "st.shared [r5], r1\nfcvt.f32.s32 r2, r1\nfdiv r3, r2, 3.0\n";
  for (int i = 0; i < 8; ++i) {
    src += "fmul r" + std::to_string(6 + i) + ", r2, 1.5\nld.shared r4, [r5]\nfadd r" + std::to_string(14 + i) +
           ", r2, r2\nld.shared r4, [r5]\n";
  }
  src += "fadd r30, r3, r3\nexit\n";
  const auto k = assembler::assemble(src, "inline.s");
  const RunResult c = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(c.status, RunStatus::Ok) << c.message;
  EXPECT_GE(c.stats.at("cosim_memory_windows_checked"), 1u);
}

// A memory error is found after the load retired: the core stops issuing, lets everything in
// flight finish, and faults with the load's warp, PC, lane and address (imprecise).
TEST(SmRtl, AMemoryErrorStopsTheCoreWithTheLoadsPcOnceNothingIsInFlight) {
  RunConfig cfg;
  cfg.memErrorPer256 = 256;  // every request
  const RunResult r = runRtl(".launch ctas=1 threads=32\n.data\nv: .zero 256\n.text\n"
                             "mov r1, %tid\nshl r1, r1, 2\nnop\nld.global r2, [r1+v]\nadd r3, r3, 1\n"
                             "add r3, r3, 1\nadd r4, r2, 1\nexit\n",
                             cfg);
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_TRUE(has(r.message, "fault: memory error at 0")) << r.message;
  EXPECT_TRUE(has(r.message, "pc 3, thread 0, inline.s:8")) << r.message;
}

// ---- lockstep co-simulation: a difference is found and reported --------------------------
namespace cosim_tests {

RunResult cosimOf(const std::string& actual, const std::string& expected) {
  const auto ka = assembler::assemble(actual, "inline.s");
  const auto ke = assembler::assemble(expected, "inline.s");
  return cosim::Cosim(ka, ke, RunConfig{}).run();
}

const std::string kBase = ".data\nout: .zero 128\n.text\nmov r1, %tid\n";

TEST(Cosim, AgreesWithItselfAndComparesEveryInstruction) {
  const auto k = assembler::assemble(kBase + "add r2, r1, 1\nshl r3, r1, 2\nst.global [r3+out], r2\nexit\n",
                                     "inline.s");
  const RunResult r = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.stats.at("cosim_instructions_compared"), 5u);
}

TEST(Cosim, AWrongRegisterValueStopsTheRunWithAReport) {
  const RunResult r = cosimOf(kBase + "add r2, r1, 2\nexit\n", kBase + "add r2, r1, 1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_EQ(model::exitCode(r.status), 4);
  EXPECT_TRUE(has(r.message, "warp slot 0, pc 1: add r2, r1, 1 (inline.s:5)")) << r.message;
  EXPECT_TRUE(has(r.message, "expected (model) lane 0 r2=1")) << r.message;
  EXPECT_TRUE(has(r.message, "actual (rtl) lane 0 r2=2")) << r.message;
}

TEST(Cosim, AWrongStoreIsReported) {
  const RunResult r = cosimOf(kBase + "st.global [out+4], r1\nexit\n", kBase + "st.global [out], r1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "mismatch in the memory window")) << r.message;
  EXPECT_TRUE(has(r.message, "global word [")) << r.message;
}

TEST(Cosim, AWrongLoadedValueIsReportedInTheMemoryWindow) {
  const std::string data = ".data\nv: .word 1, 2\n.text\nmov r1, %tid\n";
  const RunResult r = cosimOf(data + "ld.global r2, [v+4]\nexit\n", data + "ld.global r2, [v]\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "loaded registers differ at warp 0 lane 0 r2: expected (model) 1, actual (rtl) 2")) << r.message;
  EXPECT_TRUE(has(r.message, "actual (rtl) warp 0 lane 0 r2=2")) << r.message;
}

TEST(Cosim, AWrongBranchShowsAsAPcDifference) {
  const std::string tail = "bra a\nmov r2, 1\na: mov r3, 2\nexit\n";
  const RunResult r = cosimOf(kBase + "nop\n" + tail, kBase + tail + "nop\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "pc: expected (model)") || has(r.message, "register writes"))
      << r.message;
}

TEST(Cosim, AWrongGuardShowsAsAnExecutingMaskDifference) {
  const RunResult r = cosimOf(kBase + "setp.lt p0, r1, 4\n@p0 add r2, r1, 1\nexit\n",
                              kBase + "setp.lt p0, r1, 5\n@p0 add r2, r1, 1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "executing threads: expected (model) 0x1f, actual (rtl) 0xf"))
      << r.message;
}

TEST(Cosim, ABarrierWakeTheModelDidNotReleaseIsReported) {
  // The core's barrier releases after 32 arrivals, the model's only after 64: the core's
  // wake of warp 0 is not one the model has pending.
  const std::string head = ".launch ctas=1 threads=64\n";
  const RunResult r = cosimOf(head + "bar.sync 0, 32\nexit\n", head + "bar.sync 0, 64\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "barrier wake of threads 0xffffffff of warp slot 0 at pc 1 that the "
                             "model's barrier unit did not release")) << r.message;
}

// An impatient barrier whose portion starts by TIMEOUT: warp 1 arrives long after warp 0.
std::string timeoutKernel(int timeout) {
  return ".launch ctas=1 threads=64\n.data\nout: .zero 256\n.text\nmov r1, %tid\nshl r9, r1, 2\n"
         "mov r20, %warpid\nmul r20, r20, 200\nd: setp.gt p6, r20, 0\n@!p6 bra go\n"
         "sub r20, r20, 1\nbra d\ngo: bar.sync.imp 1, 64, 0, " + std::to_string(timeout) +
         "\nst.global [r9+out], r1\nexit\n";
}

TEST(Cosim, ImpatientTimeoutsComeFromTheCoreAndAreChecked) {
  const auto k = assembler::assemble(timeoutKernel(50), "inline.s");
  const RunResult r = cosim::Cosim(k, RunConfig{}).run();
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.stats.at("cosim_timeouts_checked"), 1u) << "warp 0's portion starts by timeout";
  EXPECT_EQ(r.stats.at("cosim_wakes_checked"), 2u);
}

TEST(Cosim, ATimeoutBeforeTheModelsTimeoutElapsedIsReported) {
  // The core times out after 50 cycles; the model's barrier says 1000.
  const RunResult r = cosimOf(timeoutKernel(50), timeoutKernel(1000));
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "barrier 1 of cta 0 timed out at cycle")) << r.message;
  EXPECT_TRUE(has(r.message, "before its TIMEOUT 1000 from the first arrival")) << r.message;
}

TEST(Cosim, AGrantOfASectionTheModelDoesNotHoldIsReported) {
  // The core's barrier 1 is an ordered section whose slot the arbiter grants; in the model's
  // kernel it is a plain barrier that holds no slot.
  const RunResult r =
      cosimOf(".launch ctas=1 threads=32\nmov r1, %tid\nbar.top.ocs 1\nadd r2, r1, 1\nbar.bot.ocs 1\nexit\n",
              ".launch ctas=1 threads=32\nmov r1, %tid\nbar.sync 1\nadd r2, r1, 1\nbar.sync 2\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "section grant of barrier 1 of cta 0, which holds no execution slot")) << r.message;
}

// The model launches a CTA when the core does (the core's retire timing decides when, and so
// where with two CTAs finished), checking it has one to launch and places it alike. Found by
// a random program under gto: the core retired two finished CTAs before launching the next
// into the lower slot, while the model had launched it at once into the first freed one.
TEST(Cosim, ACtaLaunchTheModelDoesNotMakeIsReported) {
  const RunResult r = cosimOf(".launch ctas=2 threads=32\n" + kBase + "exit\n",
                              ".launch ctas=1 threads=32\n" + kBase + "exit\n");
  EXPECT_EQ(r.status, RunStatus::Mismatch);
  EXPECT_TRUE(has(r.message, "CTA launch into warp slot 1, but the model has launched all 1 CTAs")) << r.message;
}

}  // namespace cosim_tests

}  // namespace
}  // namespace simt::rtl
