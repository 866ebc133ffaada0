// The verilated SM core (rtl/sm/simt_sm.sv) running a kernel: the host side of the core.
// Loads code and params, serves the global-memory port from the kernel's data image, acts as
// the runtime for token-queue overflows (re-centring through the maintenance port), and
// stops on completion, fault, deadlock (nothing can issue for longer than any barrier
// timeout) or --max-cycles. Same RunConfig/RunResult as the ISA model (sim/model/sm).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"

namespace simt::rtl {

// The core's fixed geometry (the verilated parameters, CMakeLists.txt).
struct CoreGeometry {
  static constexpr int kWarpSlots = 8;
  static constexpr int kResidentCtas = 4;
  static constexpr int kQueueDepth = 32;
  static constexpr int kImemWords = 4096;
  static constexpr int kParamWords = 64;
  static constexpr int kSharedBytes = 4096;
  static constexpr size_t kLineBytes = 64;  // the memory port's line (simt_mem_pkg)
  // Physical ALU lanes (NumLanes; SIMT_SM_PARAMS="-GNumLanes=8" in a build tree of its own):
  // an ALU instruction takes one EXEC cycle per group of kNumLanes threads with work.
#ifdef SIMT_SM_NUM_LANES
  static constexpr int kNumLanes = SIMT_SM_NUM_LANES;
#else
  static constexpr int kNumLanes = 32;
#endif
  static constexpr int kPasses = 32 / kNumLanes;  // a full warp's passes
  // FP lanes (FpLanes, NumLanes unless SIMT_SM_PARAMS sets -GFpLanes): an FP instruction's passes.
#ifdef SIMT_SM_FP_LANES
  static constexpr int kFpLanes = SIMT_SM_FP_LANES;
#else
  static constexpr int kFpLanes = kNumLanes;
#endif
  static constexpr int kFpPasses = 32 / kFpLanes;
  // IssueBypass (1 unless SIMT_SM_PARAMS sets -GIssueBypass=0): a warp woken by a fast
  // wake, or given back from DE, may issue in that cycle; without, a cycle later.
#ifdef SIMT_SM_ISSUE_BYPASS
  static constexpr bool kIssueBypass = SIMT_SM_ISSUE_BYPASS != 0;
#else
  static constexpr bool kIssueBypass = true;
#endif
  static constexpr int kReissueDelay = kIssueBypass ? 0 : 1;  // a fast wake's, a give-back's
};

// One retired instruction as the core reports it (the co-simulation follows these).
struct Retired {
  uint64_t cycle = 0;
  int warp = 0;
  uint32_t pc = 0;
  uint32_t exec = 0, active = 0;
  // Registers its units wrote, by lane and reg (a global load's words come later: MemWindow).
  std::vector<model::RegWrite> regWrites;
};

// What global memory instructions did since the last window, reported whenever the core has
// none in flight at a retirement (and once when the run ends): a global load's words reach
// the register file after the load retires (the scoreboard lets its warp go on), and a
// store's words reach memory when the memory performs it. Every instruction retired before
// is complete then, and none after it has begun.
struct MemWindow {
  struct LoadWrite {
    int warp = 0, lane = 0, reg = 0;
    uint32_t value = 0;
  };
  uint64_t cycle = 0;
  std::vector<LoadWrite> loads;               // the last value each (warp, lane, reg) took
  std::vector<model::MemWrite> globalWrites;  // every word written, with its value now
};

// A barrier wake token as the divergence unit took it.
struct Wake {
  uint64_t cycle = 0;
  int warp = 0;
  uint32_t mask = 0, resume = 0;
  // Taken while the instruction in flight (an exit) had already made its divergence-unit
  // step: it follows that instruction, though it comes before its retirement.
  bool afterInflight = false;
};

// A choice of the core's barrier unit the co-simulation follows: a portion started because
// its impatient TIMEOUT elapsed, or a critical section the slot arbiter granted. A warp slot
// of the CTA and the barrier id.
struct BarrierEvent {
  uint64_t cycle = 0;
  int warp = 0;
  int id = 0;
};

// A CTA launch the core starts: the warp slot of its first warp.
struct LaunchEvent {
  uint64_t cycle = 0;
  int warp = 0;
};

class SmRtl {
 public:
  // wavePath: write an FST waveform there (and a .gtkw save file next to it); needs a build
  // with tracing (SIMT_TRACE, `make simt-wave`), see tracingBuilt().
  SmRtl(const assembler::Kernel& kernel, const model::RunConfig& cfg, const std::string& wavePath = "");
  static bool tracingBuilt();
  ~SmRtl();
  SmRtl(const SmRtl&) = delete;
  SmRtl& operator=(const SmRtl&) = delete;

  // Called for every retired instruction and every wake (optional). A non-empty answer
  // stops the run with status mismatch and that message (the co-simulation's verdict).
  using RetireHook = std::function<std::string(const Retired&)>;
  using WakeHook = std::function<std::string(const Wake&)>;
  using CycleHook = std::function<void(uint64_t)>;
  void onRetire(RetireHook f);
  void onWake(WakeHook f);
  void onCycleEnd(CycleHook f);  // after every clock edge
  // The barrier unit took an arrival (its cycle is the arrival's timeout origin), or any
  // request of the instruction in flight (arrive, bottom, reset, exit); a portion started by
  // TIMEOUT; a section granted (a non-empty answer stops the run as a mismatch).
  using AcceptHook = std::function<void(uint64_t)>;
  using BarrierHook = std::function<std::string(const BarrierEvent&)>;
  void onBarrierAccept(AcceptHook f);
  void onBarrierRequest(AcceptHook f);
  void onBarrierTimeout(BarrierHook f);
  void onBarrierGrant(BarrierHook f);
  // A CTA launch starts: its placement depends on when the core retires finished CTAs, which
  // the model follows (a non-empty answer stops the run as a mismatch).
  using LaunchHook = std::function<std::string(const LaunchEvent&)>;
  void onLaunch(LaunchHook f);
  // A finished CTA retires (its resident index), which frees its warp slots for a launch.
  using CtaRetireHook = std::function<std::string(uint64_t cycle, int residentIdx)>;
  void onCtaRetire(CtaRetireHook f);
  // A memory window closes (a non-empty answer stops the run as a mismatch).
  using MemWindowHook = std::function<std::string(const MemWindow&)>;
  void onMemWindow(MemWindowHook f);
  model::RunResult run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simt::rtl
