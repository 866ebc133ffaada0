#include "compiler/regalloc.h"

#include <algorithm>
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
  if (in.guard >= 0 && in.dst.kind == Opnd::VReg) u.push_back(in.dst.reg);
  return u;
}

int defOf(const MInst& in) { return in.dst.kind == Opnd::VReg ? in.dst.reg : -1; }

struct Interval {
  int vreg = 0, start = 0, end = 0;
};

struct Liveness {
  std::vector<Interval> intervals;  // by vreg (start > end: unused)
};

Liveness computeLiveness(MFunction& mf) {
  mf.computeSuccessors();
  const int nb = static_cast<int>(mf.blocks.size());
  const int nv = mf.numVRegs;
  std::vector<std::vector<bool>> gen(nb, std::vector<bool>(nv)), kill(nb, std::vector<bool>(nv));
  std::vector<int> blockStart(nb), blockEnd(nb);
  int pos = 0;
  Liveness lv;
  lv.intervals.resize(nv);
  for (int v = 0; v < nv; ++v) lv.intervals[v] = {v, 1 << 30, -1};
  auto touch = [&](int v, int p) {
    lv.intervals[v].start = std::min(lv.intervals[v].start, p);
    lv.intervals[v].end = std::max(lv.intervals[v].end, p);
  };
  for (int b = 0; b < nb; ++b) {
    blockStart[b] = 2 * pos;
    for (const MInst& in : mf.blocks[b].insts) {
      for (int u : usesOf(in)) {
        if (!kill[b][u]) gen[b][u] = true;
        touch(u, 2 * pos);
      }
      const int d = defOf(in);
      if (d >= 0) {
        if (in.guard < 0) kill[b][d] = true;
        touch(d, 2 * pos + 1);
      }
      ++pos;
    }
    blockEnd[b] = 2 * pos;  // past the last instruction's def slot
  }
  std::vector<std::vector<bool>> liveIn(nb, std::vector<bool>(nv)), liveOut(nb, std::vector<bool>(nv));
  bool changed = true;
  while (changed) {
    changed = false;
    for (int b = nb - 1; b >= 0; --b) {
      std::vector<bool> out(nv);
      for (int s : mf.blocks[b].succs) {
        for (int v = 0; v < nv; ++v) {
          if (liveIn[s][v]) out[v] = true;
        }
      }
      std::vector<bool> in(nv);
      for (int v = 0; v < nv; ++v) in[v] = gen[b][v] || (out[v] && !kill[b][v]);
      if (in != liveIn[b] || out != liveOut[b]) {
        liveIn[b] = std::move(in);
        liveOut[b] = std::move(out);
        changed = true;
      }
    }
  }
  for (int b = 0; b < nb; ++b) {
    for (int v = 0; v < nv; ++v) {
      if (liveIn[b][v]) touch(v, blockStart[b]);
      if (liveOut[b][v]) touch(v, blockEnd[b]);
    }
  }
  return lv;
}

struct Assignment {
  std::vector<int> phys;  // by vreg, -1 spilled
  int spills = 0;
};

