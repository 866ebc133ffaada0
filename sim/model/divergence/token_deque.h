// Golden model of simt_token_deque: per-warp double-ended token queues (seed 002).
//
// TokenDeque is the transaction-level model (push, pop, peek, maintenance) that the
// divergence-unit model and the ISA model use. TokenDequeCycle wraps it with the RTL's port
// timing (ready rules, the one-cycle exception pulse and maintenance read latency) so a block
// test can compare every output of the RTL every cycle.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/common/token.h"

namespace simt::model {

class TokenDeque {
 public:
  struct Config {
    int numWarps = 8;
    int depth = 32;      // entries per warp, a power of two
    int tokenBits = 64;  // 64 (32-thread warps) or 128 (64-thread warps)
  };
  enum class End { Front, Back };
  enum class PushResult { Accepted, Stalled, Overflow };

  explicit TokenDeque(const Config& cfg);

  // Push a token; the summary field is computed here. An overflow refuses the push, stalls
  // the warp's queue and returns Overflow (nothing changes otherwise).
  PushResult push(int warp, End end, Token tok);
  // Pop the front token; nullopt when the queue is empty or stalled.
  std::optional<Token> pop(int warp);

  // OR mask into the first token of this type and address (seed 002's YIELD merge); false
  // when there is none. The summary says when no token of the type exists at all.
  bool mergeMask(int warp, TokenType type, uint32_t addr, uint64_t mask);

  // Positional access to a running queue (0 = front), as the RTL's acc port.
  const Token& entryAt(int warp, int pos) const;
  void writeAt(int warp, int pos, const Token& tok);

  std::optional<Token> front(int warp) const;
  int count(int warp) const { return static_cast<int>(q(warp).entries.size()); }
  int head(int warp) const { return q(warp).tail + count(warp); }
  int tail(int warp) const { return q(warp).tail; }
  bool stalled(int warp) const { return q(warp).stalled; }
  bool wouldOverflow(int warp, End end) const;
  // Token types present: front summary | types pushed at the back since the queue was empty.
  uint8_t types(int warp) const;
  // Exact set of types present (for checking the summary's guarantee).
  uint8_t exactTypes(int warp) const;
  // Entries from front to back.
  const std::deque<Token>& entries(int warp) const { return q(warp).entries; }

  // Maintenance (runtime) operations, as the RTL's maintenance port.
  void stall(int warp);
  // Region entry idx of a stalled queue; nullopt if its content is not known to the model
  // (outside the queue and never written by the runtime).
  std::optional<Token> readEntry(int warp, int idx) const;
  void writeEntry(int warp, int idx, const Token& tok);
  // New pointers; the queue becomes region[tail..head) read back to front. Throws if the
  // runtime resumes over entries whose content it never established.
  void resume(int warp, int head, int tail);

  // What a runtime does on overflow: move the entries to the middle of the region.
  // Returns false (and leaves the queue stalled) when the queue is full: unrecoverable.
  bool recentre(int warp);

  const Config& config() const { return cfg_; }
  uint64_t maskBits() const { return cfg_.tokenBits == 128 ? ~0ull : 0xFFFFFFFFull; }
  uint32_t addrBits() const { return cfg_.tokenBits == 128 ? 0xFFFFFFFFu : 0x3FFFFFu; }
  Token normalize(Token t) const;

 private:
  struct WarpQueue {
    std::deque<Token> entries;  // front() is the queue front
    int tail = 0;
    uint8_t backSum = 0;
    bool stalled = false;
    std::vector<std::optional<Token>> region;  // the runtime's view while stalled
  };
  WarpQueue& q(int warp);
  const WarpQueue& q(int warp) const;
  void materializeRegion(WarpQueue& wq);

  Config cfg_;
  std::vector<WarpQueue> warps_;
};

enum class MntOp { Stall = 0, Read = 1, Write = 2, Resume = 3 };

// Port-level inputs and outputs of simt_token_deque for one cycle.
struct TokenDequeIn {
  bool pushValid = false;
  int pushWarp = 0;
  bool pushBack = false;
  Token pushToken;
  int fitWarp = 0;  // the warp pushFrontReady/pushBackReady answer for
  bool popValid = false;
  int popWarp = 0;
  int qryWarp = 0;
  int cntWarp = 0;  // the second count read
  bool accValid = false;
  bool accWe = false;
  int accWarp = 0;
  int accPos = 0;
  Token accWdata;
  bool mntValid = false;
  MntOp mntOp = MntOp::Stall;
  int mntWarp = 0;
  int mntIdx = 0;
  Token mntWdata;
  int mntHead = 0;
  int mntTail = 0;
};

struct TokenDequeOut {
  bool pushReady = false;
  bool pushFrontReady = false;  // a front push of fitWarp would be taken were no pop presented
  bool pushBackReady = false;   // ... a back push
  bool popReady = false;
  std::optional<Token> popToken;  // defined when popReady
  std::optional<Token> qryFront;  // defined when the queried queue is not empty
  bool qryEmpty = true;
  int qryCount = 0, qryHead = 0, qryTail = 0;
  int cntCount = 0;  // count of cntWarp
  uint8_t qryTypes = 0;
  bool excValid = false;
  int excWarp = 0;
  bool excBack = false;
  uint64_t stalled = 0;
  bool accReady = false;
  bool accRvalid = false;
  std::optional<Token> accRdata;  // defined when accRvalid
  bool mntReady = false;
  bool mntRvalid = false;
  std::optional<Token> mntRdata;  // defined when mntRvalid and the content is known
};

class TokenDequeCycle {
 public:
  explicit TokenDequeCycle(TokenDeque& dq) : dq_(dq) {}
  // Outputs of this cycle for the given inputs (before the clock edge).
  TokenDequeOut evaluate(const TokenDequeIn& in) const;
  // Apply the clock edge.
  void commit(const TokenDequeIn& in);

 private:
  // A push at this end is taken unless it clashes with a pop (queue not stalled, no overflow).
  bool pushFits(int warp, TokenDeque::End end) const;
  bool pushReady(const TokenDequeIn& in) const;
  TokenDeque& dq_;
  bool excValid_ = false;
  int excWarp_ = 0;
  bool excBack_ = false;
  bool mntRvalid_ = false;
  std::optional<Token> mntRdata_;
  bool accRvalid_ = false;
  std::optional<Token> accRdata_;
};

}  // namespace simt::model
