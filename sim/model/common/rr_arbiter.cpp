#include "model/common/rr_arbiter.h"

#include "model/common/find_next_set.h"

namespace simt::model {

std::optional<int> RrArbiter::grant(uint64_t req) const {
  return findNextSet(req, n_, ptr_, /*wrap=*/true);
}

void RrArbiter::commit(uint64_t req, bool ack) {
  const auto g = grant(req);
  if (ack && g) ptr_ = (*g + 1) % n_;
}

}  // namespace simt::model
