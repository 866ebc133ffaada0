// simt_sm_lsu against model::SmLsu: random warp memory instructions (ld/st global and
// shared, v4, atomics, cas; lanes colliding on one word and one line; bank conflicts;
// misaligned and out-of-range addresses) on a model::LineMemory that answers with random
// latency (responses out of order), random back-pressure and, in one phase, injected errors.
// Every request on the port (in order), every register write (as a set), every fault and the
// shared-memory rounds are compared with the model's, and the memories and registers at the
// end; the register file's write port is randomly taken by other units (a response waits).
// A second test keeps several instructions of several warps in flight, as the core does, and
// lets the unit's scoreboard order the dependent ones. Directed tests pin the timing:
// coalesced requests, latency overlap, bank conflicts, the release before the responses.
// Every test runs on the unit with 32 lanes (Vsm_lsu) and with 8 (Vsm_lsu8, issue #26: the
// coalescer and the shared crossbar serve a group of 8 threads at a time; the model follows
// with Config::numLanes).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vsm_lsu.h"
#include "Vsm_lsu8.h"
#include "asm/isa.h"
#include "model/sm/pass.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/mem/line_memory.h"
#include "model/sm/lsu.h"
#include "rtl/mem_port.h"

namespace simt::tb {
namespace {

using isa::Op;
using model::LineMemory;
using model::SmLsu;
using model::WarpRegs;

// The verilated geometry (CMakeLists.txt: Vsm_lsu, and Vsm_lsu8 with NumLanes = 8).
constexpr int kWarpW = 2;       // NumWarps = 4
constexpr int kWarps = 1 << kWarpW;
constexpr int kRfAW = kWarpW + 5;  // a register-file address: {warp, register}
constexpr int kCtas = 2;
constexpr int kSharedWords = 256;
constexpr int kBanks = 8;
constexpr uint32_t kLineBytes = 32;
constexpr int kImmCopies = 4;      // simt_sm_pkg::ImmCopies: decode's copies of the immediate
constexpr int kSendDepth = 4;      // SendDepth: global instructions in the sender's queue
constexpr int kMaxCycles = 20000;  // per instruction: a hang fails the test

struct Observed {
  std::vector<SmLsu::MemRequest> requests;
  std::vector<SmLsu::RegWrite> writes;
  int fault = 0, faultLane = 0;
  uint32_t faultAddr = 0;
  int cycles = 0;          // to the last response (nothing in flight in the next cycle)
  int doneCycles = 0;      // to done_o (the core goes on)
  int dones = 0, fastDones = 0;  // done_o, and those with done_fast_o (retired at once)
  int wbWaitCycles = 0;    // a response waited for the register file's write port
  int stallCycles = 0;     // the unit's memory-wait event
  int idWaitCycles = 0;    // ... a request waiting for its id (every id outstanding)
  int slotWaitCycles = 0;  // ... an instruction waiting for a slot of the in-flight table
  int senderWaitCycles = 0;  // ... an instruction's CHECK waiting for the sender
  int conflictCycles = 0;  // the unit's bank-conflict event
  int splitWrites = 0;     // register writes of the v4 drain (an address a lane)
  bool splitOverlap = false;  // ... one with lanes of two lines at different elements
  bool takenBesideWrite = false;  // a load's line taken while another unit wrote (the drain)
  int maxOutstanding = 0;
  bool reordered = false;  // a response overtook an older request's
  int errorRequest = -1;   // the first request answered with an error (response order)
  bool ok = true;          // finished without a hang or an RTL assertion
};

template <class Dut>
class LsuBench {
 public:
  LsuBench(const SmLsu::Config& cfg, uint64_t seed)
      : cfg_(cfg), sim_(cfg.numLanes == 32 ? "simt_sm_lsu" : "simt_sm_lsu (8 lanes)", seed), model_(cfg),
        mem_((cfg.globalBytes + kLineBytes - 1) / kLineBytes * kLineBytes / 4, 0),  // (whole lines)
        moveRng_(seed + 1) {
    model_.global().resize(mem_.size(), 0);  // (a line may end past the checked bytes)
    sim_->cfg_global_bytes_i = cfg.globalBytes;
    sim_->cfg_shared_bytes_i = cfg.sharedBytes;
    sim_->start_i = 0;
    sim_->sh_clr_i = 0;
    sim_->mem_req_ready_i = 0;
    sim_->mem_rsp_valid_i = 0;
    sim_->rf_busy_i = 0;
    sim_->de_regs_i = 0;
    sim_->de_membar_i = 0;
    auto s = [](const char* name, int w) { return waveSignal("simt_sm_lsu", name, w); };
    sim_.setWaveGroups({
        {"control", {s("start_i", 1), s("exec_i", 32), s("state_q", 3), s("pend_q", 32),
                     s("elem_q", 2), s("out_q", 8), s("done_o", 1)}},
        {"memory", {s("mem_req_valid_o", 1), s("mem_req_ready_i", 1), s("mem_req_id_o", 3),
                    s("mem_req_we_o", 1), s("mem_req_amo_o", 4), s("mem_req_addr_o", 32),
                    s("mem_req_be_o", 32), s("mem_rsp_valid_i", 1), s("mem_rsp_id_i", 3),
                    s("mem_rsp_err_i", 1)}},
        {"registers", {s("rf_re_o", 1), s("rf_re_b_o", 1), s("rf_re_c_o", 1), s("rf_rb_o", 5),
                       s("rf_grp_o", cfg.numLanes == 32 ? 1 : 2), s("rd_grp_i", cfg.numLanes == 32 ? 1 : 2),
                       s("rf_we_o", 32), s("rf_waddr_o", 7), s("rf_split_o", 1)}},
    });
    sim_.reset();
    setTiming({});
  }

  SimContext<Dut>& sim() { return sim_; }
  SmLsu& model() { return model_; }
  std::vector<uint32_t>& memory() { return mem_; }
  WarpRegs& regs(int warp = 0) { return regs_[static_cast<size_t>(warp)]; }
  WarpRegs& modelRegs(int warp = 0) { return modelRegs_[static_cast<size_t>(warp)]; }
  bool registersMatch() const { return regs_ == modelRegs_; }
  void setTiming(const LineMemory::Timing& t) {
    port_ = std::make_unique<LineMemory>(mem_, kLineBytes, t);
  }
  // Other units take the register file's write port in about busy256 cycles of 256.
  void setPortBusy(uint32_t busy256, uint64_t seed) {
    busy256_ = busy256;
    busyRng_ = Rng(seed);
  }

  // Fills both memories and both register files alike.
  void fill(Rng& rng) {
    for (auto& w : mem_) w = static_cast<uint32_t>(rng.bits(32));
    model_.global() = mem_;
    for (auto& w : regs_) for (auto& r : w) for (auto& v : r) v = static_cast<uint32_t>(rng.bits(32));
    modelRegs_ = regs_;
  }
  // The state a random test starts from: memories and register files filled, both CTAs'
  // shared memory cleared as a launch does.
  void startRandom(Rng& rng) {
    fill(rng);
    for (int cta = 0; cta < 2; ++cta) clearShared(cta, kSharedWords);
  }
  // After an injected error the model (which performs every request) follows the RTL, and
  // the unit is reset (a memory error stops the core until reset; shared memory is kept).
  void resync() {
    model_.global() = mem_;
    modelRegs_ = regs_;
    sim_.reset();
  }

  // The launch's clear of a CTA's shared memory, one word per cycle.
  void clearShared(int cta, int words) {
    for (int i = 0; i < words; ++i) {
      sim_->sh_clr_i = 1;
      sim_->sh_clr_addr_i = static_cast<uint32_t>(cta * kSharedWords + i);
      sim_.eval();
      sim_.tick();
    }
    sim_->sh_clr_i = 0;
    model_.clearShared(cta, words);
  }

  // Starts an instruction (start_i for the next cycle): its operands as DE read them (the
  // group of the lowest executing thread on the register file's three ports).
  void start(const SmLsu::Instruction& in, int warp) {
    isa::Instr enc;
    enc.op = in.op;
    enc.immB = in.immB;
    enc.rd = in.rd;
    enc.ra = in.ra;
    enc.rb = in.rb;
    enc.sub = in.sub;
    enc.imm = in.imm;
    sim_->inst_i = enc.encode();
    sim_->imm_b_i = in.immB ? ~0u : 0u;  // decode's copies of imm_b, one per thread
    for (int g = 0; g < kImmCopies; ++g) setBits(sim_->imm_i, g * 32, 32, in.imm);  // ... of imm
    sim_->exec_i = in.exec;
    sim_->warp_i = static_cast<uint8_t>(warp);
    sim_->pc_i = static_cast<uint32_t>(warp * 100 + in.rd);  // named by a late error
    sim_->cta_i = static_cast<uint8_t>(in.cta);
    ra_ = in.ra;
    rc_ = in.sub;
    int low = 0;
    while (!((in.exec >> low) & 1u)) ++low;
    readPorts(warp, low / lanes(), true, true, true, in.rb);
    sim_->start_i = 1;
  }

