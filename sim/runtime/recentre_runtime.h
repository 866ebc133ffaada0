// The runtime's overflow handler, acting through simt_token_deque's maintenance port: read
// the entries of a stalled queue, write them to the middle of its region, resume with the
// new pointers (seed 002's re-centring). Used by the SM core runner and the queue tests.
#pragma once

#include <vector>

#include "model/divergence/token_deque.h"

namespace simt::runtime {

using model::MntOp;
using model::PackedToken;
using model::Token;
using model::TokenDequeIn;

// Acts on the RTL's read data, as driver software would. Each step is one maintenance
// operation: request() offers it for a cycle, accepted() says the port took it, capture()
// delivers read data in the cycle after a read.
class RecentreRuntime {
 public:
  explicit RecentreRuntime(int depth) : depth_(depth) {}
  bool busy() const { return phase_ != Phase::Idle; }
  int warp() const { return warp_; }
  bool lastWasUnrecoverable() const { return unrecoverable_; }

  // Start handling an overflow (or a voluntary inspection) of a stalled warp.
  void start(int warp, int head, int tail) {
    warp_ = warp;
    head_ = head;
    tail_ = tail;
    n_ = head - tail;
    unrecoverable_ = n_ >= depth_;
    // A full queue cannot be re-centred: resume in place (the requester retries later,
    // after pops make room). Otherwise move the entries to the middle.
    newTail_ = unrecoverable_ ? tail : (depth_ - n_) / 2;
    buf_.assign(static_cast<size_t>(n_), PackedToken{0, 0});
    step_ = 0;
    phase_ = n_ > 0 && newTail_ != tail ? Phase::Read : Phase::Resume;
  }

  // The maintenance operation to offer this cycle.
  TokenDequeIn request(TokenDequeIn in) const {
    in.mntValid = true;
    in.mntWarp = warp_;
    switch (phase_) {
      case Phase::Read:
        in.mntOp = MntOp::Read;
        in.mntIdx = tail_ + step_;
        break;
      case Phase::Write:
        in.mntOp = MntOp::Write;
        in.mntIdx = newTail_ + step_;
        in.mntWdata = wdata_;
        break;
      case Phase::Resume:
        in.mntOp = MntOp::Resume;
        in.mntHead = newTail_ + n_;
        in.mntTail = newTail_;
        break;
      case Phase::Idle:
      case Phase::CollectLast: in.mntValid = false; break;
    }
    return in;
  }

  // After the cycle: accepted says whether the operation was taken. rdata is the RTL's
  // maintenance read data in the cycle after a read (delivered through capture()).
  void accepted(int tokenBits) {
    switch (phase_) {
      case Phase::Read:
        pendingRead_ = step_;
        if (++step_ == n_) phase_ = Phase::CollectLast;
        break;
      case Phase::Write:
        if (++step_ == n_) phase_ = Phase::Resume;
        else wdata_ = model::unpack(buf_[static_cast<size_t>(step_)], tokenBits);
        break;
      case Phase::Resume: phase_ = Phase::Idle; break;
      default: break;
    }
  }
  void capture(bool rvalid, const PackedToken& rdata, int tokenBits) {
    if (rvalid && pendingRead_ >= 0) {
      buf_[static_cast<size_t>(pendingRead_)] = rdata;
      pendingRead_ = -1;
      if (phase_ == Phase::CollectLast) {
        phase_ = Phase::Write;
        step_ = 0;
        wdata_ = model::unpack(buf_[0], tokenBits);
      }
    }
  }
  bool wantsPort() const { return phase_ == Phase::Read || phase_ == Phase::Write ||
                                  phase_ == Phase::Resume; }

 private:
  enum class Phase { Idle, Read, CollectLast, Write, Resume };
  int depth_;
  Phase phase_ = Phase::Idle;
  int warp_ = 0, head_ = 0, tail_ = 0, n_ = 0, newTail_ = 0, step_ = 0, pendingRead_ = -1;
  bool unrecoverable_ = false;
  std::vector<PackedToken> buf_;
  Token wdata_;
};

}  // namespace simt::runtime
