#include "compiler/regalloc.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

namespace simt::compiler {

namespace {

constexpr int kFramePointer = 30;
constexpr int kScratch[3] = {27, 28, 29};

// Virtual registers an instruction reads (a guarded write also keeps the old value).
std::vector<int> usesOf(const MInst& in) {
  std::vector<int> u;
  for (const Opnd& o : in.srcs) {
    if (o.kind == Opnd::VReg) u.push_back(o.reg);
    if (o.kind == Opnd::Mem && o.baseIsVReg && o.reg >= 0) u.push_back(o.reg);
  }
  if (!in.definesTuple()) {
    for (const Opnd& o : in.tupleRest) {
      if (o.kind == Opnd::VReg) u.push_back(o.reg);
    }
  }
  if (in.guard >= 0 && !in.fullDef && in.dst.kind == Opnd::VReg) u.push_back(in.dst.reg);
  return u;
}

bool killsDef(const MInst& in) { return in.guard < 0 || in.fullDef; }

// Virtual registers an instruction writes: its destination, and a loaded tuple's others.
std::vector<int> defsOf(const MInst& in) {
  std::vector<int> d;
  if (in.dst.kind == Opnd::VReg) d.push_back(in.dst.reg);
  if (in.definesTuple()) {
    for (const Opnd& o : in.tupleRest) {
      if (o.kind == Opnd::VReg) d.push_back(o.reg);
    }
  }
  return d;
}

bool defines(const MInst& in, int v) {
  const std::vector<int> d = defsOf(in);
  return std::find(d.begin(), d.end(), v) != d.end();
}

// The register tuples of ld/st.global.v4, each four virtual registers that must sit in
// consecutive physical registers. A virtual register belongs to at most one tuple (the
// lowering gives every v4 instruction fresh registers, or reuses a loaded tuple whole for
// its store; coalescing never merges two tuple members).
using Tuple = std::array<int, 4>;

std::vector<Tuple> collectTuples(const MFunction& mf) {
  std::vector<Tuple> tuples;
  std::map<int, size_t> owner;
  for (const MBlock& b : mf.blocks) {
    for (const MInst& in : b.insts) {
      const std::vector<Opnd> t = in.tuple();
      if (t.empty()) continue;
      if (t.size() != 4) throw std::logic_error("regalloc: a tuple of " + std::to_string(t.size()));
      Tuple regs{};
      for (size_t k = 0; k < 4; ++k) {
        if (t[k].kind != Opnd::VReg)
          throw std::logic_error("regalloc: a tuple of physical registers");
        regs[k] = t[k].reg;
      }
      if (const auto it = owner.find(regs[0]); it != owner.end() && tuples[it->second] == regs)
        continue;
      for (size_t k = 0; k < 4; ++k) {
        if (owner.count(regs[k])) {
          throw std::logic_error("regalloc: v" + std::to_string(regs[k]) +
                                 " is in two register tuples");
        }
        owner[regs[k]] = tuples.size();
      }
      tuples.push_back(regs);
    }
  }
  return tuples;
}

std::set<int> tupleMembers(const MFunction& mf) {
  std::set<int> m;
  for (const Tuple& t : collectTuples(mf)) m.insert(t.begin(), t.end());
  return m;
}

// No four consecutive registers could be freed for a tuple: other tuples held them.
struct NoTupleWindow : std::runtime_error {
  NoTupleWindow() : std::runtime_error("regalloc: no four consecutive registers for a tuple") {}
};

struct Interval {
  int vreg = 0, start = 0, end = 0;
};

struct Liveness {
  std::vector<Interval> intervals;  // by vreg (start > end: unused)
  std::vector<std::vector<bool>> liveIn;  // by block
};

// One block scanned backwards. Blocks have side exits: a guarded `bra`/`sync` in the middle
// sends the work-items whose guard holds to its target, the others go on; what the target
// needs is live before that instruction, whatever the block does after it. An unguarded
// branch, `exit` or `ret` ends what is reachable. Returns the live set at the block's start;
// `before[k]` (optional) is the live set before instruction k, `end` the one after the last.
struct BlockScan {
  std::vector<std::vector<bool>> before;
  std::vector<bool> end;
};

std::vector<bool> scanBlock(const MFunction& mf, size_t b, const std::vector<std::vector<bool>>& liveIn,
                            const std::map<std::string, size_t>& index, BlockScan* out) {
  const MBlock& blk = mf.blocks[b];
  const size_t nv = static_cast<size_t>(mf.numVRegs);
  std::vector<bool> live(nv, false);
  bool falls = true;
  for (const MInst& in : blk.insts) {
    if (in.guard < 0 && in.isBranchLike()) {
      falls = false;
      break;
    }
  }
  if (falls && b + 1 < mf.blocks.size()) live = liveIn[b + 1];
  if (out) {
    out->before.assign(blk.insts.size(), {});
    out->end = live;
  }
  for (size_t k = blk.insts.size(); k-- > 0;) {
    const MInst& in = blk.insts[k];
    if (in.isBranchLike()) {
      size_t target = SIZE_MAX;
      if ((in.op == "bra" || in.op.rfind("sync", 0) == 0) && !in.srcs.empty() && in.srcs[0].kind == Opnd::Label) {
        target = index.at(in.srcs[0].text);
      }
      if (in.guard < 0) live.assign(nv, false);  // nothing after it runs
      if (target != SIZE_MAX) {
        for (size_t v = 0; v < nv; ++v) {
          if (liveIn[target][v]) live[v] = true;
        }
      }
    }
    if (killsDef(in)) {
      for (int d : defsOf(in)) live[static_cast<size_t>(d)] = false;
    }
    for (int u : usesOf(in)) live[static_cast<size_t>(u)] = true;
    if (out) out->before[k] = live;
  }
  return live;
}

std::map<std::string, size_t> blockIndexMap(const MFunction& mf) {
  std::map<std::string, size_t> index;
  for (size_t b = 0; b < mf.blocks.size(); ++b) index[mf.blocks[b].label] = b;
  return index;
}

Liveness computeLiveness(MFunction& mf) {
  mf.computeSuccessors();
  const size_t nb = mf.blocks.size();
  const int nv = mf.numVRegs;
  const auto index = blockIndexMap(mf);
  Liveness lv;
  lv.intervals.resize(static_cast<size_t>(nv));
  for (int v = 0; v < nv; ++v) lv.intervals[static_cast<size_t>(v)] = {v, 1 << 30, -1};
  auto touch = [&](int v, int p) {
    auto& iv = lv.intervals[static_cast<size_t>(v)];
    iv.start = std::min(iv.start, p);
    iv.end = std::max(iv.end, p);
  };
  std::vector<std::vector<bool>> liveIn(nb, std::vector<bool>(static_cast<size_t>(nv)));
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      std::vector<bool> in = scanBlock(mf, b, liveIn, index, nullptr);
      if (in != liveIn[b]) {
        liveIn[b] = std::move(in);
        changed = true;
      }
    }
  }
  // Intervals: the hull of the live points. Every live point lies between recorded ones:
  // uses, definitions, block starts, block ends and side exits.
  int pos = 0;
  for (size_t b = 0; b < nb; ++b) {
    BlockScan sc;
    scanBlock(mf, b, liveIn, index, &sc);
    const int start = 2 * pos;
    for (int v = 0; v < nv; ++v) {
      if (liveIn[b][static_cast<size_t>(v)]) touch(v, start);
    }
    const auto& insts = mf.blocks[b].insts;
    for (size_t k = 0; k < insts.size(); ++k, ++pos) {
      const MInst& in = insts[k];
      for (int u : usesOf(in)) touch(u, 2 * pos);
      for (int d : defsOf(in)) touch(d, 2 * pos + 1);
      if (in.isBranchLike() && in.guard >= 0) {  // a side exit: what leaves here is live here
        const std::vector<bool>& after = k + 1 < insts.size() ? sc.before[k + 1] : sc.end;
        for (int v = 0; v < nv; ++v) {
          if (sc.before[k][static_cast<size_t>(v)] || after[static_cast<size_t>(v)]) touch(v, 2 * pos + 1);
        }
      }
    }
    // Live across the block's end (including into the final branch's target, which may lie
    // earlier in the layout, as a loop header does).
    const std::vector<bool>& lastLive = insts.empty() ? sc.end : sc.before.back();
    for (int v = 0; v < nv; ++v) {
      if (sc.end[static_cast<size_t>(v)] || lastLive[static_cast<size_t>(v)]) touch(v, 2 * pos);
    }
  }
  lv.liveIn = std::move(liveIn);
  return lv;
}