  // The core goes on once the unit is done: another instruction's fields, lanes, warp and
  // operands on the unit's inputs (no start). Whatever the unit still does for the done
  // instruction (the sender's requests, responses) must come from its own copies.
  void moveOn() {
    isa::Instr enc;
    enc.op = kOtherOps[moveRng_.below(static_cast<int>(std::size(kOtherOps)))];
    enc.immB = moveRng_.below(2) == 1;
    enc.rd = static_cast<uint8_t>(moveRng_.below(32));
    enc.ra = static_cast<uint8_t>(moveRng_.below(32));
    enc.rb = static_cast<uint8_t>(moveRng_.below(32));
    enc.sub = static_cast<uint8_t>(moveRng_.below(8));
    enc.imm = static_cast<uint32_t>(moveRng_.bits(32));
    sim_->inst_i = enc.encode();
    sim_->imm_b_i = enc.immB ? ~0u : 0u;
    for (int g = 0; g < kImmCopies; ++g) setBits(sim_->imm_i, g * 32, 32, enc.imm);
    sim_->exec_i = static_cast<uint32_t>(moveRng_.bits(32)) | 1u;
    sim_->warp_i = static_cast<uint8_t>(moveRng_.below(kWarps));
    sim_->pc_i = static_cast<uint32_t>(moveRng_.bits(22));
    sim_->cta_i = static_cast<uint8_t>(moveRng_.below(kCtas));
    for (int l = 0; l < lanes(); ++l) {
      setBits(portA_, l * 32, 32, static_cast<uint32_t>(moveRng_.bits(32)));
      setBits(portB_, l * 32, 32, static_cast<uint32_t>(moveRng_.bits(32)));
      setBits(portC_, l * 32, 32, static_cast<uint32_t>(moveRng_.bits(32)));
    }
    portGroup_ = moveRng_.below(32 / lanes());
  }

  // One cycle: the port and the write-port contention driven, everything sampled (done_o and
  // fault_o into done_, fault_), a clock. Returns false on an RTL assertion.
  bool step(Observed& ob, int expectWarp = -1) {
    drivePort();
    sim_->rf_busy_i = busy256_ > 0 && busyRng_.below(256) < static_cast<int>(busy256_);
    sim_.eval();
    // The register file's answer for a response's four registers: written since the start
    // (the core's decode: since the warp's launch), as the unit's v4 drain needs them.
    const uint32_t uaddr = sim_->rf_uaddr_o;
    uint8_t used = 0;
    for (int e = 0; e < 4; ++e) {
      used |= static_cast<uint8_t>(((written_[uaddr >> 5] >> ((uaddr + e) & 31)) & 1u) << e);
    }
    sim_->rf_used_i = used;
    sim_.eval();
    done_ = sim_->done_o;
    fault_ = sim_->fault_o;
    ob.dones += sim_->done_o;
    ob.fastDones += sim_->done_o && sim_->done_fast_o;
    ob.stallCycles += sim_->evt_stall_o;
    ob.idWaitCycles += sim_->evt_id_wait_o;
    ob.slotWaitCycles += sim_->evt_slot_wait_o;
    ob.senderWaitCycles += sim_->evt_sender_wait_o;
    ob.conflictCycles += sim_->evt_conflict_o;
    ob.wbWaitCycles += sim_->wb_wait_o;
    samplePort(ob);
    sampleRegisters(ob, expectWarp);
    sim_.tick();
    sim_->start_i = 0;
    if (!sim_.ok()) ADD_FAILURE() << "RTL assertion failed";
    return sim_.ok();
  }

  static int causeOf(uint64_t fault) { return static_cast<int>(fault >> 38) & 0xF; }
  uint64_t lastFault() const { return fault_; }  // fault_o of the last step

  // Runs one instruction on the RTL until its last response (or a fault): done_o releases
  // the core once the requests are out; a memory error is reported once nothing is in
  // flight.
  Observed runRtl(const SmLsu::Instruction& in, int warp) {
    Observed ob;
    issued_.clear();
    start(in, warp);
    // Between instructions the memory offers nothing (the response of the last cycle was taken).
    struct Quiet {
      Dut& dut;
      ~Quiet() { dut.mem_rsp_valid_i = 0; }
    } quiet{sim_.dut()};
    bool done = false;
    for (int c = 0; c < kMaxCycles; ++c) {
      if (done) {
        drivePort();
        sim_.eval();
        if (sim_->quiet_o) {
          ob.cycles = c;
          const uint64_t fault = sim_->fault_o;
          if (causeOf(fault) != 0) {
            ob.fault = causeOf(fault);
            ob.faultLane = static_cast<int>((fault >> 32) & 0x1F);
            ob.faultAddr = static_cast<uint32_t>(fault);
            EXPECT_EQ(sim_->fault_warp_o, static_cast<uint32_t>(warp)) << "a late error names its warp";
            EXPECT_EQ(sim_->fault_pc_o, static_cast<uint32_t>(warp * 100 + in.rd)) << "... and its pc";
          }
          EXPECT_TRUE(port_->idle()) << "quiet with requests still outstanding";
          return ob;
        }
      }
      if (!step(ob, warp)) {
        ob.ok = false;
        return ob;
      }
      const bool doneNow = done_;
      const uint64_t fault = fault_;
      ++ob.cycles;
      if (causeOf(fault) != 0) {
        // An address fault: found before any request.
        ob.fault = causeOf(fault);
        ob.faultLane = static_cast<int>((fault >> 32) & 0x1F);
        ob.faultAddr = static_cast<uint32_t>(fault);
        EXPECT_TRUE((fault >> 37) & 1u) << "a memory fault names its lane";
        EXPECT_TRUE(ob.requests.empty()) << "a faulting instruction sent requests";
        return ob;
      }
      if (doneNow) {
        EXPECT_FALSE(sim_->busy_o) << "done while still busy";
        done = true;
        ob.doneCycles = c + 1;
        moveOn();
      }
    }
    ADD_FAILURE() << "load/store unit did not finish in " << kMaxCycles << " cycles";
    ob.ok = false;
    return ob;
  }

  // The scoreboard's answer for an instruction of warp w in DE.
  bool hazard(int warp, uint32_t regs, bool membar) {
    sim_->de_w_i = static_cast<uint8_t>(warp);
    sim_->de_regs_i = regs;
    sim_->de_membar_i = membar;
    sim_.eval();
    return sim_->de_hazard_o;
  }

 private:
  int lanes() const { return cfg_.numLanes; }

  // The register file's ports as the unit sees them: a read (ports a and c: the instruction's
  // ra and rc; port b: the register named) of one group is on the ports from the next cycle.
  void readPorts(int warp, int group, bool a, bool b, bool c, int rb) {
    const WarpRegs& r = regs_[static_cast<size_t>(warp)];
    for (int l = 0; l < lanes(); ++l) {
      const auto t = static_cast<size_t>(group * lanes() + l);
      if (a) setBits(portA_, l * 32, 32, r[ra_][t]);
      if (b) setBits(portB_, l * 32, 32, r[static_cast<size_t>(rb & 31)][t]);
      if (c) setBits(portC_, l * 32, 32, r[rc_][t]);
    }
    if (a || b || c) portGroup_ = group;
  }

  void drivePort() {
    rtl::offerMemory(sim_.dut(), *port_);
    sim_->opa_i = portA_;
    sim_->opb_i = portB_;
    sim_->opc_i = portC_;
    sim_->rd_grp_i = static_cast<uint8_t>(portGroup_);
  }

  void samplePort(Observed& ob) {
    if (sim_->mem_rsp_valid_i && sim_->mem_rsp_ready_o) {
      const uint32_t id = sim_->mem_rsp_id_i;
      const auto it = std::find_if(issued_.begin(), issued_.end(), [&](const Issued& i) { return i.id == id; });
      EXPECT_NE(it, issued_.end()) << "a response nobody waits for";
      if (it != issued_.end()) {
        if (it != issued_.begin()) ob.reordered = true;
        if (sim_->mem_rsp_err_i && ob.errorRequest < 0) ob.errorRequest = it->index;
        // Only the v4 drain takes a load's line while another unit has the write port.
        ob.takenBesideWrite |= it->read && sim_->rf_busy_i && !sim_->mem_rsp_err_i;
        issued_.erase(it);
      }
      port_->take();
    }
    if (sim_->mem_req_valid_o && sim_->mem_req_ready_i) {
      const LineMemory::Request r = rtl::memRequestOf(sim_.dut(), kLineBytes);
      SmLsu::MemRequest seen;
      seen.write = r.write;
      seen.amo = r.amo;
      seen.addr = r.addr;
      seen.cmp = r.cmp;
      seen.be = sim_->mem_req_be_o;
      seen.wdata = r.wdata;
      // The lanes it serves are the model's bookkeeping; the port does not carry them.
      seen.lanes = 0;
      for (const Issued& i : issued_) EXPECT_NE(i.id, r.id) << "an id reused while outstanding";
      issued_.push_back({r.id, static_cast<int>(ob.requests.size()), !r.write});
      ob.maxOutstanding = std::max(ob.maxOutstanding, static_cast<int>(issued_.size()));
      ob.requests.push_back(std::move(seen));
      port_->accept(r);
    }
    port_->tick();
  }

