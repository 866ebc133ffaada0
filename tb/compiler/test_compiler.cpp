// The OpenCL compiler and runtime: kernels of tb/compiler/kernels compiled with
// sim/compiler, launched by sim/runtime/cl_runtime on the ISA model (all), the verilated
// core and the co-simulation (some), each checked against a C++ reference computed here;
// refused constructs and bad launches. docs/compiler.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"
#include "cl_engines.h"
#include "runtime/cl_runtime.h"

namespace {

namespace cc = simt::compiler;
namespace rt = simt::runtime;
using simt::model::RunStatus;

std::string kernelPath(const std::string& name) { return std::string(SIMT_CL_KERNEL_DIR) + "/" + name; }

using simt::cltest::Eng;
using simt::cltest::engineFor;
using simt::cltest::engName;

struct Launch {
  std::string file, kernel, global, local;
  std::vector<std::string> args;
  Eng engine = Eng::Model;
  simt::model::DivergenceMode div = simt::model::DivergenceMode::Deque;
  uint64_t maxCycles = 2'000'000;
  int maxRegisters = 31;
  std::vector<std::string> defines = {};
  bool subroutines = false;
  std::string offset = "";  // --global-offset
};

struct Outcome {
  cc::CompiledKernel ck;
  rt::LaunchResult res;
  std::vector<int32_t> buf(const std::string& name) const {
    for (const auto& b : res.buffers) {
      if (b.name == name) return std::vector<int32_t>(b.words.begin(), b.words.end());
    }
    ADD_FAILURE() << "no buffer " << name;
    return {};
  }
};

Outcome run(const Launch& l) {
  Outcome o;
  cc::CompileOptions opt;
  opt.kernel = l.kernel;
  opt.maxRegisters = l.maxRegisters;
  opt.defines = l.defines;
  opt.subroutines = l.subroutines;
  o.ck = cc::compileFile(kernelPath(l.file), opt);
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> args;
  for (const auto& a : l.args) args.push_back(rt::parseArg(a, buffers));
  rt::DeviceLimits limits;
  const rt::NDRange range = rt::parseRange(l.global, l.local, limits.maxThreadsPerGroup, l.offset);
  simt::model::RunConfig cfg;
  cfg.divergence = l.div;
  cfg.maxCycles = l.maxCycles;
  o.res = rt::launch(o.ck, range, args, buffers, cfg, engineFor(l.engine), limits);
  return o;
}

std::vector<int32_t> splitmix(uint64_t seed, size_t n) {
  rt::SplitMix64 g(seed);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(static_cast<uint32_t>(g.next()));
  return v;
}

#define EXPECT_OK(o) \
  ASSERT_EQ((o).res.run.status, RunStatus::Ok) << (o).res.run.message << "\n" << (o).ck.assembly

// ---------------------------------------------------------------------------------------
// Kernels against C++ references

class OnEngines : public ::testing::TestWithParam<Eng> {};

TEST_P(OnEngines, VectorAdd) {
  const int n = 100;
  Launch l{"vector_add.cl", "", "128", "32", {"buf:a:128=rand:1", "buf:b:128=rand:2", "buf:c:128=const:-1", "i32:100"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto a = splitmix(1, 128), b = splitmix(2, 128), c = o.buf("c");
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(c[i], i < n ? static_cast<int32_t>(static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i])) : -1) << i;
  }
}

