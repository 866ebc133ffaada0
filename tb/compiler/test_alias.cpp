// Seed 004 (docs/compiler.md, "Alias metadata"): the range expressions, the compile-time
// access metadata, the launch check's relations for buffers and views that overlap by 0, 1,
// 3, 4 and many elements forwards and backwards, and the alias-optimised variants, whose
// results must equal the conservative compilation's and a sequential C++ reference.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "compiler/compiler.h"
#include "compiler/range_expr.h"
#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"
#include "cl_engines.h"
#include "runtime/alias_check.h"
#include "runtime/cl_runtime.h"

namespace {

namespace cc = simt::compiler;
namespace rt = simt::runtime;
using cc::Interval;
using cc::RangeExpr;
using Kind = rt::PairRelation::Kind;

std::string kernelPath(const std::string& name) { return std::string(SIMT_CL_KERNEL_DIR) + "/" + name; }

// ---- Range expressions

cc::LaunchValues oneItem(std::vector<uint32_t> args, uint32_t gid) {
  cc::LaunchValues v;
  v.args = std::move(args);
  v.globalId[0] = Interval::exact(gid);
  v.localId[0] = Interval::exact(gid % 64);
  v.groupId[0] = Interval::exact(gid / 64);
  for (size_t d = 1; d < 3; ++d) v.globalId[d] = v.localId[d] = v.groupId[d] = Interval::exact(0);
  return v;
}

void expectInterval(const Interval& iv, long lo, long hi) {
  ASSERT_TRUE(iv.known);
  EXPECT_EQ(static_cast<long>(iv.lo), lo);
  EXPECT_EQ(static_cast<long>(iv.hi), hi);
}

TEST(RangeExpr, PrintAndParseRoundTrip) {
  for (const char* t : {"(rec (* 4 a3 gid0) 4 (+ -1 (* -1 a3 gid0) (smax (+ 1 (* a3 gid0)) (* (+ 1 gid0) a3))))",
                        "(zext:64 a2:8)", "(umin (/u lid1 4) ngr2 gsz0 lsz0 goff1 dim)", "-7", "(trunc:16 grp2)"}) {
    EXPECT_EQ(RangeExpr::parse(t).print(), t);
  }
}

TEST(RangeExpr, MalformedTextIsRejectedWithItsPosition) {
  for (const char* t : {"", "(+ 1", "(foo 1 2)", "(rec 1 2)", "gid7", "(+ 1 2) 3", "a", "(zext:99 a1)"}) {
    EXPECT_THROW(RangeExpr::parse(t), std::invalid_argument) << t;
  }
}

TEST(RangeExpr, EvaluatesOneWorkItemExactly) {
  // The seed's loop for work-item 5 with chunk 8: bytes 160..188 step 4.
  const RangeExpr e = RangeExpr::parse(
      "(rec (* 4 a3 gid0) 4 (+ -1 (* -1 a3 gid0) (smax (+ 1 (* a3 gid0)) (* (+ 1 gid0) a3))))");
  expectInterval(cc::evaluate(e, oneItem({0, 0, 0, 8}, 5)), 160, 188);
  // chunk 0: the loop does not run; the bound still covers its first iteration only.
  expectInterval(cc::evaluate(e, oneItem({0, 0, 0, 0}, 5)), 0, 0);
}

TEST(RangeExpr, SignedAndUnsignedRepresentatives) {
  // a0 = -1: signed -1, unsigned 2^32-1.
  expectInterval(cc::evaluate(RangeExpr::parse("(smax a0 0)"), oneItem({0xffffffffu}, 0)), 0, 0);
  expectInterval(cc::evaluate(RangeExpr::parse("(umax a0 0)"), oneItem({0xffffffffu}, 0)), 0xffffffffL, 0xffffffffL);
  expectInterval(cc::evaluate(RangeExpr::parse("(zext:64 a0)"), oneItem({0xfffffffeu}, 0)), 0xfffffffeL, 0xfffffffeL);
  expectInterval(cc::evaluate(RangeExpr::parse("(sext:64 a0)"), oneItem({0xfffffffeu}, 0)), -2, -2);
  expectInterval(cc::evaluate(RangeExpr::parse("(/u a0 4)"), oneItem({17}, 0)), 4, 4);
}

TEST(RangeExpr, IntervalsThatStraddleAWrapPointAreUnknown) {
  cc::LaunchValues v = oneItem({0}, 0);
  v.globalId[0] = Interval::of(0, 10);
  // gid0 - 5 spans -5..5: as unsigned it straddles 0 / 2^32.
  EXPECT_FALSE(cc::evaluate(RangeExpr::parse("(umax (+ gid0 -5) 1)"), v).known);
  EXPECT_TRUE(cc::evaluate(RangeExpr::parse("(smax (+ gid0 -5) 1)"), v).known);
  EXPECT_FALSE(cc::evaluate(RangeExpr::parse("(/u 8 gid0)"), v).known);  // a divisor that may be 0
  EXPECT_FALSE(cc::asUnsigned(Interval::of(-1, 1), 32).known);
  expectInterval(cc::asUnsigned(Interval::of(-4, -1), 32), 0xfffffffcL, 0xffffffffL);
  expectInterval(cc::asSigned(Interval::of(0xfffffffcL, 0xffffffffL), 32), -4, -1);
}

TEST(RangeExpr, RecurrenceWithANegativeStep) {
  // START 40, STEP -4, 3 back edges: 28..40.
  expectInterval(cc::evaluate(RangeExpr::parse("(rec 40 -4 3)"), oneItem({}, 0)), 28, 40);
}

// ---- Access metadata at compile time

cc::CompiledKernel compile(const std::string& file, const cc::AliasFacts& facts = {}) {
  cc::CompileOptions opt;
  opt.alias = facts;
  return cc::compileFile(kernelPath(file), opt);
}

TEST(AccessMetadata, TheSeedKernelsReferences) {
  const cc::CompiledKernel ck = compile("histeq.cl");
  EXPECT_TRUE(ck.referencesComplete);
  ASSERT_EQ(ck.references.size(), 3u);
  int seen = 0;
  for (const auto& r : ck.references) {
    EXPECT_EQ(r.line, 10);
    EXPECT_EQ(r.bytes, 4u);
    if (r.arg == 0 || r.arg == 2) {  // inputImage read, outputImage written, i over the range
      EXPECT_EQ(r.reads, r.arg == 0);
      EXPECT_EQ(r.writes, r.arg == 2);
      EXPECT_NE(r.offset.find("(rec (* 4 a3 gid0) 4"), std::string::npos) << r.offset;
      ++seen;
    } else {  // cdf[inputImage[i]]: data-dependent
      EXPECT_EQ(r.arg, 1);
      EXPECT_TRUE(r.offset.empty()) << r.offset;
      ++seen;
    }
  }
  EXPECT_EQ(seen, 3);
  EXPECT_TRUE(ck.aliasFacts.empty());
}

TEST(AccessMetadata, AScalarModulusAndAPointerChosenAtRunTimeAreUnknown) {
  const cc::CompiledKernel ck = compile("alias_unknown.cl");
  EXPECT_TRUE(ck.referencesComplete);  // every pointer still comes from an argument
  int unknownA = 0, unknownB = 0, knownC = 0;
  for (const auto& r : ck.references) {
    if (r.arg == 0 && r.offset.empty()) ++unknownA;
    if (r.arg == 1 && r.offset.empty()) ++unknownB;
    if (r.arg == 2 && r.offset == "(* 4 gid0)") ++knownC;
  }
  EXPECT_GE(unknownA, 2);  // a[i % m] and p[i] (p may be a)
  EXPECT_GE(unknownB, 1);
  EXPECT_EQ(knownC, 1);
}

TEST(AliasFacts, KeyAndParseRoundTrip) {
  cc::AliasFacts f;
  f.noalias = {0, 2};
  f.distances = {{0, 1, -12}, {1, 3, 64}};
  f.alignment = {{0, 16}, {1, 8}};
  f.lowZeroBits = {{4, 3}};
  EXPECT_EQ(f.key(), "noalias 0 2; distance 0 1 -12; distance 1 3 +64; align 0:16 1:8; lowzero 4:3");
  EXPECT_EQ(cc::AliasFacts::parse(f.key()).key(), f.key());
  EXPECT_FALSE(cc::AliasFacts::parse("").permitsOptimisation());
  for (const char* bad : {"noalias x", "distance 0 1", "align 0", "align 0:3", "lowzero 1:9", "sometimes 1"}) {
    EXPECT_THROW(cc::AliasFacts::parse(bad), cc::CompileError) << bad;
  }
}

// ---- The launch check and the variants

struct AliasRun {
  rt::Device::Run run;
  std::vector<int32_t> words;  // the first buffer after the run
};

class AliasLaunch {
 public:
  explicit AliasLaunch(rt::Engine engine = rt::modelEngine()) : dev_(std::move(engine), {}, {}, "") {}
  rt::Device& device() { return dev_; }
  // A buffer no argument names directly (views of it are).
  void buffer(const std::string& name, const std::vector<int32_t>& words) {
    dev_.createBuffer(name, rt::ElemType::I32, std::vector<uint32_t>(words.begin(), words.end()));
  }
  AliasRun run(const std::string& file, const std::vector<std::string>& specs, const std::string& global,
               bool aliasOpt = true) {
    dev_.setAliasOptimisation(aliasOpt);
    rt::Kernel k = dev_.build(kernelPath(file));
    std::vector<rt::KernelArg> args;
    for (const auto& s : specs) args.push_back(dev_.argFromSpec(s));
    k.setArgs(args);
    AliasRun r;
    r.run = dev_.enqueue(k, rt::parseRange(global, "", 256));
    EXPECT_EQ(r.run.result.status, simt::model::RunStatus::Ok) << r.run.result.message;
    const auto& w = dev_.buffers().front().words;
    r.words.assign(w.begin(), w.end());
    return r;
  }

