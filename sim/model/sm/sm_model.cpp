#include "model/sm/sm_model.h"

#include <algorithm>
#include <deque>
#include <sstream>

#include "asm/isa.h"
#include "model/barrier/barrier_unit.h"
#include "model/fpu/fpu.h"
#include "model/scheduler/warp_scheduler.h"

namespace simt::model {

using isa::Instr;
using isa::Op;

const char* runStatusName(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Error: return "error";
    case RunStatus::Deadlock: return "deadlock";
    case RunStatus::Timeout: return "timeout";
    case RunStatus::Mismatch: return "mismatch";
  }
  return "?";
}

int exitCode(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return 0;
    case RunStatus::Error: return 1;
    case RunStatus::Deadlock: return 2;
    case RunStatus::Timeout: return 3;
    case RunStatus::Mismatch: return 4;
  }
  return 1;
}

namespace {

constexpr int kWarpSize = 32;
constexpr int kGroup = 16;  // seed 000's thread group: the granularity of the thread map

struct Fault {
  std::string message;
};

int popcount(uint64_t m) { return __builtin_popcountll(m); }

}  // namespace

struct SmModel::Impl {
  struct Cta {
    int id = 0;
    std::vector<int> slots;
    std::vector<uint8_t> shared;
    int residentIdx = 0;      // the scheduler's CTA index (barrier table row, CTA priority)
    std::vector<int> physicalBaseOfGroup;  // logical thread group -> first physical thread
  };
  struct Slot {
    bool busy = false;
    int cta = -1;             // index into ctas_
    int warpInCta = 0;
    uint64_t launchMask = 0;
    int residentIdx = 0;      // of its CTA (scheduler index)
    int ctaId = 0;
    std::vector<std::array<uint32_t, 32>> regs;  // per lane
    std::vector<std::array<bool, 7>> preds;
  };

  const assembler::Kernel& k;
  RunConfig cfg;
  int nCtas, nThreads, warpsPerCta;
  DivergenceUnit du;
  BarrierUnit bu;
  std::optional<uint64_t> barrierTimeout;  // next impatient timeout, if any
  std::vector<uint32_t> global;
  std::vector<Slot> slots;
  std::map<int, Cta> ctas;  // resident CTAs by id
  int nextCta = 0, finishedCtas = 0;
  uint64_t cycle = 0, instructions = 0, threadInstructions = 0;
  // Warp selection: the scheduler block's model (policy, barrier scoreboard with per-warp
  // copies of barrier-table entries, one instruction in flight per warp).
  WarpScheduler sched;
  WarpScheduler::Inputs sin;
  int lastIssued = -1;                           // retires (completes) the next cycle
  bool barrierDirty = true;                      // the barrier table may have changed
  std::vector<int> ctaSlotUsed;                  // resident-CTA index -> CTA id (-1 free)
  std::vector<int> logicalBaseOfGroup;           // physical thread group -> logical base
  std::map<std::string, uint64_t> stats;
  // Lockstep: wakes wait here until the RTL delivers them (per warp slot: mask, resume).
  bool deferWakes = false;
  bool externalLaunch = false;  // lockstep: CTAs launch when the core launches them ...
  bool externalRetire = false;  // ... and retire when it retires them
  // Lockstep: the cycle at which the RTL's barrier unit took the arrival being issued (the
  // timeout origin), when the co-simulation knows it.
  std::optional<uint64_t> arrivalCycle;
  struct PendingWake {
    int slot;
    uint64_t mask;
    uint32_t resume;
  };
  std::vector<PendingWake> pendingWakes;

  static DivergenceUnit::Config duConfig(const RunConfig& c) {
    DivergenceUnit::Config d;
    d.numWarps = c.warpSlots;
    d.warpSize = kWarpSize;
    d.queueDepth = c.queueDepth;
    d.mode = c.divergence;
    d.lfsrSeed = static_cast<uint16_t>((c.seed & 0xFFFF) ? (c.seed & 0xFFFF) : 1);  // LFSR must not be 0
    return d;
  }

  Impl(const assembler::Kernel& kernel, const RunConfig& c)
      : k(kernel), cfg(c), nCtas(c.ctas > 0 ? c.ctas : kernel.ctas),
        nThreads(c.threads > 0 ? c.threads : kernel.threads),
        warpsPerCta((nThreads + kWarpSize - 1) / kWarpSize), du(duConfig(c)),
        global(kernel.data), slots(static_cast<size_t>(c.warpSlots)),
        sched(schedConfig(c)), sin(sched.blankInputs()),
        ctaSlotUsed(static_cast<size_t>(c.maxResidentCtas), -1),
        logicalBaseOfGroup(static_cast<size_t>(c.warpSlots * kWarpSize / kGroup), 0) {
    sin.policy = c.policy;
    bu.setTimeoutOrigin(c.timeoutOrigin);
    for (int id = 0; id < 16; ++id) bu.setPriority(id, c.barrierPriority[static_cast<size_t>(id)]);
    for (auto& s : slots) {
      s.regs.assign(kWarpSize, {});
      s.preds.assign(kWarpSize, {});
    }
  }

  static WarpScheduler::Config schedConfig(const RunConfig& c) {
    WarpScheduler::Config s;
    s.numWarps = c.warpSlots;
    s.numCtas = c.maxResidentCtas;
    s.numBarIds = BarrierUnit::kIds;
    s.numUpd = c.maxResidentCtas * BarrierUnit::kIds;  // the model applies every change
    return s;
  }

