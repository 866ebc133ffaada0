#include "divergence/control_program.h"

#include <map>
#include <sstream>
#include <stdexcept>

namespace simt::tb {

using model::CtrlInstr;
using model::CtrlOp;
using model::DivergenceUnit;

namespace {

uint32_t mix(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t x = (static_cast<uint64_t>(a) * 0x9E3779B97F4A7C15ull) ^
               (static_cast<uint64_t>(b) * 0xC2B2AE3D27D4EB4Full) ^
               (static_cast<uint64_t>(c) * 0x165667B19E3779F9ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<uint32_t>(x);
}

const char* opName(CtrlOp op) {
  switch (op) {
    case CtrlOp::Next: return "op";
    case CtrlOp::Ssy: return "ssy";
    case CtrlOp::Sync: return "sync";
    case CtrlOp::Pbrk: return "pbrk";
    case CtrlOp::Brk: return "brk";
    case CtrlOp::Pcont: return "pcont";
    case CtrlOp::Cont: return "cont";
    case CtrlOp::Bra: return "bra";
    case CtrlOp::Brx: return "brx";
    case CtrlOp::Jmp: return "jmp";
    case CtrlOp::Jmx: return "jmx";
    case CtrlOp::Cal: return "cal";
    case CtrlOp::Ret: return "ret";
    case CtrlOp::Exit: return "exit";
    case CtrlOp::Yield: return "yield";
  }
  return "?";
}

bool hasLabel(CtrlOp op) {
  return op == CtrlOp::Ssy || op == CtrlOp::Sync || op == CtrlOp::Pbrk || op == CtrlOp::Brk ||
         op == CtrlOp::Pcont || op == CtrlOp::Cont || op == CtrlOp::Bra || op == CtrlOp::Jmp ||
         op == CtrlOp::Cal;
}

// Emits code with forward labels.
class Builder {
 public:
  explicit Builder(Rng& rng) : rng_(rng) {}
  int newLabel() {
    labels_.push_back(-1);
    return static_cast<int>(labels_.size()) - 1;
  }
  void bind(int label) { labels_.at(static_cast<size_t>(label)) = static_cast<int>(code_.size()); }
  void emit(ProgInstr in, int label = -1) {
    if (label >= 0) fixups_.push_back({code_.size(), label});
    code_.push_back(in);
  }
  std::vector<ProgInstr> finish() {
    for (const auto& [at, label] : fixups_) {
      const int addr = labels_.at(static_cast<size_t>(label));
      if (addr < 0) throw std::logic_error("unbound label");
      code_[at].target = static_cast<uint32_t>(addr);
    }
    return code_;
  }
  Rng& rng() { return rng_; }
  uint32_t salt() { return static_cast<uint32_t>(rng_.bits64()); }

 private:
  Rng& rng_;
  std::vector<int> labels_;
  std::vector<std::pair<size_t, int>> fixups_;
  std::vector<ProgInstr> code_;
};

// Yields and early leaves (an early brk/cont of a loop, an early ret of a function) do not
// mix in one loop or function: a thread that resumes from a yield after the construct's
// tokens were consumed runs on fallbacks, and a fallback brk/ret then leaves the tokens it
// pushed since behind, where they cover the thread at the next sync/brk/cont/ret of that type
// (the ISA's per-thread coverage without seed 002's extra pops). The generator keeps programs
// in the region where SIMT execution equals scalar execution; docs/blocks/divergence_unit.md
// describes the rule for compilers.
struct GenContext {
  int depth = 0;
  int loopExit = -1, loopLatch = -1;  // innermost loop's labels
  bool inFunction = false;
  bool yieldsAllowed = false;  // this region (and what it contains or calls) may yield
  bool earlyLeave = true;      // the innermost loop may be left early (brk/cont)
  bool earlyReturn = true;     // the function may be left early (ret)
  std::vector<std::pair<int, bool>>* functions = nullptr;  // label, may yield
};

ProgInstr simple(CtrlOp op) {
  ProgInstr in;
  in.op = op;
  return in;
}

ProgInstr guarded(CtrlOp op, Builder& b, int percent) {
  ProgInstr in;
  in.op = op;
  in.guarded = true;
  in.pred.kind = Pred::Random;
  in.pred.salt = b.salt();
  in.pred.percent = percent;
  return in;
}

void genBlock(Builder& b, GenContext ctx);

void genIf(Builder& b, GenContext ctx) {
  const int lElse = b.newLabel(), lEnd = b.newLabel();
  b.emit(simple(CtrlOp::Ssy), lEnd);
  b.emit(guarded(CtrlOp::Bra, b, b.rng().range(10, 90)), lElse);
  ++ctx.depth;
  genBlock(b, ctx);
  b.emit(simple(CtrlOp::Sync), lEnd);
  b.bind(lElse);
  if (b.rng().chance(70)) genBlock(b, ctx);
  b.emit(simple(CtrlOp::Sync), lEnd);
  b.bind(lEnd);
}

void genLoop(Builder& b, GenContext ctx) {
  const int lExit = b.newLabel(), lHead = b.newLabel(), lLatch = b.newLabel();
  b.emit(simple(CtrlOp::Pbrk), lExit);
  b.bind(lHead);
  b.emit(simple(CtrlOp::Pcont), lLatch);
  ++ctx.depth;
  ctx.loopExit = lExit;
  ctx.loopLatch = lLatch;
  const bool yieldLoop = ctx.yieldsAllowed && b.rng().chance(50);
  ctx.yieldsAllowed = yieldLoop;
  ctx.earlyLeave = !yieldLoop;
  genBlock(b, ctx);
  if (yieldLoop && b.rng().chance(60)) {
    ProgInstr y = b.rng().chance(50) ? guarded(CtrlOp::Yield, b, 50) : simple(CtrlOp::Yield);
    if (b.rng().chance(30)) y.yieldEvery = 2;
    else if (b.rng().chance(30)) y.yieldRandom = true;
    b.emit(y);
  }
  b.emit(simple(CtrlOp::Cont), lLatch);
  b.bind(lLatch);
  ProgInstr again = simple(CtrlOp::Bra);
  again.guarded = true;
  again.pred.kind = Pred::Below;  // k < trip count of the thread
  b.emit(again, lHead);
  b.emit(simple(CtrlOp::Brk), lExit);
  b.bind(lExit);
}

void genSwitch(Builder& b, GenContext ctx) {
  const int lEnd = b.newLabel();
  const int n = b.rng().range(2, 3);
  std::vector<int> cases;
  for (int i = 0; i < n; ++i) cases.push_back(b.newLabel());
  b.emit(simple(CtrlOp::Ssy), lEnd);
  ProgInstr brx = simple(b.rng().chance(50) ? CtrlOp::Brx : CtrlOp::Jmx);
  brx.caseSalt = b.salt();
  b.emit(brx);
  ++ctx.depth;
  // The case labels follow the brx as a table of jmp instructions (never executed) so the
  // builder resolves them; generateProgram copies them into the brx's `cases`.
  for (int i = 0; i < n; ++i) b.emit(simple(CtrlOp::Jmp), cases[static_cast<size_t>(i)]);
  for (int i = 0; i < n; ++i) {
    b.bind(cases[static_cast<size_t>(i)]);
    genBlock(b, ctx);
    b.emit(simple(CtrlOp::Sync), lEnd);
  }
  b.bind(lEnd);
}

void genStatement(Builder& b, const GenContext& ctx) {
  Rng& r = b.rng();
  const bool deep = ctx.depth >= 3;
  const int pick = r.below(100);
  if (pick < 30 || deep) {
    b.emit(simple(CtrlOp::Next));
  } else if (pick < 50) {
    genIf(b, ctx);
  } else if (pick < 65) {
    genLoop(b, ctx);
  } else if (pick < 72) {
    genSwitch(b, ctx);
  } else if (pick < 80 && ctx.loopExit >= 0 && ctx.earlyLeave) {
    const bool brk = r.chance(50);
    b.emit(guarded(brk ? CtrlOp::Brk : CtrlOp::Cont, b, 20), brk ? ctx.loopExit : ctx.loopLatch);
  } else if (pick < 86 && !ctx.inFunction && ctx.functions && ctx.depth <= 1) {
    const int f = b.newLabel();
    ctx.functions->push_back({f, ctx.yieldsAllowed && r.chance(50)});
    b.emit(r.chance(70) ? simple(CtrlOp::Cal) : guarded(CtrlOp::Cal, b, 60), f);
  } else if (pick < 90 && ctx.inFunction && ctx.earlyReturn) {
    b.emit(guarded(CtrlOp::Ret, b, 25));  // early return of some threads
  } else if (pick < 94 && ctx.yieldsAllowed) {
    b.emit(r.chance(50) ? simple(CtrlOp::Yield) : guarded(CtrlOp::Yield, b, 50));
  } else if (pick < 97 && ctx.depth > 0) {
    b.emit(guarded(CtrlOp::Exit, b, 10));
  } else {
    b.emit(simple(CtrlOp::Next));
  }
}

void genBlock(Builder& b, GenContext ctx) {
  const int n = b.rng().range(1, 3);
  for (int i = 0; i < n; ++i) genStatement(b, ctx);
}

}  // namespace

bool Pred::eval(int thread, uint32_t k, const std::vector<uint32_t>& tripCount,
                bool flag) const {
  bool v = true;
  switch (kind) {
    case Always: v = true; break;
    case Random: v = static_cast<int>(mix(salt, static_cast<uint32_t>(thread), k) % 100) < percent; break;
    case Below: v = k < tripCount.at(static_cast<size_t>(thread)); break;
    case Holder: v = thread == static_cast<int>(tripCount.size()) - 1; break;
    case ThreadBelow: v = thread < percent; break;
    case Flag: v = flag; break;
  }
  return negate ? !v : v;
}

std::string Program::listing() const {
  std::ostringstream os;
  for (size_t i = 0; i < code.size(); ++i) {
    const ProgInstr& in = code[i];
    os << i << ": " << (in.guarded ? "@p " : "") << opName(in.op);
    if (hasLabel(in.op)) os << " " << in.target;
    if (!in.cases.empty()) {
      os << " [";
      for (uint32_t c : in.cases) os << c << " ";
      os << "]";
    }
    if (in.op == CtrlOp::Yield && in.yieldRandom) os << " (.p)";
    if (in.op == CtrlOp::Yield && in.yieldEvery > 1) os << " (." << in.yieldEvery << ")";
    if (!in.text.empty()) os << "   ; " << in.text;
    os << "\n";
  }
  return os.str();
}

Program generateProgram(Rng& rng, int warpSize, bool withYields) {
  Builder b(rng);
  std::vector<std::pair<int, bool>> functions;
  GenContext ctx;
  ctx.yieldsAllowed = withYields;
  ctx.functions = &functions;
  genBlock(b, ctx);
  genBlock(b, ctx);
  b.emit(simple(CtrlOp::Exit));
  for (size_t i = 0; i < functions.size(); ++i) {
    b.bind(functions[i].first);
    GenContext fctx;
    fctx.depth = 1;
    fctx.inFunction = true;
    fctx.yieldsAllowed = functions[i].second;
    fctx.earlyReturn = !fctx.yieldsAllowed;
    genBlock(b, fctx);
    b.emit(simple(CtrlOp::Ret));
  }
  Program p;
  p.code = b.finish();
  // A brx/jmx is followed by one jmp per case: they hold the case labels (resolved by the
  // builder) and are never executed.
  for (size_t i = 0; i < p.code.size(); ++i) {
    if (p.code[i].op != CtrlOp::Brx && p.code[i].op != CtrlOp::Jmx) continue;
    for (size_t j = i + 1; j < p.code.size() && p.code[j].op == CtrlOp::Jmp &&
                           p.code[j].text.empty();
         ++j) {
      p.code[i].cases.push_back(p.code[j].target);
      p.code[j].text = "case table";
    }
  }
  for (int t = 0; t < warpSize; ++t) p.tripCount.push_back(static_cast<uint32_t>(rng.below(4)));
  return p;
}

namespace {
uint32_t caseTarget(const ProgInstr& in, int thread, uint32_t k) {
  return in.cases.at(mix(in.caseSalt, static_cast<uint32_t>(thread), k) % in.cases.size());
}
}  // namespace

SimtRun runSimt(DivergenceUnit& du, int warp, const Program& prog, uint64_t launchMask,
                uint64_t maxSteps,
                const std::function<void(const DivergenceUnit&, uint32_t)>& onStep) {
  ModelTarget target(du);
  return runSimt(target, warp, prog, launchMask, maxSteps, onStep);
}

SimtRun runSimt(ControlTarget& target, int warp, const Program& prog, uint64_t launchMask,
                uint64_t maxSteps,
                const std::function<void(const DivergenceUnit&, uint32_t)>& onStep) {
  const DivergenceUnit& du = target.state();
  const int ws = du.config().warpSize;
  SimtRun run;
  run.trace.assign(static_cast<size_t>(ws), {});
  std::map<std::pair<int, uint32_t>, uint32_t> execCount;  // (thread, pc) -> times executed
  std::vector<uint32_t> r31(static_cast<size_t>(ws), 0);
  bool flag = true;
  uint64_t sleepers = 0;
  launchMask &= du.allThreads();
  target.launch(warp, launchMask, 0);
  while (du.status(warp) == model::WarpStatus::Running && run.stats.steps < maxSteps) {
    const uint32_t pc = du.pc(warp);
    const ProgInstr& in = prog.code.at(pc);
    const uint64_t active = du.active(warp);
    CtrlInstr ci;
    ci.op = in.op;
    ci.target = in.target;
    ci.hasTarget = hasLabel(in.op);
    ci.yieldEvery = in.yieldEvery;
    ci.yieldRandom = in.yieldRandom;
    ci.guard = in.guarded ? 0 : ~0ull;
    ci.threadTarget.assign(static_cast<size_t>(ws), 0);
    for (int t = 0; t < ws; ++t) {
      if (!((active >> t) & 1u)) continue;
      const uint32_t k = execCount[{t, pc}]++;
      run.trace[static_cast<size_t>(t)].push_back(pc);
      if (in.guarded && in.pred.eval(t, k, prog.tripCount, flag)) ci.guard |= 1ull << t;
      if (in.op == CtrlOp::Brx || in.op == CtrlOp::Jmx) {
        ci.threadTarget[static_cast<size_t>(t)] = caseTarget(in, t, k);
      }
      if (in.op == CtrlOp::Ret) ci.threadTarget[static_cast<size_t>(t)] = r31[static_cast<size_t>(t)];
    }
    if (in.releaseFlag) flag = false;
    model::CtrlResult res;
    if (in.barrier) {
      // bar.sync for all threads of this one-warp CTA: the participants sleep; the last
      // arrival wakes them all at the next instruction.
      const uint64_t participants = active & ci.guard;
      sleepers |= participants;
      res = target.barrierSleep(warp, participants);
      const uint64_t waiting = launchMask & ~du.threadsWithReason(warp, model::Reason::Exit);
      if (sleepers == waiting) {
        const model::CtrlResult wake = target.barrierWake(warp, sleepers, pc + 1);
        res.pushes += wake.pushes;
        res.pops += wake.pops;
        res.discards += wake.discards;
        res.pushedTypes |= wake.pushedTypes;
        res.poppedTypes |= wake.poppedTypes;
        res.discardedTypes |= wake.discardedTypes;
        sleepers = 0;
        ++run.stats.barrierReleases;
      }
    } else {
      res = target.execute(warp, ci);
    }
    ++run.stats.steps;
    run.stats.pushes += static_cast<uint64_t>(res.pushes);
    run.stats.pops += static_cast<uint64_t>(res.pops);
    run.stats.discards += static_cast<uint64_t>(res.discards);
    run.stats.merges += static_cast<uint64_t>(res.merges);
    run.stats.overflows += static_cast<uint64_t>(res.overflows);
    run.stats.fallbacks += res.fellBack ? 1 : 0;
    for (int i = 0; i < 8; ++i) {
      if ((res.pushedTypes >> i) & 1u) ++run.stats.pushesByType[i];
      if ((res.poppedTypes >> i) & 1u) ++run.stats.popsByType[i];
      if ((res.discardedTypes >> i) & 1u) ++run.stats.discardsByType[i];
    }
    for (int t = 0; t < ws; ++t) {
      if ((res.linkMask >> t) & 1u) r31[static_cast<size_t>(t)] = res.linkValue;
    }
    if (!res.ok) {
      run.faulted = true;
      break;
    }
    if (onStep) onStep(du, pc);
    if (!target.ok()) break;
  }
  run.finished = du.status(warp) == model::WarpStatus::Done;
  run.state = du.describe(warp);
  return run;
}

std::vector<std::vector<uint32_t>> runScalar(const Program& prog, int warpSize,
                                             uint64_t launchMask, uint64_t maxSteps) {
  std::vector<std::vector<uint32_t>> trace(static_cast<size_t>(warpSize));
  for (int t = 0; t < warpSize; ++t) {
    if (!((launchMask >> t) & 1u)) continue;
    std::map<uint32_t, uint32_t> execCount;
    uint32_t pc = 0, ra = 0;
    for (uint64_t step = 0; step < maxSteps; ++step) {
      const ProgInstr& in = prog.code.at(pc);
      const uint32_t k = execCount[pc]++;
      trace[static_cast<size_t>(t)].push_back(pc);
      const bool g = !in.guarded || in.pred.eval(t, k, prog.tripCount, true);
      uint32_t next = pc + 1;
      if (g) {
        switch (in.op) {
          case CtrlOp::Sync:
          case CtrlOp::Brk:
          case CtrlOp::Cont:
          case CtrlOp::Bra:
          case CtrlOp::Jmp: next = in.target; break;
          case CtrlOp::Brx:
          case CtrlOp::Jmx: next = caseTarget(in, t, k); break;
          case CtrlOp::Cal:
            ra = pc + 1;
            next = in.target;
            break;
          case CtrlOp::Ret: next = ra; break;
          case CtrlOp::Exit: next = UINT32_MAX; break;
          default: break;
        }
      }
      if (next == UINT32_MAX) break;
      pc = next;
    }
  }
  return trace;
}


// ---- directed programs shared by the model and RTL tests ----------------------------------

ProgInstr op(CtrlOp o, uint32_t target) {
  ProgInstr in;
  in.op = o;
  in.target = target;
  return in;
}
ProgInstr guardedBelow(CtrlOp o, uint32_t target, int threadBound) {
  ProgInstr in = op(o, target);
  in.guarded = true;
  in.pred.kind = Pred::ThreadBelow;
  in.pred.percent = threadBound;
  return in;
}

Program seed002Program() {
  Program p;
  p.code = {
      op(CtrlOp::Ssy, 6),              // 0: SYNC {all, 6}
      guardedBelow(CtrlOp::Bra, 4, 16),  // 1: threads 0-15 take the IF; DIV {16-31, 2}
      op(CtrlOp::Next),                // 2: else path
      op(CtrlOp::Sync, 6),             // 3
      op(CtrlOp::Cal, 7),              // 4: CALL {0-15, 5}
      op(CtrlOp::Sync, 6),             // 5
      op(CtrlOp::Exit),                // 6
      op(CtrlOp::Ssy, 12),             // 7: f: SYNC {0-15, 12}
      guardedBelow(CtrlOp::Bra, 11, 8),  // 8: threads 0-7 take it; DIV {8-15, 9}
      op(CtrlOp::Next),                // 9
      op(CtrlOp::Sync, 12),            // 10
      op(CtrlOp::Sync, 12),            // 11
      op(CtrlOp::Ret),                 // 12
  };
  p.tripCount.assign(32, 0);
  return p;
}

Program spinLockProgram() {
  Program p;
  ProgInstr holder = op(CtrlOp::Bra, 5);
  holder.guarded = true;
  holder.pred.kind = Pred::Holder;  // thread 31 holds the lock
  ProgInstr spin = op(CtrlOp::Bra, 2);
  spin.guarded = true;
  spin.pred.kind = Pred::Flag;  // the lock is still held
  ProgInstr release = op(CtrlOp::Next);
  release.releaseFlag = true;
  p.code = {
      op(CtrlOp::Ssy, 7),  // 0
      holder,              // 1: the holder goes to its critical section
      op(CtrlOp::Yield),   // 2: spin: yield ...
      spin,                // 3: ... while the lock is held
      op(CtrlOp::Sync, 7), // 4
      release,             // 5: holder: critical section, release
      op(CtrlOp::Sync, 7), // 6
      op(CtrlOp::Exit),    // 7
  };
  p.tripCount.assign(32, 0);
  return p;
}

Program barrierInCallProgram() {
  Program p;
  ProgInstr bar = op(CtrlOp::Next);
  bar.barrier = true;
  p.code = {
      op(CtrlOp::Ssy, 6),                // 0
      guardedBelow(CtrlOp::Bra, 4, 16),  // 1
      op(CtrlOp::Cal, 7),                // 2: threads 16-31
      op(CtrlOp::Sync, 6),               // 3
      op(CtrlOp::Cal, 7),                // 4: threads 0-15
      op(CtrlOp::Sync, 6),               // 5
      op(CtrlOp::Exit),                  // 6
      op(CtrlOp::Next),                  // 7: f
      bar,                               // 8: bar.sync 0
      op(CtrlOp::Next),                  // 9
      op(CtrlOp::Ret),                   // 10
  };
  p.tripCount.assign(32, 0);
  return p;
}

}  // namespace simt::tb