 private:
  rt::Device dev_;
};

const rt::PairRelation* pair(const rt::AliasCheck& c, int a, int b) {
  for (const auto& p : c.pairs) {
    if (p.a == a && p.b == b) return &p;
  }
  return nullptr;
}

// chunk_scale over one buffer with in = view(buf, 64) and out = view(buf, 64 + d), one
// work-item running n elements in order: the sequential reference.
std::vector<int32_t> shiftedInit(int total) {
  std::vector<int32_t> buf(static_cast<size_t>(total));
  for (int i = 0; i < total; ++i) buf[static_cast<size_t>(i)] = i * 7 - 300;
  return buf;
}

std::vector<int32_t> shiftedScale(int n, int d, int total) {
  std::vector<int32_t> buf = shiftedInit(total);
  for (int i = 0; i < n; ++i) {
    const size_t src = static_cast<size_t>(64 + i), dst = static_cast<size_t>(64 + d + i);
    buf[dst] = static_cast<int32_t>(static_cast<uint32_t>(buf[src]) * 3u + 1u);
  }
  return buf;
}

std::vector<std::string> shiftedArgs(AliasLaunch& l, int n, int d, int total) {
  l.buffer("buf", shiftedInit(total));
  return {"view:buf:64", "view:buf:" + std::to_string(64 + d), "i32:" + std::to_string(n), "i32:3"};
}

class OverlapByElements : public ::testing::TestWithParam<int> {};

TEST_P(OverlapByElements, RelationAndResultsMatchTheSequentialReference) {
  const int d = GetParam(), n = 48, total = 256;
  AliasLaunch on, off;
  const AliasRun a = on.run("chunk_scale.cl", shiftedArgs(on, n, d, total), "1");
  const AliasRun b = off.run("chunk_scale.cl", shiftedArgs(off, n, d, total), "1", false);
  EXPECT_EQ(a.words, shiftedScale(n, d, total)) << "alias-optimised, distance " << d;
  EXPECT_EQ(b.words, shiftedScale(n, d, total)) << "conservative, distance " << d;
  EXPECT_FALSE(b.run.alias.checked);

  const rt::AliasCheck& c = a.run.alias.check;
  ASSERT_EQ(c.regions.size(), 2u);
  EXPECT_EQ(c.regions[0].end - c.regions[0].start, 4u * n);  // exactly the elements touched
  EXPECT_EQ(c.regions[1].end - c.regions[1].start, 4u * n);
  const rt::PairRelation* p = pair(c, 0, 1);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->conflict);
  EXPECT_EQ(p->pointerDistance, 4 * d);
  const int ad = std::abs(d);
  if (d == 0) {
    EXPECT_EQ(p->kind, Kind::Same);
    EXPECT_FALSE(a.run.alias.recompiled) << "the seed: the same region is not recompiled";
    EXPECT_NE(a.run.alias.note.find("same region"), std::string::npos) << a.run.alias.note;
  } else if (ad >= n) {
    EXPECT_EQ(p->kind, Kind::Disjoint);
    EXPECT_EQ(p->gapBytes, 4u * static_cast<uint32_t>(ad - n));
    EXPECT_TRUE(a.run.alias.recompiled);
    EXPECT_EQ(c.facts.noalias, (std::vector<int>{0, 1}));
  } else {
    EXPECT_EQ(p->kind, Kind::Overlap);
    EXPECT_EQ(p->overlapEnd - p->overlapStart, 4u * static_cast<uint32_t>(n - ad));
    EXPECT_TRUE(a.run.alias.recompiled);
    ASSERT_EQ(c.facts.distances.size(), 1u);
    EXPECT_EQ(c.facts.distances[0].bytes, 4 * d);
    EXPECT_TRUE(c.facts.noalias.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Alias, OverlapByElements, ::testing::Values(0, 1, 3, 4, 16, 48, 60, -1, -3, -4, -16, -48, -60),
                         [](const auto& info) {
                           return (info.param < 0 ? "back" : "fwd") + std::to_string(std::abs(info.param));
                         });

TEST(AliasCheck, DisjointBuffersGiveNoaliasAndTheVariantIsCached) {
  AliasLaunch l;
  const std::vector<std::string> args = {"buf:in:1024=iota", "buf:cdf:1024=rand:3", "buf:out:1024", "i32:16"};
  const AliasRun first = l.run("histeq.cl", args, "64");
  const rt::AliasCheck& c = first.run.alias.check;
  ASSERT_EQ(c.pairs.size(), 3u);
  for (const auto& p : c.pairs) EXPECT_EQ(p.kind, Kind::Disjoint);
  EXPECT_FALSE(pair(c, 0, 1)->conflict);  // two reads
  EXPECT_TRUE(pair(c, 0, 2)->conflict);
  EXPECT_EQ(c.facts.noalias, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(c.regions[1].unknown);  // cdf: the whole buffer
  EXPECT_TRUE(first.run.alias.recompiled);
  EXPECT_FALSE(first.run.alias.variantCached);
  EXPECT_GE(first.run.alias.variant.unrolledLoops, 1);
  EXPECT_EQ(first.run.alias.variant.vectorAccesses, 2);  // inputImage's loads, outputImage's stores
  EXPECT_NE(first.run.alias.variant.assembly.find("ld.global.v4"), std::string::npos);
  EXPECT_NE(first.run.alias.variant.assembly.find("st.global.v4"), std::string::npos);
  EXPECT_EQ(c.evaluations, 2 * 64);  // two ranged references, 64 work-items each
  // The same relation again: the variant comes from the cache.
  AliasRun second = l.run("histeq.cl", {"buf:in2:1024=iota", "buf:cdf2:1024=rand:3", "buf:out2:1024", "i32:16"}, "64");
  EXPECT_TRUE(second.run.alias.recompiled);
  EXPECT_TRUE(second.run.alias.variantCached) << "other buffers, the same facts";
  second = l.run("histeq.cl", {"view:in2:0", "view:cdf2:0", "view:out2:0", "i32:16"}, "64");
  EXPECT_TRUE(second.run.alias.variantCached);
  // Results: the reference, on the conservative and the optimised compilation alike.
  const auto& bufs = l.device().buffers();
  std::vector<uint32_t> cdf = bufs[1].words, out = bufs[2].words;
  for (size_t i = 0; i < 1024; ++i) EXPECT_EQ(out[i], cdf[i]) << i;
}

TEST(AliasCheck, SeedFigure3CTwoRegionsOfOneBufferTwoEntriesApart) {
  // inputImage at element 0, outputImage at element 66 of one buffer: 64 elements each.
  AliasLaunch l;
  const AliasRun r = l.run("histeq.cl", {"buf:img:160=iota", "buf:cdf:256=rand:5", "view:img:66", "i32:16"}, "4");
  const rt::PairRelation* p = pair(r.run.alias.check, 0, 2);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->kind, Kind::Disjoint);
  EXPECT_EQ(p->gapBytes, 8u);
  EXPECT_TRUE(p->sameBuffer);
  EXPECT_TRUE(r.run.alias.recompiled);
}

TEST(AliasCheck, SeedFigure3BTheSameRegionIsNotRecompiledForThatPair) {
  AliasLaunch l;
  const AliasRun r = l.run("chunk_scale.cl", {"buf:x:256=iota", "view:x:0", "i32:4", "i32:5"}, "64");
  EXPECT_EQ(pair(r.run.alias.check, 0, 1)->kind, Kind::Same);
  EXPECT_FALSE(r.run.alias.recompiled);
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(r.words[i], i * 5 + 1) << i;
}

TEST(AliasCheck, ZeroSizeBufferTouchesNothing) {
  // The host API allows an empty buffer (the command line does not).
  rt::Device dev(rt::modelEngine(), {}, {}, "");
  dev.createBuffer("x", rt::ElemType::I32, std::vector<uint32_t>(64, 1));
  dev.createBuffer("empty", rt::ElemType::I32, {});
  rt::Kernel k = dev.build(kernelPath("chunk_scale.cl"));
  k.setArgs({rt::Kernel::buffer("x"), rt::Kernel::buffer("empty"), rt::Kernel::scalar(0), rt::Kernel::scalar(5)});
  const rt::Device::Run r = dev.enqueue(k, rt::parseRange("16", "", 256));
  ASSERT_EQ(r.result.status, simt::model::RunStatus::Ok) << r.result.message;
  const rt::AliasCheck& c = r.alias.check;
  ASSERT_EQ(c.regions.size(), 2u);
  EXPECT_TRUE(c.regions[1].empty());
  EXPECT_EQ(pair(c, 0, 1)->kind, Kind::Disjoint);
  EXPECT_EQ(pair(c, 0, 1)->gapBytes, 0u);
}

TEST(AliasCheck, UnknownRangesCountTheWholeBuffer) {
  AliasLaunch l;
  const AliasRun r = l.run("alias_unknown.cl", {"buf:a:64", "buf:b:64", "buf:c:64=iota", "i32:64", "i32:0"}, "64");
  const rt::AliasCheck& c = r.run.alias.check;
  ASSERT_EQ(c.regions.size(), 3u);
  EXPECT_TRUE(c.regions[0].unknown);
  EXPECT_EQ(c.regions[0].end - c.regions[0].start, 256u);
  // Separate buffers stay disjoint even so.
  EXPECT_EQ(pair(c, 0, 1)->kind, Kind::Disjoint);
  EXPECT_TRUE(r.run.alias.recompiled);
}

TEST(AliasCheck, ConflictingUnknownRangesInOneBufferGiveNoNoalias) {
  AliasLaunch l;
  const AliasRun r = l.run("alias_unknown.cl", {"buf:a:128", "view:a:64", "buf:c:64=iota", "i32:64", "i32:0"}, "64");
  const rt::AliasCheck& c = r.run.alias.check;
  EXPECT_EQ(pair(c, 0, 1)->kind, Kind::Overlap);  // a's whole buffer holds b's range
  for (int a : c.facts.noalias) EXPECT_EQ(a, 2) << "only c, which neither a nor b can reach";
}

// ---- Random programs: the variants against a sequential host interpretation

// A loop over a work-item's range with 1-3 affine statements through three pointer
// arguments, launched over views of one buffer at random offsets (every relation: the same
// region, overlaps of any distance and direction, disjoint) by one work-item, or over three
// buffers by 16 work-items with disjoint chunks. The alias-optimised and the conservative
// compilation must both give what the host computes.
struct AliasStmt {
  int dst = 0, src = 0;        // argument: 0 a, 1 b, 2 c
  int stride = 1, kd = 0, ks = 0;
  int op = 0;                  // 0: d = s * m + k; 1: d += s; 2: d = s ^ (i * m)
  uint32_t m = 1, k = 0;
};

struct AliasProgram {
  std::vector<AliasStmt> stmts;
  bool reverse = false;
  int n = 1, chunk = 0, items = 1;
  std::array<int, 3> offset{0, 0, 0};  // views (one buffer) in words
  bool separate = false;               // three buffers instead
  std::string source() const {
    const char* names[3] = {"a", "b", "c"};
    std::ostringstream os;
    os << "__kernel void k(__global int* a, __global int* b, __global int* c, int n, int s) {\n"
       << "  int start = get_global_id(0) * s;\n";
    if (reverse) os << "  for (int i = start + n - 1; i >= start; i--) {\n";
    else os << "  for (int i = start; i < start + n; i++) {\n";
    for (const auto& st : stmts) {
      const std::string d = std::string(names[st.dst]) + "[" + std::to_string(st.stride) + " * i + " +
                            std::to_string(st.kd) + "]";
      const std::string s = std::string(names[st.src]) + "[" + std::to_string(st.stride) + " * i + " +
                            std::to_string(st.ks) + "]";
      if (st.op == 0) os << "    " << d << " = " << s << " * " << st.m << "u + " << st.k << "u;\n";
      if (st.op == 1) os << "    " << d << " += " << s << ";\n";
      if (st.op == 2) os << "    " << d << " = " << s << " ^ (i * " << st.m << "u);\n";
    }
    os << "  }\n}\n";
    return os.str();
  }
};

AliasProgram randomAliasProgram(rt::SplitMix64& g) {
  auto below = [&](int n) { return static_cast<int>(g.next() % static_cast<uint64_t>(n)); };
  AliasProgram p;
  p.separate = below(5) < 2;
  p.items = p.separate ? 16 : 1;
  p.n = 1 + below(40);
  p.reverse = below(4) == 0;
  const int nst = 1 + below(3);
  const int stride = below(5) == 0 ? 2 : 1;  // one for all statements: work-items stay apart
  for (int i = 0; i < nst; ++i) {
    AliasStmt st;
    st.dst = below(3);
    st.src = below(3);
    st.stride = stride;
    st.kd = below(9);
    st.ks = below(9);
    st.op = below(3);
    st.m = static_cast<uint32_t>(1 + below(7));
    st.k = static_cast<uint32_t>(below(100));
    p.stmts.push_back(st);
  }
  // Chunks far enough apart that work-items never meet (2 * (n - 1) + 8 < chunk), a multiple
  // of 4 half the time (the launch's low zero bits then let the variant vectorise).
  p.chunk = 2 * p.n + 12 + (below(2) ? 0 : below(4));
  for (auto& o : p.offset) o = p.separate ? 0 : 4 * below(3) + below(2) * below(20);
  return p;
}

// The host: work-items one after another, each its loop in order.
std::vector<std::vector<uint32_t>> interpret(const AliasProgram& p, std::vector<std::vector<uint32_t>> mem) {
  auto cell = [&](int arg, int64_t idx) -> uint32_t& {
    auto& buf = mem[p.separate ? static_cast<size_t>(arg) : 0];
    return buf.at(static_cast<size_t>(p.offset[static_cast<size_t>(arg)] + idx));
  };
  for (int w = 0; w < p.items; ++w) {
    const int start = w * p.chunk;
    for (int t = 0; t < p.n; ++t) {
      const int i = p.reverse ? start + p.n - 1 - t : start + t;
      for (const auto& st : p.stmts) {
        const uint32_t s = cell(st.src, int64_t{st.stride} * i + st.ks);
        uint32_t& d = cell(st.dst, int64_t{st.stride} * i + st.kd);
        if (st.op == 0) d = s * st.m + st.k;
        if (st.op == 1) d += s;
        if (st.op == 2) d = s ^ (static_cast<uint32_t>(i) * st.m);
      }
    }
  }
  return mem;
}

TEST(AliasRandom, VariantsAgreeWithTheHost) {
  const uint64_t seed0 = simt::cltest::seedFromEnv(2026);
  const char* rep = std::getenv("SIMT_REPEAT");
  const int programs = 40 * (rep && *rep ? std::atoi(rep) : 1);
  rt::SplitMix64 g(seed0);
  int recompiled = 0, vectorised = 0, overlaps = 0;
  const std::string path = ::testing::TempDir() + "/simt_alias_rnd_" + std::to_string(::getpid()) + ".cl";
  for (int p = 0; p < programs; ++p) {
    const AliasProgram prog = randomAliasProgram(g);
    const std::string src = prog.source();
    std::ofstream(path) << src;
    const int words = prog.items * prog.chunk * 2 + 128;
    std::vector<std::vector<uint32_t>> init(prog.separate ? 3 : 1);
    for (auto& b : init) {
      b.resize(static_cast<size_t>(words));
      for (auto& x : b) x = static_cast<uint32_t>(g.next());
    }
    const auto want = interpret(prog, init);
    for (bool on : {false, true}) {
      rt::Device dev(rt::modelEngine(), {}, {}, "");
      dev.setAliasOptimisation(on);
      std::vector<rt::KernelArg> args;
      for (size_t b = 0; b < init.size(); ++b) dev.createBuffer("m" + std::to_string(b), rt::ElemType::I32, init[b]);
      for (size_t a = 0; a < 3; ++a) {
        args.push_back(rt::Kernel::view(prog.separate ? "m" + std::to_string(a) : "m0",
                                        static_cast<uint32_t>(prog.offset[a])));
      }
      args.push_back(rt::Kernel::scalar(static_cast<uint32_t>(prog.n)));
      args.push_back(rt::Kernel::scalar(static_cast<uint32_t>(prog.chunk)));
      rt::Kernel k = dev.build(path);
      k.setArgs(args);
      const rt::Device::Run r = dev.enqueue(k, rt::parseRange(std::to_string(prog.items), "", 256));
      const std::string ctx = std::string(on ? "alias-optimised" : "conservative") + ", replay with SIMT_SEED=" +
                              std::to_string(seed0) + " (program " + std::to_string(p) + ")\n" + src +
                              (r.alias.recompiled ? r.alias.variant.assembly : k.compiled().assembly);
      ASSERT_EQ(r.result.status, simt::model::RunStatus::Ok) << r.result.message << "\n" << ctx;
      for (size_t b = 0; b < init.size(); ++b) {
        ASSERT_EQ(dev.buffers()[b].words, want[b]) << "buffer " << b << ", " << ctx;
      }
      if (on) {
        recompiled += r.alias.recompiled;
        vectorised += r.alias.recompiled && r.alias.variant.vectorAccesses > 0;
        for (const auto& pr : r.alias.check.pairs) overlaps += pr.kind == Kind::Overlap;
      }
    }
  }
  std::remove(path.c_str());
  std::printf("alias random: %d programs (SIMT_SEED=%llu), %d recompiled, %d vectorised, %d overlapping pairs\n",
              programs, static_cast<unsigned long long>(seed0), recompiled, vectorised, overlaps);
  EXPECT_GT(recompiled, programs / 4);
  EXPECT_GT(vectorised, 0);
  EXPECT_GT(overlaps, programs / 4);
}

// ---- The variants on the core and in lockstep co-simulation

rt::Engine rtlEngine() { return simt::cltest::engineFor(simt::cltest::Eng::Rtl); }
rt::Engine cosimEngine() { return simt::cltest::engineFor(simt::cltest::Eng::Cosim); }

TEST(AliasVariants, OnTheCoreAndInCosimTheyMatchTheConservativeResults) {
  for (int d : {0, 1, 3, 4, -2, 100}) {
    AliasLaunch rtl(rtlEngine()), co(cosimEngine());
    const AliasRun a = rtl.run("chunk_scale.cl", shiftedArgs(rtl, 40, d, 256), "1");
    const AliasRun b = co.run("chunk_scale.cl", shiftedArgs(co, 40, d, 256), "1");
    EXPECT_EQ(a.words, shiftedScale(40, d, 256)) << "rtl, distance " << d;
    EXPECT_EQ(b.words, shiftedScale(40, d, 256)) << "cosim, distance " << d;
    EXPECT_EQ(a.run.alias.recompiled, d != 0);
  }
  AliasLaunch rtl(rtlEngine());
  const AliasRun h = rtl.run("histeq.cl", {"buf:in:2048=iota", "buf:cdf:2048=rand:9", "buf:out:2048", "i32:32"}, "64");
  EXPECT_TRUE(h.run.alias.recompiled);
  const auto& bufs = rtl.device().buffers();
  EXPECT_EQ(bufs[2].words, bufs[1].words);
}

}  // namespace
