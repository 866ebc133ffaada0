// simt_divergence_unit against the DivergenceUnit model, transaction by transaction: every
// request (one instruction's control behaviour, a barrier sleep or wake, a launch) goes to
// both, and after it the warp's PC, active mask, all 32 disable reasons, queue count, front
// token, type summary, every queued token (read through the maintenance port) and the
// link-register write must agree. The programs are the model
// tests' random structured programs and directed scenarios; queue overflows are re-centred
// by the test acting as the runtime through the maintenance port.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Vdivergence_unit.h"
#include "Vdivergence_unit_small.h"
#include "Vdivergence_unit_stack.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "divergence/control_program.h"
#include "runtime/recentre_runtime.h"
#include "model/divergence/divergence_unit.h"

namespace simt::tb {
namespace {

using runtime::RecentreRuntime;
using model::CtrlInstr;
using model::CtrlOp;
using model::CtrlResult;
using model::DivergenceMode;
using model::DivergenceUnit;

constexpr int kWarps = 4;
constexpr int kDepth = 16;
constexpr int kAddrW = 22;

enum DuOp : uint8_t { kBarSleep = 15, kBarWake = 16, kLaunch = 17 };

template <class Dut>
class RtlLockstep : public ControlTarget {
 public:
  RtlLockstep(DivergenceMode mode, uint64_t seed)
      : model_(config(mode)), sim_("simt_divergence_unit", seed), rt_(kDepth), noise_(seed) {
    auto s = [](const char* n, int w) { return waveSignal("simt_divergence_unit", n, w); };
    sim_.setWaveGroups({
        {"request", {s("req_valid_i", 1), s("req_op_i", 5), s("req_warp_i", 2),
                     s("req_guard_i", 32), s("req_target_i", kAddrW),
                     s("req_wake_mask_i", 32), s("req_wake_target_i", kAddrW),
                     s("req_ready_o", 1)}},
        {"fsm", {s("state_q", 4), s("rem_q", 32), s("cov_q", 32), s("pos_q", 5)}},
        {"queue", {s("dq_push_valid", 1), s("dq_push_token", 64), s("dq_pop_valid", 1),
                   s("dq_pop_token", 64), s("dq_count", 5), s("exc_valid_o", 1)}},
    });
    sim_.dut().cfg_stack_i = mode == DivergenceMode::Stack;
    sim_.dut().lfsr_load_i = 0;
    sim_.reset();
  }

  static DivergenceUnit::Config config(DivergenceMode mode) {
    DivergenceUnit::Config c;
    c.numWarps = kWarps;
    c.warpSize = 32;
    c.queueDepth = kDepth;
    c.mode = mode;
    return c;
  }

  void launch(int warp, uint64_t mask, uint32_t pc) override {
    model_.launch(warp, mask, pc);
    CtrlInstr ci;
    ci.guard = mask;
    ci.target = pc;
    request(warp, kLaunch, ci, {});
  }
  CtrlResult execute(int warp, const CtrlInstr& ins) override {
    const CtrlResult res = model_.execute(warp, ins);
    if (!res.ok) {
      faulted_ = true;  // unrecoverable overflow: the runtime would stop the kernel here
      return res;
    }
    request(warp, static_cast<uint8_t>(ins.op), ins, res);
    return res;
  }
  CtrlResult barrierSleep(int warp, uint64_t participants) override {
    const CtrlResult res = model_.barrierSleep(warp, participants);
    CtrlInstr ci;
    ci.guard = participants;
    request(warp, kBarSleep, ci, res);
    return res;
  }
  CtrlResult barrierWake(int warp, uint64_t mask, uint32_t resume) override {
    const CtrlResult res = model_.barrierWake(warp, mask, resume);
    CtrlInstr ci;
    ci.guard = mask;
    ci.target = resume;
    request(warp, kBarWake, ci, res);
    return res;
  }
  const DivergenceUnit& state() const override { return model_; }
  bool ok() const override { return !failed_ && sim_.ok() && !faulted_; }
  bool faulted() const { return faulted_; }
  uint64_t requests() const { return requests_; }
  // Cycles spent in requests, presented to req_ready (inclusive); the test's own queue
  // inspections through the maintenance port are not counted.
  uint64_t cycles() const { return requestCycles_; }
  uint64_t overflowsHandled() const { return overflows_; }

