// Cycle model of simt_thread_select (seed 000's thread select): participants of one
// critical-section portion served one at a time in ascending logical id, searching one
// 16-thread group per cycle, rescanning for late joiners; the logical-to-physical map per
// thread group. Same ports as the RTL: In for one cycle, Out as the registered outputs.
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
    std::vector<bool> startPart;  // maxThreads
    bool join = false;
    int joinTid = 0;
    bool next = false;
    bool abort = false;
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
  bool busy_ = false, rescan_ = false, selValid_ = false, done_ = false;
  int grp_ = 0, after_ = 0, sel_ = 0;
};

}  // namespace simt::model
