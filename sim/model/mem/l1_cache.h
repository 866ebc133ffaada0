// Transaction-level model of the L1 data cache (rtl/mem/simt_l1_cache.sv,
// docs/blocks/l1_cache.md): the tags, valid bits, tree pseudo-LRU bits and MSHRs, no data
// (block tests check data against a flat reference memory). Two transactions change it, in
// the order the cache performs them: a lookup of a request (hit, merge into an MSHR,
// allocate one, forward a write or atomic) and the installation of an MSHR's fill (victim
// way, eviction). decide() says what a lookup would do without doing it, stalls included.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::model {

class L1Cache {
 public:
  struct Config {
    uint32_t sizeBytes = 16384;
    uint32_t ways = 4;       // a power of two
    uint32_t lineBytes = 64;  // a power of two
    uint32_t mshrs = 8;
    uint32_t ids = 16;       // core ids (2^IdW)
  };
  enum class Kind { Read, Write, Atomic };
  struct Request {
    uint32_t id = 0;
    Kind kind = Kind::Read;
    uint32_t addr = 0;  // the line's byte address
  };
  enum class Outcome {
    ReadHit,     // answered from the line
    Merge,       // read miss into the MSHR of its line
    Alloc,       // read miss: a new MSHR requests the line
    Forward,     // write or atomic sent to memory (a write hit updates, an atomic hit invalidates)
    StallFull,   // read miss, every MSHR busy: holds
    StallOrder,  // write/atomic to a line in flight, or any request to a line whose fill may
                 // not install (invalidated in flight): holds until the fill
  };
  struct Decision {
    Outcome outcome = Outcome::ReadHit;
    bool hit = false;   // the line is present (way valid)
    uint32_t way = 0;   // when hit
    uint32_t mshr = 0;  // Merge, Alloc
  };
  struct Fill {
    bool install = false;  // false: error or invalidated in flight (nothing allocated)
    uint32_t way = 0;      // when installed
    bool evict = false;    // a valid line was replaced
    uint32_t evictedAddr = 0;
    std::vector<uint32_t> waiters;  // core ids answered from the fill, ascending
  };
  struct Counters {
    uint64_t hits = 0, misses = 0, merges = 0, evictions = 0;
  };

  explicit L1Cache(const Config& cfg);

  const Config& config() const { return cfg_; }
  uint32_t sets() const { return sets_; }
  uint32_t setOf(uint32_t addr) const { return (addr / cfg_.lineBytes) % sets_; }

  Decision decide(const Request& r) const;
  // Performs the lookup (the request must not stall: throws std::logic_error).
  Decision lookup(const Request& r);
  // Installs (or drops, err) the fill of MSHR m and frees it.
  Fill fill(uint32_t mshr, bool err);
  void invalidateAll();

  bool present(uint32_t addr) const;
  bool mshrBusy(uint32_t m) const { return mshrs_.at(m).valid; }
  uint32_t mshrAddr(uint32_t m) const { return mshrs_.at(m).line * cfg_.lineBytes; }
  uint32_t mshrsBusy() const;
  // The way the next fill of a set replaces (an invalid one first, else pseudo-LRU).
  uint32_t victim(uint32_t set) const;
  const Counters& counters() const { return counters_; }
  static std::string name(Outcome o);

 private:
  struct Way {
    bool valid = false;
    uint32_t line = 0;  // addr / lineBytes
  };
  struct Mshr {
    bool valid = false, noalloc = false;
    uint32_t line = 0;
    std::vector<bool> waiting;
  };
  int findWay(uint32_t set, uint32_t line) const;
  int findMshr(uint32_t line) const;
  void touch(uint32_t set, uint32_t way);

  Config cfg_;
  uint32_t sets_, levels_;
  std::vector<std::vector<Way>> lines_;      // [set][way]
  std::vector<std::vector<bool>> plru_;      // [set][node], heap order (node k = index k+1)
  std::vector<Mshr> mshrs_;
  Counters counters_;
};

}  // namespace simt::model
