// Golden model of simt_warp_scheduler: eligibility (including the barrier scoreboard of
// seed 000 [0099] with its per-warp copies of barrier-table entries), per-policy keys,
// max-key selection with round-robin among equals, and the per-warp state (in-flight flag,
// age, last issued warp, round-robin pointer).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/common/rr_arbiter.h"

namespace simt::model {

enum class SchedPolicy : uint8_t { Oldest = 0, Program = 1, Cta = 2, Gto = 3, Lrr = 4 };
enum class BarState : uint8_t { Idle = 0, Static = 1, Dynamic = 2 };

class WarpScheduler {
 public:
  struct Config {
    int numWarps = 8;
    int prioBits = 6;
    int numCtas = 4;
    int numBarIds = 16;
    int tagBits = 22;
    int numUpd = 2;  // table updates reported per cycle
  };
  struct WarpIn {
    bool valid = false, active = false, instValid = false, stall = false, retire = false;
    int cta = 0;
    uint32_t progPrio = 0;
    bool instBar = false;  // the instruction names a barrier
    int barId = 0;
    uint32_t tag = 0;      // the instruction's PC
  };
  struct BarrierEntry {
    BarState state = BarState::Idle;
    uint32_t tag = 0;
    bool lateOk = false;
    bool operator==(const BarrierEntry& o) const {
      return state == o.state && tag == o.tag && lateOk == o.lateOk;
    }
  };
  struct BarrierUpdate {  // entry idx takes value at the end of this cycle
    int idx = 0;
    BarrierEntry value;
  };
  struct Inputs {
    SchedPolicy policy = SchedPolicy::Lrr;
    std::vector<WarpIn> warps;            // numWarps
    std::vector<uint32_t> ctaPrio;        // numCtas
    // The barrier unit's table as it is this cycle (answers the read port), index
    // cta * numBarIds + id, and the changes it makes at the end of this cycle.
    std::vector<BarrierEntry> barriers;
    std::vector<BarrierUpdate> updates;   // at most numUpd
    bool issueReady = true;
  };

  explicit WarpScheduler(const Config& cfg);

  // The barrier scoreboard verdict for a warp ([0099]) on its copy of the entry: true = the
  // warp must wait (also while it has no copy of the entry yet).
  bool barrierBlocks(const Inputs& in, int warp) const;
  // The same verdict on the table itself (what the copies must never be more lenient than).
  bool barrierBlocksByTable(const Inputs& in, int warp) const;
  // The warp whose entry the table read port fetches this cycle.
  std::optional<int> fillWarp(const Inputs& in) const;
  int barrierIndex(const Inputs& in, int warp) const;
  // Every valid copy equals the table entry it copies.
  bool copiesCoherent(const std::vector<BarrierEntry>& table) const;
  bool eligible(const Inputs& in, int warp) const;
  // The warp chosen this cycle (before issue_ready is considered).
  std::optional<int> choose(const Inputs& in) const;
  // Clock edge: the issue fires when chosen and issueReady.
  void commit(const Inputs& in);

  bool busy(int warp) const { return busy_[static_cast<size_t>(warp)]; }
  uint32_t age(int warp) const { return age_[static_cast<size_t>(warp)]; }
  int rrPointer() const { return rrPtr_; }
  const Config& config() const { return cfg_; }
  Inputs blankInputs() const;

 private:
  uint32_t key(const Inputs& in, int warp) const;
  uint64_t fillRequests(const Inputs& in) const;
  static bool blocks(const BarrierEntry& e, uint32_t tag);
  struct EntryCopy {
    bool valid = false;
    int idx = 0;
    BarrierEntry value;
  };
  Config cfg_;
  std::vector<EntryCopy> copies_;
  RrArbiter fillArb_;
  std::vector<bool> busy_;
  std::vector<uint32_t> age_;
  int last_ = 0;
  bool lastValid_ = false;
  int rrPtr_ = 0;
};

}  // namespace simt::model
