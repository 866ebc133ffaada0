#include "model/divergence/token_deque.h"

#include <stdexcept>
#include <string>

namespace simt::model {

TokenDeque::TokenDeque(const Config& cfg) : cfg_(cfg), warps_(cfg.numWarps) {
  if (cfg.depth < 2 || (cfg.depth & (cfg.depth - 1)) != 0) {
    throw std::invalid_argument("TokenDeque: depth must be a power of two >= 2");
  }
  if (cfg.tokenBits != 64 && cfg.tokenBits != 128) {
    throw std::invalid_argument("TokenDeque: tokenBits must be 64 or 128");
  }
  for (auto& w : warps_) w.tail = cfg.depth / 2;  // head starts mid-allocation (seed 002)
}

TokenDeque::WarpQueue& TokenDeque::q(int warp) { return warps_.at(static_cast<size_t>(warp)); }
const TokenDeque::WarpQueue& TokenDeque::q(int warp) const {
  return warps_.at(static_cast<size_t>(warp));
}

Token TokenDeque::normalize(Token t) const {
  t.mask &= maskBits();
  t.addr &= addrBits();
  t.summary &= (1u << summary::kWidth) - 1;
  return t;
}

bool TokenDeque::wouldOverflow(int warp, End end) const {
  return end == End::Back ? tail(warp) == 0 : head(warp) == cfg_.depth;
}

TokenDeque::PushResult TokenDeque::push(int warp, End end, Token tok) {
  WarpQueue& wq = q(warp);
  if (wq.stalled) return PushResult::Stalled;
  if (wouldOverflow(warp, end)) {
    wq.stalled = true;
    materializeRegion(wq);
    return PushResult::Overflow;
  }
  tok = normalize(tok);
  tok.summary = summaryBit(tok.type);
  if (end == End::Front) {
    // Seed 002: OR the adjacent token's summary, then set this token's own type bit.
    if (!wq.entries.empty()) tok.summary |= wq.entries.front().summary;
    wq.entries.push_front(tok);
  } else {
    wq.backSum |= summaryBit(tok.type);
    wq.entries.push_back(tok);
    wq.tail--;
  }
  return PushResult::Accepted;
}

std::optional<Token> TokenDeque::pop(int warp) {
  WarpQueue& wq = q(warp);
  if (wq.stalled || wq.entries.empty()) return std::nullopt;
  Token t = wq.entries.front();
  wq.entries.pop_front();
  if (wq.entries.empty()) wq.backSum = 0;
  return t;
}

bool TokenDeque::mergeMask(int warp, TokenType type, uint32_t addr, uint64_t mask) {
  WarpQueue& wq = q(warp);
  if (wq.stalled || (types(warp) & summaryBit(type)) == 0) return false;
  addr &= addrBits();
  for (Token& t : wq.entries) {
    if (t.type == type && t.addr == addr) {
      t.mask |= mask & maskBits();
      return true;
    }
  }
  return false;
}

const Token& TokenDeque::entryAt(int warp, int pos) const {
  return q(warp).entries.at(static_cast<size_t>(pos));
}

void TokenDeque::writeAt(int warp, int pos, const Token& tok) {
  q(warp).entries.at(static_cast<size_t>(pos)) = normalize(tok);
}

std::optional<Token> TokenDeque::front(int warp) const {
  const WarpQueue& wq = q(warp);
  if (wq.entries.empty()) return std::nullopt;
  return wq.entries.front();
}

uint8_t TokenDeque::types(int warp) const {
  const WarpQueue& wq = q(warp);
  uint8_t t = wq.backSum;
  if (!wq.entries.empty()) t |= wq.entries.front().summary;
  return t;
}

uint8_t TokenDeque::exactTypes(int warp) const {
  uint8_t t = 0;
  for (const Token& e : q(warp).entries) t |= summaryBit(e.type);
  return t;
}

void TokenDeque::materializeRegion(WarpQueue& wq) {
  wq.region.assign(static_cast<size_t>(cfg_.depth), std::nullopt);
  // entries.front() sits at head-1, entries.back() at tail.
  int idx = wq.tail + static_cast<int>(wq.entries.size()) - 1;
  for (const Token& t : wq.entries) wq.region[static_cast<size_t>(idx--)] = t;
}

void TokenDeque::stall(int warp) {
  WarpQueue& wq = q(warp);
  if (wq.stalled) return;
  wq.stalled = true;
  materializeRegion(wq);
}

std::optional<Token> TokenDeque::readEntry(int warp, int idx) const {
  const WarpQueue& wq = q(warp);
  if (!wq.stalled) throw std::logic_error("TokenDeque::readEntry on a running queue");
  return wq.region.at(static_cast<size_t>(idx));
}

void TokenDeque::writeEntry(int warp, int idx, const Token& tok) {
  WarpQueue& wq = q(warp);
  if (!wq.stalled) throw std::logic_error("TokenDeque::writeEntry on a running queue");
  wq.region.at(static_cast<size_t>(idx)) = normalize(tok);
}

void TokenDeque::resume(int warp, int head, int tail) {
  WarpQueue& wq = q(warp);
  if (tail < 0 || tail > head || head > cfg_.depth) {
    throw std::invalid_argument("TokenDeque::resume: pointers out of order");
  }
  if (!wq.stalled) materializeRegion(wq);
  std::deque<Token> entries;
  for (int i = head - 1; i >= tail; --i) {
    const auto& e = wq.region[static_cast<size_t>(i)];
    if (!e) {
      throw std::logic_error("TokenDeque::resume: entry " + std::to_string(i) +
                             " of warp " + std::to_string(warp) + " was never written");
    }
    entries.push_back(*e);
  }
  wq.entries = std::move(entries);
  wq.tail = tail;
  wq.stalled = false;
  wq.region.clear();
  if (wq.entries.empty()) wq.backSum = 0;
}

bool TokenDeque::recentre(int warp) {
  const int n = count(warp);
  if (n >= cfg_.depth) return false;
  stall(warp);
  const int oldTail = tail(warp);
  const int newTail = (cfg_.depth - n) / 2;
  std::vector<Token> copy;
  for (int i = 0; i < n; ++i) copy.push_back(*readEntry(warp, oldTail + i));
  for (int i = 0; i < n; ++i) writeEntry(warp, newTail + i, copy[static_cast<size_t>(i)]);
  resume(warp, newTail + n, newTail);
  return true;
}

// ------------------------------------------------------------------------------------------
// Port timing
// ------------------------------------------------------------------------------------------
bool TokenDequeCycle::pushFits(int warp, TokenDeque::End end) const {
  return !dq_.stalled(warp) && !dq_.wouldOverflow(warp, end);
}

bool TokenDequeCycle::pushReady(const TokenDequeIn& in) const {
  const auto end = in.pushBack ? TokenDeque::End::Back : TokenDeque::End::Front;
  // A front push and a pop of the same warp in one cycle is refused (see the RTL header).
  const bool clash = in.popValid && in.popWarp == in.pushWarp && !in.pushBack;
  return pushFits(in.pushWarp, end) && !clash;
}

TokenDequeOut TokenDequeCycle::evaluate(const TokenDequeIn& in) const {
  TokenDequeOut o;
  o.pushReady = pushReady(in);
  o.pushFrontReady = pushFits(in.fitWarp, TokenDeque::End::Front);
  o.pushBackReady = pushFits(in.fitWarp, TokenDeque::End::Back);
  o.popReady = !dq_.stalled(in.popWarp) && dq_.count(in.popWarp) > 0;
  if (o.popReady) o.popToken = dq_.front(in.popWarp);
  o.qryFront = dq_.front(in.qryWarp);
  o.qryEmpty = dq_.count(in.qryWarp) == 0;
  o.qryCount = dq_.count(in.qryWarp);
  o.cntCount = dq_.count(in.cntWarp);
  o.qryHead = dq_.head(in.qryWarp);
  o.qryTail = dq_.tail(in.qryWarp);
  o.qryTypes = dq_.types(in.qryWarp);
  o.excValid = excValid_;
  o.excWarp = excWarp_;
  o.excBack = excBack_;
  for (int w = 0; w < dq_.config().numWarps; ++w) {
    if (dq_.stalled(w)) o.stalled |= 1ull << w;
  }
  o.accReady = !in.pushValid && !in.popValid && !dq_.stalled(in.accWarp);
  o.accRvalid = accRvalid_;
  o.accRdata = accRdata_;
  o.mntReady = !in.pushValid && !in.popValid && !in.accValid;
  o.mntRvalid = mntRvalid_;
  o.mntRdata = mntRdata_;
  return o;
}

void TokenDequeCycle::commit(const TokenDequeIn& in) {
  const bool pushOk = in.pushValid && pushReady(in);
  const bool overflow = in.pushValid && !dq_.stalled(in.pushWarp) &&
                        dq_.wouldOverflow(in.pushWarp, in.pushBack ? TokenDeque::End::Back
                                                                   : TokenDeque::End::Front);
  const bool mntOk = in.mntValid && !in.pushValid && !in.popValid && !in.accValid;
  const bool accOk = in.accValid && !in.pushValid && !in.popValid && !dq_.stalled(in.accWarp);
  excValid_ = false;
  accRvalid_ = false;
  accRdata_.reset();
  if (accOk) {
    if (in.accWe) {
      dq_.writeAt(in.accWarp, in.accPos, in.accWdata);
    } else {
      accRvalid_ = true;
      accRdata_ = dq_.entryAt(in.accWarp, in.accPos);
    }
  }
  mntRvalid_ = false;
  mntRdata_.reset();

  if (in.popValid) dq_.pop(in.popWarp);  // no effect when not ready
  if (pushOk) {
    dq_.push(in.pushWarp, in.pushBack ? TokenDeque::End::Back : TokenDeque::End::Front,
             in.pushToken);
  } else if (overflow) {
    // Judged on the state before this cycle's pop, as the RTL does: the push is refused and
    // the queue stalls even if the pop just made room.
    dq_.stall(in.pushWarp);
    excValid_ = true;
    excWarp_ = in.pushWarp;
    excBack_ = in.pushBack;
  }
  if (mntOk) {
    switch (in.mntOp) {
      case MntOp::Stall: dq_.stall(in.mntWarp); break;
      case MntOp::Read:
        mntRvalid_ = true;
        mntRdata_ = dq_.readEntry(in.mntWarp, in.mntIdx);
        break;
      case MntOp::Write: dq_.writeEntry(in.mntWarp, in.mntIdx, in.mntWdata); break;
      case MntOp::Resume: dq_.resume(in.mntWarp, in.mntHead, in.mntTail); break;
    }
  }
}

}  // namespace simt::model