  void sampleRegisters(Observed& ob, int expectWarp) {
    // The banks' registered reads (the warp in flight): data next cycle. The unit reads
    // only the registers of its instruction (the scoreboard covers no others).
    const bool reA = sim_->rf_re_o, reB = sim_->rf_re_b_o, reC = sim_->rf_re_c_o;
    if (reA || reB || reC) {
      readPorts(sim_->warp_i, sim_->rf_grp_o, reA, reB, reC, sim_->rf_rb_o);
    }
    const uint32_t we = sim_->rf_we_o;
    if (we == 0) return;
    EXPECT_FALSE(sim_->rf_late_o && sim_->rf_busy_i) << "a response wrote while the port was taken";
    // A split write (the v4 drain, 32 lanes) has an address a lane, each an entry written
    // before (the register file's first write of an entry needs the one address).
    const bool split = sim_->rf_split_o;
    if (split) {
      EXPECT_EQ(lanes(), 32) << "a split write at fewer lanes";
      ++ob.splitWrites;
    }
    int splitReg = -1;
    auto written = written_;  // as before this cycle: a split write's entries were written earlier
    for (int l = 0; l < 32; ++l) {
      if (!((we >> l) & 1u)) continue;
      const int waddr = split ? static_cast<int>(getBits(sim_->rf_waddr_lane_o, (l % lanes()) * kRfAW, kRfAW))
                              : static_cast<int>(sim_->rf_waddr_o);
      if (expectWarp >= 0) EXPECT_EQ(waddr >> 5, expectWarp) << "register write to another warp";
      const int warp = waddr >> 5, reg = waddr & 31;
      // The banks are block RAM with one read and one write port: an entry (warp, register,
      // group) is never read in the cycle it is written (the read data would be undefined).
      if (warp == static_cast<int>(sim_->warp_i) && l / lanes() == static_cast<int>(sim_->rf_grp_o)) {
        EXPECT_FALSE((reA && reg == ra_) || (reB && reg == (sim_->rf_rb_o & 31)) || (reC && reg == rc_))
            << "r" << reg << " of group " << l / lanes() << " read and written in one cycle";
      }
      if (split) {
        if (splitReg < 0) splitReg = reg;
        ob.splitOverlap |= reg != splitReg;
        EXPECT_TRUE((written[static_cast<size_t>(warp)] >> reg) & 1u)
            << "a split write to r" << reg << " of warp " << warp << ", not written before";
      }
      written_[static_cast<size_t>(warp)] |= 1u << reg;
      const uint32_t v = static_cast<uint32_t>(getBits(sim_->rf_wdata_o, (l % lanes()) * 32, 32));
      regs_[static_cast<size_t>(warp)][static_cast<size_t>(reg)][static_cast<size_t>(l)] = v;
      ob.writes.push_back({l, reg, v});
    }
  }

  struct Issued {
    uint32_t id;
    int index;
    bool read;  // a load's (its response writes registers)
  };

  SmLsu::Config cfg_;
  SimContext<Dut> sim_;
  SmLsu model_;
  std::vector<uint32_t> mem_;
  std::unique_ptr<LineMemory> port_;
  std::vector<Issued> issued_;
  std::array<WarpRegs, kWarps> regs_{}, modelRegs_{};
  std::array<uint32_t, kWarps> written_{};  // registers written by the unit, per warp
  uint32_t busy256_ = 0;
  bool done_ = false;
  uint64_t fault_ = 0;
  Rng busyRng_{1};
  Rng moveRng_{2};
  // What the core may have in EXEC after a memory instruction (each kind of access the unit
  // tells apart, and a plain ALU opcode).
  static constexpr isa::Op kOtherOps[] = {isa::Op::LdGlobal, isa::Op::StShared,
                                          isa::Op::StGlobalV4, isa::Op::LdGlobalV4,
                                          isa::Op::AtomGlobal, isa::Op::AtomGlobalCas,
                                          isa::Op::Add};
  // The register file's read ports (Dut's widths: NumLanes words), the group they hold, and the
  // registers of ports a and c (the instruction's ra and rc).
  std::remove_reference_t<decltype(std::declval<Dut&>().opa_i)> portA_{}, portB_{}, portC_{};
  int portGroup_ = 0;
  int ra_ = 0, rc_ = 0;
};

const Op kMemOps[] = {Op::LdGlobal, Op::StGlobal, Op::LdShared, Op::StShared, Op::LdGlobalV4,
                      Op::StGlobalV4, Op::AtomGlobal, Op::AtomShared, Op::AtomGlobalCas,
                      Op::AtomSharedCas};

// A random instruction; its address registers (ra, per lane) are written into both register
// files: mostly valid addresses from a small pool (lanes collide), sometimes misaligned or
// out of range.
SmLsu::Instruction randomInstruction(Rng& rng, const SmLsu::Config& cfg, WarpRegs& regs,
                                     WarpRegs& modelRegs) {
  SmLsu::Instruction in;
  in.op = kMemOps[rng.below(static_cast<int>(std::size(kMemOps)))];
  const SmLsu::Access acc = SmLsu::accessOf(in.op);
  const bool sh = acc.shared, v4 = acc.v4;
  in.rd = static_cast<uint8_t>(rng.below(v4 ? 29 : 32));
  in.ra = static_cast<uint8_t>(rng.below(32));
  in.rb = static_cast<uint8_t>(rng.below(v4 ? 29 : 32));
  // cas: rc, the swap value's register; other atomics: the operation.
  in.sub = acc.cas ? static_cast<uint8_t>(rng.below(32))
           : acc.atom ? static_cast<uint8_t>(rng.below(static_cast<int>(isa::AtomOp::Count)))
                      : uint8_t{0};
  in.cta = rng.below(kCtas);
  const uint32_t exec = rng.chance(20) ? 0xFFFFFFFFu : static_cast<uint32_t>(rng.bits(32));
  in.exec = exec != 0 ? exec : 1u << rng.below(32);
  in.immB = rng.chance(10);
  const uint32_t bytes = sh ? cfg.sharedBytes : cfg.globalBytes;
  const uint32_t align = v4 ? 16 : 4;
  const int poolSize = rng.range(1, 8);
  std::vector<uint32_t> pool;
  for (int i = 0; i < poolSize; ++i) {
    pool.push_back(static_cast<uint32_t>(rng.below(static_cast<int>((bytes - (v4 ? 16 : 4)) / align) + 1)) * align);
  }
  in.imm = in.immB ? pool[0] : (rng.chance(50) ? 0u : align * static_cast<uint32_t>(rng.below(4)));
  // One instruction in about 12 has a bad address in one lane (the core stops at a fault).
  const int badLane = rng.chance(12) ? rng.below(32) : -1;
  const bool misaligned = rng.chance(50);
  // Or consecutive lanes on consecutive elements (the coalescer's common case).
  const bool consecutive = !in.immB && rng.chance(30);
  const uint32_t start = static_cast<uint32_t>(rng.below(static_cast<int>((bytes - 32 * align) / align) + 1)) * align;
  for (int l = 0; l < 32; ++l) {
    uint32_t a = (consecutive ? start + align * static_cast<uint32_t>(l) : pool[static_cast<size_t>(rng.below(poolSize))]) -
                 (in.immB ? 0u : in.imm);
    if (l == badLane && misaligned) a += static_cast<uint32_t>(rng.range(1, 3)) * (rng.chance(50) ? 1u : 4u);
    if (l == badLane && !misaligned) a = bytes + static_cast<uint32_t>(rng.below(64)) * 4u;
    regs[in.ra][static_cast<size_t>(l)] = a;
    modelRegs[in.ra][static_cast<size_t>(l)] = a;
  }
  return in;
}

void compare(SmLsu::Result want, Observed got, const std::string& ctx, Scoreboard& sb) {
  sb.check(ctx + " outcome", {{"requests", want.requests.size()}, {"writes", want.writes.size()},
                              {"fault", static_cast<uint64_t>(want.fault)}},
           {{"requests", got.requests.size()}, {"writes", got.writes.size()},
            {"fault", static_cast<uint64_t>(got.fault)}});
  if (want.fault != SmLsu::Fault::None && got.fault == static_cast<int>(want.fault)) {
    sb.check(ctx + " fault", {{"lane", static_cast<uint64_t>(want.faultLane)}, {"addr", want.faultAddr}},
             {{"lane", static_cast<uint64_t>(got.faultLane)}, {"addr", got.faultAddr}});
  }
  for (size_t i = 0; i < want.requests.size() && i < got.requests.size(); ++i) {
    auto w = want.requests[i];
    w.lanes = 0;
    const auto& g = got.requests[i];
    if (!(w == g)) {
      uint64_t wd = 0, gd = 0;  // the first differing enabled word
      for (size_t k = 0; k < w.wdata.size(); ++k) {
        if (((w.be >> (4 * k)) & 0xF) && w.wdata[k] != g.wdata[k]) { wd = w.wdata[k]; gd = g.wdata[k]; break; }
      }
      sb.check(ctx + " request " + std::to_string(i),
               {{"we", w.write}, {"amo", w.amo}, {"addr", w.addr}, {"be", w.be}, {"cmp", w.amo == 8 ? w.cmp : 0},
                {"data", wd}},
               {{"we", g.write}, {"amo", g.amo}, {"addr", g.addr}, {"be", g.be}, {"cmp", g.amo == 8 ? g.cmp : 0},
                {"data", gd}});
    }
  }
  // Responses come in any order: the register writes as a set.
  std::sort(want.writes.begin(), want.writes.end());
  std::sort(got.writes.begin(), got.writes.end());
  for (size_t i = 0; i < want.writes.size() && i < got.writes.size(); ++i) {
    const auto& w = want.writes[i];
    const auto& g = got.writes[i];
    sb.check(ctx + " write " + std::to_string(i),
             {{"lane", static_cast<uint64_t>(w.lane)}, {"reg", static_cast<uint64_t>(w.reg)}, {"value", w.value}},
             {{"lane", static_cast<uint64_t>(g.lane)}, {"reg", static_cast<uint64_t>(g.reg)}, {"value", g.value}});
  }
}

SmLsu::Config smallConfig(int lanes) {
  SmLsu::Config cfg;
  cfg.numLanes = lanes;
  cfg.globalBytes = 2048;
  cfg.sharedBytes = 512;
  cfg.numCtas = kCtas;
  cfg.sharedWords = kSharedWords;
  cfg.sharedBanks = kBanks;
  cfg.lineBytes = kLineBytes;
  return cfg;
}

// A memory instruction of the directed tests: its address register, its data register (rd
// for a load's destination and rb for a store's data), its executing threads.
SmLsu::Instruction memInst(Op op, uint8_t ra, uint8_t r, uint32_t exec) {
  SmLsu::Instruction in;
  in.op = op;
  in.ra = ra;
  in.rd = r;
  in.rb = r;
  in.exec = exec;
  return in;
}

LineMemory::Timing timing(uint32_t latency, uint32_t refuse256, uint32_t jitter, uint32_t error256 = 0,
                          uint64_t seed = 1) {
  LineMemory::Timing t;
  t.latency = latency;
  t.bandwidth = kLineBytes;
  t.refuse256 = refuse256;
  t.jitter = jitter;
  t.error256 = error256;
  t.seed = seed;
  return t;
}

// One run per seed of the test (SIMT_SEED / SIMT_REPEAT): a fresh bench at `lanes` lanes and
// the seed's random stream, handed to body(bench, rng, cfg, seed).
// The memories' sizes may be changed (bytes, 0: smallConfig's).
template <class Dut, class Body>
void forEachSeed(int lanes, Body body, uint32_t globalBytes = 0, uint32_t sharedBytes = 0) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SmLsu::Config cfg = smallConfig(lanes);
    if (globalBytes != 0) cfg.globalBytes = globalBytes;
    if (sharedBytes != 0) cfg.sharedBytes = sharedBytes;
    LsuBench<Dut> bench(cfg, seed);
    body(bench, rng, cfg, seed);
  }
}

