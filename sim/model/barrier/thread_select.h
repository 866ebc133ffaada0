// Cycle model of simt_thread_select (seed 000's thread select): the search engine that finds
// a critical-section portion's next participant in ascending logical id, one 16-thread group
// per cycle (the first in the start cycle), at or above a start position and then, if
// anything is pending below it (late joiners), once more from group 0; the
// logical-to-physical map per thread group. Same ports as the RTL: In for one cycle, Out as
// the registered outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simt::model {

class ThreadSelect {
 public:
  static constexpr int kGroup = 16;

  struct In {
    bool mapWe = false;
    int mapGroup = 0;
    uint32_t mapBase = 0;
    bool start = false;
    std::vector<bool> startPart;  // maxThreads: the pending members
    int startFrom = 0;            // search at or above (maxThreads: none above)
    bool clear = false;           // the selected thread was taken, or the portion dropped
  };
  struct Out {
    bool busy = false;
    bool selValid = false;
    int selTid = 0;
    uint32_t selPhys = 0;  // valid when the map entry of the selected group was written
    bool done = false;
  };

  ThreadSelect(int maxThreads, int physBits);
  Out out() const;
  void commit(const In& in);  // clock edge
  // Whether the group's map entry was ever written (the RTL's map has no reset).
  bool mapKnown(int group) const { return mapKnown_[static_cast<size_t>(group)]; }
  int groups() const { return groups_; }

 private:
  int maxThreads_, groups_;
  uint32_t physMask_;
  std::vector<bool> pend_;
  std::vector<uint32_t> map_;
  std::vector<bool> mapKnown_;
  bool busy_ = false, wrap_ = false, selValid_ = false, done_ = false;
  int grp_ = 0, after_ = 0, sel_ = 0;
};

}  // namespace simt::model