  [[noreturn]] void fault(int slot, uint32_t pc, int lane, const std::string& what) const {
    std::ostringstream os;
    os << "fault: " << what << " (warp slot " << slot;
    if (slot >= 0 && slots[static_cast<size_t>(slot)].busy) {
      const Slot& s = slots[static_cast<size_t>(slot)];
      os << ", cta " << ctas.at(s.cta).id << " warp " << s.warpInCta;
    }
    os << ", pc " << pc;
    if (lane >= 0) {
      os << ", thread " << (slots[static_cast<size_t>(slot)].warpInCta * kWarpSize + lane);
    }
    if (pc < k.codeLine.size()) os << ", " << k.file << ":" << k.codeLine[pc];
    os << ")";
    throw Fault{os.str()};
  }

  // ---- CTA launch ------------------------------------------------------------------------
  // Every CTA that fits now, each on the lowest free warp slots and resident index. In
  // lockstep the core decides when (lockstepLaunch).
  void launchCtas() {
    if (externalLaunch) return;
    while (launchOne()) {
    }
  }
  std::vector<int> freeWarpSlots() const {
    std::vector<int> free;
    for (int i = 0; i < cfg.warpSlots; ++i) {
      if (!slots[static_cast<size_t>(i)].busy) free.push_back(i);
    }
    return free;
  }
  bool canLaunch() const {
    return nextCta < nCtas && static_cast<int>(ctas.size()) < cfg.maxResidentCtas &&
           static_cast<int>(freeWarpSlots().size()) >= warpsPerCta;
  }
  bool launchOne() {
    if (!canLaunch()) return false;
    const std::vector<int> free = freeWarpSlots();
    Cta cta;
    cta.id = nextCta++;
    const auto freeIdx = std::find(ctaSlotUsed.begin(), ctaSlotUsed.end(), -1);
    cta.residentIdx = static_cast<int>(freeIdx - ctaSlotUsed.begin());
    *freeIdx = cta.id;
    cta.shared.assign(k.sharedBytes, 0);
    for (int wi = 0; wi < warpsPerCta; ++wi) {
      const int sl = free[static_cast<size_t>(wi)];
      Slot& s = slots[static_cast<size_t>(sl)];
      s.busy = true;
      s.cta = cta.id;
      s.warpInCta = wi;
      s.residentIdx = cta.residentIdx;
      s.ctaId = cta.id;
      const int first = wi * kWarpSize;
      const int n = std::min(kWarpSize, nThreads - first);
      s.launchMask = n >= 64 ? ~0ull : ((1ull << n) - 1);
      for (auto& r : s.regs) r.fill(0);
      for (auto& p : s.preds) p.fill(false);
      du.launch(sl, s.launchMask, 0);
      cta.slots.push_back(sl);
      for (int g = 0; g < kWarpSize / kGroup; ++g) {  // map one thread group at a time
        const int logical = first + g * kGroup, physical = sl * kWarpSize + g * kGroup;
        cta.physicalBaseOfGroup.push_back(physical);
        logicalBaseOfGroup[static_cast<size_t>(physical / kGroup)] = logical;
      }
    }
    bu.addCta(cta.id, nThreads);
    stats["max_resident_ctas"] = std::max<uint64_t>(stats["max_resident_ctas"], ctas.size() + 1);
    barrierDirty = true;
    ctas[cta.id] = std::move(cta);
    return true;
  }

  // The core starts a CTA launch with its first warp in warp slot `warp`: the model launches
  // its next CTA then, by its own placement rule, and checks the core's slot agrees.
  std::string launchAt(int warp) {
    const std::string at = "CTA launch into warp slot " + std::to_string(warp);
    if (nextCta >= nCtas) return at + ", but the model has launched all " + std::to_string(nCtas) + " CTAs";
    if (!canLaunch()) {
      return at + ", but the model has no room: " + std::to_string(ctas.size()) + " resident CTAs, " +
             std::to_string(freeWarpSlots().size()) + " free warp slots";
    }
    const int first = freeWarpSlots().front();
    if (first != warp) {
      return at + " for CTA " + std::to_string(nextCta) + "; the model places it at warp slot " +
             std::to_string(first) + " (lowest free)";
    }
    launchOne();
    return {};
  }

  template <class It>
  bool ctaDone(It it) const {
    bool done = true;
    for (int sl : it->second.slots) done &= du.status(sl) == WarpStatus::Done;
    return done;
  }
  template <class It>
  It retireCta(It it) {
    for (int sl : it->second.slots) slots[static_cast<size_t>(sl)].busy = false;
    ++finishedCtas;
    bu.removeCta(it->first);
    barrierDirty = true;
    ctaSlotUsed[static_cast<size_t>(it->second.residentIdx)] = -1;
    return ctas.erase(it);
  }
  // Lockstep: the core retires the CTA at this resident index (after its warps' memory
  // instructions are done, so possibly later than the model would).
  std::string retireAt(int residentIdx) {
    const std::string at = "CTA retirement at resident index " + std::to_string(residentIdx);
    for (auto it = ctas.begin(); it != ctas.end(); ++it) {
      if (it->second.residentIdx != residentIdx) continue;
      if (!ctaDone(it)) return at + ": CTA " + std::to_string(it->first) + " has warps left in the model";
      retireCta(it);
      return {};
    }
    return at + ", which holds no CTA in the model";
  }

  void retireFinished() {
    if (externalRetire) return;
    for (auto it = ctas.begin(); it != ctas.end();) {
      it = ctaDone(it) ? retireCta(it) : std::next(it);
    }
  }

