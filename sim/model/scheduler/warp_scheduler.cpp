#include "model/scheduler/warp_scheduler.h"

#include <stdexcept>

#include "model/common/find_next_set.h"
#include "model/common/rr_arbiter.h"

namespace simt::model {

WarpScheduler::WarpScheduler(const Config& cfg)
    : cfg_(cfg), copies_(static_cast<size_t>(cfg.numWarps)), fillArb_(cfg.numWarps),
      busy_(static_cast<size_t>(cfg.numWarps), false), age_(static_cast<size_t>(cfg.numWarps), 0) {
  if (cfg.numWarps < 1 || cfg.numWarps > 64) {
    throw std::invalid_argument("WarpScheduler: 1..64 warps");
  }
}

WarpScheduler::Inputs WarpScheduler::blankInputs() const {
  Inputs in;
  in.warps.resize(static_cast<size_t>(cfg_.numWarps));
  in.ctaPrio.resize(static_cast<size_t>(cfg_.numCtas), 0);
  in.barriers.resize(static_cast<size_t>(cfg_.numCtas * cfg_.numBarIds));
  return in;
}

int WarpScheduler::barrierIndex(const Inputs& in, int warp) const {
  const WarpIn& w = in.warps[static_cast<size_t>(warp)];
  return w.cta * cfg_.numBarIds + w.barId;
}

bool WarpScheduler::blocks(const BarrierEntry& e, uint32_t tag) {
  const bool sameTag = e.tag == tag;
  const bool busyOtherTag = (e.state == BarState::Static || e.state == BarState::Dynamic) && !sameTag;
  const bool dynamicClosed = e.state == BarState::Dynamic && sameTag && !e.lateOk;
  return busyOtherTag || dynamicClosed;
}

bool WarpScheduler::barrierBlocks(const Inputs& in, int warp) const {
  const WarpIn& w = in.warps[static_cast<size_t>(warp)];
  if (!w.instBar) return false;
  const EntryCopy& c = copies_[static_cast<size_t>(warp)];
  if (!c.valid || c.idx != barrierIndex(in, warp)) return true;  // wait for the fill
  return blocks(c.value, w.tag);
}

bool WarpScheduler::barrierBlocksByTable(const Inputs& in, int warp) const {
  const WarpIn& w = in.warps[static_cast<size_t>(warp)];
  return w.instBar && blocks(in.barriers[static_cast<size_t>(barrierIndex(in, warp))], w.tag);
}

uint64_t WarpScheduler::fillRequests(const Inputs& in) const {
  uint64_t req = 0;
  for (int w = 0; w < cfg_.numWarps; ++w) {
    const WarpIn& wi = in.warps[static_cast<size_t>(w)];
    const EntryCopy& c = copies_[static_cast<size_t>(w)];
    const bool hit = c.valid && c.idx == barrierIndex(in, w);
    if (wi.instBar && !hit && wi.valid) req |= 1ull << w;
  }
  return req;
}

std::optional<int> WarpScheduler::fillWarp(const Inputs& in) const {
  return fillArb_.grant(fillRequests(in));
}

bool WarpScheduler::copiesCoherent(const std::vector<BarrierEntry>& table) const {
  for (const EntryCopy& c : copies_) {
    if (c.valid && !(c.value == table[static_cast<size_t>(c.idx)])) return false;
  }
  return true;
}

bool WarpScheduler::eligible(const Inputs& in, int warp) const {
  const WarpIn& w = in.warps[static_cast<size_t>(warp)];
  return w.valid && w.active && w.instValid && !w.stall &&
         (!busy_[static_cast<size_t>(warp)] || w.retire) && !barrierBlocks(in, warp);
}

uint32_t WarpScheduler::key(const Inputs& in, int warp) const {
  const WarpIn& w = in.warps[static_cast<size_t>(warp)];
  const uint32_t age = age_[static_cast<size_t>(warp)];
  switch (in.policy) {
    case SchedPolicy::Oldest: return age;
    case SchedPolicy::Program: return w.progPrio;
    case SchedPolicy::Cta: return in.ctaPrio[static_cast<size_t>(w.cta)];
    case SchedPolicy::Gto:
      return ((lastValid_ && last_ == warp) ? 1u << cfg_.prioBits : 0u) | age;
    case SchedPolicy::Lrr: return 0;
  }
  return 0;
}

std::optional<int> WarpScheduler::choose(const Inputs& in) const {
  bool any = false;
  uint32_t best = 0;
  for (int w = 0; w < cfg_.numWarps; ++w) {
    if (!eligible(in, w)) continue;
    const uint32_t k = key(in, w);
    if (!any || k > best) best = k;
    any = true;
  }
  if (!any) return std::nullopt;
  uint64_t candidates = 0;
  for (int w = 0; w < cfg_.numWarps; ++w) {
    if (eligible(in, w) && key(in, w) == best) candidates |= 1ull << w;
  }
  return findNextSet(candidates, cfg_.numWarps, rrPtr_, /*wrap=*/true);
}

void WarpScheduler::commit(const Inputs& in) {
  const auto pick = choose(in);  // on the state before the edge
  // Barrier-entry copies: fill one, then apply the table's updates of this cycle.
  const uint64_t fillReq = fillRequests(in);
  const auto fill = fillArb_.grant(fillReq);
  if (fill) {
    EntryCopy& c = copies_[static_cast<size_t>(*fill)];
    c.valid = true;
    c.idx = barrierIndex(in, *fill);
    c.value = in.barriers[static_cast<size_t>(c.idx)];
  }
  fillArb_.commit(fillReq, /*ack=*/true);
  for (int w = 0; w < cfg_.numWarps; ++w) {
    EntryCopy& c = copies_[static_cast<size_t>(w)];
    for (const BarrierUpdate& u : in.updates) {
      if (c.valid && c.idx == u.idx) c.value = u.value;
    }
    if (!in.warps[static_cast<size_t>(w)].valid) c.valid = false;
  }

  const bool fire = pick.has_value() && in.issueReady;
  const uint32_t ageMax = (1u << cfg_.prioBits) - 1;
  for (int w = 0; w < cfg_.numWarps; ++w) {
    const auto i = static_cast<size_t>(w);
    const bool granted = fire && *pick == w;
    busy_[i] = (busy_[i] && !in.warps[i].retire) || granted;
    if (granted || !in.warps[i].valid) age_[i] = 0;
    else if (age_[i] != ageMax) ++age_[i];
  }
  if (lastValid_ && !in.warps[static_cast<size_t>(last_)].valid) lastValid_ = false;
  if (fire) {
    last_ = *pick;
    lastValid_ = true;
    rrPtr_ = (*pick + 1) % cfg_.numWarps;
  }
}

}  // namespace simt::model