// The random stream into both, under four memory timings: the next cycle, back-pressure with
// short random latency, a slow memory with long random latency (out of order), and errors.
template <class Dut>
void randomInstructionsMatchTheModel(int lanes) {
  forEachSeed<Dut>(lanes, [&](LsuBench<Dut>& bench, Rng& rng, const SmLsu::Config& cfg, uint64_t seed) {
    bench.startRandom(rng);
    Scoreboard sb("sm_lsu");
    Coverage cov("sm_lsu");
    for (Op op : kMemOps) cov.define(std::string("op_") + isa::opName(op));
    cov.define({"fault_global_align", "fault_global_range", "fault_shared_align", "fault_shared_range",
                "fault_mem_error", "back_pressure", "out_of_order", "outstanding_4", "one_line_many_lanes",
                "merged_store", "bank_conflict", "broadcast", "all_lanes", "imm_address", "shared_clear",
                "writeback_wait"});
    // At 32 lanes: v4 loads' lines through the drain, two or more at once (an address a lane).
    // A line taken into the drain while another unit has the write port (it waits there).
    if (lanes == 32) cov.define({"v4_drain", "v4_drain_overlap", "v4_drain_beside_write"});
    // A seed that leaves a bin unhit runs on, up to 4x the instructions, until every bin is.
    const int n = 400 * lengthScale();
    int phase = -1;
    for (int i = 0; i < n || (!cov.allHit() && i < 4 * n); ++i) {
      if ((i / 50) % 4 != phase) {
        phase = (i / 50) % 4;
        const LineMemory::Timing t[] = {timing(1, 0, 0), timing(2, 128, 3), timing(20, 60, 40),
                                        timing(3, 30, 10, 12)};
        bench.setTiming([&] { auto x = t[phase]; x.seed = seed * 7 + static_cast<uint64_t>(i); return x; }());
        // Other units take the register file's write port now and then (phases 1 and 2).
        bench.setPortBusy(phase == 1 || phase == 2 ? 96 : 0, seed * 11 + static_cast<uint64_t>(i));
      }
      if (rng.chance(3)) {
        const int cta = rng.below(kCtas);
        bench.clearShared(cta, rng.range(1, 32));
        cov.hit("shared_clear");
      }
      const int warp = rng.below(kWarps);
      const SmLsu::Instruction in = randomInstruction(rng, cfg, bench.regs(warp), bench.modelRegs(warp));
      const auto base = bench.regs(warp)[in.ra];  // before the instruction's loads write registers
      SmLsu::Result want = bench.model().execute(in, bench.modelRegs(warp));
      const Observed got = bench.runRtl(in, warp);
      const std::string ctx = "instruction " + std::to_string(i) + " (" + isa::opName(in.op) + ")";
      if (!got.ok) break;
      if (got.errorRequest >= 0) {
        // The first error in response order: its leader lane and address; nothing else is
        // predictable (other requests were performed), so the model follows the RTL.
        ASSERT_LT(static_cast<size_t>(got.errorRequest), want.requests.size()) << ctx;
        const auto& rq = want.requests[static_cast<size_t>(got.errorRequest)];
        const int lane = __builtin_ctz(rq.lanes);
        const uint32_t a = (in.immB ? 0u : base[static_cast<size_t>(lane)]) + in.imm;
        sb.check(ctx + " memory error", {{"cause", 11}, {"lane", static_cast<uint64_t>(lane)}, {"addr", a}},
                 {{"cause", static_cast<uint64_t>(got.fault)}, {"lane", static_cast<uint64_t>(got.faultLane)},
                  {"addr", got.faultAddr}});
        bench.resync();
        cov.hit("fault_mem_error");
        if (!sb.clean()) break;
        continue;
      }
      compare(want, got, ctx, sb);
      if (SmLsu::accessOf(in.op).shared && !SmLsu::accessOf(in.op).atom && want.fault == SmLsu::Fault::None) {
        // A conflict cycle leaves a thread of the group on the lanes unserved: every round but
        // each group's first.
        sb.check(ctx + " bank conflicts",
                 {{"conflict_cycles", static_cast<uint64_t>(want.sharedRounds - want.sharedGroups)}},
                 {{"conflict_cycles", static_cast<uint64_t>(got.conflictCycles)}});
        cov.sample("bank_conflict", want.sharedRounds > want.sharedGroups);
      }
      if (!sb.clean()) break;

      cov.hit(std::string("op_") + isa::opName(in.op));
      switch (want.fault) {
        case SmLsu::Fault::GlobalAlign: cov.hit("fault_global_align"); break;
        case SmLsu::Fault::GlobalRange: cov.hit("fault_global_range"); break;
        case SmLsu::Fault::SharedAlign: cov.hit("fault_shared_align"); break;
        case SmLsu::Fault::SharedRange: cov.hit("fault_shared_range"); break;
        default: break;
      }
      cov.sample("back_pressure", got.stallCycles > 0 && phase == 1);
      cov.sample("out_of_order", got.reordered);
      cov.sample("outstanding_4", got.maxOutstanding >= 4);
      cov.sample("all_lanes", in.exec == 0xFFFFFFFFu);
      cov.sample("writeback_wait", got.wbWaitCycles > 0);
      if (lanes == 32) {
        cov.sample("v4_drain", got.splitWrites > 0);
        cov.sample("v4_drain_overlap", got.splitOverlap);
        cov.sample("v4_drain_beside_write", got.takenBesideWrite);
      }
      cov.sample("imm_address", in.immB);
      for (const auto& rq : want.requests) {
        cov.sample("one_line_many_lanes", __builtin_popcount(rq.lanes) >= 4);
        cov.sample("merged_store", rq.write && __builtin_popcount(rq.lanes) > __builtin_popcountll(rq.be) / 4);
      }
      {
        const bool shared = SmLsu::accessOf(in.op).shared && !SmLsu::accessOf(in.op).atom;
        int sameWord = 0;
        for (int l = 1; l < 32; ++l) {
          for (int k = 0; k < l; ++k) {
            sameWord += ((in.exec >> l) & (in.exec >> k) & 1u) &&
                        bench.modelRegs(warp)[in.ra][static_cast<size_t>(l)] ==
                            bench.modelRegs(warp)[in.ra][static_cast<size_t>(k)];
          }
        }
        cov.sample("broadcast", shared && !in.immB && sameWord > 0 && want.fault == SmLsu::Fault::None);
      }
    }
    EXPECT_TRUE(bench.memory() == bench.model().global()) << "global memory differs";
    EXPECT_TRUE(bench.registersMatch()) << "registers differ";
    // The shared memories, read back through the unit: one load per word, lane 0.
    for (int cta = 0; cta < kCtas && sb.clean(); ++cta) {
      for (int w = 0; w < static_cast<int>(cfg.sharedBytes / 4); ++w) {
        SmLsu::Instruction ld;
        ld.op = Op::LdShared;
        ld.immB = true;
        ld.imm = static_cast<uint32_t>(w) * 4;
        ld.exec = 1;
        ld.cta = cta;
        const Observed got = bench.runRtl(ld, 0);
        ASSERT_EQ(got.writes.size(), 1u);
        ASSERT_EQ(got.writes[0].value, bench.model().shared(cta, w)) << "cta " << cta << " word " << w;
      }
    }
    EXPECT_TRUE(sb.clean());
    cov.requireAllHit();
  });
}