 private:
  void request(int warp, uint8_t op, const CtrlInstr& ci, const CtrlResult& res) {
    if (failed_ || !sim_.ok()) return;
    Dut& d = sim_.dut();
    d.req_valid_i = 1;
    d.req_op_i = op;
    d.req_warp_i = static_cast<uint8_t>(warp);
    // A wake's threads and resume address go on the wake ports, every other operation's on
    // the guard and target ports; the ports an operation does not use carry noise, so a
    // unit that read the wrong one fails the comparison. The plain instruction's warp
    // (req_next_warp_i) is the request's for a DuNext, noise for any other operation.
    const bool wake = op == kBarWake;
    d.req_next_warp_i = op == static_cast<uint8_t>(CtrlOp::Next)
                            ? static_cast<uint8_t>(warp)
                            : static_cast<uint8_t>(noise_.bits64() % kWarps);
    const uint32_t noiseMask = static_cast<uint32_t>(noise_.bits64());
    const uint32_t noiseTarget = static_cast<uint32_t>(noise_.bits64()) & ((1u << kAddrW) - 1);
    d.req_guard_i = wake ? noiseMask : static_cast<uint32_t>(ci.guard);
    d.req_wake_mask_i = wake ? static_cast<uint32_t>(ci.guard) : noiseMask;
    d.req_has_target_i = ci.hasTarget;
    d.req_target_i = wake ? noiseTarget : ci.target;
    d.req_wake_target_i = wake ? ci.target : noiseTarget;
    for (int t = 0; t < 32; ++t) {
      const uint32_t v = t < static_cast<int>(ci.threadTarget.size()) ? ci.threadTarget[static_cast<size_t>(t)] : 0;
      setBits(d.req_thread_target_i, t * kAddrW, kAddrW, v);
    }
    uint8_t kind = 0;
    if (ci.yieldRandom) {
      kind = 31;
    } else if (ci.yieldEvery > 1) {
      int log = 0;
      while ((1 << log) < ci.yieldEvery) ++log;
      kind = static_cast<uint8_t>(log + 1);
    }
    d.req_yield_kind_i = kind;
    d.qry_warp_i = static_cast<uint8_t>(warp);
    bool done = false;
    bool readLast = false;
    const uint64_t start = sim_.cycle();
    uint64_t linkMask = 0, linkValue = 0;
    for (int c = 0; c < 20000 && !done && sim_.ok(); ++c) {
      // The runtime handles an overflow exception through the maintenance port.
      d.mnt_valid_i = 0;
      const bool offered = rt_.wantsPort();
      if (offered) {
        const model::TokenDequeIn in = rt_.request(model::TokenDequeIn{});
        d.mnt_valid_i = 1;
        d.mnt_op_i = static_cast<uint8_t>(in.mntOp);
        d.mnt_warp_i = static_cast<uint8_t>(in.mntWarp);
        d.mnt_idx_i = static_cast<uint8_t>(in.mntIdx);
        d.mnt_wdata_i = model::pack64(in.mntWdata);
        d.mnt_head_i = static_cast<uint8_t>(in.mntHead);
        d.mnt_tail_i = static_cast<uint8_t>(in.mntTail);
      }
      sim_.eval();
      rt_.capture(d.mnt_rvalid_o && readLast, {d.mnt_rdata_o, 0}, 64);
      readLast = false;
      if (offered && d.mnt_ready_o) {
        readLast = d.mnt_op_i == static_cast<uint8_t>(model::MntOp::Read);
        rt_.accepted(64);
      }
      if (d.exc_valid_o && !rt_.busy()) {
        ++overflows_;
        rt_.start(d.exc_warp_o, d.q_head_o, d.q_tail_o);
      }
      if (d.req_ready_o) {
        done = true;
        linkMask = d.resp_link_mask_o;
        linkValue = d.resp_link_value_o;
      }
      sim_.tick();
    }
    d.req_valid_i = 0;
    d.mnt_valid_i = 0;
    ++requests_;
    requestCycles_ += sim_.cycle() - start;
    if (!done) {
      fail(warp, op, "no req_ready within 20000 cycles");
      return;
    }
    // The queue takes a fast-path push in the cycle after the answer (PUSH): its ports show
    // the request's outcome from the cycle after that, where the comparison looks.
    sim_.tick();
    compare(warp, op, res, linkMask, linkValue);
  }

