#include "runtime/alias_check.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>

#include "compiler/range_expr.h"
#include "runtime/cl_runtime.h"

namespace simt::runtime {

using compiler::Interval;
using compiler::RangeExpr;

const char* relationName(PairRelation::Kind k) {
  switch (k) {
    case PairRelation::Kind::Same: return "same";
    case PairRelation::Kind::Disjoint: return "disjoint";
    case PairRelation::Kind::Overlap: return "overlap";
  }
  return "?";
}

namespace {

Interval hull(const Interval& a, const Interval& b) {
  if (!a.known || !b.known) return Interval::unknown();
  return Interval::of(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

// Every value the offset takes over the NDRange: work-item by work-item (ids exact, so that
// a work-item's start and end stay correlated) when there are few enough, else with the ids
// as intervals.
Interval offsetsOver(const RangeExpr& e, compiler::LaunchValues v, const NDRange& r, long& evals) {
  const int dims = e.maxIdDimension() + 1;
  long points = 1;
  for (int d = 0; d < dims; ++d) points *= static_cast<long>(r.global[static_cast<size_t>(d)]);
  if (dims == 0 || points > kMaxEnumeratedWorkItems) {
    for (size_t d = 0; d < 3; ++d) {
      v.globalId[d] = Interval::of(v.globalOffset[d], __int128{v.globalOffset[d]} + r.global[d] - 1);
      v.localId[d] = Interval::of(0, __int128{r.local[d]} - 1);
      v.groupId[d] = Interval::of(0, __int128{r.global[d] / r.local[d]} - 1);
    }
    ++evals;
    return compiler::evaluate(e, v);
  }
  Interval all = Interval::unknown();
  bool first = true;
  std::array<uint32_t, 3> g{0, 0, 0};
  for (long p = 0; p < points; ++p) {
    long rest = p;
    for (size_t d = 0; d < 3; ++d) {
      g[d] = static_cast<int>(d) < dims ? static_cast<uint32_t>(rest % r.global[d]) : 0;
      if (static_cast<int>(d) < dims) rest /= r.global[d];
      v.globalId[d] = Interval::exact(__int128{v.globalOffset[d]} + g[d]);
      v.localId[d] = Interval::exact(g[d] % r.local[d]);
      v.groupId[d] = Interval::exact(g[d] / r.local[d]);
    }
    ++evals;
    const Interval iv = compiler::evaluate(e, v);
    if (!iv.known) return iv;
    all = first ? iv : hull(all, iv);
    first = false;
  }
  return all;
}

void collectArgs(const RangeExpr& e, std::set<int>& out) {
  if (e.op == RangeExpr::Op::Arg) out.insert(static_cast<int>(e.value));
  for (const auto& o : e.ops) collectArgs(o, out);
}

int lowZeros(uint32_t v, int cap) {
  int n = 0;
  while (n < cap && !(v & (1u << n))) ++n;
  return n;
}

}  // namespace

AliasCheck checkAliasing(const compiler::CompiledKernel& ck, const LaunchImage& img, const std::vector<KernelArg>& args,
                         const std::vector<Buffer>& buffers, const NDRange& range) {
  const auto t0 = std::chrono::steady_clock::now();
  AliasCheck out;
  compiler::LaunchValues v;
  const auto& params = img.kernel.params;
  for (const auto& a : ck.args) {  // each argument's (first) param word
    if (static_cast<size_t>(a.word) < params.size()) v.args.push_back(params[static_cast<size_t>(a.word)]);
  }
  for (size_t d = 0; d < 3; ++d) {
    v.globalSize[d] = range.global[d];
    v.localSize[d] = range.local[d];
    v.numGroups[d] = range.global[d] / range.local[d];
    v.globalOffset[d] = range.offset[d];
  }
  v.workDim = static_cast<uint32_t>(range.dims);

  std::map<int, ArgRegion> regions;
  std::set<int> scalarsUsed;
  for (const auto& ref : ck.references) {
    if (ref.arg < 0 || static_cast<size_t>(ref.arg) >= args.size()) continue;
    const KernelArg& ka = args[static_cast<size_t>(ref.arg)];
    if (ka.kind != KernelArg::BufferArg && ka.kind != KernelArg::View) continue;
    const auto bit = img.bufferAddr.find(ka.buffer);
    const auto buf = std::find_if(buffers.begin(), buffers.end(), [&](const Buffer& b) { return b.name == ka.buffer; });
    if (bit == img.bufferAddr.end() || buf == buffers.end()) continue;
    const uint64_t base = bit->second, limit = base + 4ull * buf->words.size();
    ArgRegion& r = regions[ref.arg];
    const bool firstRef = r.arg < 0;
    r.arg = ref.arg;
    r.buffer = ka.buffer;
    r.pointer = params[static_cast<size_t>(ck.args[static_cast<size_t>(ref.arg)].word)];
    r.reads |= ref.reads;
    r.writes |= ref.writes;
    uint64_t lo = base, hi = limit;  // unknown: the whole buffer
    bool known = false;
    if (!ref.offset.empty() && ref.bytes > 0) {
      Interval iv = Interval::unknown();
      try {
        const RangeExpr e = RangeExpr::parse(ref.offset);
        collectArgs(e, scalarsUsed);
        iv = offsetsOver(e, v, range, out.evaluations);
      } catch (const std::invalid_argument&) {
        // a malformed expression (not from this compiler): the whole buffer
      }
      if (iv.known) iv = compiler::asUnsigned(Interval::of(r.pointer + iv.lo, r.pointer + iv.hi + ref.bytes - 1), 32);
      if (iv.known) {
        lo = std::clamp<uint64_t>(static_cast<uint64_t>(iv.lo), base, limit);
        hi = std::clamp<uint64_t>(static_cast<uint64_t>(iv.hi) + 1, base, limit);
        known = true;
      }
    }
    r.unknown |= !known;
    if (hi <= lo) continue;  // touches nothing of its buffer
    if (firstRef || r.empty()) {
      r.start = static_cast<uint32_t>(lo);
      r.end = static_cast<uint32_t>(hi);
    } else {
      r.start = std::min(r.start, static_cast<uint32_t>(lo));
      r.end = std::max(r.end, static_cast<uint32_t>(hi));
    }
  }
  for (auto& [a, r] : regions) out.regions.push_back(r);

  for (size_t i = 0; i < out.regions.size(); ++i) {
    for (size_t j = i + 1; j < out.regions.size(); ++j) {
      const ArgRegion& x = out.regions[i];
      const ArgRegion& y = out.regions[j];
      PairRelation p;
      p.a = x.arg;
      p.b = y.arg;
      p.conflict = x.writes || y.writes;
      p.sameBuffer = x.buffer == y.buffer;
      p.pointerDistance = int64_t{y.pointer} - int64_t{x.pointer};
      const uint32_t lo = std::max(x.start, y.start), hi = std::min(x.end, y.end);
      if (x.pointer == y.pointer && x.start == y.start && x.end == y.end && !x.empty()) {
        p.kind = PairRelation::Kind::Same;
      } else if (x.empty() || y.empty() || lo >= hi) {
        p.kind = PairRelation::Kind::Disjoint;
        p.gapBytes = x.empty() || y.empty() ? 0 : lo - hi;
      } else {
        p.kind = PairRelation::Kind::Overlap;
        p.overlapStart = lo;
        p.overlapEnd = hi;
      }
      out.pairs.push_back(p);
    }
  }

  // The facts: noalias for arguments all of whose conflicting pairs are disjoint; the
  // distance of partly overlapping conflicting pairs; nothing from "same" pairs (the seed).
  compiler::AliasFacts& f = out.facts;
  if (!ck.referencesComplete) {
    out.reason = "a reference goes through a pointer not traced to an argument";
  } else {
    std::map<int, int> conflicting, disjoint;
    for (const auto& p : out.pairs) {
      if (!p.conflict) continue;
      for (int a : {p.a, p.b}) {
        ++conflicting[a];
        if (p.kind == PairRelation::Kind::Disjoint) ++disjoint[a];
      }
      if (p.kind == PairRelation::Kind::Overlap && p.sameBuffer) f.distances.push_back({p.a, p.b, p.pointerDistance});
    }
    for (const auto& [a, n] : conflicting) {
      if (disjoint[a] == n) f.noalias.push_back(a);
    }
    if (!f.permitsOptimisation()) {
      out.reason = conflicting.empty() ? "no pair of arguments where one writes"
                                       : "every conflicting pair is the same region";
    } else {
      for (const auto& r : out.regions) {
        const int align = 1 << lowZeros(r.pointer, 4);
        if (align > 4) f.alignment.emplace_back(r.arg, align);
      }
      for (int a : scalarsUsed) {
        if (static_cast<size_t>(a) >= v.args.size()) continue;
        const int z = lowZeros(v.args[static_cast<size_t>(a)], 4);
        if (z > 0) f.lowZeroBits.emplace_back(a, z);
      }
    }
  }
  out.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace simt::runtime