TEST(SmLsuRtl, RandomInstructionsMatchTheModelUnderRandomLatencyBackPressureAndErrors) {
  randomInstructionsMatchTheModel<Vsm_lsu>(32);
}
TEST(SmLsuRtl8Lanes, RandomInstructionsMatchTheModelUnderRandomLatencyBackPressureAndErrors) {
  randomInstructionsMatchTheModel<Vsm_lsu8>(8);
}

// The registers an instruction reads or writes, as the core's decode tells the scoreboard
// (simt_sm_decode: ra, rb when read, v4 ranges, rc, rd when written).
uint32_t registersOf(const SmLsu::Instruction& in) {
  const SmLsu::Access acc = SmLsu::accessOf(in.op);
  auto bit = [](int r) { return 1u << (r & 31); };
  uint32_t m = bit(in.ra);
  if (acc.atom || (acc.store && !acc.v4)) m |= bit(in.rb);
  if (acc.cas) m |= bit(in.sub);
  if (!acc.store) m |= bit(in.rd);
  for (int e = 0; e < 4 && acc.v4; ++e) m |= acc.store ? bit(in.rb + e) : bit(in.rd + e);
  return m;
}

// As the core uses it: several warps' global instructions in flight at once (the unit takes
// the next as soon as the last one's requests are out), a random slow memory answering out of
// order, the write port often taken. An instruction starts only when the scoreboard finds no
// register of it still to be loaded (else another warp goes); the model runs the instructions
// in start order. The registers and memory at the end must match: a missed hazard would feed
// an instruction a stale operand or let a late load overwrite a newer value.
template <class Dut>
void manyInstructionsInFlight(int lanes) {
  const Op kGlobalOps[] = {Op::LdGlobal, Op::StGlobal, Op::LdGlobalV4, Op::StGlobalV4, Op::AtomGlobal,
                           Op::AtomGlobalCas};
  forEachSeed<Dut>(lanes, [&](LsuBench<Dut>& bench, Rng& rng, const SmLsu::Config& cfg, uint64_t seed) {
    bench.fill(rng);
    bench.setTiming(timing(30, 20, 10, 0, seed));
    bench.setPortBusy(64, seed + 1);
    // Address registers r28-r31, written once: consecutive words (4 lines), consecutive
    // 16-byte elements, one word for all lanes, a pool of 4 lines. Data and destinations
    // r0-r15 (v4: r0-r12), so later instructions often read or overwrite an earlier load's.
    for (int w = 0; w < kWarps; ++w) {
      const uint32_t base = static_cast<uint32_t>(rng.below(8)) * 128;
      const uint32_t pool = static_cast<uint32_t>(rng.below(static_cast<int>(cfg.globalBytes / 128))) * 128;
      for (int l = 0; l < 32; ++l) {
        const uint32_t a[4] = {base + 4u * static_cast<uint32_t>(l), base + 16u * static_cast<uint32_t>(l),
                               base + 4u * static_cast<uint32_t>(w),
                               pool + 16u * static_cast<uint32_t>(rng.below(8))};
        for (int r = 0; r < 4; ++r) {
          bench.regs(w)[28 + r][static_cast<size_t>(l)] = a[r];
          bench.modelRegs(w)[28 + r][static_cast<size_t>(l)] = a[r];
        }
      }
    }
    const int perWarp = 60 * lengthScale();
    auto next = [&]() {
      SmLsu::Instruction in;
      in.op = kGlobalOps[rng.chance(20) ? 2 + rng.below(2) : (rng.chance(25) ? 4 + rng.below(2) : rng.below(2))];
      const SmLsu::Access acc = SmLsu::accessOf(in.op);
      // Mostly one line (r30: every lane on one word), so many instructions are in flight.
      in.ra = static_cast<uint8_t>(acc.v4 ? (rng.chance(50) ? 29 : 31) : (rng.chance(60) ? 30 : 28 + rng.below(4)));
      in.rd = static_cast<uint8_t>(rng.below(acc.v4 ? 5 : 8));
      in.rb = static_cast<uint8_t>(rng.below(acc.v4 ? 5 : 8));
      in.sub = acc.cas ? static_cast<uint8_t>(rng.below(8))
               : acc.atom ? static_cast<uint8_t>(rng.below(static_cast<int>(isa::AtomOp::Count)))
                          : uint8_t{0};
      // Half the whole warp; below 32 lanes a quarter one group of threads, any group (it
      // detaches: the sender takes that group's copies off the ports, and the next such
      // instruction joins its queue while it sends another group's requests); else any.
      const int groups = 32 / lanes;
      if (rng.chance(50)) {
        in.exec = 0xFFFFFFFFu;
      } else if (groups > 1 && rng.chance(50)) {
        const uint32_t mine = static_cast<uint32_t>(rng.bits(lanes)) | 1u;
        in.exec = mine << (lanes * rng.below(groups));
      } else {
        in.exec = static_cast<uint32_t>(rng.bits(32)) | 1u;
      }
      return in;
    };
    std::vector<std::vector<SmLsu::Instruction>> program(kWarps);
    for (auto& p : program) {
      for (int i = 0; i < perWarp; ++i) {
        SmLsu::Instruction in = next();
        // Two in three right after a load read or rewrite the register it loads (a store or
        // atomic's operand, a load's destination): dependent pairs in every stream, so the
        // scoreboard has hazards to hold on every seed, not only where registers collide.
        if (i > 0 && rng.chance(67)) {
          const SmLsu::Instruction& prev = p.back();
          const SmLsu::Access pa = SmLsu::accessOf(prev.op), ca = SmLsu::accessOf(in.op);
          if (!pa.store && !pa.atom) {
            if (ca.atom || (ca.store && !ca.v4)) in.rb = prev.rd;
            else if (!ca.store && ca.v4 == pa.v4) in.rd = prev.rd;
          }
        }
        p.push_back(in);
      }
    }
    std::vector<size_t> pc(kWarps, 0);
    Observed ob;
    int started = 0, hazards = 0, overlapped = 0, turn = 0, cycles = 0;
    // Requests go out in instruction order, whatever the sender's queue holds: the stream on
    // the port is the model's requests of the started instructions, one after the other.
    // behind: started instructions whose requests are not all out yet (started one at a time,
    // each once the one before is done, so two or more of them mean the sender's queue held
    // two or more done instructions).
    std::vector<SmLsu::MemRequest> wantStream;
    std::deque<size_t> behind;  // each one's requests left
    size_t seen = 0;
    int queuedStarts = 0;
    auto drain = [&] {
      for (; seen < ob.requests.size(); ++seen) {
        while (!behind.empty() && behind.front() == 0) behind.pop_front();
        ASSERT_FALSE(behind.empty()) << "a request beyond the started instructions'";
        --behind.front();
      }
      while (!behind.empty() && behind.front() == 0) behind.pop_front();
    };
    const int limit = kMaxCycles * 4 * lengthScale();
    auto remaining = [&] {
      for (int w = 0; w < kWarps; ++w) if (pc[static_cast<size_t>(w)] < program[static_cast<size_t>(w)].size()) return true;
      return false;
    };
    while (remaining() && cycles < limit) {
      bench.sim().eval();
      if (!bench.sim()->busy_o) {
        // The scheduler: the next warp in turn whose instruction has no hazard.
        for (int k = 0; k < kWarps; ++k) {
          const int w = (turn + k) % kWarps;
          const auto& p = program[static_cast<size_t>(w)];
          if (pc[static_cast<size_t>(w)] >= p.size()) continue;
          const SmLsu::Instruction& in = p[pc[static_cast<size_t>(w)]];
          if (bench.hazard(w, registersOf(in), false)) {
            ++hazards;
            continue;
          }
          const SmLsu::Result want = bench.model().execute(in, bench.modelRegs(w));
          drain();
          if (behind.size() >= 2) ++queuedStarts;
          if (!want.requests.empty()) behind.push_back(want.requests.size());
          wantStream.insert(wantStream.end(), want.requests.begin(), want.requests.end());
          if (!bench.sim()->quiet_o) ++overlapped;
          bench.start(in, w);
          ++pc[static_cast<size_t>(w)];
          ++started;
          turn = w + 1;
          break;
        }
      }
      ASSERT_TRUE(bench.step(ob));
      ++cycles;
    }
    ASSERT_FALSE(remaining()) << "instructions left after " << cycles << " cycles: a hazard never cleared";
    // A membar waits until the warp has nothing in flight; at the end nothing is.
    for (int c = 0; c < kMaxCycles && !bench.sim()->quiet_o; ++c) {
      ASSERT_TRUE(bench.step(ob));
      bench.sim().eval();
    }
    ASSERT_TRUE(bench.sim()->quiet_o);
    for (int w = 0; w < kWarps; ++w) EXPECT_FALSE(bench.hazard(w, 0xFFFFFFFFu, true)) << "warp " << w;
    EXPECT_TRUE(bench.memory() == bench.model().global()) << "global memory differs";
    EXPECT_TRUE(bench.registersMatch()) << "registers differ";
    ASSERT_EQ(ob.requests.size(), wantStream.size());
    for (size_t i = 0; i < wantStream.size(); ++i) {
      auto w = wantStream[i];
      w.lanes = 0;
      ASSERT_TRUE(w == ob.requests[i]) << "request " << i << " of the stream: line 0x" << std::hex
                                       << ob.requests[i].addr << ", the model's 0x" << w.addr;
    }
    // It was the case the test is for: instructions overlapped, hazards held some back, and
    // responses waited for the write port; the sender's queue held two or more instructions
    // (at 32 lanes every access is of one group, at 8 the one-group masks above).
    EXPECT_GT(queuedStarts, 0);
    EXPECT_EQ(started, kWarps * perWarp);
    EXPECT_GT(overlapped, started / 2);
    EXPECT_GT(hazards, 0);
    EXPECT_GT(ob.wbWaitCycles, 0);
    EXPECT_GE(ob.maxOutstanding, 6);
    std::printf("[ lsu %d lanes ] %d instructions of %d warps in %d cycles; %d started with others in "
                "flight, %d with two or more in the sender, %d hazards, %d write-port waits, up to %d "
                "requests outstanding\n",
                lanes, started, kWarps, cycles, overlapped, queuedStarts, hazards, ob.wbWaitCycles,
                ob.maxOutstanding);
  });
}

