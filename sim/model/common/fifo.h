// Golden model of simt_fifo: a bounded FIFO with valid/ready handshakes on both sides.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

namespace simt::model {

template <class T>
class Fifo {
 public:
  explicit Fifo(size_t depth) : depth_(depth) {}
  bool writeReady() const { return items_.size() < depth_; }
  bool readValid() const { return !items_.empty(); }
  std::optional<T> head() const {
    if (items_.empty()) return std::nullopt;
    return items_.front();
  }
  size_t count() const { return items_.size(); }
  // Clock edge with the handshakes of this cycle (evaluated on the state before the edge).
  void commit(bool flush, bool wvalid, const T& wdata, bool rready) {
    if (flush) {
      items_.clear();
      return;
    }
    const bool doWrite = wvalid && writeReady();
    const bool doRead = rready && readValid();
    if (doRead) items_.pop_front();
    if (doWrite) items_.push_back(wdata);
  }

 private:
  size_t depth_;
  std::deque<T> items_;
};

}  // namespace simt::model
