#include "model/barrier/thread_select.h"

#include <algorithm>

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
  const bool anyPart = in.start && std::find(in.startPart.begin(), in.startPart.end(), true) != in.startPart.end();
  const std::vector<bool>& src = in.start ? in.startPart : pend_;
  std::vector<bool> pend = src;
  bool busy = busy_, wrap = wrap_, selValid = selValid_, done = false;
  int grp = grp_, after = after_, sel = sel_;
  // The group searched this cycle: the start's own first group, or the one in progress.
  int sGrp = grp_, sAfter = after_;
  bool sWrap = wrap_;
  if (in.start) {
    const bool fromEnd = in.startFrom >= maxThreads_;
    sGrp = fromEnd ? 0 : in.startFrom / kGroup;
    sAfter = fromEnd ? 0 : in.startFrom % kGroup;
    sWrap = !fromEnd && in.startFrom != 0;
  }
  const bool searching = !in.clear && (in.start || (busy_ && !selValid_));
  if (in.clear) {
    busy = false;
    selValid = false;
  } else if (in.start && !anyPart) {
    busy = false;
    selValid = false;
    done = true;
  } else if (searching) {
    busy = true;
    selValid = false;
    int found = -1;
    for (int o = sAfter; o < kGroup && found < 0; ++o) {
      if (src[static_cast<size_t>(sGrp * kGroup + o)]) found = o;
    }
    if (found >= 0) {
      selValid = true;
      sel = sGrp * kGroup + found;
    } else if (sGrp != groups_ - 1) {
      grp = sGrp + 1;
      after = 0;
      wrap = sWrap;
    } else if (sWrap) {
      grp = 0;
      after = 0;
      wrap = false;
    } else {
      busy = false;
      done = true;
    }
  }
  if (in.mapWe) {
    map_[static_cast<size_t>(in.mapGroup)] = in.mapBase & physMask_;
    mapKnown_[static_cast<size_t>(in.mapGroup)] = true;
  }
  pend_ = std::move(pend);
  busy_ = busy;
  wrap_ = wrap;
  selValid_ = selValid;
  done_ = done;
  grp_ = grp;
  after_ = after;
  sel_ = sel;
}

}  // namespace simt::model