TEST(SmLsuRtl, ManyInstructionsInFlightAndTheScoreboardOrdersDependentOnes) {
  manyInstructionsInFlight<Vsm_lsu>(32);
}
TEST(SmLsuRtl8Lanes, ManyInstructionsInFlightAndTheScoreboardOrdersDependentOnes) {
  manyInstructionsInFlight<Vsm_lsu8>(8);
}

// The timing, counted from the start cycle (EXEC in the core) to done: one cycle to check
// every lane, then one request per distinct line per cycle while the memory takes them, the
// responses overlapping; shared memory one cycle per conflict-free round (plus one for a
// load's last register write). With L lanes the requests and rounds are per group of L
// threads (groups = 32 / L): lines and banks shared by two groups are visited once by each;
// and the check takes a cycle per group with an executing thread (the start cycle the first:
// chk(exec) cycles more than at 32 lanes).
template <class Dut>
void coalescedRequestsAndBankRounds(int lanes) {
  const SmLsu::Config cfg = smallConfig(lanes);
  const int groups = 32 / lanes;
  // The check's cycles after the start cycle's: one per further group with an executing
  // thread, the pass sequencer's groups (its model says how many).
  const model::SmPass passModel(lanes);
  auto chk = [&](uint32_t exec) { return passModel.passes(exec) - 1; };
  const int all = chk(0xFFFFFFFFu);
  LsuBench<Dut> bench(cfg, baseSeed());
  auto run = [&](Op op, uint32_t exec, uint32_t stride, const LineMemory::Timing& t) {
    bench.setTiming(t);
    for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = stride * static_cast<uint32_t>(l);
    SmLsu::Instruction in;
    in.op = op;
    in.ra = 1;
    in.rb = 2;
    in.rd = 3;
    in.exec = exec;
    return bench.runRtl(in, 0);
  };
  const auto next = timing(1, 0, 0);
  // 32 consecutive words: 4 lines of 32 bytes (8 words: one line per group of 8 lanes or
  // more), 4 requests back to back from CHECK on (the cycle after the start: the check's
  // answer is registered, the first request goes with it), the last response a cycle after
  // the last request.
  // A plain access of one group (every access at 32 lanes) is done in CHECK, the sender
  // putting out the rest (Detach); else once the requests are out.
  const int doneAll = groups == 1 ? 2 : 1 + all + 4;
  Observed o = run(Op::LdGlobal, 0xFFFFFFFFu, 4, next);
  EXPECT_EQ(o.requests.size(), 4u);
  EXPECT_EQ(o.cycles, 1 + all + 4 + 1);
  EXPECT_EQ(o.doneCycles, doneAll);  // the core goes on
  o = run(Op::StGlobal, 0xFFFFFFFFu, 4, next);
  EXPECT_EQ(o.requests.size(), 4u);
  EXPECT_EQ(o.cycles, 1 + all + 4 + 1);
  // Every lane on one word: one request per group (at 32 lanes, done in CHECK).
  o = run(Op::LdGlobal, 0xFFFFFFFFu, 0, next);
  EXPECT_EQ(o.requests.size(), static_cast<size_t>(groups));
  EXPECT_EQ(o.doneCycles, 1 + all + groups);
  // A memory 50 cycles away: the 4 requests overlap their latency (not 4 x 50).
  o = run(Op::LdGlobal, 0xFFFFFFFFu, 4, timing(50, 0, 0));
  EXPECT_EQ(o.cycles, 1 + all + 4 + 50);
  EXPECT_EQ(o.doneCycles, doneAll);  // ... not after the latency
  EXPECT_EQ(o.maxOutstanding, 4);
  // Atomics: one request per lane, pipelined.
  o = run(Op::AtomGlobal, 0x000000FFu, 0, timing(10, 0, 0));
  EXPECT_EQ(o.requests.size(), 8u);
  EXPECT_EQ(o.cycles, 1 + chk(0x000000FFu) + 8 + 10);
  // v4 loads: one request per line, 16 lines (16 bytes a lane; two lanes a line, never
  // split by a group), each asking for its two lanes' 32 bytes; each response written one
  // element a cycle (4 register writes), so the last response is taken 3 cycles after it
  // comes.
  o = run(Op::LdGlobalV4, 0xFFFFFFFFu, 16, next);
  EXPECT_EQ(o.requests.size(), 16u);
  for (const auto& rq : o.requests) EXPECT_EQ(rq.be, 0xFFFFFFFFull);
  EXPECT_EQ(o.writes.size(), 4u * 32u);
  // At 32 lanes the v4 drain takes a line a cycle and writes its elements beside the next
  // lines' (an address a lane), the last element 3 cycles after the last line; but a line
  // goes there only once its four registers were written before (the register file's first
  // write of an entry writes every lane): r4-r6 were not, so the first line goes one element
  // a cycle (4 cycles), the 15 others through the drain. Again, every line goes through the
  // drain. At 8 lanes there is no drain: 4 cycles a line.
  const int serialCycles = o.cycles;
  if (groups == 1) {
    EXPECT_EQ(o.splitWrites, 15 + 3);
    EXPECT_EQ(o.cycles, 1 + all + 4 + 15 + 3 + 1);
  } else {
    EXPECT_EQ(o.splitWrites, 0);
    EXPECT_GE(o.cycles, 1 + all + 16 * 4);
  }
  o = run(Op::LdGlobalV4, 0xFFFFFFFFu, 16, next);
  EXPECT_EQ(o.writes.size(), 4u * 32u);
  if (groups == 1) {
    EXPECT_EQ(o.splitWrites, 16 + 3);
    EXPECT_EQ(o.cycles, 1 + all + 16 + 3 + 1);
  } else {
    EXPECT_EQ(o.splitWrites, 0);
    EXPECT_EQ(o.cycles, serialCycles);
  }
  // v4 stores: one request per line with all four elements of its two lanes; each group's
  // four data registers read once (one a cycle), its first line sent with the fourth, the
  // others one a cycle. At 32 lanes (one group) the store is done with its first line, the
  // sender putting out the others.
  o = run(Op::StGlobalV4, 0xFFFFFFFFu, 16, next);
  EXPECT_EQ(o.requests.size(), 16u);
  for (const auto& rq : o.requests) EXPECT_EQ(rq.be, 0xFFFFFFFFull);
  EXPECT_EQ(o.cycles, 1 + all + 1 + groups * (3 + 16 / groups) + 1);
  EXPECT_EQ(o.doneCycles, groups == 1 ? 1 + 1 + 3 + 1 : 1 + all + 1 + groups * (3 + 16 / groups));
  // Shared, 8 banks: 32 consecutive words are 4 rounds (at 8 lanes, one per group and no
  // conflict); a stride of 8 words puts every lane on one bank (16 lanes: 16 rounds, each
  // group's first without a conflict); every lane on one word is a broadcast (1 round per
  // group).
  o = run(Op::LdShared, 0xFFFFFFFFu, 4, next);
  EXPECT_EQ(o.conflictCycles, 4 - groups);
  EXPECT_EQ(o.cycles, 1 + all + 1 + 4 + 1);
  o = run(Op::StShared, 0x0000FFFFu, 32, next);
  EXPECT_EQ(o.fault, 0);
  EXPECT_EQ(o.conflictCycles, 16 - std::min(groups, 2));
  EXPECT_EQ(o.cycles, 1 + chk(0x0000FFFFu) + 1 + 16);
  o = run(Op::LdShared, 0xFFFFFFFFu, 0, next);
  EXPECT_EQ(o.conflictCycles, 0);
  EXPECT_EQ(o.cycles, 1 + all + 1 + groups + 1);
  // The scoreboard: while a load of warp 0 into r3 is in flight, warp 0's instructions that
  // read or write r3 (or a membar) wait; other registers and other warps do not.
  bench.setTiming(timing(40, 0, 0));
  SmLsu::Instruction ld;
  ld.op = Op::LdGlobal;
  ld.ra = 1;
  ld.rd = 3;
  ld.exec = 0xFFFFFFFFu;
  for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = 4u * static_cast<uint32_t>(l);
  Observed hz;
  bench.start(ld, 0);
  int doneAt = -1;
  for (int c = 0; c < 60 && doneAt < 0; ++c) {
    ASSERT_TRUE(bench.step(hz));
    bench.sim().eval();
    if (!bench.sim()->busy_o) doneAt = c;
  }
  ASSERT_GE(doneAt, 0);
  EXPECT_TRUE(bench.hazard(0, 1u << 3, false)) << "RAW/WAW on the loaded register";
  EXPECT_TRUE(bench.hazard(0, 0, true)) << "membar with a load in flight";
  EXPECT_FALSE(bench.hazard(0, ~(1u << 3), false)) << "other registers";
  EXPECT_FALSE(bench.hazard(1, 1u << 3, false)) << "another warp's r3";
  for (int c = 0; c < 100 && !bench.sim()->quiet_o; ++c) {
    ASSERT_TRUE(bench.step(hz));
    bench.sim().eval();
  }
  EXPECT_TRUE(bench.sim()->quiet_o);
  EXPECT_FALSE(bench.hazard(0, 1u << 3, true)) << "after the last response";
  // Back-pressure: the unit waits (its memory-wait event counts the cycles) and still ends.
  o = run(Op::StGlobal, 0xFFFFFFFFu, 4, timing(1, 200, 0));
  EXPECT_GT(o.stallCycles, 0);
  EXPECT_EQ(o.requests.size(), 4u);
}

