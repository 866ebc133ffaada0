// Golden model of simt_ram_async: Depth words, one write a clock edge, reads of the stored
// word in the cycle. Without ResetValid a word never written has no defined value (the RTL
// leaves it to the part): read() says so with std::nullopt, and callers compare only written
// words. With ResetValid every word reads as the reset word until written after reset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace simt::model {

class RamAsync {
 public:
  explicit RamAsync(size_t depth, std::optional<uint64_t> resetWord = std::nullopt)
      : resetWord_(resetWord), words_(depth, resetWord) {}
  void reset() { words_.assign(words_.size(), resetWord_); }
  std::optional<uint64_t> read(size_t addr) const {
    return addr < words_.size() ? words_[addr] : std::nullopt;
  }
  // Clock edge: the write of this cycle lands, with NumWe write enables (one: the whole word),
  // part k (bits [k*partW, (k+1)*partW)) written when bit k of enables is set. A word never
  // written becomes defined only by a write of every part.
  void commitParts(uint32_t enables, int numWe, int partW, size_t waddr, uint64_t wdata) {
    if (enables == 0 || waddr >= words_.size()) return;
    const uint32_t all = numWe >= 32 ? ~0u : (1u << numWe) - 1;
    if (!words_[waddr] && enables != all) return;
    uint64_t word = words_[waddr].value_or(0);
    for (int k = 0; k < numWe; ++k) {
      if (!((enables >> k) & 1u)) continue;
      const uint64_t mask = ((partW >= 64) ? ~0ull : ((1ull << partW) - 1)) << (k * partW);
      word = (word & ~mask) | (wdata & mask);
    }
    words_[waddr] = word;
  }

 private:
  std::optional<uint64_t> resetWord_;
  std::vector<std::optional<uint64_t>> words_;
};

}  // namespace simt::model
