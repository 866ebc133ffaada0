// Control-flow programs for divergence-unit tests: a program representation, a random
// structured-program generator, a SIMT executor on the DivergenceUnit model and a scalar
// per-thread reference. The oracle: every thread executes the same sequence of PCs under SIMT
// execution (with reconvergence, yields and fallbacks) as it does alone.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/harness.h"
#include "model/divergence/divergence_unit.h"

namespace simt::tb {

// A per-thread predicate: the k-th time thread t executes this instruction.
struct Pred {
  enum Kind { Always, Random, Below, Holder, Flag, ThreadBelow } kind = Always;
  uint32_t salt = 0;      // Random: hash salt
  int percent = 50;       // Random: probability of true; ThreadBelow: the thread bound
  bool negate = false;
  bool eval(int thread, uint32_t k, const std::vector<uint32_t>& tripCount,
            bool flag) const;
};

struct ProgInstr {
  model::CtrlOp op = model::CtrlOp::Next;
  uint32_t target = 0;           // label address (also the fallback / scalar target)
  bool guarded = false;
  Pred pred;
  std::vector<uint32_t> cases;   // brx: case targets, chosen per thread by hash
  uint32_t caseSalt = 0;
  int yieldEvery = 1;
  bool yieldRandom = false;      // yield.p
  bool releaseFlag = false;      // spin-lock tests: executing it clears the flag
  bool barrier = false;          // bar.sync of all the warp's threads (op must be Next)
  std::string text;              // assembly-like listing
};

struct Program {
  std::vector<ProgInstr> code;
  std::vector<uint32_t> tripCount;  // per thread, for loop predicates (Pred::Below)
  std::string listing() const;
};

// Random structured programs: nested if/else (ssy/bra/sync), loops with break and continue
// (pbrk/pcont/brk/cont), calls with early returns, switches (brx), yields, exits. Every
// sync/brk/cont carries its fallback label.
Program generateProgram(Rng& rng, int warpSize, bool withYields);

// What a program runs on: the model alone, or the model and the RTL in lockstep.
class ControlTarget {
 public:
  virtual ~ControlTarget() = default;
  virtual void launch(int warp, uint64_t mask, uint32_t pc) = 0;
  virtual model::CtrlResult execute(int warp, const model::CtrlInstr& ins) = 0;
  virtual model::CtrlResult barrierSleep(int warp, uint64_t participants) = 0;
  virtual model::CtrlResult barrierWake(int warp, uint64_t mask, uint32_t resume) = 0;
  virtual const model::DivergenceUnit& state() const = 0;  // the model's view of the warps
  virtual bool ok() const { return true; }                  // false: stop (a mismatch)
};

class ModelTarget : public ControlTarget {
 public:
  explicit ModelTarget(model::DivergenceUnit& du) : du_(du) {}
  void launch(int warp, uint64_t mask, uint32_t pc) override { du_.launch(warp, mask, pc); }
  model::CtrlResult execute(int warp, const model::CtrlInstr& ins) override {
    return du_.execute(warp, ins);
  }
  model::CtrlResult barrierSleep(int warp, uint64_t p) override { return du_.barrierSleep(warp, p); }
  model::CtrlResult barrierWake(int warp, uint64_t m, uint32_t r) override {
    return du_.barrierWake(warp, m, r);
  }
  const model::DivergenceUnit& state() const override { return du_; }

 private:
  model::DivergenceUnit& du_;
};

struct RunStats {
  uint64_t steps = 0, pushes = 0, pops = 0, discards = 0, merges = 0, overflows = 0;
  uint64_t fallbacks = 0, barrierReleases = 0;
  int pushesByType[8] = {}, popsByType[8] = {}, discardsByType[8] = {};
};

// Runs one warp of the program on the model until it is done (or maxSteps). Records each
// thread's PC trace. onStep (optional) sees the unit after every instruction.
struct SimtRun {
  bool finished = false;
  bool faulted = false;
  std::vector<std::vector<uint32_t>> trace;  // per thread
  RunStats stats;
  std::string state;                          // describe() at the end
};
SimtRun runSimt(ControlTarget& target, int warp, const Program& prog, uint64_t launchMask,
                uint64_t maxSteps,
                const std::function<void(const model::DivergenceUnit&, uint32_t pc)>& onStep = {});
SimtRun runSimt(model::DivergenceUnit& du, int warp, const Program& prog, uint64_t launchMask,
                uint64_t maxSteps,
                const std::function<void(const model::DivergenceUnit&, uint32_t pc)>& onStep = {});

// Each thread alone: ssy/pbrk/pcont/yield are no-ops, sync/brk/cont jump to their label,
// cal/ret use a per-thread return address.
std::vector<std::vector<uint32_t>> runScalar(const Program& prog, int warpSize,
                                             uint64_t launchMask, uint64_t maxSteps);

// Directed programs (see the model tests for what each shows).
ProgInstr op(model::CtrlOp o, uint32_t target = 0);
ProgInstr guardedBelow(model::CtrlOp o, uint32_t target, int threadBound);
Program seed002Program();          // IF with a call holding a nested IF (seed 002's figure)
Program spinLockProgram();         // thread 31 holds a lock; the others spin with yield
Program barrierInCallProgram();    // both halves of a diverged warp meet at a barrier in a call

}  // namespace simt::tb