  // ---- memory ------------------------------------------------------------------------------
  uint32_t& globalWord(int slot, uint32_t pc, int lane, uint32_t addr, uint32_t align) {
    if (addr % align) fault(slot, pc, lane, "misaligned global access at " + std::to_string(addr));
    if (addr / 4 >= global.size()) fault(slot, pc, lane, "global access out of range at " + std::to_string(addr));
    return global[addr / 4];
  }
  uint32_t* sharedWord(Cta& cta, int slot, uint32_t pc, int lane, uint32_t addr) {
    if (addr % 4) fault(slot, pc, lane, "misaligned shared access at " + std::to_string(addr));
    if (addr + 4 > cta.shared.size()) fault(slot, pc, lane, "shared access out of range at " + std::to_string(addr));
    return reinterpret_cast<uint32_t*>(&cta.shared[addr]);
  }

  static uint32_t alu(Op op, uint32_t a, uint32_t b) {
    switch (op) {
      case Op::Add: return a + b;
      case Op::Sub: return a - b;
      case Op::Mul: return a * b;
      case Op::And: return a & b;
      case Op::Or: return a | b;
      case Op::Xor: return a ^ b;
      case Op::Shl: return a << (b & 31);
      case Op::Shr: return a >> (b & 31);
      case Op::Sra: return static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31));
      case Op::Min: return static_cast<uint32_t>(std::min(static_cast<int32_t>(a), static_cast<int32_t>(b)));
      case Op::Max: return static_cast<uint32_t>(std::max(static_cast<int32_t>(a), static_cast<int32_t>(b)));
      case Op::Minu: return std::min(a, b);
      case Op::Maxu: return std::max(a, b);
      default: return 0;
    }
  }

  static bool compare(isa::Cmp c, uint32_t a, uint32_t b) {
    const auto sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    switch (c) {
      case isa::Cmp::Eq: return a == b;
      case isa::Cmp::Ne: return a != b;
      case isa::Cmp::Lt: return sa < sb;
      case isa::Cmp::Le: return sa <= sb;
      case isa::Cmp::Gt: return sa > sb;
      case isa::Cmp::Ge: return sa >= sb;
      case isa::Cmp::Ltu: return a < b;
      case isa::Cmp::Leu: return a <= b;
      case isa::Cmp::Gtu: return a > b;
      case isa::Cmp::Geu: return a >= b;
      default: return false;
    }
  }

  uint32_t sreg(const Slot& s, int lane, isa::Sreg r) const {
    const uint32_t tid = static_cast<uint32_t>(s.warpInCta * kWarpSize + lane);
    const uint32_t ctaid = static_cast<uint32_t>(ctas.at(s.cta).id);
    switch (r) {
      case isa::Sreg::Tid: return tid;
      case isa::Sreg::Ntid: return static_cast<uint32_t>(nThreads);
      case isa::Sreg::Ctaid: return ctaid;
      case isa::Sreg::Nctaid: return static_cast<uint32_t>(nCtas);
      case isa::Sreg::Laneid: return static_cast<uint32_t>(lane);
      case isa::Sreg::Warpid: return static_cast<uint32_t>(s.warpInCta);
      case isa::Sreg::Gtid: return ctaid * static_cast<uint32_t>(nThreads) + tid;
      case isa::Sreg::Clock: return static_cast<uint32_t>(cycle);
      default: return 0;
    }
  }

  // ---- barriers ------------------------------------------------------------------------------
  static bool isArrival(Op op) {
    return op == Op::BarSync || op == Op::BarTopOcs || op == Op::BarTopUcs;
  }

  // Seed 000's logical-to-physical thread map, kept per thread group of 16: the barrier unit
  // names threads by logical id, the divergence unit by (warp slot, lane).
  std::vector<int> threadIds(int sl, uint64_t mask) const {
    std::vector<int> ids;
    for (int l = 0; l < kWarpSize; ++l) {
      if ((mask >> l) & 1u) {
        const int phys = sl * kWarpSize + l;
        ids.push_back(logicalBaseOfGroup[static_cast<size_t>(phys / kGroup)] + phys % kGroup);
      }
    }
    return ids;
  }

  uint64_t laneMask(int sl, const std::vector<int>& ids) const {
    uint64_t m = 0;
    const Cta& cta = ctas.at(slots[static_cast<size_t>(sl)].cta);
    for (int t : ids) {
      const int phys = cta.physicalBaseOfGroup[static_cast<size_t>(t / kGroup)] + t % kGroup;
      if (phys / kWarpSize == sl) m |= 1ull << (phys % kWarpSize);
    }
    return m;
  }

  // Let the barrier unit start what is ready and hand its wakes to the divergence unit.
  void settleBarriers() {
    barrierDirty = true;
    bu.evaluate(cycle);
    for (const BarrierWake& wk : bu.takeWakes()) {
      const Cta& cta = ctas.at(wk.cta);
      for (int sl : cta.slots) {
        const uint64_t m = laneMask(sl, wk.threads);
        if (!m) continue;
        if (deferWakes) {
          pendingWakes.push_back({sl, m, wk.resume});
          continue;
        }
        const CtrlResult r = du.barrierWake(sl, m, wk.resume);
        if (!r.ok) fault(sl, wk.resume, -1, "unrecoverable token-queue overflow");
        ++stats["barrier_wake_tokens"];
      }
    }
    barrierTimeout = bu.nextTimeout();
  }

  // Lanes whose guard predicate holds.
  static uint64_t guardMask(const Slot& s, const Instr& in) {
    uint64_t guard = 0;
    for (int l = 0; l < kWarpSize; ++l) {
      bool g = in.guardPred == isa::kPt ? true : s.preds[static_cast<size_t>(l)][in.guardPred];
      if (in.guardNeg) g = !g;
      if (g) guard |= 1ull << l;
    }
    return guard;
  }

  // Whether the warp's next instruction cannot issue: its participants would arrive at a
  // barrier id busy with another tag (non-participants alone are never held).
  bool blockedByBarrier(int sl) const {
    const uint32_t pc = du.pc(sl);
    if (pc >= k.code.size()) return false;
    const Instr in = Instr::decode(k.code[pc]);
    if (!isArrival(in.op)) return false;
    const Slot& s = slots[static_cast<size_t>(sl)];
    if ((du.active(sl) & guardMask(s, in)) == 0) return false;
    return bu.busyWithOtherTag(s.cta, in.rd & 15, pc);
  }

  void arriveAtBarrier(int sl, Slot& s, const Instr& in, uint32_t pc, uint64_t exec) {
    BarrierArrival a;
    a.cta = s.cta;
    a.id = in.rd & 15;
    a.tag = pc;
    a.kind = in.op == Op::BarSync ? BarrierKind::Sync
             : in.op == Op::BarTopOcs ? BarrierKind::Ordered : BarrierKind::Unordered;
    a.exclusive = in.sub & isa::barflag::kEx;
    if (in.sub & isa::barflag::kHasCount) {
      if (in.immB) {
        a.count = in.imm & isa::kMaxBarCount;
      } else if (exec) {
        a.count = s.regs[static_cast<size_t>(__builtin_ctzll(exec))][in.ra];
      }
    }
    if (in.sub & isa::barflag::kImp) {
      a.impatient = true;
      a.min = (in.imm >> 12) & 0x3FF;
      a.timeout = (in.imm >> 22) | (static_cast<uint32_t>(in.rb) << 10);
      a.pass = in.sub & isa::barflag::kPass;
    }
    a.threads = threadIds(sl, exec);
    a.nonParticipants = (du.active(sl) & ~exec) != 0;
    std::vector<int> passNow;
    // Refusal cannot happen here: the issue check (blockedByBarrier) held the warp back.
    bu.arrive(a, arrivalCycle ? *arrivalCycle : cycle, passNow);
    const CtrlResult r = du.barrierSleep(sl, exec & ~laneMask(sl, passNow));
    if (!r.ok) fault(sl, pc, -1, "unrecoverable token-queue overflow");
    settleBarriers();
  }

  void barrierBottom(int sl, Slot& s, const Instr& in, uint32_t pc, uint64_t exec) {
    std::vector<int> sleepNow;
    bu.bottom(s.cta, in.rd & 15, pc, in.sub & isa::barflag::kNb, threadIds(sl, exec), sleepNow);
    const CtrlResult r = du.barrierSleep(sl, laneMask(sl, sleepNow));
    if (!r.ok) fault(sl, pc, -1, "unrecoverable token-queue overflow");
    settleBarriers();
  }

  // ---- warp scheduler ------------------------------------------------------------------------
  // The barrier table as the scheduler's scoreboard sees it: per (resident CTA, id) idle,
  // static (collecting arrivals) or dynamic (a portion has started; arrivals at the same tag
  // are still taken, so late arrivals are allowed).
  std::vector<WarpScheduler::BarrierEntry> barrierTable() const {
    std::vector<WarpScheduler::BarrierEntry> t(sin.barriers.size());
    for (const auto& [id, cta] : ctas) {
      for (int b = 0; b < BarrierUnit::kIds; ++b) {
        const BarrierUnit::Entry e = bu.entry(id, b);
        if (!e.busy) continue;
        auto& x = t[static_cast<size_t>(cta.residentIdx * BarrierUnit::kIds + b)];
        x.state = e.portionStarted ? BarState::Dynamic : BarState::Static;
        x.tag = e.tag;
        x.lateOk = true;
      }
    }
    return t;
  }

  void refreshSchedulerInputs() {
    for (int i = 0; i < cfg.warpSlots; ++i) {
      const Slot& s = slots[static_cast<size_t>(i)];
      WarpScheduler::WarpIn& w = sin.warps[static_cast<size_t>(i)];
      w.valid = s.busy;
      w.active = s.busy && du.active(i) != 0;
      w.instValid = true;
      w.retire = i == lastIssued;
      w.instBar = false;
      if (!s.busy) continue;
      w.cta = s.residentIdx;
      sin.ctaPrio[static_cast<size_t>(s.residentIdx)] = static_cast<uint32_t>(63 - std::min(s.ctaId, 63));
      const uint32_t pc = du.pc(i);
      if (w.active && pc < k.code.size()) {
        const Instr in = Instr::decode(k.code[pc]);
        w.instBar = isArrival(in.op);
        w.barId = in.rd & 15;
        w.tag = pc;
      }
    }
  }

  // A warp waits only for its copy of a barrier entry to be filled (the scoreboard's read
  // port): not a deadlock, the fill happens at this cycle's edge.
  bool fillPending() const {
    for (int i = 0; i < cfg.warpSlots; ++i) {
      const auto& w = sin.warps[static_cast<size_t>(i)];
      if (w.valid && w.active && w.instBar && !sched.barrierBlocksByTable(sin, i)) return true;
    }
    return false;
  }

  // The clock edge of the scheduler: the barrier table's changes of this cycle are its updates.
  void commitScheduler() {
    if (!barrierDirty) {
      sin.updates.clear();
      sched.commit(sin);
      return;
    }
    barrierDirty = false;
    auto table = barrierTable();
    sin.updates.clear();
    for (size_t i = 0; i < table.size(); ++i) {
      if (!(table[i] == sin.barriers[i])) {
        sin.updates.push_back({static_cast<int>(i), table[i]});
      }
    }
    sched.commit(sin);
    sin.barriers = std::move(table);
  }

  // ---- one instruction -------------------------------------------------------------------
  void execute(int sl) {
    Slot& s = slots[static_cast<size_t>(sl)];
    Cta& cta = ctas.at(s.cta);
    const uint32_t pc = du.pc(sl);
    if (pc >= k.code.size()) fault(sl, pc, -1, "instruction address out of range");
    const uint64_t raw = k.code[pc];
    if (!isa::isValidOpcode(static_cast<uint8_t>(raw & 0x7F))) fault(sl, pc, -1, "illegal instruction");
    const Instr in = Instr::decode(raw);
    const uint64_t active = du.active(sl);
    const uint64_t guard = guardMask(s, in);
    const uint64_t exec = active & guard;
    ++instructions;
    threadInstructions += static_cast<uint64_t>(popcount(exec));
    auto lanes = [&](auto&& f) {
      for (int l = 0; l < kWarpSize; ++l) {
        if ((exec >> l) & 1u) f(l, s.regs[static_cast<size_t>(l)]);
      }
    };
    auto srcB = [&](const std::array<uint32_t, 32>& r) { return in.immB ? in.imm : r[in.rb]; };
    auto addr = [&](const std::array<uint32_t, 32>& r) { return (in.immB ? 0u : r[in.ra]) + in.imm; };
    // Precise memory faults (docs/isa-model.md): every executing lane's access is checked,
    // in ascending lane order and v4 elements in order, before any takes effect.
    switch (in.op) {
      case Op::LdGlobal: case Op::StGlobal: case Op::AtomGlobal: case Op::AtomGlobalCas:
        lanes([&](int l, auto& r) { globalWord(sl, pc, l, addr(r), 4); });
        break;
      case Op::LdGlobalV4: case Op::StGlobalV4:
        lanes([&](int l, auto& r) {
          for (uint32_t i = 0; i < 4; ++i) globalWord(sl, pc, l, addr(r) + 4 * i, i ? 4 : 16);
        });
        break;
      case Op::LdShared: case Op::StShared: case Op::AtomShared: case Op::AtomSharedCas:
        lanes([&](int l, auto& r) { sharedWord(cta, sl, pc, l, addr(r)); });
        break;
      default: break;
    }
    CtrlInstr ci;
    bool control = false;
    switch (in.op) {
      case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
      case Op::Shl: case Op::Shr: case Op::Sra: case Op::Min: case Op::Max: case Op::Minu:
      case Op::Maxu:
        lanes([&](int, auto& r) { r[in.rd] = alu(in.op, r[in.ra], srcB(r)); });
        break;
      case Op::Mov: lanes([&](int, auto& r) { r[in.rd] = in.immB ? in.imm : r[in.ra]; }); break;
      case Op::MovSreg:
        lanes([&](int l, auto& r) { r[in.rd] = sreg(s, l, static_cast<isa::Sreg>(in.sub)); });
        break;
      case Op::Not: lanes([&](int, auto& r) { r[in.rd] = ~r[in.ra]; }); break;
      case Op::Selp:
        lanes([&](int l, auto& r) {
          const bool p = in.sub == isa::kPt || s.preds[static_cast<size_t>(l)][in.sub];
          r[in.rd] = p ? r[in.ra] : r[in.rb];
        });
        break;
      case Op::Setp:
        lanes([&](int l, auto& r) {
          s.preds[static_cast<size_t>(l)][in.rd] = compare(static_cast<isa::Cmp>(in.sub), r[in.ra], srcB(r));
        });
        break;
      // FP32 (docs/isa.md): each lane's simt_fpu, bit for bit (model::Fpu). The FP opcode is
      // 64 + Fpu::Op; sub is fsetp's compare code, fcvt's rounding mode or ffma's rc.
      case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FFma: case Op::FMin: case Op::FMax:
      case Op::FAbs: case Op::FNeg: case Op::FCvtS32F32: case Op::FCvtU32F32: case Op::FCvtF32S32:
      case Op::FCvtF32U32: case Op::FDiv: case Op::FSqrt: {
        const auto fop = static_cast<Fpu::Op>(static_cast<uint8_t>(in.op) - static_cast<uint8_t>(Op::FAdd));
        const auto rm = static_cast<Fpu::Rm>(in.sub & 3);
        lanes([&](int, auto& r) {
          const uint32_t c = in.op == Op::FFma ? r[in.sub] : 0u;
          r[in.rd] = Fpu::execute(fop, rm, Fpu::Cmp::Eq, r[in.ra], srcB(r), c).value;
        });
        ++stats["fp_instructions"];
        break;
      }
      case Op::FSetp:
        if (in.sub >= Fpu::kNumCmps) fault(sl, pc, -1, "illegal instruction (fsetp compare code " + std::to_string(in.sub) + ")");
        lanes([&](int l, auto& r) {
          s.preds[static_cast<size_t>(l)][in.rd] =
              Fpu::execute(Fpu::Op::Cmp, Fpu::Rm::Rne, static_cast<Fpu::Cmp>(in.sub), r[in.ra], srcB(r), 0).pred;
        });
        ++stats["fp_instructions"];
        break;
      case Op::Pand: case Op::Por: case Op::Pxor: case Op::Pnot:
        lanes([&](int l, auto&) {
          auto& p = s.preds[static_cast<size_t>(l)];
          const bool a = in.ra == isa::kPt || p[in.ra];
          const bool b = in.rb == isa::kPt || p[in.rb];
          p[in.rd] = in.op == Op::Pand ? (a && b) : in.op == Op::Por ? (a || b)
                     : in.op == Op::Pxor ? (a != b) : !a;
        });
        break;
      case Op::LdGlobal:
        lanes([&](int l, auto& r) { r[in.rd] = globalWord(sl, pc, l, addr(r), 4); });
        break;
      case Op::StGlobal:
        lanes([&](int l, auto& r) { globalWord(sl, pc, l, addr(r), 4) = r[in.rb]; });
        break;
      case Op::LdGlobalV4:
        lanes([&](int l, auto& r) {
          const uint32_t a = addr(r);
          for (int i = 0; i < 4; ++i) r[static_cast<size_t>(in.rd + i)] = globalWord(sl, pc, l, a + 4 * static_cast<uint32_t>(i), i ? 4 : 16);
        });
        break;
      case Op::StGlobalV4:
        lanes([&](int l, auto& r) {
          const uint32_t a = addr(r);
          for (int i = 0; i < 4; ++i) globalWord(sl, pc, l, a + 4 * static_cast<uint32_t>(i), i ? 4 : 16) = r[static_cast<size_t>(in.rb + i)];
        });
        break;
      case Op::LdShared:
        lanes([&](int l, auto& r) { r[in.rd] = *sharedWord(cta, sl, pc, l, addr(r)); });
        break;
      case Op::StShared:
        lanes([&](int l, auto& r) { *sharedWord(cta, sl, pc, l, addr(r)) = r[in.rb]; });
        break;
      case Op::LdParam:
        lanes([&](int l, auto& r) {
          if (in.imm % 4) fault(sl, pc, l, "misaligned param access");
          if (in.imm / 4 >= k.params.size()) fault(sl, pc, l, "param access out of range");
          r[in.rd] = k.params[in.imm / 4];
        });
        break;
      case Op::AtomGlobal: case Op::AtomShared: case Op::AtomGlobalCas: case Op::AtomSharedCas: {
        const bool sh = in.op == Op::AtomShared || in.op == Op::AtomSharedCas;
        const bool cas = in.op == Op::AtomGlobalCas || in.op == Op::AtomSharedCas;
        lanes([&](int l, auto& r) {  // in ascending lane order
          uint32_t& w = sh ? *sharedWord(cta, sl, pc, l, addr(r)) : globalWord(sl, pc, l, addr(r), 4);
          const uint32_t old = w;
          if (cas) {
            if (old == r[in.rb]) w = r[in.sub];
          } else {
            w = isa::atomicResult(static_cast<isa::AtomOp>(in.sub), old, r[in.rb]);
          }
          r[in.rd] = old;
        });
        break;
      }
      case Op::Membar: case Op::Nop: case Op::SubvectorStart: case Op::SubvectorEnd:
      case Op::SubvectorLoopBegin: case Op::SubvectorLoopEnd:
        break;  // wave64 sub-vector instructions: no effect on a 32-wide machine (yet)
      case Op::Trap: fault(sl, pc, -1, "trap");
      case Op::BarSync: case Op::BarTopOcs: case Op::BarTopUcs:
        arriveAtBarrier(sl, s, in, pc, exec);
        return;
      case Op::BarBotOcs: case Op::BarBotUcs:
        barrierBottom(sl, s, in, pc, exec);
        return;
      case Op::BarReset:
        bu.reset(s.cta, in.rd & 15);
        settleBarriers();
        break;
      default:
        control = true;
        break;
    }
    if (!control) {
      ci.op = CtrlOp::Next;
    } else {
      ci.guard = guard;
      ci.target = in.imm;
      switch (in.op) {
        case Op::Ssy: ci.op = CtrlOp::Ssy; break;
        case Op::Sync: ci.op = CtrlOp::Sync; break;
        case Op::Pbrk: ci.op = CtrlOp::Pbrk; break;
        case Op::Brk: ci.op = CtrlOp::Brk; break;
        case Op::Pcont: ci.op = CtrlOp::Pcont; break;
        case Op::Cont: ci.op = CtrlOp::Cont; break;
        case Op::Bra: ci.op = CtrlOp::Bra; break;
        case Op::Brx: ci.op = CtrlOp::Brx; break;
        case Op::Jmp: ci.op = CtrlOp::Jmp; break;
        case Op::Jmx: ci.op = CtrlOp::Jmx; break;
        case Op::Cal: ci.op = CtrlOp::Cal; break;
        case Op::Ret: ci.op = CtrlOp::Ret; break;
        case Op::Exit: ci.op = CtrlOp::Exit; break;
        case Op::Yield: ci.op = CtrlOp::Yield; break;
        default: fault(sl, pc, -1, "illegal instruction");
      }
      ci.hasTarget = in.op == Op::Sync || in.op == Op::Brk || in.op == Op::Cont ? in.immB : true;
      if (in.op == Op::Brx || in.op == Op::Jmx || in.op == Op::Ret) {
        ci.threadTarget.assign(kWarpSize, 0);
        const size_t reg = in.op == Op::Ret ? 31 : in.ra;
        for (int l = 0; l < kWarpSize; ++l) ci.threadTarget[static_cast<size_t>(l)] = s.regs[static_cast<size_t>(l)][reg];
      }
      if (in.op == Op::Yield) {
        ci.yieldRandom = in.sub == 31;
        ci.yieldEvery = (in.sub > 0 && in.sub < 31) ? 1 << (in.sub - 1) : 1;
      }
    }
    const CtrlResult r = du.execute(sl, ci);
    if (!r.ok) fault(sl, pc, -1, "unrecoverable token-queue overflow");
    for (int l = 0; l < kWarpSize; ++l) {
      if ((r.linkMask >> l) & 1u) s.regs[static_cast<size_t>(l)][31] = r.linkValue;
    }
    if (in.op == Op::Yield && r.pushes + r.merges > 0) ++stats["yield_tokens"];
    stats["tokens_pushed"] += static_cast<uint64_t>(r.pushes);
    stats["tokens_popped"] += static_cast<uint64_t>(r.pops);
    stats["tokens_discarded"] += static_cast<uint64_t>(r.discards);
    stats["queue_overflows"] += static_cast<uint64_t>(r.overflows);
    if (in.op == Op::Exit && exec) {  // exits shrink the default COUNT of the CTA's barriers
      bu.exited(s.cta, popcount(exec));
      settleBarriers();
    }
  }

  // Every resident warp's state: PC (with source line), masks, tokens, barriers, stranded
  // threads. The body of the deadlock and timeout reports.
  std::string warpReport() const {
    std::ostringstream os;
    for (const auto& [id, cta] : ctas) {
      for (int sl : cta.slots) {
        const WarpStatus st = du.status(sl);
        if (st == WarpStatus::Done) continue;
        const uint32_t pc = du.pc(sl);
        os << "\n  cta " << id << " warp " << slots[static_cast<size_t>(sl)].warpInCta << ": "
           << du.describe(sl);
        if (pc < k.codeLine.size()) os << " (" << k.file << ":" << k.codeLine[pc] << ")";
        const uint64_t stranded = du.strandedThreads(sl);
        if (stranded) {
          os << "\n    stranded (waiting for a token that no longer exists): threads 0x" << std::hex
             << stranded << std::dec;
        }
        if (blockedByBarrier(sl)) {
          const uint32_t pc = du.pc(sl);
          const Instr in = Instr::decode(k.code[pc]);
          os << "\n    held at pc " << pc << " (" << k.file << ":" << k.codeLine[pc]
             << "): barrier " << (in.rd & 15) << " is busy with the instance at pc "
             << bu.tagOf(id, in.rd & 15);
        }
      }
      os << bu.describe(id);
    }
    return os.str();
  }

  // ---- lockstep ---------------------------------------------------------------------------
  IssueRecord issueOne(int sl, uint64_t atCycle) {
    IssueRecord rec;
    cycle = atCycle;
    rec.pc = du.pc(sl);
    rec.active = du.active(sl);
    const Slot& s = slots[static_cast<size_t>(sl)];
    const auto regsBefore = s.regs;
    const auto globalBefore = global;
    try {
      if (rec.pc < k.code.size()) {
        rec.exec = rec.active & guardMask(s, Instr::decode(k.code[rec.pc]));
      }
      execute(sl);
    } catch (const Fault& f) {
      rec.fault = f.message;
    }
    for (int l = 0; l < kWarpSize; ++l) {
      for (int r = 0; r < 32; ++r) {
        const uint32_t v = s.regs[static_cast<size_t>(l)][static_cast<size_t>(r)];
        if (v != regsBefore[static_cast<size_t>(l)][static_cast<size_t>(r)]) rec.regWrites.push_back({l, r, v});
      }
    }
    for (size_t i = 0; i < global.size(); ++i) {
      if (global[i] != globalBefore[i]) rec.globalWrites.push_back({static_cast<uint32_t>(i * 4), global[i]});
    }
    return rec;
  }

  std::string deliverWake(int sl, uint64_t mask, uint32_t resume) {
    uint64_t rest = mask;
    for (auto& p : pendingWakes) {
      if (p.slot == sl && p.resume == resume) {
        const uint64_t take = p.mask & rest;
        p.mask &= ~take;
        rest &= ~take;
      }
    }
    pendingWakes.erase(std::remove_if(pendingWakes.begin(), pendingWakes.end(),
                                      [](const PendingWake& p) { return p.mask == 0; }),
                       pendingWakes.end());
    if (rest) {
      std::ostringstream os;
      os << "barrier wake of threads 0x" << std::hex << rest << std::dec << " of warp slot " << sl
         << " at pc " << resume << " that the model's barrier unit did not release";
      return os.str();
    }
    const CtrlResult r = du.barrierWake(sl, mask, resume);
    if (!r.ok) return "unrecoverable token-queue overflow at a barrier wake";
    ++stats["barrier_wake_tokens"];
    return {};
  }

  void endCycle(uint64_t atCycle) {
    cycle = atCycle;
    if (!deferWakes && barrierTimeout && cycle >= *barrierTimeout) settleBarriers();
    retireFinished();
    launchCtas();
  }

  std::string forceGrant(int sl, int id, uint64_t atCycle) {
    cycle = atCycle;
    const std::string why = bu.forceGrant(slots[static_cast<size_t>(sl)].cta, id);
    if (why.empty()) settleBarriers();
    return why;
  }

  std::string forceTimeout(int sl, int id, uint64_t atCycle) {
    cycle = atCycle;
    const std::string why = bu.forceTimeout(slots[static_cast<size_t>(sl)].cta, id, atCycle);
    if (why.empty()) settleBarriers();
    return why;
  }

  RunResult run() {
    RunResult res;
    try {
      launchCtas();
      while (finishedCtas < nCtas) {
        if (cycle >= cfg.maxCycles) {
          res.status = RunStatus::Timeout;
          res.message = "timeout after " + std::to_string(cycle) + " cycles (--max-cycles)" +
                        warpReport();
          break;
        }
        refreshSchedulerInputs();
        const std::optional<int> choice = sched.choose(sin);
        if (!choice && !fillPending()) {
          if (barrierTimeout && *barrierTimeout > cycle) {
            // Nothing can issue but an impatient barrier will time out: skip to that cycle.
            cycle = *barrierTimeout;
            settleBarriers();
            continue;
          }
          res.status = RunStatus::Deadlock;
          res.message = "deadlock: nothing can issue and nothing is pending" + warpReport();
          break;
        }
        lastIssued = choice ? *choice : -1;
        if (choice) execute(*choice);
        commitScheduler();
        ++cycle;
        if (barrierTimeout && cycle >= *barrierTimeout) settleBarriers();
        retireFinished();
        launchCtas();
      }
    } catch (const Fault& f) {
      res.status = RunStatus::Error;
      res.message = f.message;
    }
    res.cycles = cycle;
    res.instructions = instructions;
    res.threadInstructions = threadInstructions;
    res.global = global;
    res.stats = stats;
    for (const auto& [name, v] : bu.stats) res.stats[name] = v;
    res.stats["ctas"] = static_cast<uint64_t>(nCtas);
    res.stats["threads_per_cta"] = static_cast<uint64_t>(nThreads);
    return res;
  }
};

