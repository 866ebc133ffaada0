#include "model/mem/line_memory.h"

#include "asm/isa.h"

#include <algorithm>
#include <stdexcept>

namespace simt::model {

LineMemory::LineMemory(std::vector<uint32_t>& words, uint32_t lineBytes, const Timing& timing)
    : words_(words), lineBytes_(lineBytes), t_(timing), rng_(timing.seed) {
  if (lineBytes < 4 || (lineBytes & (lineBytes - 1)) != 0) throw std::invalid_argument("line bytes: a power of 2, 4 or more");
  if (t_.latency == 0) t_.latency = 1;
  if (t_.bandwidth == 0) t_.bandwidth = 1;
  decideReady();
}

uint32_t LineMemory::amoApply(uint8_t op, uint32_t old, uint32_t operand, uint32_t cmp) {
  // amo_e: the ISA's atomic operation plus one (isa::atomicResult), 8 cas, 0 none.
  if (op == 8) return old == cmp ? operand : old;
  if (op == 0 || op > 8) return old;
  return isa::atomicResult(static_cast<isa::AtomOp>(op - 1), old, operand);
}

uint64_t LineMemory::transferCycles(uint32_t lineBytes, uint32_t bandwidth) {
  return std::max<uint64_t>(1, (lineBytes + bandwidth - 1) / bandwidth);
}

uint32_t LineMemory::outstandingFor(uint32_t latency, uint32_t bandwidth, uint32_t lineBytes) {
  const uint64_t transfer = transferCycles(lineBytes, bandwidth);
  // Lines a cycle: bandwidth / lineBytes, at most one (one request a cycle).
  const uint64_t perCycleNum = std::min<uint64_t>(bandwidth, lineBytes);
  const uint64_t inFlight = (perCycleNum * (latency + transfer) + lineBytes - 1) / lineBytes;
  return static_cast<uint32_t>(std::max<uint64_t>(64, std::min<uint64_t>(2 * inFlight, 1u << 20)));
}

void LineMemory::decideReady() {
  ready_ = pending_.size() < t_.maxOutstanding;
  if (ready_ && t_.refuse256) ready_ = (rng_() & 255u) >= t_.refuse256;
}

LineMemory::Response LineMemory::perform(const Request& r) {
  const uint32_t lineWords = lineBytes_ / 4;
  Response rsp;
  rsp.id = r.id;
  rsp.rdata.assign(lineWords, 0);
  ++stats_.requests;
  const uint64_t first = r.addr / 4;
  const bool backed = r.addr % lineBytes_ == 0 && first + lineWords <= words_.size();
  bool err = !backed || (t_.error256 && (rng_() & 255u) < t_.error256);
  uint32_t bytes = 0;
  for (uint32_t b = 0; b < lineBytes_; ++b) bytes += r.be[b] ? 1 : 0;
  if (!err) {
    if (r.amo) {
      ++stats_.atomics;
      stats_.readBytes += 4;
      stats_.writeBytes += 4;
      uint32_t w = 0;
      while (w < lineWords && !r.be[4 * w]) ++w;
      uint32_t& word = words_[first + w];
      const uint32_t old = word;
      word = amoApply(r.amo, old, r.wdata[w], r.cmp);
      if (writeHook_) writeHook_(r.addr + 4 * w, old, word);
      rsp.rdata[w] = old;
    } else if (r.write) {
      ++stats_.writes;
      stats_.writeBytes += bytes;
      for (uint32_t w = 0; w < lineWords; ++w) {
        uint32_t& word = words_[first + w];
        const uint32_t old = word;
        for (uint32_t b = 0; b < 4; ++b) {
          if (r.be[4 * w + b]) word = (word & ~(0xFFu << (8 * b))) | (r.wdata[w] & (0xFFu << (8 * b)));
        }
        if (writeHook_ && word != old) writeHook_(r.addr + 4 * w, old, word);
      }
    } else {
      ++stats_.reads;
      stats_.readBytes += bytes;
      for (uint32_t w = 0; w < lineWords; ++w) rsp.rdata[w] = words_[first + w];
    }
  } else {
    ++stats_.errors;
  }
  rsp.err = err;
  return rsp;
}

void LineMemory::accept(const Request& r) {
  Response rsp = perform(r);
  // The data channel moves the line; the response follows its transfer by the latency.
  const uint64_t occupancy = transferCycles(lineBytes_, t_.bandwidth);
  const uint64_t start = std::max(now_, channelFree_);
  channelFree_ = start + occupancy;
  rsp.readyAt = channelFree_ - 1 + t_.latency;
  if (t_.jitter) rsp.readyAt += rng_() % (t_.jitter + 1);
  pending_.push_back(std::move(rsp));
  ready_ = false;  // one request per cycle
}

size_t LineMemory::offeredIndex() const {
  size_t best = pending_.size();
  for (size_t i = 0; i < pending_.size(); ++i) {
    const uint64_t at = pending_[i].readyAt;
    if (at <= now_ && (best == pending_.size() || at < pending_[best].readyAt)) best = i;
  }
  return best;
}

const LineMemory::Response* LineMemory::offered() const {
  const size_t i = offeredIndex();
  return i < pending_.size() ? &pending_[i] : nullptr;
}

void LineMemory::take() {
  const size_t i = offeredIndex();
  if (i == pending_.size()) throw std::logic_error("LineMemory::take without an offered response");
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
}

void LineMemory::tick() {
  ++now_;
  decideReady();
}

}  // namespace simt::model
