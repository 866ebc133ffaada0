// Golden model of the divergence unit (seed 002 and ISA.md "Control flow"): per warp the PC,
// the active mask, each thread's disable reason and the warp's token queue (TokenDeque).
//
// One control instruction per transaction (execute), plus the barrier unit's sleep/wake
// interface. Whenever the active mask becomes empty the warp pops tokens (the pop loop).
// Choices the ISA leaves open are documented in docs/blocks/divergence_unit.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/divergence/token_deque.h"

namespace simt::model {

// Why a thread is not active (ISA.md): NONE for an active thread.
enum class Reason : uint8_t { None, Sync, Div, Call, Brk, Cont, Yield, Barrier, Exit };
const char* reasonName(Reason r);

enum class CtrlOp : uint8_t {
  Next,   // any non-control instruction: the active (guarded) threads go to pc+1
  Ssy, Sync, Pbrk, Brk, Pcont, Cont,
  Bra, Brx, Jmp, Jmx, Cal, Ret, Exit, Yield,
};

enum class DivergenceMode { Deque, Stack };

struct CtrlInstr {
  CtrlOp op = CtrlOp::Next;
  uint64_t guard = ~0ull;      // threads whose guard predicate holds (unguarded: all)
  bool hasTarget = false;      // ssy/pbrk/pcont/bra/jmp/cal target, sync/brk/cont fallback
  uint32_t target = 0;
  // brx/jmx: each thread's target; ret: each thread's link register r31.
  std::vector<uint32_t> threadTarget;
  int yieldEvery = 1;          // yield.N: yield every N-th execution (1 = always)
  bool yieldRandom = false;    // yield.p: with probability 1/16
};

// What one transaction did, for tests, statistics and the core.
struct CtrlResult {
  bool ok = true;              // false: unrecoverable queue overflow (a fault)
  int pushes = 0, pops = 0, discards = 0, merges = 0, overflows = 0;
  bool fellBack = false;       // some threads took a sync/brk/cont fallback
  // Token types (bit = TokenType) pushed, popped (activating threads) and discarded.
  uint16_t pushedTypes = 0, poppedTypes = 0, discardedTypes = 0;
  uint64_t linkMask = 0;       // cal: threads whose r31 is written with linkValue
  uint32_t linkValue = 0;
};

enum class WarpStatus { Running, WaitingBarrier, Done, Stranded };

class DivergenceUnit {
 public:
  struct Config {
    int numWarps = 8;
    int warpSize = 32;           // 32 (64-bit tokens) or 64 (128-bit tokens)
    int queueDepth = 32;
    DivergenceMode mode = DivergenceMode::Deque;
    uint16_t lfsrSeed = 0xACE1;  // yield.p
  };

  explicit DivergenceUnit(const Config& cfg);

  // Start a warp: threads in mask active at pc, the others exited.
  void launch(int warp, uint64_t mask, uint32_t pc);

  // Execute the control behaviour of the instruction at the warp's PC.
  CtrlResult execute(int warp, const CtrlInstr& ins);

  // Barrier unit interface (ARCHITECTURE.md's rule): participants sleep with reason BARRIER
  // and the other active threads go on at pc+1; a wake pushes a BARRIER token at the front
  // and re-activates them at resume once the warp pops it.
  CtrlResult barrierSleep(int warp, uint64_t participants);
  CtrlResult barrierWake(int warp, uint64_t mask, uint32_t resume);

  uint32_t pc(int warp) const { return w(warp).pc; }
  uint64_t active(int warp) const { return w(warp).active; }
  Reason reason(int warp, int thread) const {
    return w(warp).reason[static_cast<size_t>(thread)];
  }
  uint64_t threadsWithReason(int warp, Reason r) const;
  WarpStatus status(int warp) const;
  // Threads that wait for a token of their reason that no queue entry holds.
  uint64_t strandedThreads(int warp) const;
  const TokenDeque& queue() const { return queue_; }
  const Config& config() const { return cfg_; }
  uint64_t allThreads() const { return allMask_; }
  std::string describe(int warp) const;  // for failure messages and deadlock reports

 private:
  struct Warp {
    uint32_t pc = 0;
    uint64_t active = 0;
    std::array<Reason, 64> reason{};
    uint32_t yieldCount = 0;
  };
  struct Group {
    uint64_t mask;
    uint32_t pc;
  };
  Warp& w(int warp) { return warps_.at(static_cast<size_t>(warp)); }
  const Warp& w(int warp) const { return warps_.at(static_cast<size_t>(warp)); }
  // Per-thread coverage: threads having a token of this type in their warp's queue.
  uint64_t covered(int warp, TokenType type) const;
  void disable(int warp, uint64_t mask, Reason r);
  bool push(int warp, TokenDeque::End end, Token t, CtrlResult& res);
  // Continue with the given groups: the group of the lowest thread runs, the others wait
  // in DIV tokens; then the pop loop if nothing is active.
  void continueWith(int warp, std::vector<Group> groups, CtrlResult& res);
  void popLoop(int warp, CtrlResult& res);
  bool yieldNow(Warp& wp, const CtrlInstr& ins);

  Config cfg_;
  uint64_t allMask_;
  std::vector<Warp> warps_;
  TokenDeque queue_;
  uint16_t lfsr_;
};

Reason reasonOf(TokenType t);
TokenType tokenOf(Reason r);

}  // namespace simt::model