Assignment linearScan(const Liveness& lv, const std::vector<int>& regs) {
  Assignment a;
  a.phys.assign(lv.intervals.size(), -1);
  std::vector<Interval> order;
  for (const auto& iv : lv.intervals) {
    if (iv.start <= iv.end) order.push_back(iv);
  }
  std::sort(order.begin(), order.end(), [](const Interval& x, const Interval& y) {
    return x.start != y.start ? x.start < y.start : x.vreg < y.vreg;
  });
  std::vector<int> freeRegs(regs.rbegin(), regs.rend());  // pop_back gives the lowest
  std::vector<Interval> active;
  for (const Interval& iv : order) {
    for (size_t i = 0; i < active.size();) {
      if (active[i].end < iv.start) {
        freeRegs.push_back(a.phys[active[i].vreg]);
        active.erase(active.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    std::sort(freeRegs.rbegin(), freeRegs.rend());
    if (!freeRegs.empty()) {
      a.phys[iv.vreg] = freeRegs.back();
      freeRegs.pop_back();
      active.push_back(iv);
      continue;
    }
    auto victim = std::max_element(active.begin(), active.end(), [](const Interval& x, const Interval& y) { return x.end < y.end; });
    if (victim != active.end() && victim->end > iv.end) {
      a.phys[iv.vreg] = a.phys[victim->vreg];
      a.phys[victim->vreg] = -1;
      *victim = iv;
    } else {
      a.phys[iv.vreg] = -1;
    }
    ++a.spills;
  }
  return a;
}

}  // namespace

// Copy coalescing: `mov vD, vS` whose two live intervals do not overlap (vS ends at the copy,
// vD starts there) lets both share one register; vD is renamed vS and the copy vanishes after
// allocation (a move to itself). Intervals are hulls of the live points, so disjoint hulls
// never interfere. Merged intervals are the union of the hulls.
static int coalesceCopies(MFunction& mf, Liveness& lv) {
  const int nv = mf.numVRegs;
  std::vector<int> rep(static_cast<size_t>(nv));
  for (int v = 0; v < nv; ++v) rep[static_cast<size_t>(v)] = v;
  auto find = [&](int v) {
    while (rep[static_cast<size_t>(v)] != v) v = rep[static_cast<size_t>(v)];
    return v;
  };
  int merged = 0;
  for (const MBlock& b : mf.blocks) {
    for (const MInst& in : b.insts) {
      if (in.op != "mov" || in.guard >= 0 || in.dst.kind != Opnd::VReg || in.srcs.size() != 1 ||
          in.srcs[0].kind != Opnd::VReg) {
        continue;
      }
      const int d = find(in.dst.reg), s = find(in.srcs[0].reg);
      if (d == s) continue;
      Interval& id = lv.intervals[static_cast<size_t>(d)];
      Interval& is = lv.intervals[static_cast<size_t>(s)];
      const bool disjoint = is.end < id.start || id.end < is.start;
      if (!disjoint) continue;
      rep[static_cast<size_t>(d)] = s;
      is.start = std::min(is.start, id.start);
      is.end = std::max(is.end, id.end);
      id.start = 1 << 30;  // no interval of its own any more
      id.end = -1;
      ++merged;
    }
  }
  if (merged == 0) return 0;
  auto rename = [&](Opnd& o) {
    if (o.kind == Opnd::VReg || (o.kind == Opnd::Mem && o.baseIsVReg && o.reg >= 0)) o.reg = find(o.reg);
  };
  for (MBlock& b : mf.blocks) {
    for (MInst& in : b.insts) {
      rename(in.dst);
      for (Opnd& o : in.srcs) rename(o);
    }
  }
  return merged;
}

AllocationResult allocateRegisters(MFunction& mf, uint32_t frameBytes, bool usesFrame, int privateBaseParamByte,
                                   int maxRegs) {
  Liveness lv = computeLiveness(mf);
  coalesceCopies(mf, lv);
  auto regsUpTo = [&](int n) {
    std::vector<int> r;
    for (int i = 0; i < std::min(n, maxRegs); ++i) r.push_back(i);
    return r;
  };
  Assignment a;
  bool frame = usesFrame;
  if (!frame) {
    a = linearScan(lv, regsUpTo(31));
    if (a.spills > 0) frame = true;
  }
  if (frame) a = linearScan(lv, regsUpTo(27));  // r27..r29 spill scratch, r30 frame pointer

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
      const int d = defOf(in);
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
      if (!(in.op == "mov" && in.guard < 0 && in.dst.kind == Opnd::PReg && in.srcs.size() == 1 &&
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

uint32_t insertCalleeSaves(MFunction& mf, uint32_t frameBytes, bool saveLink) {
  std::set<int> written;
  for (const MBlock& b : mf.blocks) {
    for (const MInst& in : b.insts) {
      if (in.dst.kind == Opnd::PReg && in.dst.reg != kFramePointer) written.insert(in.dst.reg);
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
