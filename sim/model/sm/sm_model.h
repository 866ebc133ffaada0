// The ISA-level golden model of one SM: CTAs launched onto warp slots, lanes with registers
// and predicates, global/shared/param memory, the divergence unit model for control flow,
// the barrier unit and warp scheduler models, faults, deadlock detection. Timing: one
// instruction of one warp per cycle, chosen by the scheduler model. docs/isa-model.md.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "model/barrier/barrier_unit.h"
#include "model/divergence/divergence_unit.h"
#include "model/scheduler/warp_scheduler.h"

namespace simt::model {

struct RunConfig {
  int ctas = -1;              // -1: the kernel's .launch
  int threads = -1;
  DivergenceMode divergence = DivergenceMode::Deque;
  uint64_t maxCycles = 10'000'000;
  uint64_t seed = 1;
  int warpSlots = 8;          // resident warps (grown up to 32 for a CTA that needs more)
  int maxResidentCtas = 4;
  int queueDepth = 32;
  SchedPolicy policy = SchedPolicy::Lrr;  // warp scheduler policy
  // Where impatient TIMEOUTs are measured from (extension; ISA.md: the first participant).
  TimeoutOrigin timeoutOrigin = TimeoutOrigin::FirstParticipant;
  // Slot-arbiter priority per barrier id (extension, seed 000 [0108]; higher first, 0..3 on
  // the core). Default 0 for all: round robin.
  std::array<uint8_t, 16> barrierPriority{};
  // The memory behind the core's port (engines rtl and cosim; the ISA model's memory is
  // architectural): cycles from a request's transfer to its response, and the data
  // channel's bytes per cycle (docs/blocks/mem_port.md, "Who serves the port").
  uint32_t memLatency = 20;
  uint32_t memBandwidth = 16;
  // Requests the memory holds at once before it refuses more; 0: enough for the bandwidth at
  // the latency (model::LineMemory::outstandingFor: 64 at the defaults).
  uint32_t memOutstanding = 0;
  // Tests only (no option): the share of requests, per 256, the memory answers with an error.
  uint32_t memErrorPer256 = 0;
  static constexpr int kMaxBarrierPriority = 3;
  static constexpr int kMaxWarpSlots = 32;
  static constexpr int maxThreadsPerCta() { return kMaxWarpSlots * 32; }
};

enum class RunStatus { Ok, Error, Deadlock, Timeout, Mismatch };
const char* runStatusName(RunStatus s);
int exitCode(RunStatus s);    // ISA.md: 0 ok, 1 error, 2 deadlock, 3 timeout, 4 mismatch

struct RunResult {
  RunStatus status = RunStatus::Ok;
  std::string message;        // fault or deadlock report (empty when ok)
  uint64_t cycles = 0;
  uint64_t instructions = 0;  // warp-instructions issued
  uint64_t threadInstructions = 0;
  std::vector<uint32_t> global;  // final global memory (words)
  std::map<std::string, uint64_t> stats;
};

// What one issued instruction did, for the lockstep co-simulation (sim/cosim).
struct RegWrite {
  int lane = 0, reg = 0;
  uint32_t value = 0;
  bool operator==(const RegWrite& o) const { return lane == o.lane && reg == o.reg && value == o.value; }
  bool operator<(const RegWrite& o) const { return lane != o.lane ? lane < o.lane : reg < o.reg; }
};
struct MemWrite {
  uint32_t addr = 0, value = 0;  // a global word whose value changed
  bool operator==(const MemWrite& o) const { return addr == o.addr && value == o.value; }
};
struct IssueRecord {
  uint32_t pc = 0;
  uint64_t active = 0, exec = 0;
  std::vector<RegWrite> regWrites;      // changed registers, by lane then register
  std::vector<MemWrite> globalWrites;   // changed words, ascending address
  std::string fault;                    // non-empty: the instruction faulted
};

class SmModel {
 public:
  SmModel(const assembler::Kernel& kernel, const RunConfig& cfg);
  ~SmModel();
  RunResult run();

  // ---- Lockstep: the RTL core decides which warp issues, when barrier wakes reach the
  // divergence unit, and what %clock reads; the model executes and reports (sim/cosim).
  void lockstepStart();
  // The warp the RTL issued at this cycle; its PC and active mask before executing.
  uint32_t pc(int warp) const;
  uint64_t active(int warp) const;
  bool resident(int warp) const;
  // arrivalCycle: for a barrier arrival, the cycle the RTL's barrier unit took it (the origin
  // of an impatient TIMEOUT); the issue cycle otherwise.
  IssueRecord lockstepIssue(int warp, uint64_t cycle, std::optional<uint64_t> arrivalCycle = {});
  // The RTL started a portion of barrier `id` of the CTA in this warp slot because its
  // TIMEOUT elapsed: the model checks it had (empty answer, else why not) and starts it.
  // The model fires no timeout of its own in lockstep.
  std::string lockstepTimeout(int warp, int id, uint64_t cycle);
  // The RTL's slot arbiter granted the critical section of barrier `id` of the CTA in this
  // warp slot: the model checks the choice was legal (empty answer, else why not) and serves
  // that section. The model grants no section of its own in lockstep.
  std::string lockstepGrant(int warp, int id, uint64_t cycle);
  // The RTL starts a CTA launch with its first warp in this warp slot: the model launches its
  // next CTA (when the core launches depends on when it retires finished ones) and checks the
  // placement agrees (empty answer, else why not). The model launches none of its own.
  std::string lockstepLaunch(int warp, uint64_t cycle);
  // The RTL retires the finished CTA at this resident index (CTA slot): the model retires it
  // then, not when its last warp finishes (the core waits for its memory instructions).
  std::string lockstepRetireCta(int residentIdx, uint64_t cycle);
  // A barrier wake token the RTL delivered: empty if the model had it pending, else why not.
  std::string lockstepWake(int warp, uint64_t mask, uint32_t resume);
  // Values the model cannot know (%clock): taken from the RTL.
  void lockstepSetReg(int warp, int lane, int reg, uint32_t value);
  uint32_t reg(int warp, int lane, int reg) const;
  void lockstepEndCycle(uint64_t cycle);  // finished CTAs, launches
  bool lockstepFinished() const;
  uint64_t lockstepPendingWakes() const;
  std::vector<uint32_t> globalMemory() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simt::model
