#include "model/barrier/thread_select.h"

namespace simt::model {

ThreadSelect::ThreadSelect(int maxThreads, int physBits)
    : maxThreads_(maxThreads), groups_(maxThreads / kGroup),
      physMask_(physBits >= 32 ? ~0u : ((1u << physBits) - 1)),
      pend_(static_cast<size_t>(maxThreads), false),
      map_(static_cast<size_t>(groups_), 0), mapKnown_(static_cast<size_t>(groups_), false) {}

ThreadSelect::Out ThreadSelect::out() const {
  Out o;
  o.busy = busy_;
  o.selValid = selValid_;
  o.selTid = sel_;
  o.selPhys = (map_[static_cast<size_t>(sel_ / kGroup)] + static_cast<uint32_t>(sel_ % kGroup)) & physMask_;
  o.done = done_;
  return o;
}

void ThreadSelect::commit(const In& in) {
  std::vector<bool> pend = pend_;
  bool busy = busy_, rescan = rescan_, selValid = selValid_, done = false;
  int grp = grp_, after = after_, sel = sel_;
  if (in.abort) {
    busy = false;
    selValid = false;
    pend.assign(pend.size(), false);
    rescan = false;
  } else if (in.start) {
    pend = in.startPart;
    busy = true;
    grp = 0;
    after = 0;
    rescan = false;
    selValid = false;
  } else {
    const bool searching = busy_ && (!selValid_ || in.next);
    if (selValid_ && in.next) {
      pend[static_cast<size_t>(sel_)] = false;
      selValid = false;
    }
    bool lastEmpty = false;
    if (searching) {
      // This group's execution mask above the last served offset.
      int found = -1;
      for (int o = after_; o < kGroup && found < 0; ++o) {
        const int t = grp_ * kGroup + o;
        if (pend_[static_cast<size_t>(t)] && !(selValid_ && t == sel_)) found = o;
      }
      if (found >= 0) {
        selValid = true;
        sel = grp_ * kGroup + found;
        after = found + 1;
      } else if (grp_ != groups_ - 1) {
        grp = grp_ + 1;
        after = 0;
      } else if (rescan_ || in.join) {
        grp = 0;
        after = 0;
        rescan = false;
        lastEmpty = true;
      } else {
        busy = false;
        done = true;
        lastEmpty = true;
      }
    }
    if (in.join && busy_) {
      pend[static_cast<size_t>(in.joinTid)] = true;
      if (!lastEmpty) rescan = true;
    }
  }
  if (in.mapWe) {
    map_[static_cast<size_t>(in.mapGroup)] = in.mapBase & physMask_;
    mapKnown_[static_cast<size_t>(in.mapGroup)] = true;
  }
  pend_ = std::move(pend);
  busy_ = busy;
  rescan_ = rescan;
  selValid_ = selValid;
  done_ = done;
  grp_ = grp;
  after_ = after;
  sel_ = sel;
}

}  // namespace simt::model