struct Assignment {
  std::vector<int> phys;  // by vreg, -1 spilled
  int spills = 0;
};

// What linear scan places: one virtual register, or a tuple of four placed together over the
// hull of their intervals (they stay in their registers from the first one's start to the
// last one's end; tuples are short, the lowering copies in and out right next to them).
struct Unit {
  int start = 0, end = 0;
  std::vector<int> vregs;
  bool isTuple() const { return vregs.size() > 1; }
};

Assignment linearScan(const Liveness& lv, const std::vector<Tuple>& tuples,
                      const std::vector<int>& regs) {
  Assignment a;
  a.phys.assign(lv.intervals.size(), -1);
  std::vector<Unit> units;
  std::vector<bool> inTuple(lv.intervals.size(), false);
  for (const Tuple& t : tuples) {
    Unit u{1 << 30, -1, std::vector<int>(t.begin(), t.end())};
    for (int v : t) {
      inTuple[static_cast<size_t>(v)] = true;
      const Interval& iv = lv.intervals[static_cast<size_t>(v)];
      if (iv.start > iv.end) continue;
      u.start = std::min(u.start, iv.start);
      u.end = std::max(u.end, iv.end);
    }
    if (u.start <= u.end) units.push_back(std::move(u));
  }
  if (!tuples.empty() && regs.size() < 4) {
    throw std::logic_error("regalloc: a register tuple (ld/st.global.v4) needs four registers, " +
                           std::to_string(regs.size()) + " are allowed");
  }
  for (const auto& iv : lv.intervals) {
    if (iv.start <= iv.end && !inTuple[static_cast<size_t>(iv.vreg)])
      units.push_back({iv.start, iv.end, {iv.vreg}});
  }
  std::sort(units.begin(), units.end(), [](const Unit& x, const Unit& y) {
    return x.start != y.start ? x.start < y.start : x.vregs[0] < y.vregs[0];
  });
  const std::set<int> allowed(regs.begin(), regs.end());
  std::set<int> freeRegs(regs.begin(), regs.end());  // begin() is the lowest
  std::vector<const Unit*> active;
  auto release = [&](const Unit& u) {
    for (int v : u.vregs) {
      if (a.phys[v] >= 0) freeRegs.insert(a.phys[v]);
    }
  };
  for (const Unit& u : units) {
    for (size_t i = 0; i < active.size();) {
      if (active[i]->end < u.start) {
        release(*active[i]);
        active.erase(active.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    if (u.isTuple()) {
      // The window rN..rN+3 that frees the fewest single registers (spilled whole); windows
      // that another tuple holds are out. Lowest N on ties.
      auto holder = [&](int r) -> const Unit* {
        for (const Unit* x : active) {
          for (int v : x->vregs) {
            if (a.phys[v] == r) return x;
          }
        }
        return nullptr;
      };
      int best = -1;
      std::vector<const Unit*> bestVictims;
      for (int n : regs) {
        std::vector<const Unit*> victims;
        bool ok = true;
        for (int r = n; r < n + 4 && ok; ++r) {
          if (!allowed.count(r)) ok = false;
          if (!ok || freeRegs.count(r)) continue;
          const Unit* h = holder(r);
          if (!h || h->isTuple())
            ok = false;
          else if (std::find(victims.begin(), victims.end(), h) == victims.end())
            victims.push_back(h);
        }
        if (ok && (best < 0 || victims.size() < bestVictims.size())) {
          best = n;
          bestVictims = victims;
        }
      }
      if (best < 0) throw NoTupleWindow();
      for (const Unit* x : bestVictims) {
        release(*x);
        a.phys[x->vregs[0]] = -1;
        active.erase(std::find(active.begin(), active.end(), x));
        ++a.spills;
      }
      for (int k = 0; k < 4; ++k) {
        a.phys[u.vregs[static_cast<size_t>(k)]] = best + k;
        freeRegs.erase(best + k);
      }
      active.push_back(&u);
      continue;
    }
    const int v = u.vregs[0];
    if (!freeRegs.empty()) {
      a.phys[v] = *freeRegs.begin();
      freeRegs.erase(freeRegs.begin());
      active.push_back(&u);
      continue;
    }
    // Spill the single interval that ends last (tuples stay in registers).
    const Unit* victim = nullptr;
    for (const Unit* x : active) {
      if (!x->isTuple() && (!victim || x->end > victim->end)) victim = x;
    }
    if (victim && victim->end > u.end) {
      a.phys[v] = a.phys[victim->vregs[0]];
      a.phys[victim->vregs[0]] = -1;
      *std::find(active.begin(), active.end(), victim) = &u;
    } else {
      a.phys[v] = -1;
    }
    ++a.spills;
  }
  return a;
}

// A guarded phi copy writes its destination only for the work-items that take the branch;
// the others go on after the guarded branch. When the destination is dead for them (not live
// after that branch on the fall-through side), its old value is never read: the copy is a
// full definition.
bool refineEdgeCopies(MFunction& mf, const Liveness& lv) {
  bool changed = false;
  const auto index = blockIndexMap(mf);
  for (size_t b = 0; b < mf.blocks.size(); ++b) {
    MBlock& blk = mf.blocks[b];
    BlockScan sc;
    bool scanned = false;
    for (size_t k = 0; k < blk.insts.size(); ++k) {
      MInst& cp = blk.insts[k];
      if (!cp.edgeCopy || cp.fullDef || cp.dst.kind != Opnd::VReg) continue;
      size_t j = k + 1;
      while (j < blk.insts.size() && !(blk.insts[j].isBranchLike() && blk.insts[j].guard == cp.guard &&
                                       blk.insts[j].guardNeg == cp.guardNeg)) {
        ++j;
      }
      if (j >= blk.insts.size()) continue;
      if (!scanned) {
        scanBlock(mf, b, lv.liveIn, index, &sc);
        scanned = true;
      }
      const std::vector<bool>& rest = j + 1 < blk.insts.size() ? sc.before[j + 1] : sc.end;
      if (!rest[static_cast<size_t>(cp.dst.reg)]) {
        cp.fullDef = true;
        changed = true;
      }
    }
  }
  return changed;
}

// Copy coalescing: `mov vD, vS` where vD and vS are never live at once (checked at every
// definition of either against the live set after it) share one register; vD is renamed vS
// and the copy vanishes after allocation (a move to itself). Two members of register tuples
// are never merged (a register would need two places); with tuples == false no tuple member
// is merged at all, which keeps every tuple as short as the lowering made it.
int coalesceCopies(MFunction& mf, Liveness& lv, bool tuples) {
  int merged = 0;
  auto interfere = [&](int x, int y) {
    const auto index = blockIndexMap(mf);
    for (size_t b = 0; b < mf.blocks.size(); ++b) {
      const MBlock& blk = mf.blocks[b];
      bool either = false;
      for (const MInst& in : blk.insts) either |= defines(in, x) || defines(in, y);
      if (!either) continue;
      BlockScan sc;
      scanBlock(mf, b, lv.liveIn, index, &sc);
      for (size_t k = 0; k < blk.insts.size(); ++k) {
        const MInst& in = blk.insts[k];
        for (int d : defsOf(in)) {
          if (d != x && d != y) continue;
          const int other = d == x ? y : x;
          const bool isTheCopy = in.op == "mov" && in.srcs.size() == 1 &&
                                 in.srcs[0].kind == Opnd::VReg && in.srcs[0].reg == other &&
                                 killsDef(in);
          const std::vector<bool>& after = k + 1 < blk.insts.size() ? sc.before[k + 1] : sc.end;
          if (!isTheCopy && after[static_cast<size_t>(other)]) return true;
        }
      }
    }
    // Both live into the entry (never defined before use) also interfere.
    return lv.liveIn[0][static_cast<size_t>(x)] && lv.liveIn[0][static_cast<size_t>(y)];
  };
  std::set<std::pair<int, int>> failed;  // interference only grows as classes merge
  bool again = true;
  while (again) {
    again = false;
    for (MBlock& blk : mf.blocks) {
      for (MInst& in : blk.insts) {
        if (in.op != "mov" || !killsDef(in) || in.dst.kind != Opnd::VReg || in.srcs.size() != 1 ||
            in.srcs[0].kind != Opnd::VReg || in.dst.reg == in.srcs[0].reg) {
          continue;
        }
        const int d = in.dst.reg, s = in.srcs[0].reg;
        if (failed.count({d, s})) continue;
        const std::set<int> members = tupleMembers(mf);
        const int inTuples = static_cast<int>(members.count(d) + members.count(s));
        if (inTuples == 2 || (!tuples && inTuples > 0) || interfere(d, s)) {
          failed.insert({d, s});
          continue;
        }
        for (MBlock& b2 : mf.blocks) {  // rename d to s everywhere
          for (MInst& i2 : b2.insts) {
            auto rename = [&](Opnd& o) {
              if ((o.kind == Opnd::VReg || (o.kind == Opnd::Mem && o.baseIsVReg)) && o.reg == d) o.reg = s;
            };
            rename(i2.dst);
            for (Opnd& o : i2.srcs) rename(o);
            for (Opnd& o : i2.tupleRest) rename(o);
          }
        }
        ++merged;
        lv = computeLiveness(mf);
        again = true;
        break;
      }
      if (again) break;
    }
  }
  return merged;
}

AllocationResult allocateOnce(MFunction& mf, uint32_t frameBytes, bool usesFrame,
                              int privateBaseParamByte, int maxRegs, bool coalesceTuples) {
  Liveness lv = computeLiveness(mf);
  if (refineEdgeCopies(mf, lv)) lv = computeLiveness(mf);
  if (coalesceCopies(mf, lv, coalesceTuples) > 0) lv = computeLiveness(mf);
  const std::vector<Tuple> tuples = collectTuples(mf);
  auto regsUpTo = [&](int n) {
    std::vector<int> r;
    for (int i = 0; i < std::min(n, maxRegs); ++i) r.push_back(i);
    return r;
  };
  Assignment a;
  bool frame = usesFrame;
  if (!frame) {
    a = linearScan(lv, tuples, regsUpTo(31));
    if (a.spills > 0) frame = true;
  }
  if (frame) a = linearScan(lv, tuples, regsUpTo(27));  // r27..r29 spill scratch, r30 frame pointer

  AllocationResult res;
  res.usesFrame = frame;
  uint32_t frameTop = (frameBytes + 3u) & ~3u;
  std::map<int, uint32_t> slot;
  for (size_t v = 0; v < a.phys.size(); ++v) {
    if (a.phys[v] < 0 && lv.intervals[v].start <= lv.intervals[v].end) {
      slot[static_cast<int>(v)] = frameTop;
      frameTop += 4;
      ++res.spilled;
    }
  }
  res.frameBytes = frameTop;

  for (MBlock& b : mf.blocks) {
    std::vector<MInst> out;
    for (MInst in : b.insts) {
      // A copy that coalescing made a move to itself goes, also when its register is
      // spilled (it would otherwise be a reload and a store of the same slot).
      if (in.op == "mov" && in.dst.kind == Opnd::VReg && in.srcs.size() == 1 &&
          in.srcs[0].kind == Opnd::VReg && in.srcs[0].reg == in.dst.reg) {
        continue;
      }
      std::map<int, int> scratch;  // spilled vreg -> scratch register
      std::vector<MInst> before, after;
      auto scratchFor = [&](int v) {
        auto it = scratch.find(v);
        if (it != scratch.end()) return it->second;
        if (scratch.size() >= 3) throw std::logic_error("regalloc: more than three spilled operands");
        const int r = kScratch[scratch.size()];
        scratch[v] = r;
        return r;
      };
      for (int u : usesOf(in)) {
        if (a.phys[u] >= 0 || scratch.count(u)) continue;
        const int r = scratchFor(u);
        MInst ld;
        ld.op = "ld.global";
        ld.dst = Opnd::preg(r);
        ld.srcs = {Opnd::mem(kFramePointer, false, slot.at(u))};
        ld.comment = "reload v" + std::to_string(u);
        before.push_back(ld);
        ++res.spillLoads;
      }
      auto rewrite = [&](Opnd& o) {
        if (o.kind == Opnd::VReg) {
          const int v = o.reg;
          o = Opnd::preg(a.phys[v] >= 0 ? a.phys[v] : scratchFor(v));
        } else if (o.kind == Opnd::Mem && o.baseIsVReg && o.reg >= 0) {
          const int v = o.reg;
          o.reg = a.phys[v] >= 0 ? a.phys[v] : scratchFor(v);
          o.baseIsVReg = false;
        }
      };
      for (Opnd& o : in.srcs) rewrite(o);
      for (Opnd& o : in.tupleRest) {
        if (o.kind == Opnd::VReg && a.phys[o.reg] < 0)
          throw std::logic_error("regalloc: a spilled tuple member");
        rewrite(o);
      }
      const int d = in.dst.kind == Opnd::VReg ? in.dst.reg : -1;
      if (d >= 0 && a.phys[d] < 0) {
        const int r = scratch.count(d) ? scratch.at(d) : kScratch[0];
        in.dst = Opnd::preg(r);
        MInst st;
        st.op = "st.global";
        st.srcs = {Opnd::mem(kFramePointer, false, slot.at(d)), Opnd::preg(r)};
        st.comment = "spill v" + std::to_string(d);
        after.push_back(st);
        ++res.spillStores;
      } else {
        rewrite(in.dst);
      }
      for (auto& x : before) out.push_back(std::move(x));
      if (!(in.op == "mov" && in.dst.kind == Opnd::PReg && in.srcs.size() == 1 &&
            in.srcs[0].kind == Opnd::PReg && in.srcs[0].reg == in.dst.reg)) {
        out.push_back(std::move(in));
      }
      for (auto& x : after) out.push_back(std::move(x));
    }
    b.insts = std::move(out);
  }
  if (frame && privateBaseParamByte >= 0) {
    auto mk = [](const std::string& op, Opnd d, std::vector<Opnd> s) {
      MInst in;
      in.op = op;
      in.dst = std::move(d);
      in.srcs = std::move(s);
      return in;
    };
    std::vector<MInst> pro = {
        mk("mov", Opnd::preg(kFramePointer), {Opnd::sreg("%gtid")}),
        mk("mul", Opnd::preg(kFramePointer), {Opnd::preg(kFramePointer), Opnd::imm32(res.frameBytes)}),
        mk("ld.param", Opnd::preg(kScratch[2]), {Opnd::mem(-1, false, privateBaseParamByte)}),
        mk("add", Opnd::preg(kFramePointer), {Opnd::preg(kFramePointer), Opnd::preg(kScratch[2])})};
    pro[0].comment = "frame pointer: private base + gtid * frame bytes";
    auto& entry = mf.blocks.front().insts;
    entry.insert(entry.begin(), pro.begin(), pro.end());
  }
  return res;
}

}  // namespace

AllocationResult allocateRegisters(MFunction& mf, uint32_t frameBytes, bool usesFrame,
                                   int privateBaseParamByte, int maxRegs) {
  bool anyTuple = false;
  for (const MBlock& b : mf.blocks) {
    for (const MInst& in : b.insts) anyTuple |= !in.tupleRest.empty();
  }
  if (!anyTuple)
    return allocateOnce(mf, frameBytes, usesFrame, privateBaseParamByte, maxRegs, true);
  // Coalescing a tuple with the values copied in and out saves the copies but lengthens the
  // tuple, which may then need registers that other tuples hold, or push other values out.
  // So: with coalescing first; without it (every tuple only as long as its copies) when that
  // found no window or spilled; the one with less spill traffic wins.
  MFunction plain = mf;
  AllocationResult merged{};
  bool mergedOk = true;
  try {
    merged = allocateOnce(mf, frameBytes, usesFrame, privateBaseParamByte, maxRegs, true);
  } catch (const NoTupleWindow&) {
    mergedOk = false;
  }
  if (mergedOk && merged.spilled == 0) return merged;
  const AllocationResult alone =
      allocateOnce(plain, frameBytes, usesFrame, privateBaseParamByte, maxRegs, false);
  if (mergedOk && merged.spillLoads + merged.spillStores <= alone.spillLoads + alone.spillStores)
    return merged;
  mf = std::move(plain);
  return alone;
}

uint32_t insertCalleeSaves(MFunction& mf, uint32_t frameBytes, bool saveLink) {
  std::set<int> written;
  for (const MBlock& b : mf.blocks) {
    for (const MInst& in : b.insts) {
      if (in.dst.kind == Opnd::PReg && in.dst.reg != kFramePointer) written.insert(in.dst.reg);
      if (in.definesTuple()) {
        for (const Opnd& o : in.tupleRest) written.insert(o.reg);
      }
    }
  }
  if (saveLink) written.insert(31);
  uint32_t top = (frameBytes + 3u) & ~3u;
  std::vector<std::pair<int, uint32_t>> slots;
  for (int r : written) {
    slots.emplace_back(r, top);
    top += 4;
  }
  auto memOp = [](uint32_t off) { return Opnd::mem(kFramePointer, false, off); };
  std::vector<MInst> saves;
  for (const auto& [r, off] : slots) {
    MInst st;
    st.op = "st.global";
    st.srcs = {memOp(off), Opnd::preg(r)};
    st.comment = "save r" + std::to_string(r);
    saves.push_back(st);
  }
  auto& entry = mf.blocks.front().insts;
  entry.insert(entry.begin(), saves.begin(), saves.end());
  for (MBlock& b : mf.blocks) {
    std::vector<MInst> out;
    for (MInst& in : b.insts) {
      if (in.op == "ret") {
        for (const auto& [r, off] : slots) {
          MInst ld;
          ld.op = "ld.global";
          ld.dst = Opnd::preg(r);
          ld.srcs = {memOp(off)};
          ld.comment = "restore r" + std::to_string(r);
          out.push_back(ld);
        }
      }
      out.push_back(std::move(in));
    }
    b.insts = std::move(out);
  }
  return top;
}

}  // namespace simt::compiler
