#include "cosim/cosim.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>
#include <regex>
#include <set>
#include <sstream>

#include "asm/isa.h"
#include "rtl/sm_rtl.h"

namespace simt::cosim {

using model::RunResult;
using model::RunStatus;

namespace {

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

std::string regList(const std::vector<model::RegWrite>& w) {
  std::ostringstream os;
  for (size_t i = 0; i < w.size() && i < 8; ++i) {
    os << (i ? ", " : "") << "lane " << w[i].lane << " r" << w[i].reg << "=" << w[i].value;
  }
  if (w.size() > 8) os << ", ... (" << w.size() << " writes)";
  return w.empty() ? "none" : os.str();
}

// Loaded registers, (warp, lane, reg) -> value.
using LoadMap = std::map<std::tuple<int, int, int>, uint32_t>;
std::string loadList(const LoadMap& m) {
  std::ostringstream os;
  int n = 0;
  for (const auto& [k, v] : m) {
    if (n++ == 8) {
      os << ", ... (" << m.size() << " writes)";
      break;
    }
    os << (n > 1 ? ", " : "") << "warp " << std::get<0>(k) << " lane " << std::get<1>(k) << " r"
       << std::get<2>(k) << "=" << v;
  }
  return m.empty() ? std::string("none") : os.str();
}

// A global load or atomic, or an FP32 operation writing a register: its result reaches the
// register file after it retires (fsetp's predicate does not: the core waits for it).
bool lateWriter(isa::Op op) {
  return (isa::isFp(op) && op != isa::Op::FSetp) || op == isa::Op::LdGlobal ||
         op == isa::Op::LdGlobalV4 || op == isa::Op::AtomGlobal || op == isa::Op::AtomGlobalCas;
}

// The text of a fault without its location: "fault: WHAT".
std::string faultWhat(const std::string& m) { return m.substr(0, m.find(" (")); }

}  // namespace

Cosim::Cosim(const assembler::Kernel& kernel, const model::RunConfig& cfg, std::string wavePath)
    : rtlKernel_(kernel), kernel_(kernel), cfg_(cfg), wavePath_(std::move(wavePath)) {}
Cosim::Cosim(const assembler::Kernel& actual, const assembler::Kernel& expected,
             const model::RunConfig& cfg)
    : rtlKernel_(actual), kernel_(expected), cfg_(cfg) {}

RunResult Cosim::run() {
  model::SmModel mdl(kernel_, cfg_);
  mdl.lockstepStart();
  rtl::SmRtl core(rtlKernel_, cfg_, wavePath_);
  uint64_t lastClock = 0, compared = 0, wakes = 0;

  auto where = [&](uint64_t cycle, int warp, uint32_t pc) {
    std::ostringstream os;
    os << "mismatch at cycle " << cycle << ": warp slot " << warp << ", pc " << pc;
    if (pc < kernel_.code.size()) {
      os << ": " << isa::disassemble(isa::Instr::decode(kernel_.code[pc])) << " ("
         << kernel_.file << ":" << kernel_.codeLine[pc] << ")";
    }
    return os.str();
  };

  // The core's barrier unit chooses two things the model follows: impatient timeouts fire
  // when the unit finds them elapsed (its scan order), and the slot arbiter grants one
  // critical section at a time. The model checks each choice was legal (the TIMEOUT had
  // elapsed; the section held a slot of the highest priority waiting and no other section
  // was in service) and makes it, in the order the core made them. An event that follows a
  // request the unit took for the instruction in flight (not retired yet) is applied after
  // the model issues that instruction, else before the next issue or wake.
  struct PendingEvent {
    bool grant = false;  // else a timeout
    rtl::BarrierEvent e;
    bool afterInflight = false;
  };
  std::vector<PendingEvent> events;
  std::optional<uint64_t> acceptedAt;  // an arrival the unit took, not retired yet
  bool requestInFlight = false;        // any request the unit took, not retired yet
  uint64_t timeoutsChecked = 0, grantsChecked = 0;
  auto applyTimeouts = [&](bool inflightOnes) -> std::string {
    for (auto it = events.begin(); it != events.end();) {
      if (it->afterInflight != inflightOnes) {
        ++it;
        continue;
      }
      ++(it->grant ? grantsChecked : timeoutsChecked);
      const std::string why = it->grant ? mdl.lockstepGrant(it->e.warp, it->e.id, it->e.cycle)
                                        : mdl.lockstepTimeout(it->e.warp, it->e.id, it->e.cycle);
      if (!why.empty()) return "mismatch at cycle " + std::to_string(it->e.cycle) + ": " + why;
      it = events.erase(it);
    }
    return {};
  };
  // SIMT_COSIM_LOG=1: every event the model follows, on stderr (for debugging a mismatch).
  const bool log = std::getenv("SIMT_COSIM_LOG") != nullptr;
  core.onBarrierAccept([&](uint64_t cycle) {
    acceptedAt = cycle;
    if (log) std::fprintf(stderr, "%8llu accept\n", static_cast<unsigned long long>(cycle));
  });
  core.onBarrierRequest([&](uint64_t) { requestInFlight = true; });
  auto follow = [&](bool grant) {
    return [&, grant](const rtl::BarrierEvent& e) -> std::string {
      if (log) {
        std::fprintf(stderr, "%8llu %s warp %d id %d%s\n", static_cast<unsigned long long>(e.cycle),
                     grant ? "grant" : "timeout", e.warp, e.id,
                     requestInFlight ? " (after the request in flight)" : "");
      }
      events.push_back({grant, e, requestInFlight});
      return {};
    };
  };
  core.onBarrierTimeout(follow(false));
  core.onBarrierGrant(follow(true));
  // When a CTA launches depends on when the core retires finished ones (and so, with two
  // finished, where): the model launches when the core does and checks the placement.
  core.onCtaRetire([&](uint64_t cycle, int residentIdx) -> std::string {
    if (log) std::fprintf(stderr, "%8llu retire cta index %d\n", static_cast<unsigned long long>(cycle), residentIdx);
    const std::string why = mdl.lockstepRetireCta(residentIdx, cycle);
    return why.empty() ? why : "mismatch at cycle " + std::to_string(cycle) + ": " + why;
  });
  core.onLaunch([&](const rtl::LaunchEvent& e) -> std::string {
    if (log) std::fprintf(stderr, "%8llu launch at warp %d\n", static_cast<unsigned long long>(e.cycle), e.warp);
    const std::string why = mdl.lockstepLaunch(e.warp, e.cycle);
    return why.empty() ? why : "mismatch at cycle " + std::to_string(e.cycle) + ": " + why;
  });

  // The memory window (rtl::MemWindow): what the model's global loads wrote into registers
  // and the global words its instructions changed since the last window; the core's loads
  // and memory writes must agree when the window closes.
  LoadMap modelLoads;
  std::set<uint32_t> modelMemChanged;
  uint64_t windowStart = 0, windows = 0;
  core.onMemWindow([&](const rtl::MemWindow& w) -> std::string {
    ++windows;
    const std::string at = "mismatch in the memory window of cycles " + std::to_string(windowStart) +
                           " to " + std::to_string(w.cycle) + " (global loads and stores retired there)";
    windowStart = w.cycle;
    LoadMap rtlLoads;
    for (const auto& l : w.loads) rtlLoads[{l.warp, l.lane, l.reg}] = l.value;
    if (rtlLoads != modelLoads) {
      // The first (warp, lane, reg) where they differ, then both lists.
      std::string first;
      for (const auto& [k, v] : modelLoads) {
        const auto it = rtlLoads.find(k);
        if (it == rtlLoads.end() || it->second != v) {
          first = "warp " + std::to_string(std::get<0>(k)) + " lane " + std::to_string(std::get<1>(k)) + " r" +
                  std::to_string(std::get<2>(k)) + ": expected (model) " + std::to_string(v) + ", actual (rtl) " +
                  (it == rtlLoads.end() ? std::string("never written") : std::to_string(it->second));
          break;
        }
      }
      for (const auto& [k, v] : rtlLoads) {
        if (first.empty() && !modelLoads.count(k)) {
          first = "warp " + std::to_string(std::get<0>(k)) + " lane " + std::to_string(std::get<1>(k)) + " r" +
                  std::to_string(std::get<2>(k)) + ": written by the rtl (" + std::to_string(v) +
                  "), by no load of the model";
        }
      }
      return at + "\n  loaded registers differ at " + first + "\n  expected (model) " + loadList(modelLoads) +
             "; actual (rtl) " + loadList(rtlLoads);
    }
    modelLoads.clear();
    const std::vector<uint32_t>& mem = mdl.globalMemory();
    auto modelWord = [&](uint32_t addr) { return addr / 4 < mem.size() ? mem[addr / 4] : 0u; };
    std::set<uint32_t> written;
    for (const auto& g : w.globalWrites) {
      written.insert(g.addr);
      if (modelWord(g.addr) != g.value) {
        return at + "\n  global word [" + std::to_string(g.addr) + "]: expected (model) " +
               std::to_string(modelWord(g.addr)) + ", actual (rtl) " + std::to_string(g.value);
      }
    }
    for (uint32_t a : modelMemChanged) {
      if (!written.count(a)) {
        return at + "\n  global word [" + std::to_string(a) + "]: the model changed it to " +
               std::to_string(modelWord(a)) + ", the rtl never wrote it";
      }
    }
    modelMemChanged.clear();
    return {};
  });

  std::vector<rtl::Wake> lateWakes;  // delivered after the instruction in flight
  auto deliver = [&](const rtl::Wake& w) -> std::string {
    const std::string why = mdl.lockstepWake(w.warp, w.mask, w.resume);
    if (why.empty()) return {};
    return "mismatch at cycle " + std::to_string(w.cycle) + ": " + why;
  };

  core.onWake([&](const rtl::Wake& w) -> std::string {
    ++wakes;
    if (log) {
      std::fprintf(stderr, "%8llu wake warp %d mask %08x resume %u%s\n", static_cast<unsigned long long>(w.cycle),
                   w.warp, w.mask, w.resume, w.afterInflight ? " (after the instruction in flight)" : "");
    }
    // Events after the request in flight wait for it too when the wake does: the wake may
    // be of the very threads that request brought to the barrier (a TIMEOUT already elapsed
    // from a non-participant's arrival fires as soon as the participants arrive).
    if (std::string why = applyTimeouts(false); !why.empty()) return why;
    if (w.afterInflight) {
      lateWakes.push_back(w);
      return {};
    }
    if (std::string why = applyTimeouts(true); !why.empty()) return why;
    return deliver(w);
  });

  core.onRetire([&](const rtl::Retired& r) -> std::string {
    ++compared;
    if (log) {
      std::fprintf(stderr, "%8llu retire warp %d pc %u active %08x exec %08x\n",
                   static_cast<unsigned long long>(r.cycle), r.warp, r.pc, r.active, r.exec);
    }
    const std::string at = where(r.cycle, r.warp, r.pc);
    if (!mdl.resident(r.warp)) return at + "\n  the model has no warp in this slot";
    if (mdl.pc(r.warp) != r.pc) {
      return at + "\n  pc: expected (model) " + std::to_string(mdl.pc(r.warp)) + ", actual (rtl) " +
             std::to_string(r.pc);
    }
    if (mdl.active(r.warp) != r.active) {
      return at + "\n  active mask: expected (model) " + hex(mdl.active(r.warp)) + ", actual (rtl) " +
             hex(r.active);
    }
    if (std::string why = applyTimeouts(false); !why.empty()) return why;
    const model::IssueRecord rec = mdl.lockstepIssue(r.warp, r.cycle, acceptedAt);
    acceptedAt.reset();
    requestInFlight = false;
    if (!rec.fault.empty()) return at + "\n  the model faults here: " + rec.fault;
    if (std::string why = applyTimeouts(true); !why.empty()) return why;
    for (const rtl::Wake& w : lateWakes) {
      if (std::string why = deliver(w); !why.empty()) return why;
    }
    lateWakes.clear();
    if (rec.exec != r.exec) {
      return at + "\n  executing threads: expected (model) " + hex(rec.exec) + ", actual (rtl) " +
             hex(r.exec);
    }
    // %clock is the RTL's to choose: it must not run backwards or past the retire cycle.
    const isa::Instr in = isa::Instr::decode(kernel_.code[r.pc]);
    const bool clockRead = in.op == isa::Op::MovSreg && in.sub == static_cast<uint8_t>(isa::Sreg::Clock);
    std::vector<model::RegWrite> rtlWrites = r.regWrites, mdlWrites = rec.regWrites;
    for (const auto& g : rec.globalWrites) modelMemChanged.insert(g.addr);
    if (lateWriter(in.op)) {
      // Its result comes back later, in the memory window.
      if (!rtlWrites.empty()) {
        return at + "\n  register writes before the load's responses: " + regList(rtlWrites);
      }
      // Every executing lane's destination (v4: four) is written, changed or not.
      const int regs = in.op == isa::Op::LdGlobalV4 ? 4 : 1;
      for (int l = 0; l < 32; ++l) {
        if (!((rec.exec >> l) & 1u)) continue;
        for (int e = 0; e < regs; ++e) {
          const int reg = (in.rd + e) & 31;
          modelLoads[{r.warp, l, reg}] = mdl.reg(r.warp, l, reg);
        }
      }
      mdlWrites.clear();
    }
    if (clockRead) {
      for (const auto& w : rtlWrites) {
        if (w.value < lastClock || w.value > r.cycle) {
          return at + "\n  %clock reads " + std::to_string(w.value) + " after " +
                 std::to_string(lastClock) + " (retired at cycle " + std::to_string(r.cycle) + ")";
        }
        lastClock = w.value;
        mdl.lockstepSetReg(r.warp, w.lane, w.reg, w.value);
      }
      rtlWrites.clear();
      mdlWrites.clear();
    }
    // Every RTL write holds the model's value; every register the model changed was written.
    for (const auto& w : rtlWrites) {
      if (mdl.reg(r.warp, w.lane, w.reg) != w.value) {
        return at + "\n  register writes: expected (model) " + regList(mdlWrites) + "; actual (rtl) " +
               regList(rtlWrites);
      }
    }
    for (const auto& w : mdlWrites) {
      const bool written = std::any_of(rtlWrites.begin(), rtlWrites.end(), [&](const model::RegWrite& x) {
        return x.lane == w.lane && x.reg == w.reg && x.value == w.value;
      });
      if (!written) {
        return at + "\n  register writes: expected (model) " + regList(mdlWrites) + "; actual (rtl) " +
               regList(rtlWrites);
      }
    }
    return {};
  });

  core.onCycleEnd([&](uint64_t cycle) { mdl.lockstepEndCycle(cycle); });

  RunResult res = core.run();
  res.stats["cosim_instructions_compared"] = compared;
  res.stats["cosim_wakes_checked"] = wakes;
  res.stats["cosim_timeouts_checked"] = timeoutsChecked;
  res.stats["cosim_grants_checked"] = grantsChecked;
  res.stats["cosim_memory_windows_checked"] = windows;
  if (res.status == RunStatus::Mismatch) return res;
  auto mismatch = [&](const std::string& m) {
    res.status = RunStatus::Mismatch;
    res.message = "mismatch at the end of the run (cycle " + std::to_string(res.cycles) + ")\n  " + m;
  };
  if (res.status == RunStatus::Ok) {
    std::string why = applyTimeouts(false);
    if (why.empty()) why = applyTimeouts(true);
    for (const rtl::Wake& w : lateWakes) {
      if (why.empty()) why = deliver(w);
    }
    if (!why.empty()) mismatch(why);
    else if (!mdl.lockstepFinished()) mismatch("the RTL finished every CTA; the model has CTAs left");
    else if (mdl.lockstepPendingWakes()) mismatch("the model still holds barrier wakes the RTL never delivered");
    else if (mdl.globalMemory() != res.global) mismatch("final global memory differs");
  } else if (res.status == RunStatus::Error) {
    // The RTL faulted: the model, run on the same warp, must fault the same way.
    std::smatch m;
    const std::regex slotRe("warp slot ([0-9]+)");
    if (std::regex_search(res.message, m, slotRe) && res.message.rfind("fault: ", 0) == 0) {
      const int warp = std::stoi(m[1]);
      if (!mdl.resident(warp)) {
        mismatch("the RTL faulted in warp slot " + std::to_string(warp) + ", which the model does not hold");
      } else {
        const model::IssueRecord rec = mdl.lockstepIssue(warp, res.cycles);
        if (faultWhat(rec.fault) != faultWhat(res.message)) {
          mismatch("fault: expected (model) '" + (rec.fault.empty() ? std::string("no fault") : rec.fault) +
                   "', actual (rtl) '" + res.message + "'");
        }
      }
    }
  }
  return res;
}

}  // namespace simt::cosim