TEST(SmLsuRtl, CoalescedRequestsAndBankRoundsSetTheCycles) { coalescedRequestsAndBankRounds<Vsm_lsu>(32); }
TEST(SmLsuRtl8Lanes, CoalescedRequestsAndBankRoundsSetTheCycles) {
  coalescedRequestsAndBankRounds<Vsm_lsu8>(8);
}

// Why a global instruction waits (counters 26-28, docs/blocks/sm.md): a load of more lines
// than the unit has ids waits for its ids; loads started back to back while every slot of the
// in-flight table is busy wait in CHECK for a slot; a load started while the sender's queue is
// full (kSendDepth instructions still putting out their requests) waits in CHECK for the
// sender. A few requests on a quiet unit wait for none of these.
template <class Dut>
void waitsCountedByCause(int lanes) {
  const SmLsu::Config cfg = smallConfig(lanes);
  LsuBench<Dut> bench(cfg, baseSeed());
  bench.setTiming(timing(60, 0, 0));
  auto load = [](uint32_t exec, uint8_t rd) { return memInst(Op::LdGlobal, 1, rd, exec); };
  // Four lines: no wait.
  for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = 4u * static_cast<uint32_t>(l);
  Observed o = bench.runRtl(load(0xFFFFFFFFu, 3), 0);
  EXPECT_EQ(o.requests.size(), 4u);
  EXPECT_EQ(o.idWaitCycles, 0);
  EXPECT_EQ(o.slotWaitCycles, 0);
  // 32 lines (a lane a line), more than the unit's ids: the requests wait for ids, as long as
  // the memory takes to answer the first.
  for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = kLineBytes * static_cast<uint32_t>(l);
  o = bench.runRtl(load(0xFFFFFFFFu, 3), 0);
  EXPECT_EQ(o.requests.size(), 32u);
  EXPECT_GT(o.idWaitCycles, 30);
  EXPECT_EQ(o.slotWaitCycles, 0);
  EXPECT_EQ(o.senderWaitCycles, 0);
  // kSendDepth + 1 such loads back to back: at 32 lanes each is done in CHECK, the first
  // handing its requests to the sender and the next kSendDepth - 1 joining its queue at once;
  // the last one's CHECK waits until the first's requests are out (its ids coming back one by
  // one). At 8 lanes (four groups: no sender) each holds the unit until its last request.
  {
    Observed many;
    const int n = kSendDepth + 1;
    std::vector<int> startedAt;
    for (int c = 0; c < 4000 && (static_cast<int>(startedAt.size()) < n || !bench.sim()->quiet_o);
         ++c) {
      bench.sim().eval();
      if (static_cast<int>(startedAt.size()) < n && !bench.sim()->busy_o) {
        bench.start(load(0xFFFFFFFFu, static_cast<uint8_t>(3 + startedAt.size())), 0);
        startedAt.push_back(c);
      }
      ASSERT_TRUE(bench.step(many));
    }
    EXPECT_TRUE(bench.sim()->quiet_o);
    ASSERT_EQ(static_cast<int>(startedAt.size()), n);
    EXPECT_EQ(many.requests.size(), 32u * static_cast<size_t>(n));
    const int queued = startedAt[static_cast<size_t>(n - 1)] - startedAt[0];
    if (lanes == 32) {
      EXPECT_LE(queued, 3 * kSendDepth) << "the first kSendDepth loads are done at once";
      EXPECT_GT(many.senderWaitCycles, 30) << "the next one waits in CHECK for room in the sender";
    } else {
      EXPECT_GT(queued, 30 * (kSendDepth - 1)) << "without a sender each load holds the unit";
      EXPECT_EQ(many.senderWaitCycles, 0);
    }
  }
  // One-line loads of four warps into distinct registers, started as soon as the unit takes
  // them: the in-flight table's slots fill (8) and the next load waits in CHECK for one.
  for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = 4u * static_cast<uint32_t>(l);
  Observed ob;
  int started = 0;
  for (int c = 0; c < 400 && started < 10; ++c) {
    bench.sim().eval();
    if (!bench.sim()->busy_o) {
      bench.start(load(1u, static_cast<uint8_t>(4 + started / kWarps)), started % kWarps);
      ++started;
    }
    ASSERT_TRUE(bench.step(ob));
  }
  EXPECT_EQ(started, 10);
  EXPECT_GT(ob.slotWaitCycles, 30) << "the ninth load waits for the first's response";
  EXPECT_EQ(ob.idWaitCycles, 0);
  for (int c = 0; c < 400 && !bench.sim()->quiet_o; ++c) {
    ASSERT_TRUE(bench.step(ob));
    bench.sim().eval();
  }
  EXPECT_TRUE(bench.sim()->quiet_o);
}

// A v4 store started while the sender still puts out the load before it gathers its four
// element registers meanwhile (GATHER beside the sender) and joins the sender's queue with
// them, so its first request follows the load's last in the next cycle, where gathering after
// the sender took four cycles more, and nothing waits for the sender. Likewise a v4 store
// behind another (each queued store keeps its own elements). Both stores' lines must reach
// memory with their own elements (memory compared with the model).
template <class Dut>
void v4StoreGathersBesideTheSender(int lanes) {
  forEachSeed<Dut>(lanes, [&](LsuBench<Dut>& bench, Rng& rng, const SmLsu::Config& cfg, uint64_t) {
    bench.fill(rng);
    bench.setTiming(timing(1, 0, 0));  // (ids come back at once: the sender's pace is a line a cycle)
    const uint32_t group = lanes == 32 ? 0xFFFFFFFFu : 0xFFu;  // one group: both detach
    for (int l = 0; l < 32; ++l) {
      const auto ul = static_cast<uint32_t>(l);
      const uint32_t a[3] = {kLineBytes * ul % 1024,            // r1: a line a lane
                             1024 + 16 * ul % 512,             // r2: 16-byte elements
                             1536 + 16 * ul % 512};            // r3: another store's
      for (int r = 0; r < 3; ++r) {
        bench.regs()[1 + r][static_cast<size_t>(l)] = a[r];
        bench.modelRegs()[1 + r][static_cast<size_t>(l)] = a[r];
      }
    }
    auto inst = [&](Op op, uint8_t ra, uint8_t r) { return memInst(op, ra, r, group); };
    // Starts the instructions back to back (each when the unit takes one) and returns the
    // cycle of every request.
    auto runBackToBack = [&](const std::vector<SmLsu::Instruction>& prog, Observed& ob) {
      std::vector<int> at;
      size_t next = 0;
      for (int c = 0; c < 3000 && (next < prog.size() || !bench.sim()->quiet_o); ++c) {
        bench.sim().eval();
        if (next < prog.size() && !bench.sim()->busy_o) {
          bench.model().execute(prog[next], bench.modelRegs());
          bench.start(prog[next], 0);
          ++next;
        }
        const size_t before = ob.requests.size();
        if (!bench.step(ob)) return at;
        for (size_t k = before; k < ob.requests.size(); ++k) at.push_back(c);
      }
      EXPECT_TRUE(bench.sim()->quiet_o);
      return at;
    };
    const int loadLines = lanes == 32 ? 32 : 8, storeLines = lanes == 32 ? 16 : 4;
    // A load of a line a lane, then a v4 store: the store gathers beside the sender.
    Observed ob;
    std::vector<int> at = runBackToBack({inst(Op::LdGlobal, 1, 8), inst(Op::StGlobalV4, 2, 4)}, ob);
    ASSERT_EQ(static_cast<int>(at.size()), loadLines + storeLines);
    EXPECT_EQ(at[static_cast<size_t>(loadLines)], at[static_cast<size_t>(loadLines - 1)] + 1)
        << "the v4 store's first request follows the load's last";
    EXPECT_EQ(ob.senderWaitCycles, 0) << "its gather done, it joins the sender's queue";
    EXPECT_EQ(ob.dones, 2);
    EXPECT_EQ(ob.fastDones, 2) << "both are done from registered state (the core retires them at once)";
    EXPECT_TRUE(bench.memory() == bench.model().global()) << "global memory differs";
    // Two v4 stores: the second gathers beside the first's requests and follows them at once.
    Observed two;
    at = runBackToBack({inst(Op::StGlobalV4, 2, 4), inst(Op::StGlobalV4, 3, 12)}, two);
    ASSERT_EQ(static_cast<int>(at.size()), 2 * storeLines);
    // (At 8 lanes the first store's 4 lines take less than the second's CHECK and four gather
    // cycles: its first request follows 3 cycles after.)
    EXPECT_EQ(at[static_cast<size_t>(storeLines)], at[static_cast<size_t>(storeLines - 1)] + (lanes == 32 ? 1 : 3))
        << "the second v4 store's first request follows the first's last";
    EXPECT_EQ(two.senderWaitCycles, 0);
    EXPECT_EQ(two.fastDones, 2) << "a v4 store's done in GATHER is a fast one";
    EXPECT_TRUE(bench.memory() == bench.model().global()) << "global memory differs";
    (void)cfg;
  });
}

