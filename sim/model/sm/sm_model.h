// The ISA-level golden model of one SM: CTAs launched onto warp slots, lanes with registers
// and predicates, global/shared/param memory, the divergence unit model for control flow,
// the barrier unit and warp scheduler models, faults, deadlock detection. Timing: one
// instruction of one warp per cycle, chosen by the scheduler model. docs/isa-model.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asm/assembler.h"
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

class SmModel {
 public:
  SmModel(const assembler::Kernel& kernel, const RunConfig& cfg);
  ~SmModel();
  RunResult run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simt::model