  void compare(int warp, uint8_t op, const CtrlResult& res, uint64_t linkMask, uint64_t linkValue) {
    Dut& d = sim_.dut();
    d.qry_warp_i = static_cast<uint8_t>(warp);
    d.req_warp_i = static_cast<uint8_t>(warp);  // the queue ports' warp (none presented)
    sim_.eval();
    std::string diff;
    auto check = [&](const char* what, uint64_t want, uint64_t got) {
      if (want != got) {
        diff += std::string("\n  ") + what + ": model=0x" + hex(want) + " rtl=0x" + hex(got);
      }
    };
    check("pc", model_.pc(warp), d.qry_pc_o);
    check("active", model_.active(warp), d.qry_active_o);
    for (int t = 0; t < 32; ++t) {
      const auto want = static_cast<uint64_t>(model_.reason(warp, t));
      const uint64_t got = getBits(d.qry_reason_o, t * 4, 4);
      if (want != got) {
        diff += "\n  reason[" + std::to_string(t) + "]: model=" +
                model::reasonName(model_.reason(warp, t)) + " rtl=" + std::to_string(got);
        break;
      }
    }
    const auto& q = model_.queue();
    check("queue count", static_cast<uint64_t>(q.count(warp)), d.qry_q_count_o);
    if (q.count(warp) > 0) check("queue front", model::pack64(*q.front(warp)), d.q_front_o);
    check("queue types", q.types(warp), d.q_types_o);
    if (op == static_cast<uint8_t>(CtrlOp::Cal)) {
      check("link mask", res.linkMask, linkMask);
      if (res.linkMask) check("link value", res.linkValue, linkValue);
    }
    if (diff.empty()) diff = queueContentsDiff(warp);
    if (!diff.empty()) fail(warp, op, diff + "\n  model: " + model_.describe(warp));
  }

  // Every queued token, front first, read through the maintenance port as a runtime would
  // (stall, read head-1 down to tail, resume in place), against the model's queue.
  std::string queueContentsDiff(int warp) {
    Dut& d = sim_.dut();
    d.req_warp_i = static_cast<uint8_t>(warp);
    sim_.eval();
    const int head = d.q_head_o, tail = d.q_tail_o;
    const auto& want = model_.queue().entries(warp);
    if (head - tail != static_cast<int>(want.size())) {
      return "\n  queue pointers: head " + std::to_string(head) + " tail " + std::to_string(tail) +
             ", model holds " + std::to_string(want.size());
    }
    if (want.empty()) return "";
    auto offer = [&](model::MntOp op, int idx) {
      d.mnt_valid_i = 1;
      d.mnt_op_i = static_cast<uint8_t>(op);
      d.mnt_warp_i = static_cast<uint8_t>(warp);
      d.mnt_idx_i = static_cast<uint8_t>(idx);
      d.mnt_head_i = static_cast<uint8_t>(head);
      d.mnt_tail_i = static_cast<uint8_t>(tail);
      sim_.eval();
      const bool taken = d.mnt_ready_o;
      sim_.tick();
      d.mnt_valid_i = 0;
      sim_.eval();
      return taken;
    };
    std::string diff;
    if (!offer(model::MntOp::Stall, 0)) return "\n  maintenance port refused a stall of an idle unit";
    for (size_t i = 0; i < want.size() && diff.empty(); ++i) {
      if (!offer(model::MntOp::Read, head - 1 - static_cast<int>(i)) || !d.mnt_rvalid_o) {
        diff = "\n  maintenance read refused";
      } else if (d.mnt_rdata_o != model::pack64(want[i])) {
        diff = "\n  queue entry " + std::to_string(i) + " from the front: model=0x" +
               hex(model::pack64(want[i])) + " rtl=0x" + hex(d.mnt_rdata_o);
      }
    }
    offer(model::MntOp::Resume, 0);
    ++queueInspections_;
    return diff;
  }

  void fail(int warp, uint8_t op, const std::string& what) {
    failed_ = true;
    ADD_FAILURE() << "divergence unit RTL differs from the model after request " << requests_
                  << " (op " << static_cast<int>(op) << ", warp " << warp << ", cycle "
                  << sim_.cycle() << "):" << what;
  }

  static std::string hex(uint64_t v) {
    char b[20];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return b;
  }

