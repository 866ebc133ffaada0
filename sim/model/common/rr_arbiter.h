// Golden model of simt_rr_arbiter.
#pragma once

#include <cstdint>
#include <optional>

namespace simt::model {

class RrArbiter {
 public:
  explicit RrArbiter(int n) : n_(n) {}
  // The grant for these requests this cycle (no state change).
  std::optional<int> grant(uint64_t req) const;
  // Clock edge: if ack and a grant exists, the requester after it gets top priority.
  void commit(uint64_t req, bool ack);
  int pointer() const { return ptr_; }

 private:
  int n_;
  int ptr_ = 0;
};

}  // namespace simt::model
