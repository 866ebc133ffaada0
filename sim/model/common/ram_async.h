// Golden model of simt_ram_async: Depth words, one write a clock edge, reads of the stored
// word in the cycle. A word never written has no defined value (the RTL leaves it to the
// part): read() says so with std::nullopt, and callers compare only written words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace simt::model {

class RamAsync {
 public:
  explicit RamAsync(size_t depth) : words_(depth) {}
  std::optional<uint64_t> read(size_t addr) const {
    return addr < words_.size() ? words_[addr] : std::nullopt;
  }
  // Clock edge: the write of this cycle lands.
  void commit(bool we, size_t waddr, uint64_t wdata) {
    if (we && waddr < words_.size()) words_[waddr] = wdata;
  }

 private:
  std::vector<std::optional<uint64_t>> words_;
};

}  // namespace simt::model