  DivergenceUnit model_;
  SimContext<Dut> sim_;
  RecentreRuntime rt_;
  Rng noise_;  // what the ports an operation does not use carry
  bool failed_ = false;
  bool faulted_ = false;
  uint64_t requests_ = 0;
  uint64_t overflows_ = 0;
  uint64_t queueInspections_ = 0;
  uint64_t requestCycles_ = 0;
};

void expectSameTracesRtl(const SimtRun& simt, const std::vector<std::vector<uint32_t>>& scalar) {
  for (size_t t = 0; t < scalar.size(); ++t) {
    EXPECT_EQ(simt.trace[t], scalar[t]) << "thread " << t << " took another path";
    if (simt.trace[t] != scalar[t]) return;
  }
}

template <class Dut>
void randomProgramsOnRtl(DivergenceMode mode, int programs, uint64_t seed) {
  SIMT_SEED_TRACE(seed);
  Rng rng(seed);
  auto lock = std::make_unique<RtlLockstep<Dut>>(mode, seed);
  const bool deque = mode == DivergenceMode::Deque;
  int finished = 0, faults = 0;
  uint64_t requests = 0, cycles = 0, overflows = 0;
  auto account = [&] {
    requests += lock->requests();
    cycles += lock->cycles();
    overflows += lock->overflowsHandled();
  };
  for (int i = 0; i < programs; ++i) {
    const Program p = generateProgram(rng, 32, deque);
    const uint64_t launch = rng.chance(80) ? 0xFFFFFFFFull : (rng.bits64() | 1u) & 0xFFFFFFFFull;
    const SimtRun run = runSimt(*lock, i % kWarps, p, launch, 100000);
    if (lock->faulted()) {
      // The program nests deeper than the 16-entry queue holds: an unrecoverable overflow
      // (a fault). Start over with a fresh unit and model.
      ++faults;
      account();
      lock = std::make_unique<RtlLockstep<Dut>>(mode, seed + static_cast<uint64_t>(i));
      continue;
    }
    if (!lock->ok()) {
      ADD_FAILURE() << "program " << i << ":\n" << p.listing();
      break;
    }
    ASSERT_TRUE(run.finished) << "program " << i << " did not finish\n" << p.listing() << run.state;
    expectSameTracesRtl(run, runScalar(p, 32, launch, 100000));
    ++finished;
  }
  account();
  EXPECT_GT(finished, programs * 9 / 10);
  std::printf("divergence unit RTL: %d programs, %d faulted, %llu requests, %llu cycles, %llu "
              "overflows re-centred\n",
              finished, faults, static_cast<unsigned long long>(requests),
              static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(overflows));
}

// The directed scenarios of the model tests, run on the RTL in lockstep with the model.
TEST(DivergenceUnitRtl, Seed002WorkedExample) {
  RtlLockstep<Vdivergence_unit> lock(DivergenceMode::Deque, baseSeed());
  const Program p = seed002Program();
  const SimtRun run = runSimt(lock, 1, p, ~0ull, 1000);
  EXPECT_TRUE(lock.ok());
  EXPECT_TRUE(run.finished) << run.state;
  expectSameTracesRtl(run, runScalar(p, 32, ~0ull, 1000));
}

// One control request: op, guard, label.
CtrlInstr ctrl(CtrlOp o, uint64_t guard = ~0ull, uint32_t target = 0, bool hasTarget = true) {
  CtrlInstr ci;
  ci.op = o;
  ci.guard = guard;
  ci.target = target;
  ci.hasTarget = hasTarget;
  return ci;
}

// FastThreadTargets = 0 (the small-FPGA set, docs/synthesis.md): the same results; a request
// whose continuing threads have targets of their own (brx, jmx, ret without a covering CALL
// token) takes the sequence, everything else keeps the fast path. Cycles per request,
// presented to req_ready, for: non-control, cal, ret covered by its CALL token, uniform bra,
// brx into two targets (half and half).
template <class Dut>
std::vector<uint64_t> fastPathLatencies() {
  RtlLockstep<Dut> lock(DivergenceMode::Deque, baseSeed());
  lock.launch(0, 0xFFFFFFFFull, 0);
  CtrlInstr ret = ctrl(CtrlOp::Ret);
  ret.threadTarget.assign(32, 2);  // r31 = the cal's pc + 1
  CtrlInstr brx = ctrl(CtrlOp::Brx);
  brx.threadTarget.resize(32);
  for (size_t t = 0; t < 32; ++t) brx.threadTarget[t] = t < 16 ? 100 : 101;
  std::vector<uint64_t> cycles;
  for (const CtrlInstr& ci : {ctrl(CtrlOp::Next), ctrl(CtrlOp::Cal, ~0ull, 50), ret,
                              ctrl(CtrlOp::Bra, ~0ull, 7), brx}) {
    const uint64_t c0 = lock.cycles();
    lock.execute(0, ci);
    cycles.push_back(lock.cycles() - c0);
  }
  EXPECT_TRUE(lock.ok());
  EXPECT_EQ(lock.state().pc(0), 100u);
  EXPECT_EQ(lock.state().active(0), 0xFFFFull);
  return cycles;
}

TEST(DivergenceUnitRtl, WithoutFastThreadTargetsOnlyOwnTargetsTakeTheSequence) {
  // One verilated model alive at a time (Verilator 5.006 hangs destroying one of two models
  // with the same scope names).
  const std::vector<uint64_t> full = fastPathLatencies<Vdivergence_unit>();
  const std::vector<uint64_t> small = fastPathLatencies<Vdivergence_unit_small>();
  EXPECT_EQ(full, (std::vector<uint64_t>{1, 1, 1, 1, 1}));
  ASSERT_EQ(small.size(), 5u);
  EXPECT_EQ(std::vector<uint64_t>(small.begin(), small.end() - 1),
            (std::vector<uint64_t>{1, 1, 1, 1}));
  EXPECT_GT(small.back(), 1u) << "brx into two targets should take the sequence";
  std::printf("brx into two targets: %llu cycle(s) with FastThreadTargets, %llu without\n",
              static_cast<unsigned long long>(full.back()),
              static_cast<unsigned long long>(small.back()));
}

// The fast path's push goes into the queue in the cycle after the answer (PUSH): the
// queue shows it from the cycle after that. In PUSH a request of another warp is taken as
// in IDLE (its own fast push, or a fast pop beside the push); of the pushing warp only a
// plain instruction's (DuNext), the others wait a cycle. A maintenance request for the
// request's warp presented beside it waits, so that no stall comes between answer and push.
TEST(DivergenceUnitRtl, AFastPushIsWrittenInTheNextCycle) {
  SimContext<Vdivergence_unit> sim("simt_divergence_unit", baseSeed());
  Vdivergence_unit& d = sim.dut();
  d.cfg_stack_i = 0;
  d.lfsr_load_i = 0;
  d.req_valid_i = 0;
  d.mnt_valid_i = 0;
  d.mnt_warp_i = 0;
  d.iss_warp_i = 0;
  sim.reset();
  auto present = [&](int warp, uint8_t op, uint32_t target, bool hasTarget = true) {
    d.req_valid_i = 1;
    d.req_op_i = op;
    d.req_warp_i = static_cast<uint8_t>(warp);
    d.req_next_warp_i = static_cast<uint8_t>(warp);
    d.req_guard_i = 0xFFFFFFFFu;
    d.req_has_target_i = hasTarget;
    d.req_target_i = target;
    d.req_wake_mask_i = 0;
    d.req_wake_target_i = 0;
    d.req_yield_kind_i = 0;
    for (int t = 0; t < 32; ++t) setBits(d.req_thread_target_i, t * kAddrW, kAddrW, 0);
    sim.eval();
  };
  auto queue = [&](int warp) {
    d.qry_warp_i = static_cast<uint8_t>(warp);
    sim.eval();
    return static_cast<unsigned>(d.qry_q_count_o);
  };
  for (int w = 0; w < 2; ++w) {  // two warps of 32 threads at pc 0
    present(w, kLaunch, 0);
    int c = 0;
    for (; c < 10 && !d.req_ready_o; ++c) {
      sim.tick();
      sim.eval();
    }
    ASSERT_LT(c, 10) << "launch of warp " << w;
    sim.tick();
  }
  const auto op = [](CtrlOp o) { return static_cast<uint8_t>(o); };

  // Cycle 0: warp 0's ssy on the fast path; a stall of warp 0's queue waits beside it.
  present(0, op(CtrlOp::Ssy), 50);
  d.mnt_valid_i = 1;
  d.mnt_op_i = static_cast<uint8_t>(model::MntOp::Stall);
  d.mnt_warp_i = 0;
  sim.eval();
  EXPECT_TRUE(d.req_ready_o) << "ssy takes the fast path";
  EXPECT_FALSE(d.mnt_ready_o) << "a stall of the pushing warp between answer and push";
  EXPECT_EQ(queue(0), 0u);
  sim.tick();
  // Cycle 1 (PUSH): warp 0's bra waits; so does the stall (the queue takes the push).
  present(0, op(CtrlOp::Bra), 9);
  EXPECT_FALSE(d.req_ready_o) << "a control request of the pushing warp waits for the push";
  EXPECT_FALSE(d.mnt_ready_o);
  EXPECT_EQ(queue(0), 0u) << "written at the end of this cycle";
  d.mnt_valid_i = 0;
  sim.tick();
  // Cycle 2: the SYNC token is in warp 0's queue (the front port shows the request warp's,
  // presented or not); warp 0's bra is taken.
  d.req_valid_i = 0;
  EXPECT_EQ(queue(0), 1u);
  const model::Token front = model::unpack64(d.q_front_o);
  EXPECT_EQ(front.type, model::TokenType::Sync) << "a SYNC token at the front";
  EXPECT_EQ(front.addr, 50u) << "its address, the ssy's target";
  present(0, op(CtrlOp::Bra), 9);
  EXPECT_TRUE(d.req_ready_o);
  sim.tick();
  // Cycle 3: warp 1's ssy; cycle 4 (PUSH of warp 1's): warp 0's ssy is taken beside it.
  present(1, op(CtrlOp::Ssy), 60);
  EXPECT_TRUE(d.req_ready_o);
  sim.tick();
  present(0, op(CtrlOp::Ssy), 70);
  EXPECT_TRUE(d.req_ready_o) << "another warp's fast push while the queue takes a push";
  sim.tick();
  // Cycle 5 (PUSH of warp 0's): warp 1's sync pops its SYNC token (fast pop) beside it.
  present(1, op(CtrlOp::Sync), 0, false);
  EXPECT_TRUE(d.req_ready_o) << "another warp's fast pop while the queue takes a push";
  sim.tick();
  // Cycle 6: warp 0's pbrk; cycle 7 (PUSH): warp 0's plain instruction is taken beside it.
  present(0, op(CtrlOp::Pbrk), 80);
  EXPECT_TRUE(d.req_ready_o);
  sim.tick();
  present(0, op(CtrlOp::Next), 0);
  EXPECT_TRUE(d.req_ready_o) << "the pushing warp's DuNext is taken while its push goes in";
  EXPECT_TRUE(d.req_next_ready_o);
  sim.tick();
  d.req_valid_i = 0;
  EXPECT_EQ(queue(1), 0u) << "warp 1's SYNC token popped";
  EXPECT_EQ(queue(0), 3u) << "SYNC 50, SYNC 70, BRK 80";
  EXPECT_EQ(model::unpack64(d.q_front_o).addr, 80u) << "the BRK token at the front";
  EXPECT_EQ(d.qry_pc_o, 12u) << "warp 0: ssy, bra 9, ssy, pbrk, a plain instruction";
  d.qry_warp_i = 1;
  sim.eval();
  EXPECT_EQ(d.qry_pc_o, 60u) << "warp 1 reconverged at its SYNC token's address";
  EXPECT_EQ(d.qry_active_o, 0xFFFFFFFFu);
  EXPECT_TRUE(sim.ok());
}

TEST(DivergenceUnitRtl, SpinLockDequeCompletesStackSpins) {
  const Program p = spinLockProgram();
  {
    RtlLockstep<Vdivergence_unit> lock(DivergenceMode::Deque, baseSeed());
    const SimtRun run = runSimt(lock, 2, p, ~0ull, 1000);
    EXPECT_TRUE(lock.ok());
    EXPECT_TRUE(run.finished) << run.state;
    EXPECT_LE(run.stats.steps, 20u);
    std::printf("spin lock, deque mode: %llu instructions, %llu cycles in the divergence unit\n",
                static_cast<unsigned long long>(run.stats.steps),
                static_cast<unsigned long long>(lock.cycles()));
  }
  for (bool hardwired : {false, true}) {
    SCOPED_TRACE(hardwired ? "stack-only hardware" : "stack mode by configuration");
    std::unique_ptr<ControlTarget> target;
    if (hardwired) {
      target = std::make_unique<RtlLockstep<Vdivergence_unit_stack>>(DivergenceMode::Stack, baseSeed());
    } else {
      target = std::make_unique<RtlLockstep<Vdivergence_unit>>(DivergenceMode::Stack, baseSeed());
    }
    bool holderRan = false;
    const SimtRun run = runSimt(*target, 2, p, ~0ull, 2000, [&](const DivergenceUnit& u, uint32_t) {
      holderRan |= u.pc(2) == 5;
    });
    EXPECT_TRUE(target->ok());
    EXPECT_FALSE(holderRan);
    EXPECT_FALSE(run.finished);
    EXPECT_EQ(run.stats.steps, 2000u);
  }
}

TEST(DivergenceUnitRtl, DivergentPathsMeetAtBarrierInsideCall) {
  RtlLockstep<Vdivergence_unit> lock(DivergenceMode::Deque, baseSeed());
  const Program p = barrierInCallProgram();
  const SimtRun run = runSimt(lock, 3, p, ~0ull, 1000);
  EXPECT_TRUE(lock.ok());
  EXPECT_EQ(run.stats.barrierReleases, 1u);
  EXPECT_TRUE(run.finished) << run.state;
  expectSameTracesRtl(run, runScalar(p, 32, ~0ull, 1000));
}

// One directed program per construct, on the RTL in lockstep with the model; each thread's
// trace must equal its scalar run.
void runDirected(const Program& p, uint64_t launch = ~0ull) {
  for (DivergenceMode mode : {DivergenceMode::Deque, DivergenceMode::Stack}) {
    SCOPED_TRACE(mode == DivergenceMode::Deque ? "deque" : "stack");
    RtlLockstep<Vdivergence_unit> lock(mode, baseSeed());
    const SimtRun run = runSimt(lock, 1, p, launch, 5000);
    EXPECT_TRUE(lock.ok());
    EXPECT_TRUE(run.finished) << p.listing() << run.state;
    expectSameTracesRtl(run, runScalar(p, 32, launch, 5000));
  }
}

ProgInstr below(CtrlOp o, uint32_t target) {  // k < tripCount[thread]
  ProgInstr in = op(o, target);
  in.guarded = true;
  in.pred.kind = Pred::Below;
  return in;
}

TEST(DivergenceUnitRtl, LoopWithBreakAndContinue) {
  Program p;
  p.code = {
      op(CtrlOp::Pbrk, 9),               // 0
      op(CtrlOp::Pcont, 7),              // 1: head
      guardedBelow(CtrlOp::Brk, 9, 4),   // 2: threads 0-3 break out early
      guardedBelow(CtrlOp::Cont, 7, 12), // 3: threads 4-11 continue early
      op(CtrlOp::Next),                  // 4
      op(CtrlOp::Next),                  // 5
      op(CtrlOp::Cont, 7),               // 6
      below(CtrlOp::Bra, 1),             // 7: latch: loop while k < trip
      op(CtrlOp::Brk, 9),                // 8
      op(CtrlOp::Exit),                  // 9
  };
  for (int t = 0; t < 32; ++t) p.tripCount.push_back(static_cast<uint32_t>(t % 4));
  runDirected(p);
}

TEST(DivergenceUnitRtl, IndirectBranchSwitch) {
  Program p;
  ProgInstr brx = op(CtrlOp::Brx);
  brx.cases = {3, 5, 7};
  brx.caseSalt = 12345;
  p.code = {
      op(CtrlOp::Ssy, 9),   // 0
      brx,                  // 1: three target groups
      op(CtrlOp::Exit),     // 2: (not reached)
      op(CtrlOp::Next),     // 3: case 0
      op(CtrlOp::Sync, 9),  // 4
      op(CtrlOp::Next),     // 5: case 1
      op(CtrlOp::Sync, 9),  // 6
      op(CtrlOp::Next),     // 7: case 2
      op(CtrlOp::Sync, 9),  // 8
      op(CtrlOp::Exit),     // 9
  };
  p.tripCount.assign(32, 0);
  runDirected(p);
}

TEST(DivergenceUnitRtl, CallWithEarlyReturnAndExitInDivergence) {
  Program p;
  p.code = {
      op(CtrlOp::Ssy, 5),                // 0
      guardedBelow(CtrlOp::Bra, 3, 16),  // 1: threads 0-15 to 3
      guardedBelow(CtrlOp::Exit, 0, 24), // 2: threads 16-23 exit inside the divergence
      op(CtrlOp::Cal, 7),                // 3
      op(CtrlOp::Sync, 5),               // 4
      op(CtrlOp::Exit),                  // 5
      op(CtrlOp::Exit),                  // 6
      guardedBelow(CtrlOp::Ret, 0, 4),   // 7: f: threads 0-3 return early
      op(CtrlOp::Next),                  // 8
      op(CtrlOp::Ret),                   // 9
  };
  p.tripCount.assign(32, 0);
  runDirected(p);
  runDirected(p, 0x00FF00FFull);  // a partial launch
}

// Benchmark (make bench): cycles the divergence unit takes per request in typical cases.
// Not part of the regression: it reports, it does not judge.
template <class Dut>
void latencyReport(const char* variant) {
  RtlLockstep<Dut> lock(DivergenceMode::Deque, baseSeed());
  const int w = 0;
  auto measure = [&](const char* what, const std::function<void()>& f) {
    const uint64_t c0 = lock.cycles();
    f();
    EXPECT_TRUE(lock.ok());
    std::printf("  %-62s %3llu cycles\n", what, static_cast<unsigned long long>(lock.cycles() - c0));
  };
  std::printf("divergence unit latency, %s (request presented to req_ready, inclusive):\n",
              variant);
  measure("launch", [&] { lock.launch(w, 0xFFFFFFFFull, 0); });
  measure("non-control instruction (uniform, pc+1)", [&] { lock.execute(w, ctrl(CtrlOp::Next)); });
  measure("ssy (push SYNC)", [&] { lock.execute(w, ctrl(CtrlOp::Ssy, ~0ull, 40)); });
  measure("uniform bra", [&] { lock.execute(w, ctrl(CtrlOp::Bra, ~0ull, 10)); });
  measure("divergent bra (2 groups, push DIV)", [&] { lock.execute(w, ctrl(CtrlOp::Bra, 0xFFFFull, 20)); });
  measure("sync, covered by the SYNC token behind the DIV token: pop DIV", [&] {
    lock.execute(w, ctrl(CtrlOp::Sync, ~0ull, 0, false));
  });
  measure("sync again: scan, pop SYNC, all 32 threads reconverge", [&] {
    lock.execute(w, ctrl(CtrlOp::Sync, ~0ull, 0, false));
  });
  measure("yield of half the warp (push YIELD at the back)", [&] {
    lock.execute(w, ctrl(CtrlOp::Yield, 0xFFFFull));
  });
  CtrlInstr brx = ctrl(CtrlOp::Brx, ~0ull);
  brx.threadTarget.resize(32);
  for (int t = 0; t < 32; ++t) brx.threadTarget[static_cast<size_t>(t)] = 100 + static_cast<uint32_t>(t % 4);
  measure("brx of the active half into 4 targets (4 groups)", [&] { lock.execute(w, brx); });
  measure("exit of a group: pop DIV", [&] { lock.execute(w, ctrl(CtrlOp::Exit)); });
}

TEST(DivergenceUnitRtl, DISABLED_LatencyReport) {
  latencyReport<Vdivergence_unit>("with the fast path");
  latencyReport<Vdivergence_unit_small>("FastThreadTargets = 0");
}

TEST(DivergenceUnitRtl, RandomProgramsDequeMode) {
  for (uint64_t seed : testSeeds()) {
    randomProgramsOnRtl<Vdivergence_unit>(DivergenceMode::Deque, 300 * lengthScale(), seed);
  }
}

TEST(DivergenceUnitRtl, RandomProgramsStackModeByConfiguration) {
  for (uint64_t seed : testSeeds()) {
    randomProgramsOnRtl<Vdivergence_unit>(DivergenceMode::Stack, 150 * lengthScale(), seed);
  }
}

TEST(DivergenceUnitRtl, RandomProgramsWithoutFastThreadTargets) {
  for (uint64_t seed : testSeeds()) {
    randomProgramsOnRtl<Vdivergence_unit_small>(DivergenceMode::Deque, 200 * lengthScale(), seed);
    randomProgramsOnRtl<Vdivergence_unit_small>(DivergenceMode::Stack, 100 * lengthScale(), seed);
  }
}

TEST(DivergenceUnitRtl, RandomProgramsStackOnlyHardware) {
  for (uint64_t seed : testSeeds()) {
    randomProgramsOnRtl<Vdivergence_unit_stack>(DivergenceMode::Stack, 150 * lengthScale(), seed);
  }
}

}  // namespace
}  // namespace simt::tb
