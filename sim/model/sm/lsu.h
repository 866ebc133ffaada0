// Golden model of simt_sm_lsu, the SM core's load/store unit: one warp memory instruction
// (ld/st global and shared, v4, atomics and cas). Every executing lane's address is checked
// first (a faulting instruction has no effect). Global accesses are coalesced as the RTL
// does: the lowest lane still to request and every other lane in its line form one request
// (store words merged in ascending lane order; a v4 load's or store's request carries all
// four elements of its lanes), atomics one request per lane in
// ascending lane order; the memory performs requests in the order they are issued.
// Shared accesses are served in rounds: every waiting lane whose bank no lower waiting lane
// uses for another word. With numLanes physical lanes (issue #26) the coalescer and the
// shared crossbar serve one group of numLanes threads at a time (group g: threads g*numLanes
// .. g*numLanes + numLanes-1; the groups with a thread to serve, ascending, as the core's
// pass sequencer): a request joins only its group's threads (a line touched by two groups is
// requested twice), and bank conflicts are rounds within a group. The same transactions as
// the RTL: a test drives one random stream
// into both and compares the port's requests (in order), the register writes (as a set:
// responses may come in any order), the memories, the fault, and the shared rounds.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "asm/isa.h"

namespace simt::model {

// The warp's registers as the unit sees them: reg[r][lane].
using WarpRegs = std::array<std::array<uint32_t, 32>, 32>;

class SmLsu {
 public:
  // Fault causes, numbered as simt_pkg::fault_e.
  enum class Fault : uint8_t {
    None = 0, GlobalAlign = 4, GlobalRange = 5, SharedAlign = 6, SharedRange = 7, MemError = 11
  };

  struct Config {
    uint32_t globalBytes = 4096;  // cfg_global_bytes_i
    uint32_t sharedBytes = 1024;  // cfg_shared_bytes_i (per CTA)
    int numCtas = 2;
    int sharedWords = 256;        // words per resident CTA (the RTL parameter)
    int sharedBanks = 32;         // SharedBanks
    uint32_t lineBytes = 64;      // LineBytes
    int numLanes = 32;            // NumLanes: 32, 16 or 8
  };

  // One instruction: opcode and fields as encoded (isa.h), the executing lanes.
  struct Instruction {
    isa::Op op = isa::Op::LdGlobal;
    uint8_t rd = 0, ra = 0, rb = 0, sub = 0;
    bool immB = false;  // no base register: the address is the immediate
    uint32_t imm = 0;
    uint32_t exec = 0;
    int cta = 0;        // the warp's resident CTA (its shared memory)
  };

  struct MemRequest {   // a request on the memory port
    bool write = false;
    uint8_t amo = 0;    // simt_mem_pkg::amo_e
    uint32_t addr = 0;  // the line's address
    uint64_t be = 0;    // byte enables (lineBytes <= 64)
    std::vector<uint32_t> wdata;  // the line's words (only enabled words compared)
    uint32_t cmp = 0;   // cas
    uint32_t lanes = 0; // the lanes it serves (not on the port)
    bool operator==(const MemRequest& o) const;
  };
  struct RegWrite {
    int lane = 0, reg = 0;
    uint32_t value = 0;
    bool operator==(const RegWrite& o) const { return lane == o.lane && reg == o.reg && value == o.value; }
    bool operator<(const RegWrite& o) const {
      return lane != o.lane ? lane < o.lane : reg != o.reg ? reg < o.reg : value < o.value;
    }
  };
  struct Result {
    std::vector<MemRequest> requests;
    std::vector<RegWrite> writes;
    Fault fault = Fault::None;
    int faultLane = 0;
    uint32_t faultAddr = 0;
    int sharedRounds = 0;  // shared loads/stores: cycles of bank access
    int sharedGroups = 0;  // ... groups of numLanes threads served (each 1 round or more)
  };

  explicit SmLsu(const Config& cfg);

  // Executes on the model's memories and on regs (loads write it).
  Result execute(const Instruction& in, WarpRegs& regs);
  // The launch's clear of a CTA's shared memory: its first `words` words.
  void clearShared(int cta, int words);

  std::vector<uint32_t>& global() { return global_; }
  uint32_t shared(int cta, int word) const { return shared_[index(cta, word)]; }

  // What kind of access an opcode is (all false for a non-memory opcode).
  struct Access {
    bool memory = false, shared = false, v4 = false, store = false, atom = false, cas = false;
  };
  static Access accessOf(isa::Op op);

 private:
  size_t index(int cta, int word) const {
    return static_cast<size_t>(cta) * static_cast<size_t>(cfg_.sharedWords) + static_cast<size_t>(word);
  }
  // The threads of the group of m's lowest thread (the next group to serve).
  uint32_t groupOf(uint32_t m) const;
  bool check(const Instruction& in, const WarpRegs& regs, Result& res) const;
  void executeGlobal(const Instruction& in, WarpRegs& regs, Result& res);
  void executeShared(const Instruction& in, WarpRegs& regs, Result& res);

  Config cfg_;
  std::vector<uint32_t> global_;
  std::vector<uint32_t> shared_;
};

}  // namespace simt::model
