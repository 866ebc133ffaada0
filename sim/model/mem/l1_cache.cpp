#include "model/mem/l1_cache.h"

#include <stdexcept>

namespace simt::model {

namespace {
bool pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
uint32_t log2u(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) ++l;
  return l;
}
}  // namespace

L1Cache::L1Cache(const Config& cfg) : cfg_(cfg) {
  if (!pow2(cfg.ways) || !pow2(cfg.lineBytes) || cfg.mshrs == 0 || cfg.ids == 0 ||
      cfg.sizeBytes % (cfg.ways * cfg.lineBytes) != 0 || !pow2(cfg.sizeBytes / (cfg.ways * cfg.lineBytes))) {
    throw std::invalid_argument("L1Cache: geometry (powers of two)");
  }
  sets_ = cfg.sizeBytes / (cfg.ways * cfg.lineBytes);
  levels_ = log2u(cfg.ways);
  lines_.assign(sets_, std::vector<Way>(cfg.ways));
  plru_.assign(sets_, std::vector<bool>(cfg.ways > 1 ? cfg.ways - 1 : 1, false));
  mshrs_.assign(cfg.mshrs, Mshr{});
  for (auto& m : mshrs_) m.waiting.assign(cfg.ids, false);
}

std::string L1Cache::name(Outcome o) {
  switch (o) {
    case Outcome::ReadHit: return "read-hit";
    case Outcome::Merge: return "merge";
    case Outcome::Alloc: return "alloc";
    case Outcome::Forward: return "forward";
    case Outcome::StallFull: return "stall-full";
    case Outcome::StallOrder: return "stall-order";
  }
  return "?";
}

int L1Cache::findWay(uint32_t set, uint32_t line) const {
  for (uint32_t w = 0; w < cfg_.ways; ++w) {
    if (lines_[set][w].valid && lines_[set][w].line == line) return static_cast<int>(w);
  }
  return -1;
}

int L1Cache::findMshr(uint32_t line) const {
  for (uint32_t m = 0; m < cfg_.mshrs; ++m) {
    if (mshrs_[m].valid && mshrs_[m].line == line) return static_cast<int>(m);
  }
  return -1;
}

uint32_t L1Cache::mshrsBusy() const {
  uint32_t n = 0;
  for (const auto& m : mshrs_) n += m.valid ? 1 : 0;
  return n;
}

bool L1Cache::present(uint32_t addr) const {
  return findWay(setOf(addr), addr / cfg_.lineBytes) >= 0;
}

// Node k (heap index k+1) points to the half to replace next; a touch points the nodes on the
// way's path away from it.
void L1Cache::touch(uint32_t set, uint32_t way) {
  uint32_t n = 1;
  for (uint32_t lv = 0; lv < levels_; ++lv) {
    const uint32_t dir = (way >> (levels_ - 1 - lv)) & 1u;
    plru_[set][n - 1] = dir == 0;
    n = 2 * n + dir;
  }
}

uint32_t L1Cache::victim(uint32_t set) const {
  for (uint32_t w = 0; w < cfg_.ways; ++w) {
    if (!lines_[set][w].valid) return w;
  }
  uint32_t n = 1;
  for (uint32_t lv = 0; lv < levels_; ++lv) n = 2 * n + (plru_[set][n - 1] ? 1u : 0u);
  return n - cfg_.ways;
}

L1Cache::Decision L1Cache::decide(const Request& r) const {
  Decision d;
  const uint32_t line = r.addr / cfg_.lineBytes;
  const int way = findWay(setOf(r.addr), line);
  const int m = findMshr(line);
  d.hit = way >= 0;
  d.way = way >= 0 ? static_cast<uint32_t>(way) : 0;
  if (m >= 0 && mshrs_[static_cast<size_t>(m)].noalloc) {
    d.outcome = Outcome::StallOrder;
  } else if (r.kind == Kind::Read) {
    if (d.hit) {
      d.outcome = Outcome::ReadHit;
    } else if (m >= 0) {
      d.outcome = Outcome::Merge;
      d.mshr = static_cast<uint32_t>(m);
    } else {
      d.outcome = Outcome::StallFull;
      for (uint32_t i = 0; i < cfg_.mshrs; ++i) {
        if (!mshrs_[i].valid) {
          d.outcome = Outcome::Alloc;
          d.mshr = i;
          break;
        }
      }
    }
  } else {
    d.outcome = m >= 0 ? Outcome::StallOrder : Outcome::Forward;
  }
  return d;
}

L1Cache::Decision L1Cache::lookup(const Request& r) {
  const Decision d = decide(r);
  const uint32_t set = setOf(r.addr), line = r.addr / cfg_.lineBytes;
  switch (d.outcome) {
    case Outcome::ReadHit:
      touch(set, d.way);
      ++counters_.hits;
      break;
    case Outcome::Merge:
      mshrs_[d.mshr].waiting.at(r.id) = true;
      ++counters_.misses;
      ++counters_.merges;
      break;
    case Outcome::Alloc: {
      Mshr& m = mshrs_[d.mshr];
      m.valid = true;
      m.noalloc = false;
      m.line = line;
      m.waiting.assign(cfg_.ids, false);
      m.waiting.at(r.id) = true;
      ++counters_.misses;
      break;
    }
    case Outcome::Forward:
      if (r.kind == Kind::Write) {
        if (d.hit) {
          touch(set, d.way);
          ++counters_.hits;
        } else {
          ++counters_.misses;
        }
      } else if (d.hit) {
        lines_[set][d.way].valid = false;
      }
      break;
    case Outcome::StallFull:
    case Outcome::StallOrder:
      throw std::logic_error("L1Cache::lookup of a request that must hold: " + name(d.outcome));
  }
  return d;
}

L1Cache::Fill L1Cache::fill(uint32_t mshr, bool err) {
  Mshr& m = mshrs_.at(mshr);
  if (!m.valid) throw std::logic_error("L1Cache::fill of an idle MSHR");
  Fill f;
  for (uint32_t i = 0; i < cfg_.ids; ++i) {
    if (m.waiting[i]) f.waiters.push_back(i);
  }
  f.install = !err && !m.noalloc;
  const uint32_t set = m.line % sets_;
  if (f.install) {
    f.way = victim(set);
    Way& w = lines_[set][f.way];
    f.evict = w.valid;
    f.evictedAddr = w.line * cfg_.lineBytes;
    if (f.evict) ++counters_.evictions;
    w.valid = true;
    w.line = m.line;
    touch(set, f.way);
  }
  m.valid = false;
  m.noalloc = false;
  m.waiting.assign(cfg_.ids, false);
  return f;
}

void L1Cache::invalidateAll() {
  for (auto& set : lines_) {
    for (auto& w : set) w.valid = false;
  }
  for (auto& m : mshrs_) {
    if (m.valid) m.noalloc = true;
  }
}

}  // namespace simt::model
