// Golden model of simt_find_next_set.
#pragma once

#include <cstdint>
#include <optional>

namespace simt::model {

// First set bit of the low n bits of vec at index >= start; with wrap, the search continues
// from bit 0. nullopt when no bit qualifies.
inline std::optional<int> findNextSet(uint64_t vec, int n, int start, bool wrap) {
  for (int i = start; i < n; ++i) {
    if ((vec >> i) & 1u) return i;
  }
  if (wrap) {
    for (int i = 0; i < n && i < start; ++i) {
      if ((vec >> i) & 1u) return i;
    }
  }
  return std::nullopt;
}

}  // namespace simt::model