TEST_P(OnEngines, ReductionWithLocalMemoryAndBarriers) {
  Launch l{"reduce_local.cl", "", "256", "64", {"buf:in:256=rand:7", "buf:partial:4", "buf:total:1", "local:256"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto raw = splitmix(7, 256);
  uint32_t total = 0;
  const auto partial = o.buf("partial");
  for (int g = 0; g < 4; ++g) {
    uint32_t s = 0;
    for (int i = 0; i < 64; ++i) s += static_cast<uint32_t>(raw[g * 64 + i]);
    EXPECT_EQ(static_cast<uint32_t>(partial[g]), s) << "group " << g;
    total += s;
  }
  EXPECT_EQ(static_cast<uint32_t>(o.buf("total")[0]), total);
}

TEST_P(OnEngines, SpinLockFinishesInDequeMode) {
  Launch l{"spin_lock.cl", "", "128", "64", {"buf:lock:1", "buf:counter:1"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  EXPECT_EQ(o.buf("counter")[0], 128);
  EXPECT_EQ(o.buf("lock")[0], 0);
  EXPECT_GE(o.ck.stats.yields, 1);
}

INSTANTIATE_TEST_SUITE_P(Compiler, OnEngines, ::testing::Values(Eng::Model, Eng::Rtl, Eng::Cosim),
                         [](const auto& info) { return std::string(engName(info.param)); });

TEST(Compiler, SpinLockTimesOutInStackMode) {
  Launch l{"spin_lock.cl", "", "64", "64", {"buf:lock:1", "buf:counter:1"}};
  l.div = simt::model::DivergenceMode::Stack;
  l.maxCycles = 50'000;
  const Outcome o = run(l);
  EXPECT_EQ(o.res.run.status, RunStatus::Timeout);
}

TEST(Compiler, HistogramWithLocalAndGlobalAtomics) {
  Launch l{"histogram.cl", "", "96", "32", {"buf:data:500:u32=rand:3", "buf:hist:16", "i32:500"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto data = splitmix(3, 500);
  std::vector<int32_t> ref(16, 0);
  for (auto d : data) ref[static_cast<uint32_t>(d) % 16]++;
  EXPECT_EQ(o.buf("hist"), ref);
}

TEST(Compiler, DivergentIfElseAndEarlyReturn) {
  Launch l{"divergent_if.cl", "", "96", "32", {"buf:in:96=rand:11", "buf:out:96"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  auto in = splitmix(11, 96);
  const auto out = o.buf("out");
  for (int i = 0; i < 96; ++i) {
    const int32_t x = in[i];
    int32_t r;
    if (x % 3 == 0) {
      r = (x & 1) ? static_cast<int32_t>(static_cast<uint32_t>(x) * 5u) : static_cast<int32_t>(static_cast<uint32_t>(x) - 7u);
    } else if (x % 3 == 1) {
      r = static_cast<int32_t>(0u - static_cast<uint32_t>(x));
    } else {
      if (x > 50) {
        EXPECT_EQ(out[i], 1000) << i;
        continue;
      }
      r = static_cast<int32_t>(static_cast<uint32_t>(x) << 2);
    }
    EXPECT_EQ(out[i], static_cast<int32_t>(static_cast<uint32_t>(r) + 1u)) << i << " x=" << x;
  }
}

TEST(Compiler, LoopsWithBreakAndContinue) {
  Launch l{"loops.cl", "", "64", "32", {"buf:out:64", "buf:iters:64"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  for (int t = 0; t < 64; ++t) {
    int sum = 0, n = 0;
    for (int i = 0; i < t; ++i) {
      ++n;
      if (i % 3 == 0) continue;
      sum += i;
      if (sum > 40) break;
    }
    if (t & 1) sum *= 2;
    EXPECT_EQ(o.buf("out")[t], sum) << t;
    EXPECT_EQ(o.buf("iters")[t], n) << t;
  }
  // The same numbers as the hand-written sim/kernels/loops.s for the first warp.
  EXPECT_EQ(o.buf("out")[9], 54);
  EXPECT_EQ(o.buf("iters")[20], 12);
}

TEST(Compiler, TwoDimensionalRange) {
  const int w = 12, h = 6;
  Launch l{"range2d.cl", "", "12,6", "4,3", {"buf:in:72=iota", "buf:out:72", "buf:ids:576"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto out = o.buf("out"), ids = o.buf("ids");
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      EXPECT_EQ(out[x * h + y], y * w + x);
      const int k = 8 * (y * w + x);
      EXPECT_EQ(ids[k + 0], x % 4);
      EXPECT_EQ(ids[k + 1], y % 3);
      EXPECT_EQ(ids[k + 2], x / 4);
      EXPECT_EQ(ids[k + 3], y / 3);
      EXPECT_EQ(ids[k + 4], 4);
      EXPECT_EQ(ids[k + 5], 3);
      EXPECT_EQ(ids[k + 6], 302);
      EXPECT_EQ(ids[k + 7], 2);
    }
  }
}

int collatz(int x) {
  int s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++s;
  }
  return s;
}

TEST(Compiler, CallsToHelperFunctions) {
  Launch l{"call.cl", "", "64", "", {"buf:out:64"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(o.buf("out")[i], (i & 2) ? 2 * collatz(i + 1) : collatz(i + 7)) << i;
}

int count(const std::string& hay, const std::string& needle);

uint32_t subG(uint32_t x) {
  uint32_t acc = 0;
  for (uint32_t k = 0; k < (x & 7); ++k) acc += k * x;
  return acc;
}

TEST(Compiler, SubroutinesWithCalRet) {
  Launch l{"subroutines.cl", "", "64", "32", {"buf:in:64=rand:61", "buf:out:64"}};
  l.subroutines = true;
  for (Eng e : {Eng::Model, Eng::Cosim}) {
    l.engine = e;
    const Outcome o = run(l);
    EXPECT_OK(o);
    // f, g and put from the kernel (LLVM sinks the two put calls into one), g from f.
    EXPECT_GE(count(o.ck.assembly, " cal F_"), 4) << o.ck.assembly;
    for (const char* fn : {"F_f:", "F_g:", "F_put:"}) EXPECT_NE(o.ck.assembly.find(fn), std::string::npos) << fn;
    EXPECT_NE(o.ck.assembly.find("ret"), std::string::npos);
    const auto in = splitmix(61, 64);
    for (int i = 0; i < 64; ++i) {
      const uint32_t x = static_cast<uint32_t>(in[i]);
      uint32_t want;
      if (x & 1) {
        uint32_t t[4];
        for (uint32_t k = 0; k < 4; ++k) t[k] = subG(x + k) ^ static_cast<uint32_t>(i);
        want = t[x & 3] + t[(static_cast<uint32_t>(i) >> 1) & 3];
      } else {
        want = subG(x) - 1;
      }
      EXPECT_EQ(static_cast<uint32_t>(o.buf("out")[i]), want) << i << " on " << engName(e);
    }
  }
  // Inlined (the default), the same results.
  l.subroutines = false;
  l.engine = Eng::Model;
  const Outcome inl = run(l);
  EXPECT_OK(inl);
  EXPECT_EQ(inl.ck.assembly.find(" cal "), std::string::npos);
}

TEST(Compiler, CallsAsSubroutinesAgreeWithInlining) {
  Launch l{"call.cl", "", "64", "", {"buf:out:64"}};
  const Outcome inl = run(l);
  l.subroutines = true;
  const Outcome sub = run(l);
  EXPECT_OK(sub);
  EXPECT_NE(sub.ck.assembly.find("cal F_collatz_steps"), std::string::npos);
  EXPECT_EQ(sub.buf("out"), inl.buf("out"));
}

TEST(Compiler, SwitchWithFallThrough) {
  Launch l{"switch.cl", "", "64", "32", {"buf:in:64=rand:5", "buf:out:64=const:77"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = splitmix(5, 64);
  for (int i = 0; i < 64; ++i) {
    const int32_t v = in[i];
    int32_t r = 0;
    switch (v & 7) {
      case 0: r = 10; break;
      case 1: r = 25; break;
      case 2: r = 5; break;
      case 5: r = static_cast<int32_t>(static_cast<uint32_t>(v) * static_cast<uint32_t>(v)); break;
      case 6: r = 77; break;
      default: r = -1;
    }
    EXPECT_EQ(o.buf("out")[i], r) << i;
  }
}

TEST(Compiler, SignedAndUnsignedDivision) {
  Launch l{"divmod.cl", "", "64", "32",
           {"buf:a:64=rand:21", "buf:b:64=list:" + [] {
              std::string s;
              const int32_t d[8] = {1, -1, 3, -7, 1000, 65536, -2147483647, 13};
              for (int i = 0; i < 64; ++i) s += (i ? "," : "") + std::to_string(d[i % 8] + (i / 8));
              return s;
            }(),
            "buf:q:64", "buf:r:64", "buf:uq:64:u32", "buf:ur:64:u32"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto a = splitmix(21, 64);
  const int32_t d[8] = {1, -1, 3, -7, 1000, 65536, -2147483647, 13};
  for (int i = 0; i < 64; ++i) {
    const int32_t x = a[i], y = d[i % 8] + (i / 8);
    if (y == 0) continue;
    EXPECT_EQ(o.buf("q")[i], x / y) << x << "/" << y;
    EXPECT_EQ(o.buf("r")[i], x % y) << x << "%" << y;
    EXPECT_EQ(static_cast<uint32_t>(o.buf("uq")[i]), static_cast<uint32_t>(x) / static_cast<uint32_t>(y));
    EXPECT_EQ(static_cast<uint32_t>(o.buf("ur")[i]), static_cast<uint32_t>(x) % static_cast<uint32_t>(y));
  }
}

TEST(Compiler, DivisionByConstantsAndMulHi) {
  Launch l{"divconst.cl", "", "64", "32",
           {"buf:in:64=list:" + [] {
              std::string s;
              const int64_t edge[] = {0, 1, -1, 2147483647, -2147483648LL, 3, -3, 1000, -1000, 65536, -65537, 4294967295LL};
              auto r = splitmix(41, 64);
              for (int i = 0; i < 64; ++i) s += (i ? "," : "") + std::to_string(i < 12 ? static_cast<int32_t>(edge[i]) : r[i]);
              return s;
            }(),
            "buf:sq:896", "buf:sr:832", "buf:uq:896:u32", "buf:ur:832:u32"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = o.buf("in");
  const int32_t sd[] = {3, 7, -3, 10, -10, 641, 1000, 65537, -2147483647, 12, 25, 2147483647, 8};
  const uint32_t ud[] = {3u, 7u, 10u, 641u, 1000u, 65537u, 12u, 25u, 2147483649u, 4294967295u, 6u, 14u, 0x7fffffffu};
  const auto sq = o.buf("sq"), sr = o.buf("sr"), uq = o.buf("uq"), ur = o.buf("ur");
  for (int i = 0; i < 64; ++i) {
    const int32_t x = in[i];
    for (int k = 0; k < 13; ++k) {
      EXPECT_EQ(sq[k * 64 + i], x / sd[k]) << x << " / " << sd[k];
      EXPECT_EQ(sr[k * 64 + i], x % sd[k]) << x << " % " << sd[k];
      EXPECT_EQ(static_cast<uint32_t>(uq[k * 64 + i]), static_cast<uint32_t>(x) / ud[k]) << x << " /u " << ud[k];
      EXPECT_EQ(static_cast<uint32_t>(ur[k * 64 + i]), static_cast<uint32_t>(x) % ud[k]) << x << " %u " << ud[k];
    }
    const int64_t ps = static_cast<int64_t>(x) * in[63 - i];
    EXPECT_EQ(sq[13 * 64 + i], static_cast<int32_t>(ps >> 32)) << "mul_hi " << x << " " << in[63 - i];
    const uint64_t pu = static_cast<uint64_t>(static_cast<uint32_t>(x)) * static_cast<uint32_t>(in[63 - i]);
    EXPECT_EQ(static_cast<uint32_t>(uq[13 * 64 + i]), static_cast<uint32_t>(pu >> 32));
  }
}

// Division and remainder of loop counters by constants: the loops whose counters never wrap
// keep them as recurrences (iv_divrem.h), the others the magic-number sequence; all agree
// with C++.
std::vector<uint32_t> ivDivRemRef(const std::vector<int32_t>& start, uint32_t n, int items) {
  std::vector<uint32_t> out(7 * items);
  for (int t = 0; t < items; ++t) {
    const int s = start[t];
    uint32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0;
    for (int i = 0; i < t + 3; ++i) a += static_cast<uint32_t>(i % 7) * 3u + static_cast<uint32_t>(i / 7);
    for (int i = 1; i < t + 50; i += 5) a = a * 3u + static_cast<uint32_t>(i % 3) * 5u + static_cast<uint32_t>(i / 3);
    for (uint32_t i = t; i < 200u; i += 5) b = b * 31u + i % 3u + (i / 3u) * 7u;
    for (uint32_t i = t; i < n; i += 5) g = g * 31u + i % 3u + (i / 3u) * 7u;
    for (int i = s; i < s + 40; i += 3) c += static_cast<uint32_t>(i % 10) ^ static_cast<uint32_t>(i / 10);
    for (uint32_t i = 4294967000u + t; i > 1000u; i += 97u) d += i % 1000u;
    for (int j = 0; j < 4; ++j) {
      for (int i = j * 11; i < j * 11 + t + 20; i += 2) {
        e += static_cast<uint32_t>(i % 6) + static_cast<uint32_t>((i + 1) % 9) * 16u + static_cast<uint32_t>(i / 25) * 256u;
      }
    }
    for (int i = 0; i < t; ++i) f += static_cast<uint32_t>(i % 16) + static_cast<uint32_t>(i / 8);
    const uint32_t v[] = {a, b, c, d, e, f, g};
    for (int k = 0; k < 7; ++k) out[t * 7 + k] = v[k];
  }
  return out;
}

TEST(Compiler, DivisionOfLoopCountersByConstants) {
  Launch l{"iv_divrem.cl", "", "64", "32", {"buf:start:64=rand:61", "buf:out:448:u32", "u32:300"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto ref = ivDivRemRef(o.buf("start"), 300u, 64);
  const auto out = o.buf("out");
  ASSERT_EQ(out.size(), ref.size());
  for (size_t k = 0; k < ref.size(); ++k) {
    EXPECT_EQ(static_cast<uint32_t>(out[k]), ref[k]) << "work-item " << k / 7 << " value " << k % 7;
  }
}

TEST(Compiler, StructMembersCopiesAndFills) {
  Launch l{"structs.cl", "", "8", "8", {"buf:items:16=rand:51", "buf:sums:8", "buf:dst:48", "buf:src:48=rand:52"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto items = splitmix(51, 16), src = splitmix(52, 48);
  const auto after = o.buf("items"), sums = o.buf("sums"), dst = o.buf("dst");
  for (int i = 0; i < 8; ++i) {
    const uint32_t w1 = static_cast<uint32_t>(items[2 * i + 1]);
    const int32_t y = static_cast<int16_t>(w1 & 0xffff);
    const int32_t z = static_cast<int8_t>((w1 >> 16) & 0xff);
    EXPECT_EQ(static_cast<uint32_t>(sums[i]), static_cast<uint32_t>(items[2 * i]) + static_cast<uint32_t>(y + z)) << i;
    EXPECT_EQ(static_cast<uint32_t>(after[2 * i + 1]), (w1 & 0xff00ffffu) | (static_cast<uint32_t>(i + 100) << 16)) << i;
    for (int j = 0; j < 6; ++j) {
      const int32_t want = (i & 1) ? (j == i % 6 ? src[6 * i + (i + 1) % 6] : 0) : src[6 * i + j];
      EXPECT_EQ(dst[6 * i + j], want) << i << "," << j;
    }
  }
}

TEST(Compiler, StructurizedSwitchAgrees) {
  // The lowered switch's tree leaves branches without a token; StructurizeCFG gives every
  // one of them a token (more code, same results).
  Launch l{"switch.cl", "", "64", "32", {"buf:in:64=rand:5", "buf:out:64=const:77"}};
  const Outcome plain = run(l);
  cc::CompileOptions opt;
  opt.structurize = true;
  const auto ck = cc::compileFile(kernelPath("switch.cl"), opt);
  EXPECT_TRUE(ck.structurized);
  EXPECT_GT(plain.ck.stats.unnestedBranches, 0);
  EXPECT_EQ(ck.stats.unnestedBranches, 0);
  std::vector<rt::Buffer> bufs;
  std::vector<rt::KernelArg> args;
  for (const auto& a : l.args) args.push_back(rt::parseArg(a, bufs));
  const auto r = rt::launch(ck, rt::parseRange("64", "32", 256), args, bufs, {}, rt::modelEngine());
  ASSERT_EQ(r.run.status, RunStatus::Ok);
  EXPECT_EQ(r.buffers[1].words, plain.res.buffers[1].words);
}

std::vector<int32_t> pressureRef(const std::vector<int32_t>& in) {
  std::vector<int32_t> out(64);
  for (int i = 0; i < 64; ++i) {
    uint32_t v[40];
    for (int k = 0; k < 40; ++k) v[k] = static_cast<uint32_t>(in[(i * 7 + k * 13) & 63]);
    uint32_t s = 0;
    for (int k = 0; k < 40; ++k) s = s * 3 + (v[k] ^ v[39 - k]);
    out[i] = static_cast<int32_t>(s);
  }
  return out;
}

TEST(Compiler, HighRegisterPressureSpills) {
  Launch l{"pressure.cl", "", "64", "32", {"buf:in:64=rand:9", "buf:out:64"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  EXPECT_GT(o.ck.stats.spilledRegisters, 0);
  EXPECT_GT(o.ck.frameBytes, 0u);
  EXPECT_EQ(o.buf("out"), pressureRef(splitmix(9, 64)));
}

TEST(Compiler, HighRegisterPressureOnTheCore) {
  Launch l{"pressure.cl", "", "64", "32", {"buf:in:64=rand:9", "buf:out:64"}};
  l.engine = Eng::Cosim;
  const Outcome o = run(l);
  EXPECT_OK(o);
  EXPECT_EQ(o.buf("out"), pressureRef(splitmix(9, 64)));
}

// Every kernel still runs with only 8 allocatable registers (heavy spilling).
TEST(Compiler, FewRegistersStillCorrect) {
  Launch l{"loops.cl", "", "64", "32", {"buf:out:64", "buf:iters:64"}};
  const Outcome full = run(l);
  l.maxRegisters = 8;
  const Outcome few = run(l);
  EXPECT_OK(few);
  EXPECT_GT(few.ck.stats.spilledRegisters, 0);
  EXPECT_EQ(few.buf("out"), full.buf("out"));
  EXPECT_EQ(few.buf("iters"), full.buf("iters"));
  Launch d{"divergent_if.cl", "", "96", "32", {"buf:in:96=rand:11", "buf:out:96"}};
  const Outcome dfull = run(d);
  d.maxRegisters = 6;
  const Outcome dfew = run(d);
  EXPECT_OK(dfew);
  EXPECT_EQ(dfew.buf("out"), dfull.buf("out"));
}

TEST(Compiler, PrivateArrayInTheFrame) {
  Launch l{"private_array.cl", "", "64", "32", {"buf:in:64=rand:4", "buf:out:64"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = splitmix(4, 64);
  for (int i = 0; i < 64; ++i) {
    uint32_t buf[8];
    for (int k = 0; k < 8; ++k) buf[k] = static_cast<uint32_t>(in[i]) + static_cast<uint32_t>(k);
    const int idx = in[i] & 7;
    buf[idx] *= 3;
    uint32_t s = 0;
    for (int k = 0; k <= idx; ++k) s += buf[k];
    EXPECT_EQ(static_cast<uint32_t>(o.buf("out")[i]), s) << i;
  }
}

// Issue 20 (Rodinia's dwt2d): a fill or copy of more than 256 bytes was refused; it is a
// word loop now, in private, local and global memory.
TEST(Compiler, LargeFillsAndCopiesBecomeWordLoops) {
  for (Eng e : {Eng::Model, Eng::Cosim}) {
    Launch l{"big_fill.cl", "", "128", "64",
             {"buf:in:128=rand:71", "buf:out:128", "buf:copied:128"}};
    l.engine = e;
    const Outcome o = run(l);
    EXPECT_OK(o);
    const auto in = splitmix(71, 128);
    for (int i = 0; i < 128; ++i) {
      int32_t hist[80] = {};
      for (int k = 0; k < 8; ++k) hist[(in[i] >> (4 * k)) & 63] += k + 1;
      int32_t sum = 0;
      for (int k = 0; k < 80; ++k) sum += hist[k] * (k + 1);
      EXPECT_EQ(o.buf("out")[i], sum) << engName(e) << " " << i;
      EXPECT_EQ(o.buf("copied")[i], in[(i * 7) % 96]) << engName(e) << " " << i;
    }
  }
}

TEST(Compiler, BytesAndShortsOfNeighbouringWorkItems) {
  Launch l{"bytes.cl", "", "64", "32", {"buf:in:16=rand:8", "buf:out:16", "buf:wide:32"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = splitmix(8, 16);
  const auto out = o.buf("out"), wide = o.buf("wide");
  for (int i = 0; i < 64; ++i) {
    const int8_t c = static_cast<int8_t>(static_cast<uint32_t>(in[i / 4]) >> (8 * (i % 4)));
    const uint8_t want = static_cast<uint8_t>(c + 3);
    EXPECT_EQ(static_cast<uint8_t>(static_cast<uint32_t>(out[i / 4]) >> (8 * (i % 4))), want) << i;
    const uint16_t w = static_cast<uint16_t>(static_cast<int16_t>(c * -100));
    EXPECT_EQ(static_cast<uint16_t>(static_cast<uint32_t>(wide[i / 2]) >> (16 * (i % 2))), w) << i;
  }
}

TEST(Compiler, ConstantTableAndIntegerBuiltins) {
  Launch l{"constant_table.cl", "", "64", "32", {"buf:in:64=rand:12", "buf:out:512"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = splitmix(12, 64);
  const auto out = o.buf("out");
  const int sq[8] = {0, 1, 4, 9, 16, 25, 36, 49};
  for (int i = 0; i < 64; ++i) {
    const int32_t x = in[i];
    const uint32_t ux = static_cast<uint32_t>(x);
    const int k = 8 * i;
    EXPECT_EQ(out[k + 0], sq[x & 7]);
    EXPECT_EQ(out[k + 1], std::min(std::max(x, -5), 20));
    EXPECT_EQ(static_cast<uint32_t>(out[k + 2]), x < 0 ? 0u - ux : ux);
    EXPECT_EQ(out[k + 3], __builtin_popcount(ux));
    EXPECT_EQ(out[k + 4], ux ? __builtin_clz(ux) : 32);
    const uint32_t n = static_cast<uint32_t>(i) & 31;
    EXPECT_EQ(static_cast<uint32_t>(out[k + 5]), n ? (ux << n) | (ux >> (32 - n)) : ux);
    const int64_t sat = static_cast<int64_t>(x) + 0x7ffffff0;
    EXPECT_EQ(out[k + 6], static_cast<int32_t>(std::min<int64_t>(sat, INT32_MAX)));
    const uint32_t m = static_cast<uint32_t>((x & 0xfff) * 3 + i) + static_cast<uint32_t>(std::max(x, i)) + std::min(ux, 7u);
    EXPECT_EQ(static_cast<uint32_t>(out[k + 7]), m) << i;
  }
}

TEST(Compiler, MatrixProductOnATwoDimensionalRange) {
  const int n = 8;
  Launch l{"matmul.cl", "", "8,8", "8,4", {"buf:A:64=rand:31", "buf:B:64=rand:32", "buf:C:64", "i32:8"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto A = splitmix(31, 64), B = splitmix(32, 64);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      uint32_t acc = 0;
      for (int k = 0; k < n; ++k) acc += static_cast<uint32_t>(A[r * n + k]) * static_cast<uint32_t>(B[k * n + c]);
      EXPECT_EQ(static_cast<uint32_t>(o.buf("C")[r * n + c]), acc) << r << "," << c;
    }
  }
}

TEST(Compiler, InclusiveScanInLocalMemory) {
  Launch l{"scan.cl", "", "128", "64", {"buf:in:128=rand:33", "buf:out:128", "local:256"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = splitmix(33, 128);
  uint32_t s = 0;
  for (int i = 0; i < 128; ++i) {
    if (i % 64 == 0) s = 0;
    s += static_cast<uint32_t>(in[i]);
    EXPECT_EQ(static_cast<uint32_t>(o.buf("out")[i]), s) << i;
  }
}

TEST(Compiler, BitonicSortOfEachGroup) {
  Launch l{"bitonic_sort.cl", "", "128", "64", {"buf:data:128=rand:34", "local:256"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  auto want = splitmix(34, 128);
  std::sort(want.begin(), want.begin() + 64);
  std::sort(want.begin() + 64, want.end());
  EXPECT_EQ(o.buf("data"), want);
}

TEST(Compiler, StencilWithBorders) {
  const int n = 100;
  Launch l{"stencil.cl", "", "128", "32", {"buf:in:128=rand:35", "buf:out:128=const:7", "i32:100"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = splitmix(35, 128);
  for (int i = 0; i < 128; ++i) {
    if (i >= n) {
      EXPECT_EQ(o.buf("out")[i], 7);
      continue;
    }
    const uint32_t left = static_cast<uint32_t>(in[i > 0 ? i - 1 : i]);
    const uint32_t right = static_cast<uint32_t>(in[i + 1 < n ? i + 1 : i]);
    EXPECT_EQ(static_cast<uint32_t>(o.buf("out")[i]), left - 2u * static_cast<uint32_t>(in[i]) + right) << i;
  }
}

TEST(Compiler, EveryAtomicOnGlobalAndLocal) {
  Launch l{"atomics.cl", "", "32", "32",
           {"buf:g:28=list:0,0,0,0,0,100,-100,-1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "buf:old:32",
            "buf:u:4:u32=list:0xffffffff,7,0,0"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  // One warp: lanes act in ascending order (ISA.md), so the exchange and CAS chains are known.
  const std::vector<int32_t> g = {496, -496, 31, 32, -32, 19, 73, 0, -1, 0, 32, 0, 0, 0, 0, 0,
                                  496, -496, 0, 32, -32, 0, -40, 100, -1, 255, 0, 32};
  EXPECT_EQ(o.buf("g"), g);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(o.buf("old")[t], t == 0 ? 0 : t - 1);
  const auto u = o.buf("u");
  EXPECT_EQ(static_cast<uint32_t>(u[0]), 0x80000000u);             // min over 0x80000000 + 7t
  EXPECT_EQ(static_cast<uint32_t>(u[1]), 31u * 0x08000000u);       // max (above INT_MAX)
  EXPECT_EQ(static_cast<uint32_t>(u[2]), 0xf0000000u - 31u);       // local min
  EXPECT_EQ(static_cast<uint32_t>(u[3]), 31u * 0x08000000u);       // local max
}

TEST(Compiler, ThreeDimensionalRange) {
  Launch l{"range3d.cl", "", "4,3,2", "2,3,1", {"buf:ids:144"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto ids = o.buf("ids");
  for (int z = 0; z < 2; ++z) {
    for (int y = 0; y < 3; ++y) {
      for (int x = 0; x < 4; ++x) {
        const int k = 6 * ((z * 3 + y) * 4 + x);
        EXPECT_EQ(ids[k + 0], x);
        EXPECT_EQ(ids[k + 1], y);
        EXPECT_EQ(ids[k + 2], z);
        EXPECT_EQ(ids[k + 3], x % 2 + 10 * y);
        EXPECT_EQ(ids[k + 4], x / 2 + 100 * z);
        EXPECT_EQ(ids[k + 5], 100 + 20 + 3);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// The work-item id prologue of 2-D and 3-D ranges (docs/compiler.md, "Launch ABI"): every id
// function against the host's decomposition of the range, for sizes that are not powers of
// two, sizes 1, the largest work-group of the core and many groups.

struct IdRange {
  const char* global;
  const char* local;
  const char* offset = "";  // --global-offset
};

void expectWorkItems(const IdRange& ir, Eng e) {
  SCOPED_TRACE(std::string("--global ") + ir.global + " --local " + ir.local + " --global-offset '" + ir.offset +
               "' on " + engName(e));
  const rt::NDRange r = rt::parseRange(ir.global, ir.local, rt::DeviceLimits{}.maxThreadsPerGroup, ir.offset);
  const uint32_t n = r.global[0] * r.global[1] * r.global[2];
  Launch l{"work_items.cl", "", ir.global, ir.local,
           {"buf:ids:" + std::to_string(9 * n) + "=const:-1", "buf:sizes:13"}};
  l.offset = ir.offset;
  l.engine = e;
  const Outcome o = run(l);
  EXPECT_OK(o);
  EXPECT_EQ(o.ck.hiddenWords, cc::hidden::kWordsWithIds);
  const auto ids = o.buf("ids");
  ASSERT_EQ(ids.size(), size_t{9} * n);
  int wrong = 0;
  for (uint32_t i = 0; i < n && wrong < 5; ++i) {
    const uint32_t g[3] = {i % r.global[0], i / r.global[0] % r.global[1], i / r.global[0] / r.global[1]};
    for (int d = 0; d < 3; ++d) {
      // The offset moves the global ids only (OpenCL 1.2: local and group ids count from 0).
      const int32_t want[3] = {static_cast<int32_t>(g[d] % r.local[d]), static_cast<int32_t>(g[d] / r.local[d]),
                               static_cast<int32_t>(g[d] + r.offset[d])};
      for (int f = 0; f < 3; ++f) {
        const int32_t got = ids[9 * i + 3 * f + d];
        if (got == want[f]) continue;
        ++wrong;
        ADD_FAILURE() << (f == 0 ? "get_local_id(" : f == 1 ? "get_group_id(" : "get_global_id(") << d
                      << ") of work-item (" << g[0] << ", " << g[1] << ", " << g[2] << "): " << got << ", not "
                      << want[f];
      }
    }
  }
  std::vector<int32_t> sizes = {r.dims};
  for (const auto* v : {&r.global, &r.local}) {
    for (int d = 0; d < 3; ++d) sizes.push_back(static_cast<int32_t>((*v)[d]));
  }
  for (int d = 0; d < 3; ++d) sizes.push_back(static_cast<int32_t>(r.global[d] / r.local[d]));
  for (int d = 0; d < 3; ++d) sizes.push_back(static_cast<int32_t>(r.offset[d]));
  EXPECT_EQ(o.buf("sizes"), sizes);
}

const IdRange kIdRanges[] = {
    {"9,10,7", "3,5,7"},    // odd sizes: 105 work-items in 3 x 2 x 1 groups
    {"1,6", "1,3"},         // size 1 in x
    {"5,1,3", "1,1,3"},     // sizes 1 in x and y of the group, in y of the range
    {"3,5", "3,5"},         // one group: the group ids are 0
    {"16,32", "16,16"},     // the largest work-group of the core (256)
    {"45,34", "15,17"},     // 255 work-items, sizes neither even nor powers of two
    {"14,9,10", "2,3,1"},   // 3-D, 7 x 3 x 10 groups
    {"7,11,13", "1,1,1"},   // 1,001 groups of one work-item
    // Global offsets (--global-offset): the global ids start there; sizes, local and group
    // ids do not move. 1-D with an offset is not the linear fast path.
    {"64", "32", "1000"},
    {"9,10,7", "3,5,7", "5,0,11"},
    {"14,9", "2,3", "4294967200,65536"},  // the last global id x is 2^32 - 83
};

class WorkItemIds : public ::testing::TestWithParam<Eng> {};

TEST_P(WorkItemIds, EveryIdFunctionMatchesTheHostForOddAndOneSizes) {
  for (const IdRange& ir : kIdRanges) expectWorkItems(ir, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Compiler, WorkItemIds, ::testing::Values(Eng::Model, Eng::Rtl),
                         [](const auto& info) { return std::string(engName(info.param)); });

// Many groups: 10,500 (7 x 30 x 50) of 6 work-items, the group id divided by 7 (model only:
// the dividends of the core's smaller launches are the same kind of number).
TEST(WorkItemIdsModel, ManyGroupsIn3D) { expectWorkItems({"21,60,50", "3,2,1"}, Eng::Model); }

TEST(WorkItemIdsModel, TheReciprocalsAreExactForEveryDividendOfTheBound) {
  // Every divisor and dividend bound up to 1,100 (the work-group sizes), every dividend.
  for (uint32_t d = 1; d <= 1100; ++d) {
    for (uint32_t nmax : {d - 1, d, 2 * d + 1, 255u, 1023u, 1100u}) {
      const auto m = cc::hidden::idDivision(d, nmax);
      ASSERT_TRUE(m) << d << " " << nmax;
      ASSERT_LT(m->shift, 32u);
      for (uint32_t n = 0; n <= nmax; ++n) {
        ASSERT_LT(uint64_t{n} * m->multiplier, uint64_t{1} << 32) << d << " " << n;
        ASSERT_EQ((n * m->multiplier) >> m->shift, n / d) << d << " " << n;
      }
    }
  }
  // The bound the runtime relies on: below 2^15, a pair exists for every divisor (exact for
  // every dividend: checked for a sample of divisors).
  for (uint32_t d = 1; d <= 32768; ++d) {
    const auto m = cc::hidden::idDivision(d, 32767);
    ASSERT_TRUE(m) << d;
    if (d % 997 != 1 && d != 3 && d != 7 && d != 32767) continue;
    for (uint32_t n = 0; n <= 32767; ++n) ASSERT_EQ((n * m->multiplier) >> m->shift, n / d) << d << " " << n;
  }
  EXPECT_FALSE(cc::hidden::idDivision(7, 65535));  // beyond it some divisors have none
  EXPECT_FALSE(cc::hidden::idDivision(0, 1));
}

TEST(WorkItemIdsModel, ALaunchBeyondTheBoundIsRefused) {
  // 7 x 9,363 groups of one work-item: %ctaid / 7 for dividends up to 65,540 has no 32-bit
  // multiplier; the runtime says so instead of computing wrong ids.
  const auto ck = cc::compileFile(kernelPath("ids2d.cl"), {});
  std::vector<rt::Buffer> bufs;
  const std::vector<rt::KernelArg> args = {rt::parseArg("buf:out:65541", bufs)};
  try {
    rt::buildLaunch(ck, rt::parseRange("7,9363", "1,1", 256), args, bufs, {});
    ADD_FAILURE() << "no LaunchError";
  } catch (const rt::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot divide 65541 linear ids by 7"), std::string::npos) << e.what();
  }
  // Within the bound with powers of two (a shift), any number of groups is exact.
  EXPECT_NO_THROW(rt::buildLaunch(ck, rt::parseRange("8,8000", "1,1", 256), args, bufs, {}));
}

// The prologue is short: a 2-D kernel whose body is a few instructions runs about 40
// warp-instructions per warp (1,000 with the division loops it replaced), straight-line.
TEST(WorkItemIdsModel, ThePrologueOfA2DKernelIsShort) {
  Launch l{"ids2d.cl", "", "32,8", "16,4", {"buf:out:256"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto out = o.buf("out");
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 32; ++x) EXPECT_EQ(out[y * 32 + x], x % 16 + 16 * (y % 4) + 256 * (x / 16) + 4096 * (y / 4));
  }
  EXPECT_LE(o.ck.stats.instructions, 60) << o.ck.assembly;
  const uint64_t warps = 4 * 2;  // 2 x 2 groups of 64 work-items
  EXPECT_LE(o.res.run.instructions, 60 * warps) << o.res.run.instructions;
  EXPECT_EQ(o.ck.assembly.find("bra L"), o.ck.assembly.rfind("bra L")) << "one branch (the linear test), no loop\n"
                                                                         << o.ck.assembly;
}

class LockKernels : public ::testing::TestWithParam<Eng> {};

TEST_P(LockKernels, HashTableWithPerBucketLocks) {
  Launch l{"hash_table.cl", "", "128", "64", {"buf:locks:5", "buf:count:5", "buf:sum:5", "i32:5"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  std::vector<int32_t> count(5, 0), sum(5, 0);
  for (uint32_t g = 0; g < 128; ++g) {
    const int32_t key = static_cast<int32_t>(g * 2654435761u >> 7);
    count[key % 5] += 1;
    sum[key % 5] += key & 0xff;
  }
  EXPECT_EQ(o.buf("count"), count);
  EXPECT_EQ(o.buf("sum"), sum);
  EXPECT_EQ(o.buf("locks"), std::vector<int32_t>(5, 0));
}

TEST_P(LockKernels, OrderedCriticalSection) {
  Launch l{"ordered_append.cl", "", "64", "64", {"buf:log:64", "buf:count:1", "buf:seen:65"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  std::vector<int32_t> iota(64);
  for (int i = 0; i < 64; ++i) iota[i] = i;
  EXPECT_EQ(o.buf("log"), iota);
  EXPECT_EQ(o.buf("count")[0], 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(o.buf("seen")[i], 64) << i;
  EXPECT_NE(o.ck.assembly.find("bar.top.ocs 1"), std::string::npos);
}

TEST_P(LockKernels, FlagPollFinishesInDequeMode) {
  Launch l{"flag_poll.cl", "", "32", "32", {"buf:flag:1", "buf:data:1", "buf:out:32"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  for (int i = 0; i < 31; ++i) EXPECT_EQ(o.buf("out")[i], 500 + i);
  EXPECT_EQ(o.buf("out")[31], -1);
}

INSTANTIATE_TEST_SUITE_P(Compiler, LockKernels, ::testing::Values(Eng::Model, Eng::Cosim),
                         [](const auto& info) { return std::string(engName(info.param)); });

TEST(Compiler, FlagPollTimesOutInStackMode) {
  Launch l{"flag_poll.cl", "", "32", "32", {"buf:flag:1", "buf:data:1", "buf:out:32"}};
  l.div = simt::model::DivergenceMode::Stack;
  l.maxCycles = 20'000;
  EXPECT_EQ(run(l).res.run.status, RunStatus::Timeout);
}

TEST(Compiler, ExclusiveSectionsAcrossGroups) {
  Launch l{"exclusive.cl", "", "96", "32", {"buf:inside:1", "buf:maxInside:1", "buf:order:96", "buf:n:1"}};
  for (Eng e : {Eng::Model, Eng::Cosim}) {
    l.engine = e;
    const Outcome o = run(l);
    EXPECT_OK(o);
    EXPECT_EQ(o.buf("maxInside")[0], 1) << engName(e);
    EXPECT_EQ(o.buf("n")[0], 96);
    // Within a group, ascending local id (ordered).
    std::vector<int> last(3, -1);
    for (int v : o.buf("order")) {
      EXPECT_GT(v % 32, last[static_cast<size_t>(v / 32)]) << v;
      last[static_cast<size_t>(v / 32)] = v % 32;
    }
    EXPECT_NE(o.ck.assembly.find("bar.top.ocs.ex 4"), std::string::npos);
    EXPECT_NE(o.ck.assembly.find("bar.bot.ocs.nb 4"), std::string::npos);
  }
  l.engine = Eng::Model;
  l.defines = {"SHARED"};
  const Outcome shared = run(l);
  EXPECT_OK(shared);
  EXPECT_GT(shared.buf("maxInside")[0], 1);  // without .ex the groups' sections overlap
}

TEST(Compiler, ConditionalBarrierWithCount) {
  Launch l{"barrier_count.cl", "", "64", "64", {"buf:buf:64", "buf:out:64"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(o.buf("out")[i], i < 40 ? (39 - i) * (39 - i) : -1) << i;
  EXPECT_NE(o.ck.assembly.find("bar.sync 2, 40"), std::string::npos);
}

TEST(Compiler, ImpatientBarrierAndUnorderedSection) {
  Launch l{"impatient.cl", "", "64", "64", {"buf:buf:64", "buf:out:64", "buf:sum:1"}};
  for (Eng e : {Eng::Model, Eng::Cosim}) {
    l.engine = e;
    const Outcome o = run(l);
    EXPECT_OK(o);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(o.buf("out")[i], 3 * ((i + 32) % 64) + 1) << i;
    EXPECT_EQ(o.buf("sum")[0], 2016);
    EXPECT_NE(o.ck.assembly.find("bar.sync.imp 3, 64, 64, 0"), std::string::npos);
    EXPECT_NE(o.ck.assembly.find("bar.top.ucs 4"), std::string::npos);
  }
}

// The lowering's analyses, seen in the code they produce.
std::string compileError(const std::string& path, const cc::CompileOptions& opt = {});

std::string assemblyOf(const std::string& name, const std::string& text) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream(path) << text;
  return cc::compileFile(path, {}).assembly;
}

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

TEST(Lowering, UniformLoopNeedsNoToken) {
  const auto s = assemblyOf("uniform.cl",
                            "__kernel void k(__global int* a, int n) {\n  int s = 0;\n"
                            "  for (int i = 0; i < n; ++i) s += a[i];\n  a[get_global_id(0)] = s;\n}\n");
  EXPECT_EQ(count(s, "ssy"), 0) << s;
  EXPECT_EQ(count(s, "divergent"), 0) << s;
  EXPECT_EQ(count(s, "yield"), 0) << s;
}

TEST(Lowering, DivergentLoopReconvergesAfterIt) {
  const auto s = assemblyOf("divloop.cl",
                            "__kernel void k(__global int* a) {\n  int s = 0;\n  int t = get_global_id(0);\n"
                            "  for (int i = 0; i < t; ++i) s += a[i];\n  a[t] = s;\n}\n");
  // The loop's guard (t > 0) and the loop: two tokens, the loop's pushed in its preheader,
  // none inside the loop (its body is the block that branches back to itself).
  EXPECT_EQ(count(s, "ssy"), 2) << s;
  EXPECT_GE(count(s, "sync "), 2) << s;
  const size_t body = s.find("L4:");
  ASSERT_NE(body, std::string::npos) << s;
  EXPECT_EQ(s.find("ssy", body), std::string::npos) << s;
  EXPECT_EQ(count(s, "yield"), 0) << s;  // no atomics or volatile: it does not spin
}

TEST(Lowering, SpinLoopYieldsOnItsBackEdgeOnly) {
  const auto s = assemblyOf("spin.cl",
                            "__kernel void k(__global int* l, __global int* c) {\n"
                            "  while (atomic_cmpxchg(l, 0, 1) != 0) {}\n  *c += 1;\n  atomic_xchg(l, 0);\n}\n");
  EXPECT_EQ(count(s, "yield"), 1) << s;
  const size_t y = s.find("yield");
  EXPECT_EQ(s.find("bra", y), s.find("bra L", y)) << s;  // the yield's block branches back
}

TEST(Lowering, BarrierAndBuiltinsNeedConstantIds) {
  const auto p = std::string(::testing::TempDir()) + "varid.cl";
  std::ofstream(p) << "__kernel void k(__global int* a) {\n  simt_barrier(a[0]);\n}\n";
  const std::string e = compileError(p);
  EXPECT_NE(e.find("varid.cl:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("must be a constant"), std::string::npos) << e;
}

// Every kernel launch above once more on the verilated core in lockstep with the model
// (cosim checks every retired instruction); the buffers must equal the model's, which the
// tests above check against their C++ references.
std::vector<Launch> allLaunches() {
  return {
    {"vector_add.cl", "", "128", "32", {"buf:a:128=rand:1", "buf:b:128=rand:2", "buf:c:128=const:-1", "i32:100"}},
    {"reduce_local.cl", "", "256", "64", {"buf:in:256=rand:7", "buf:partial:4", "buf:total:1", "local:256"}},
    {"spin_lock.cl", "", "128", "64", {"buf:lock:1", "buf:counter:1"}},
    {"spin_lock.cl", "", "64", "64", {"buf:lock:1", "buf:counter:1"}},
    {"histogram.cl", "", "96", "32", {"buf:data:500:u32=rand:3", "buf:hist:16", "i32:500"}},
    {"divergent_if.cl", "", "96", "32", {"buf:in:96=rand:11", "buf:out:96"}},
    {"loops.cl", "", "64", "32", {"buf:out:64", "buf:iters:64"}},
    {"iv_divrem.cl", "", "32", "32", {"buf:start:32=rand:61", "buf:out:224:u32", "u32:300"}},
    {"range2d.cl", "", "12,6", "4,3", {"buf:in:72=iota", "buf:out:72", "buf:ids:576"}},
    {"call.cl", "", "64", "", {"buf:out:64"}},
    {"switch.cl", "", "64", "32", {"buf:in:64=rand:5", "buf:out:64=const:77"}},
    {"structs.cl", "", "8", "8", {"buf:items:16=rand:51", "buf:sums:8", "buf:dst:48", "buf:src:48=rand:52"}},
    {"pressure.cl", "", "64", "32", {"buf:in:64=rand:9", "buf:out:64"}},
    {"private_array.cl", "", "64", "32", {"buf:in:64=rand:4", "buf:out:64"}},
    {"bytes.cl", "", "64", "32", {"buf:in:16=rand:8", "buf:out:16", "buf:wide:32"}},
    {"constant_table.cl", "", "64", "32", {"buf:in:64=rand:12", "buf:out:512"}},
    {"matmul.cl", "", "8,8", "8,4", {"buf:A:64=rand:31", "buf:B:64=rand:32", "buf:C:64", "i32:8"}},
    {"scan.cl", "", "128", "64", {"buf:in:128=rand:33", "buf:out:128", "local:256"}},
    {"bitonic_sort.cl", "", "128", "64", {"buf:data:128=rand:34", "local:256"}},
    {"stencil.cl", "", "128", "32", {"buf:in:128=rand:35", "buf:out:128=const:7", "i32:100"}},
    {"atomics.cl", "", "32", "32", {"buf:g:28=list:0,0,0,0,0,100,-100,-1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "buf:old:32", "buf:u:4:u32=list:0xffffffff,7,0,0"}},
    {"range3d.cl", "", "4,3,2", "2,3,1", {"buf:ids:144"}},
    {"work_items.cl", "", "9,10,7", "3,5,7", {"buf:ids:5670=const:-1", "buf:sizes:13"}},
    {"hash_table.cl", "", "128", "64", {"buf:locks:5", "buf:count:5", "buf:sum:5", "i32:5"}},
    {"ordered_append.cl", "", "64", "64", {"buf:log:64", "buf:count:1", "buf:seen:65"}},
    {"flag_poll.cl", "", "32", "32", {"buf:flag:1", "buf:data:1", "buf:out:32"}},
    {"barrier_count.cl", "", "64", "64", {"buf:buf:64", "buf:out:64"}},
    {"impatient.cl", "", "64", "64", {"buf:buf:64", "buf:out:64", "buf:sum:1"}},
    {"vector_add.cl", "", "32", "32", {"buf:a:64=iota", "buf:b:64=const:1000", "view:a:32", "i32:32"}}
  };
}

TEST(CompilerOnTheCore, EveryKernelRunsInCosimAsOnTheModel) {
  int ran = 0;
  for (Launch l : allLaunches()) {
    const Outcome model = run(l);
    ASSERT_EQ(model.res.run.status, RunStatus::Ok) << l.file;
    if (model.ck.stats.instructions > 1000) continue;  // the core's instruction memory holds 1,024
    l.engine = Eng::Cosim;
    const Outcome core = run(l);
    ASSERT_EQ(core.res.run.status, RunStatus::Ok) << l.file << ": " << core.res.run.message;
    for (size_t b = 0; b < model.res.buffers.size(); ++b) {
      EXPECT_EQ(core.res.buffers[b].words, model.res.buffers[b].words) << l.file << " buffer " << model.res.buffers[b].name;
    }
    ++ran;
  }
  EXPECT_GE(ran, 25);
}

// ---------------------------------------------------------------------------------------
// Errors: a message naming the file and line, never a crash.

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream(path) << text;
  return path;
}

std::string compileError(const std::string& path, const cc::CompileOptions& opt) {
  try {
    cc::compileFile(path, opt);
  } catch (const cc::CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(CompilerErrors, ClangDiagnosticsPassThroughWithLineAndColumn) {
  const auto p = writeTemp("syntax.cl", "__kernel void k(__global int* a) {\n  a[0] = 1\n}\n");
  const std::string e = compileError(p);
  EXPECT_NE(e.find("syntax.cl:2:11: error:"), std::string::npos) << e;
}

TEST(CompilerErrors, UnsupportedFloatBuiltinIsRefusedNamingItAndTheLine) {
  // FP32 compiles (test_float.cpp); libclc's native_sin is LLVM's sin intrinsic, which the
  // lowering does not have (sin itself compiles: test_long.cpp).
  const auto p = writeTemp("float.cl",
                           "__kernel void k(__global float* a) {\n  int i = get_global_id(0);\n  a[i] = native_sin(a[i]) * 2.5f;\n}\n");
  const std::string e = compileError(p);
  EXPECT_NE(e.find("float.cl:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("the LLVM intrinsic 'llvm.sin.f32' is not supported"), std::string::npos) << e;
}

TEST(CompilerErrors, LongSubroutineArgumentIsRefusedNamingTheLine) {
  // long compiles (test_long.cpp), division and float conversions too; a long argument of a
  // subroutine (--subroutines) does not.
  const auto p = writeTemp("long.cl",
                           "__attribute__((noinline)) long f(long x) { return x * 3; }\n"
                           "__kernel void k(__global long* a) {\n  a[get_global_id(0)] = f(a[0]);\n}\n");
  cc::CompileOptions opt;
  opt.subroutines = true;
  const std::string e = compileError(p, opt);
  EXPECT_NE(e.find("long.cl:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("an argument on 64-bit integers (long, ulong) is not supported"), std::string::npos) << e;
}

TEST(CompilerErrors, DoubleIsAClangErrorNamingTheLine) {
  // The device has no cl_khr_fp64 (unsuffixed literals are floats: test_float.cpp).
  const auto p = writeTemp("dbl.cl", "__kernel void k(__global float* a) {\n  double x = a[0];\n"
                                     "  a[0] = x * 3;\n}\n");
  const std::string e = compileError(p);
  EXPECT_NE(e.find("dbl.cl:2:3: error: use of type 'double' requires cl_khr_fp64"),
            std::string::npos) << e;
}

TEST(CompilerErrors, PrintfVectorsAndImagesAreRefused) {
  EXPECT_NE(compileError(writeTemp("p.cl", "__kernel void k(__global int* a) {\n  printf(\"%d\", a[0]);\n}\n"))
                .find("p.cl:2:3: error: printf is not supported"),
            std::string::npos);
  // vectors compile (test_vector_memory.cpp); a vector argument by value does not
  EXPECT_NE(compileError(writeTemp("v.cl",
                                   "__kernel void k(int4 v, __global int* a) {\n  a[0] = v.x;\n}\n"))
                .find("v.cl:2:10: error: k argument 1 (int4): this argument type is not supported"),
            std::string::npos);
  EXPECT_NE(compileError(writeTemp("img.cl", "__kernel void k(__read_only image2d_t i, __global int* a) { a[0] = 1; }\n"))
                .find("images and samplers are not supported"),
            std::string::npos);
}

TEST(CompilerErrors, RecursionIsRefused) {
  const auto p = writeTemp("rec.cl",
                           "int f(int x) { return x <= 1 ? 1 : f(x - 1) + f(x - 2); }\n"
                           "__kernel void k(__global int* a) { a[0] = f(a[1]); }\n");
  const std::string e = compileError(p);
  EXPECT_NE(e.find("recursion"), std::string::npos) << e;
  EXPECT_NE(e.find("rec.cl:1:"), std::string::npos) << e;
}

TEST(CompilerErrors, UnknownKernelAndSeveralKernels) {
  cc::CompileOptions opt;
  opt.kernel = "nope";
  EXPECT_NE(compileError(kernelPath("vector_add.cl"), opt).find("no kernel 'nope'"), std::string::npos);
  const auto p = writeTemp("two.cl", "__kernel void a(__global int* x) { x[0] = 1; }\n"
                                      "__kernel void b(__global int* x) { x[0] = 2; }\n");
  EXPECT_NE(compileError(p).find("several kernels"), std::string::npos);
  EXPECT_NE(compileError(writeTemp("missing.cl", "")).find("no __kernel"), std::string::npos);
}

TEST(CompilerErrors, DefinesAndIncludesAreForwarded) {
  const std::string dir = ::testing::TempDir();
  writeTemp("inc_helper.h", "#define SCALE 7\n");
  const auto p = writeTemp("inc.cl", "#include \"inc_helper.h\"\n__kernel void k(__global int* a) { a[get_global_id(0)] = SCALE * OFFSET; }\n");
  EXPECT_NE(compileError(p).find("OFFSET"), std::string::npos);  // undeclared without -D
  cc::CompileOptions opt;
  opt.defines = {"OFFSET=6"};
  const auto ck = cc::compileFile(p, opt);
  std::vector<rt::Buffer> bufs;
  const std::vector<rt::KernelArg> args = {rt::parseArg("buf:a:4", bufs)};
  const auto r = rt::launch(ck, rt::parseRange("4", "", 256), args, bufs, {}, rt::modelEngine());
  ASSERT_EQ(r.run.status, RunStatus::Ok);
  EXPECT_EQ(r.buffers[0].words, (std::vector<uint32_t>{42, 42, 42, 42}));
}

TEST(LaunchErrors, BadArguments) {
  const auto ck = cc::compileFile(kernelPath("vector_add.cl"), {});
  auto launchError = [&](const std::vector<std::string>& specs, const std::string& global = "64",
                         const std::string& local = "") -> std::string {
    try {
      std::vector<rt::Buffer> bufs;
      std::vector<rt::KernelArg> args;
      for (const auto& s : specs) args.push_back(rt::parseArg(s, bufs));
      rt::launch(ck, rt::parseRange(global, local, 256), args, bufs, {}, rt::modelEngine());
    } catch (const rt::LaunchError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64"}).find("takes 4 argument"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64", "buf:c:64", "buf:d:64"}).find("expected a scalar"), std::string::npos);
  EXPECT_NE(launchError({"i32:1", "buf:b:64", "buf:c:64", "i32:3"}).find("expected buf: or view:"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "view:zz:0", "buf:c:64", "i32:3"}).find("no earlier buffer named 'zz'"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "view:a:65", "buf:c:64", "i32:3"}).find("past the end"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:a:64", "buf:c:64", "i32:3"}).find("exists already"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64:i64", "buf:b:64", "buf:c:64", "i32:3"}).find("TYPE must be"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:3=list:1,2", "buf:b:64", "buf:c:64", "i32:3"}).find("2 values for 3"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64", "buf:c:64", "i32:x"}).find("not a i32 value"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64", "buf:c:64", "f32:1.5"}).find("expected i32:V or u32:V"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64", "buf:c:64", "i32:3"}, "64", "24").find("not a multiple"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64", "buf:c:64", "i32:3"}, "512", "512").find("larger than the core holds"), std::string::npos);
  EXPECT_NE(launchError({"buf:a:64", "buf:b:64", "buf:c:64", "i32:3"}, "8,8", "8").find("as many sizes"), std::string::npos);
  EXPECT_EQ(launchError({"buf:a:64", "buf:b:64", "view:a:32", "i32:3"}), "");
}

TEST(Runtime, SplitMix64MatchesTheReference) {
  // Reference outputs of SplitMix64 seeded with 1234567 (Vigna's splitmix64.c; checked
  // against an independent Python implementation of KERNELS.md's description).
  rt::SplitMix64 g(1234567);
  EXPECT_EQ(g.next(), 6457827717110365317ull);
  EXPECT_EQ(g.next(), 3203168211198807973ull);
  EXPECT_EQ(g.next(), 9817491932198370423ull);
  const auto f = rt::initialContents("rand:1234567", rt::ElemType::F32, 1);
  float v = 0;
  std::memcpy(&v, &f[0], 4);
  EXPECT_FLOAT_EQ(v, static_cast<float>(static_cast<uint32_t>(6457827717110365317ull) >> 8) / 16777216.0f);
  EXPECT_EQ(rt::initialContents("iota", rt::ElemType::I32, 3), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(rt::initialContents("const:-2", rt::ElemType::I32, 2), (std::vector<uint32_t>{0xfffffffe, 0xfffffffe}));
}

TEST(Runtime, LinearVariantSkipsTheIdDivision) {
  cc::CompileOptions opt;
  const auto generic = cc::compileFile(kernelPath("vector_add.cl"), opt);
  opt.assumeLinearRange = true;
  const auto linear = cc::compileFile(kernelPath("vector_add.cl"), opt);
  EXPECT_EQ(linear.variant, "linear");
  EXPECT_LT(linear.stats.instructions + 20, generic.stats.instructions);
  // The id division words only where the prologue reads them: a one-argument 1-D kernel of
  // the linear variant fits the FPGA top's 16 param words (DevicePtyCli).
  EXPECT_EQ(generic.hiddenWords, cc::hidden::kWordsWithIds);
  EXPECT_EQ(linear.hiddenWords, cc::hidden::kWords);
  EXPECT_EQ(cc::compileFile(kernelPath("call.cl"), opt).hiddenWords + 1, 16);
  std::vector<rt::Buffer> bufs;
  std::vector<rt::KernelArg> args;
  for (const char* a : {"buf:a:64=iota", "buf:b:64=iota", "buf:c:64", "i32:64"}) args.push_back(rt::parseArg(a, bufs));
  const auto r1 = rt::launch(generic, rt::parseRange("64", "32", 256), args, bufs, {}, rt::modelEngine());
  const auto r2 = rt::launch(linear, rt::parseRange("64", "32", 256), args, bufs, {}, rt::modelEngine());
  ASSERT_EQ(r2.run.status, RunStatus::Ok);
  EXPECT_EQ(r1.buffers[2].words, r2.buffers[2].words);
  EXPECT_EQ(r2.buffers[2].words[63], 126u);
  EXPECT_LT(r2.run.instructions, r1.run.instructions);
  // A linear kernel refuses a 2-D launch.
  EXPECT_THROW(rt::launch(linear, rt::parseRange("8,8", "8,1", 256), args, bufs, {}, rt::modelEngine()), rt::LaunchError);
}

TEST(Runtime, CompileCacheHitsUntilAHeaderChanges) {
  // A directory of its own per run: an earlier run's entries would be hits.
  const std::string dir = std::string(::testing::TempDir()) + "simt_cache_test_" + std::to_string(::getpid());
  const std::string hdr = std::string(::testing::TempDir()) + "cache_helper.h";
  const std::string src = std::string(::testing::TempDir()) + "cache_kernel.cl";
  std::ofstream(hdr) << "#define K 5\n";
  std::ofstream(src) << "#include \"cache_helper.h\"\n__kernel void k(__global int* a) { a[get_global_id(0)] = K; }\n";
  bool hit = true;
  {
    cc::KernelCache cache(dir);
    const auto first = cache.compile(src, {}, &hit);
    EXPECT_FALSE(hit);
    const auto second = cache.compile(src, {}, &hit);
    EXPECT_TRUE(hit);
    EXPECT_EQ(first.assembly, second.assembly);
    EXPECT_NE(first.assembly.find("mov r"), std::string::npos);
    cc::CompileOptions other;
    other.defines = {"UNUSED=1"};
    cache.compile(src, other, &hit);
    EXPECT_FALSE(hit);  // other options, other entry
  }
  {
    cc::KernelCache fresh(dir);  // from the directory
    const auto k = fresh.compile(src, {}, &hit);
    EXPECT_TRUE(hit);
    EXPECT_EQ(k.args.size(), 1u);
    EXPECT_EQ(k.args[0].kind, cc::ArgKind::GlobalPtr);
    std::ofstream(hdr) << "#define K 6\n";  // a header changes: the entry is stale
    const auto k2 = fresh.compile(src, {}, &hit);
    EXPECT_FALSE(hit);
    EXPECT_NE(k2.assembly.find(", 6"), std::string::npos) << k2.assembly;
    EXPECT_EQ(fresh.hits(), 1);
    EXPECT_EQ(fresh.misses(), 1);
  }
  std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(Runtime, DeviceKeepsBuffersAcrossLaunches) {
  // OpenCL host code's shape: build, create buffers, set arguments, enqueue twice.
  rt::Device dev(rt::modelEngine(), {}, {}, "");
  rt::Kernel k = dev.build(kernelPath("vector_add.cl"));
  std::vector<uint32_t> ones(64, 1);
  dev.createBuffer("x", rt::ElemType::I32, ones);
  dev.createBuffer("acc", rt::ElemType::I32, std::vector<uint32_t>(64, 0));
  k.setArg(0, rt::Kernel::buffer("acc"));
  k.setArg(1, rt::Kernel::buffer("x"));
  k.setArg(2, rt::Kernel::buffer("acc"));
  k.setArg(3, rt::Kernel::scalar(64));
  EXPECT_THROW(k.setArg(4, rt::Kernel::scalar(1)), rt::LaunchError);
  for (int launch = 0; launch < 3; ++launch) {
    const auto r = dev.enqueue(k, rt::parseRange("64", "32", 256));
    ASSERT_EQ(r.result.status, RunStatus::Ok) << r.result.message;
    EXPECT_EQ(r.workGroups, 2);
  }
  EXPECT_EQ(dev.buffer("acc").words, std::vector<uint32_t>(64, 3));  // acc += x, three times
  EXPECT_FALSE(k.fromCache());
  EXPECT_TRUE(dev.build(kernelPath("vector_add.cl")).fromCache());
  k.setArg(1, rt::Kernel::buffer("nope"));
  EXPECT_THROW(dev.enqueue(k, rt::parseRange("64", "", 256)), rt::LaunchError);
}

TEST(Runtime, ViewAliasesABuffer) {
  // c = a + b where c is a view of a shifted by 32 elements: c[i] = a[i+32] = a[i] + b[i].
  Launch l{"vector_add.cl", "", "32", "32", {"buf:a:64=iota", "buf:b:64=const:1000", "view:a:32", "i32:32"}};
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto a = o.buf("a");
  for (int i = 0; i < 32; ++i) EXPECT_EQ(a[32 + i], i + 1000);
}

}  // namespace