TEST(SmLsuRtl, V4StoreGathersItsElementsWhileTheSenderWorks) { v4StoreGathersBesideTheSender<Vsm_lsu>(32); }
TEST(SmLsuRtl8Lanes, V4StoreGathersItsElementsWhileTheSenderWorks) {
  v4StoreGathersBesideTheSender<Vsm_lsu8>(8);
}

// A fault behind the sender's queue stays precise: kSendDepth loads of a line a lane are done
// at once (at 32 lanes their requests wait in the queue), then a misaligned load: its CHECK
// reports the fault only once every request of the loads before it is out, and sends none of
// its own. At 8 lanes (no sender) each load holds the unit until its requests are out.
template <class Dut>
void faultBehindTheQueue(int lanes) {
  const SmLsu::Config cfg = smallConfig(lanes);
  LsuBench<Dut> bench(cfg, baseSeed());
  bench.setTiming(timing(20, 0, 0));
  for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = kLineBytes * static_cast<uint32_t>(l);
  for (int l = 0; l < 32; ++l) bench.regs()[2][static_cast<size_t>(l)] = 4u * static_cast<uint32_t>(l) + (l == 5 ? 2u : 0u);
  auto load = [](uint8_t ra, uint8_t rd) { return memInst(Op::LdGlobal, ra, rd, 0xFFFFFFFFu); };
  Observed ob;
  int started = 0;
  int faultAt = -1;
  size_t requestsAtFault = 0;
  for (int c = 0; c < 4000 && faultAt < 0; ++c) {
    bench.sim().eval();
    if (started <= kSendDepth && !bench.sim()->busy_o) {
      bench.start(started < kSendDepth ? load(1, static_cast<uint8_t>(3 + started)) : load(2, 9), 0);
      ++started;
    }
    ASSERT_TRUE(bench.step(ob));
    if (LsuBench<Dut>::causeOf(bench.lastFault()) != 0) {
      faultAt = c;
      requestsAtFault = ob.requests.size();
      EXPECT_EQ((bench.lastFault() >> 32) & 0x1F, 5u) << "the misaligned thread";
    }
  }
  ASSERT_GE(faultAt, 0) << "no fault";
  EXPECT_EQ(requestsAtFault, 32u * kSendDepth) << "the loads' requests all out before the fault";
  for (int c = 0; c < 2000 && !bench.sim()->quiet_o; ++c) {
    ASSERT_TRUE(bench.step(ob));
    bench.sim().eval();
  }
  EXPECT_TRUE(bench.sim()->quiet_o);
  EXPECT_EQ(ob.requests.size(), 32u * kSendDepth) << "the faulting load sent nothing";
}

TEST(SmLsuRtl, AFaultBehindTheSendersQueueIsTakenOnceItsRequestsAreOut) { faultBehindTheQueue<Vsm_lsu>(32); }
TEST(SmLsuRtl8Lanes, AFaultBehindTheSendersQueueIsTakenOnceItsRequestsAreOut) {
  faultBehindTheQueue<Vsm_lsu8>(8);
}

TEST(SmLsuRtl, WaitsForIdsAndSlotsAreCountedByCause) { waitsCountedByCause<Vsm_lsu>(32); }
TEST(SmLsuRtl8Lanes, WaitsForIdsAndSlotsAreCountedByCause) { waitsCountedByCause<Vsm_lsu8>(8); }

// The address check at its edges (issue #26 reworked it: an absolute address is checked once,
// limits compare word indices): addresses at and around the end of each memory, past it,
// misaligned there, wrapping past 2^32 (base + immediate), and absolute (imm_b) ones of each
// kind, on every lane or a few. Faults (cause, lane, address) and any accesses match the model.
// Memories of whole 16-byte quads, and of sizes that are not (a v4 access partly past the
// end: the fault names its first element past it).
template <class Dut>
void addressCheckEdges(int lanes, uint32_t globalBytes = 0, uint32_t sharedBytes = 0) {
  forEachSeed<Dut>(lanes, [&](LsuBench<Dut>& bench, Rng& rng, const SmLsu::Config& cfg, uint64_t seed) {
    bench.startRandom(rng);
    bench.setTiming(timing(1, 0, 0));
    Scoreboard sb("sm_lsu_check");
    const Op ops[] = {Op::LdGlobal, Op::StGlobal, Op::LdShared, Op::StShared, Op::LdGlobalV4, Op::StGlobalV4};
    int faults = 0, partV4 = 0;
    // (With part quads a seed runs on, up to 4x, until three v4 faults named a part quad.)
    const int n = 300 * lengthScale();
    const bool part = cfg.globalBytes % 16 != 0;
    for (int i = 0; (i < n || (part && partV4 < 3 && i < 4 * n)) && sb.clean(); ++i) {
      SmLsu::Instruction in;
      in.op = ops[rng.below(static_cast<int>(std::size(ops)))];
      const SmLsu::Access acc = SmLsu::accessOf(in.op);
      const uint32_t bytes = acc.shared ? cfg.sharedBytes : cfg.globalBytes;
      in.rd = static_cast<uint8_t>(rng.below(acc.v4 ? 29 : 32));
      in.ra = static_cast<uint8_t>(rng.below(32));
      in.rb = static_cast<uint8_t>(rng.below(acc.v4 ? 29 : 32));
      in.cta = rng.below(kCtas);
      in.exec = rng.chance(4) ? 0xFFFFFFFFu : (static_cast<uint32_t>(rng.bits(32)) | (1u << rng.below(32)));
      in.immB = rng.chance(3);
      const auto edge = [&]() -> uint32_t {
        const uint32_t e[] = {bytes - 4, bytes - 16, bytes - 12, bytes - 8, bytes, bytes + 4, bytes + 16,
                              0xFFFFFFFCu, 0xFFFFFFF0u, 0u, 16u, bytes - 2, bytes - 14, 2u,
                              bytes & ~15u};  // (the last quad that starts inside)
        return rng.chance(3) ? static_cast<uint32_t>(rng.below(static_cast<int>(bytes / 16))) * 16
                             : e[rng.below(static_cast<int>(std::size(e)))];
      };
      // The immediate: an edge (absolute), or any value (a base + immediate that may wrap).
      in.imm = in.immB || rng.chance(2) ? edge() : static_cast<uint32_t>(rng.bits(32));
      for (int l = 0; l < 32; ++l) {
        // Each lane's base + immediate is an edge (mostly in range: few lanes fault).
        const uint32_t a = rng.chance(4) ? edge() : static_cast<uint32_t>(rng.below(static_cast<int>(bytes / 16))) * 16;
        const uint32_t base = a - in.imm;  // wraps
        bench.regs(0)[in.ra][static_cast<size_t>(l)] = base;
        bench.modelRegs(0)[in.ra][static_cast<size_t>(l)] = base;
      }
      const SmLsu::Result want = bench.model().execute(in, bench.modelRegs(0));
      const Observed got = bench.runRtl(in, 0);
      if (!got.ok) break;
      compare(want, got, "instruction " + std::to_string(i) + " (" + isa::opName(in.op) + ")", sb);
      faults += want.fault != SmLsu::Fault::None;
      const uint32_t end = acc.shared ? cfg.sharedBytes : cfg.globalBytes;
      partV4 += acc.v4 && (want.fault == SmLsu::Fault::GlobalRange || want.fault == SmLsu::Fault::SharedRange) &&
                want.faultAddr % 16 != 0 && want.faultAddr == end;
    }
    EXPECT_TRUE(bench.memory() == bench.model().global()) << "global memory differs";
    EXPECT_TRUE(bench.registersMatch()) << "registers differ";
    EXPECT_GT(faults, 50) << "too few faulting instructions to test the check";
    if (part) EXPECT_GE(partV4, 3) << "too few v4 accesses partly past the end";
    EXPECT_TRUE(sb.clean());
  }, globalBytes, sharedBytes);
}

TEST(SmLsuRtl, AddressCheckEdgesMatchTheModel) { addressCheckEdges<Vsm_lsu>(32); }
TEST(SmLsuRtl8Lanes, AddressCheckEdgesMatchTheModel) { addressCheckEdges<Vsm_lsu8>(8); }
// 2,036 and 504 bytes: a quad at 2,032 has one word inside, at 496 two.
TEST(SmLsuRtl, AddressCheckEdgesOfMemoriesOfPartQuadsMatchTheModel) {
  addressCheckEdges<Vsm_lsu>(32, 2036, 504);
}
TEST(SmLsuRtl8Lanes, AddressCheckEdgesOfMemoriesOfPartQuadsMatchTheModel) {
  addressCheckEdges<Vsm_lsu8>(8, 2036, 504);
}

}  // namespace
}  // namespace simt::tb