namespace {
// A CTA must fit the SM: with more warps than the configured slots, the SM gets enough
// slots for one CTA (up to 32 warps, 1,024 threads).
RunConfig fitToKernel(const assembler::Kernel& kernel, RunConfig cfg) {
  const int threads = cfg.threads > 0 ? cfg.threads : kernel.threads;
  const int warps = (threads + kWarpSize - 1) / kWarpSize;
  if (warps > cfg.warpSlots) cfg.warpSlots = std::min(warps, RunConfig::kMaxWarpSlots);
  return cfg;
}
}  // namespace

SmModel::SmModel(const assembler::Kernel& kernel, const RunConfig& cfg)
    : impl_(std::make_unique<Impl>(kernel, fitToKernel(kernel, cfg))) {}
SmModel::~SmModel() = default;
RunResult SmModel::run() { return impl_->run(); }

void SmModel::lockstepStart() {
  impl_->deferWakes = true;
  impl_->bu.setExternalTimeouts(true);
  impl_->bu.setExternalGrants(true);
  impl_->externalLaunch = true;
  impl_->externalRetire = true;
}
std::string SmModel::lockstepRetireCta(int residentIdx, uint64_t cycle) {
  impl_->cycle = cycle;
  return impl_->retireAt(residentIdx);
}
std::string SmModel::lockstepLaunch(int warp, uint64_t cycle) {
  impl_->cycle = cycle;
  return impl_->launchAt(warp);
}
uint32_t SmModel::pc(int warp) const { return impl_->du.pc(warp); }
uint64_t SmModel::active(int warp) const { return impl_->du.active(warp); }
bool SmModel::resident(int warp) const {
  return warp >= 0 && warp < impl_->cfg.warpSlots && impl_->slots[static_cast<size_t>(warp)].busy;
}
IssueRecord SmModel::lockstepIssue(int warp, uint64_t cycle, std::optional<uint64_t> arrivalCycle) {
  impl_->arrivalCycle = arrivalCycle;
  IssueRecord rec = impl_->issueOne(warp, cycle);
  impl_->arrivalCycle.reset();
  return rec;
}
std::string SmModel::lockstepTimeout(int warp, int id, uint64_t cycle) {
  if (!resident(warp)) return "barrier timeout in warp slot " + std::to_string(warp) + ", which the model does not hold";
  return impl_->forceTimeout(warp, id, cycle);
}
std::string SmModel::lockstepGrant(int warp, int id, uint64_t cycle) {
  if (!resident(warp)) return "section grant in warp slot " + std::to_string(warp) + ", which the model does not hold";
  return impl_->forceGrant(warp, id, cycle);
}
std::string SmModel::lockstepWake(int warp, uint64_t mask, uint32_t resume) {
  return impl_->deliverWake(warp, mask, resume);
}
void SmModel::lockstepSetReg(int warp, int lane, int reg, uint32_t value) {
  impl_->slots[static_cast<size_t>(warp)].regs[static_cast<size_t>(lane)][static_cast<size_t>(reg)] = value;
}
uint32_t SmModel::reg(int warp, int lane, int r) const {
  return impl_->slots[static_cast<size_t>(warp)].regs[static_cast<size_t>(lane)][static_cast<size_t>(r)];
}
void SmModel::lockstepEndCycle(uint64_t cycle) { impl_->endCycle(cycle); }
bool SmModel::lockstepFinished() const { return impl_->finishedCtas >= impl_->nCtas; }
uint64_t SmModel::lockstepPendingWakes() const { return impl_->pendingWakes.size(); }
std::vector<uint32_t> SmModel::globalMemory() const { return impl_->global; }

}  // namespace simt::model
