// 64-bit integers in the OpenCL compiler (docs/compiler.md, "64-bit integers"): the split
// into 32-bit words (sim/compiler/split_i64.*) against host-computed 64-bit results, for
// directed operands (carries, borrows, equal high words, the extremes) and seeded random ones
// (SIMT_SEED replays, the default is fixed) through every operation of long_ops.cl; long
// loop-carried values, private and local longs; long and ulong arguments (two param words);
// division by a variable and long <-> float conversions (long_div.cl, long_float.cl, the
// expansion of sim/compiler/expand_i64.*); what is refused; sin, cos and tan from libclc (whose argument reduction multiplies in
// 64 bits) and their error in ulp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cl_engines.h"
#include "compiler/compiler.h"
#include "runtime/cl_runtime.h"

namespace {

namespace cc = simt::compiler;
namespace rt = simt::runtime;
using simt::model::RunStatus;

using simt::cltest::bitsOf;
using simt::cltest::Eng;
using simt::cltest::floatOf;
using simt::cltest::engineFor;
using simt::cltest::engName;

constexpr int kOps = 40;  // results per work-item of long_ops.cl

cc::CompiledKernel compileKernel(const std::string& file) {
  return cc::compileFile(std::string(SIMT_CL_KERNEL_DIR) + "/" + file, {});
}

rt::LaunchResult launch(const cc::CompiledKernel& ck, const std::string& global, const std::string& local,
                        const std::vector<std::string>& specs, Eng engine) {
  return simt::cltest::launchSpecs(ck, global, local, specs, engine);
}

// buf:NAME:2N=list:... holding n longs as word pairs, low word first.
std::string longBuffer(const std::string& name, const std::vector<uint64_t>& v) {
  std::string s = "buf:" + name + ":" + std::to_string(2 * v.size()) + ":u32=list:";
  for (size_t i = 0; i < v.size(); ++i) {
    s += (i ? "," : "") + std::to_string(static_cast<uint32_t>(v[i])) + "," + std::to_string(static_cast<uint32_t>(v[i] >> 32));
  }
  return s;
}

std::vector<uint64_t> longs(const std::vector<uint32_t>& words) {
  std::vector<uint64_t> v;
  for (size_t i = 0; i + 1 < words.size(); i += 2) v.push_back(uint64_t{words[i + 1]} << 32 | words[i]);
  return v;
}

// long_ops.cl's results, computed on the host in 64 bits.
std::vector<uint64_t> referenceOps(uint64_t ux, uint64_t y, int n, int64_t c, uint64_t d) {
  const int64_t x = static_cast<int64_t>(ux), sy = static_cast<int64_t>(y);
  auto clz64 = [](uint64_t v) {
    int k = 0;
    for (uint64_t bit = uint64_t{1} << 63; bit && !(v & bit); bit >>= 1) ++k;
    return k;
  };
  const uint64_t flags = (x == sy) | (x != c) << 1 | (x < sy) << 2 | (x <= sy) << 3 | (x > sy) << 4 | (x >= sy) << 5 |
                         (ux < y) << 6 | (ux <= y) << 7 | (ux > y) << 8 | (ux >= y) << 9 | (x < c) << 10 |
                         (ux > d) << 11;
  std::vector<uint64_t> r = {
      ux + y,
      ux - y,
      ux * y,
      uint64_t{static_cast<uint32_t>(ux)} * static_cast<uint32_t>(y),
      static_cast<uint64_t>(int64_t{static_cast<int32_t>(ux)} * static_cast<int32_t>(y)),
      ux & y,
      ux | y,
      ux ^ y,
      ux << n,
      y >> n,
      static_cast<uint64_t>(x >> n),
      ux << 7,
      ux << 32,
      ux << 45,
      y >> 5,
      y >> 32,
      y >> 50,
      static_cast<uint64_t>(x >> 9),
      static_cast<uint64_t>(x >> 32),
      static_cast<uint64_t>(x >> 63),
      flags,
      static_cast<uint64_t>(x < sy ? x : sy),
      y > d ? y : d,
      static_cast<uint64_t>(int64_t{static_cast<int32_t>(ux)}),
      uint64_t{static_cast<uint32_t>(y)},
      static_cast<uint64_t>(int64_t{static_cast<int16_t>(ux)}),
      uint64_t{static_cast<uint8_t>(y)},
      static_cast<uint64_t>(int64_t{static_cast<int32_t>(x >> 13)}),
      ux * static_cast<uint64_t>(c) + d,
      ux * 3 - y * 0x100000001ull,
      0 - ux,
      ~ux,
      x >= 0 ? ux : 0 - ux,
      static_cast<uint64_t>(__builtin_popcountll(y)),
      static_cast<uint64_t>(clz64(y)),
      static_cast<uint64_t>(x / 8 + static_cast<int64_t>(y % 16)),
      uint64_t{ux == 0x123456789abcdefull},
      uint64_t{static_cast<uint64_t>(n)} << 40 | static_cast<uint64_t>(n + 1),
      static_cast<uint64_t>(c),
      d,
  };
  return r;
}

// The buffer `out` of n work-items' `ops` longs each.
std::string outBuffer(int ops, size_t n) { return "buf:out:" + std::to_string(2 * ops * n) + ":u32"; }

// Runs a kernel over n work-items whose work-item i writes `ops` longs at out[ops * i]
// (specs has outBuffer(ops, n)), and compares each with want(i); a failure names the
// work-item, the result (the kernel's o[K]) and operands(i).
template <class Want, class Operands>
void compareResults(const cc::CompiledKernel& ck, size_t n, const char* local, const std::vector<std::string>& specs,
                    int ops, Eng engine, const std::string& ctx, Want want, Operands operands) {
  const rt::LaunchResult r = launch(ck, std::to_string(n), local, specs, engine);
  ASSERT_EQ(r.run.status, RunStatus::Ok) << r.run.message;
  const auto out = longs(simt::cltest::bufferWords(r.buffers, "out"));
  ASSERT_EQ(out.size(), ops * n);
  int failures = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<uint64_t> w = want(i);
    for (int k = 0; k < ops; ++k) {
      if (out[ops * i + k] == w[k]) continue;
      ADD_FAILURE() << ctx << " (" << engName(engine) << "): work-item " << i << ", o[" << k << "]: got 0x" << std::hex
                    << out[ops * i + k] << ", want 0x" << w[k] << std::dec << " (" << operands(i) << ")";
      if (++failures > 20) return;
    }
  }
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

struct OpsCase {
  std::vector<uint64_t> a, b;
  std::vector<int> shifts;
  int64_t c = 0;
  uint64_t d = 0;
};

// Runs long_ops.cl on one engine and compares every result with the host; the message names
// the work-item, the result (kernel line o[K]) and the operands.
void checkOps(const cc::CompiledKernel& ck, const OpsCase& t, Eng engine, const std::string& ctx) {
  const size_t n = t.a.size();  // a multiple of 8
  std::string shifts = "buf:s:" + std::to_string(n) + ":i32=list:";
  for (size_t i = 0; i < n; ++i) shifts += (i ? "," : "") + std::to_string(t.shifts[i]);
  compareResults(
      ck, n, "8",
      {longBuffer("a", t.a), longBuffer("b", t.b), shifts, outBuffer(kOps, n), "i64:" + std::to_string(t.c),
       "u64:" + std::to_string(t.d)},
      kOps, engine, ctx, [&](size_t i) { return referenceOps(t.a[i], t.b[i], t.shifts[i], t.c, t.d); },
      [&](size_t i) {
        return "x = " + hex(t.a[i]) + ", y = " + hex(t.b[i]) + ", n = " + std::to_string(t.shifts[i]) +
               ", c = " + std::to_string(t.c) + ", d = " + std::to_string(t.d);
      });
}

// Operands that exercise the word boundary: carries and borrows, equal high words with
// different low words, the signed and unsigned extremes.
OpsCase directedCase() {
  const std::vector<uint64_t> special = {0,
                                         1,
                                         0xffffffffull,
                                         0x100000000ull,
                                         0xffffffffffffffffull,
                                         0x8000000000000000ull,
                                         0x7fffffffffffffffull,
                                         0x00000001fffffffeull,
                                         0x0000000180000000ull,
                                         0xfffffffe00000001ull,
                                         0x123456789abcdefull,
                                         0x8000000000000001ull};
  OpsCase t;
  for (size_t i = 0; i < special.size(); ++i) {
    for (size_t j = 0; j < special.size(); j += 3) {
      t.a.push_back(special[i]);
      t.b.push_back(special[(i + j) % special.size()]);
      t.shifts.push_back(static_cast<int>((i * 7 + j * 13) % 64));
    }
  }
  t.shifts[0] = 0;
  t.shifts[1] = 32;
  t.shifts[2] = 63;
  t.shifts[3] = 31;
  t.c = -3;
  t.d = 0xffffffff00000000ull;
  return t;
}

// Random operands whose words are often special (0, all ones, the sign bit) so that carries
// and equal high words are common.
OpsCase randomCase(uint64_t seed, size_t n) {
  rt::SplitMix64 g(seed);
  auto word = [&]() -> uint32_t {
    const uint64_t r = g.next();
    switch (r % 8) {
      case 0: return 0;
      case 1: return 0xffffffffu;
      case 2: return 0x80000000u;
      case 3: return static_cast<uint32_t>(r >> 40) & 3u;
      default: return static_cast<uint32_t>(r >> 32);
    }
  };
  auto value = [&]() { return uint64_t{word()} << 32 | word(); };
  OpsCase t;
  for (size_t i = 0; i < n; ++i) {
    t.a.push_back(value());
    // a high word shared with a: the low words decide the order
    t.b.push_back(g.next() % 4 == 0 ? (t.a.back() & 0xffffffff00000000ull) | word() : value());
    t.shifts.push_back(static_cast<int>(g.next() % 64));
  }
  t.c = static_cast<int64_t>(value());
  t.d = value();
  return t;
}

// Calls round(seed, context) for 8 consecutive seeds from SIMT_SEED (default 64) up to the
// first failure, then prints what ran with the seed that replays it.
template <class Round>
void seededRounds(const char* what, Round round) {
  const uint64_t seed0 = simt::cltest::seedFromEnv(64);
  for (uint64_t k = 0; k < 8; ++k) {
    round(seed0 + k, "random operands, replay with SIMT_SEED=" + std::to_string(seed0 + k));
    if (::testing::Test::HasFailure()) break;
  }
  std::printf("%s: 8 rounds of 64 (SIMT_SEED=%llu)\n", what, static_cast<unsigned long long>(seed0));
}

// ---------------------------------------------------------------------------------------

TEST(CompilerLong, EveryOperationOnDirectedOperands) {
  const cc::CompiledKernel ck = compileKernel("long_ops.cl");
  checkOps(ck, directedCase(), Eng::Model, "directed operands");
}

TEST(CompilerLong, RandomOperandsThroughEveryOperation) {
  const cc::CompiledKernel ck = compileKernel("long_ops.cl");
  seededRounds("long random: operand pairs through the 40 operations", [&](uint64_t seed, const std::string& ctx) {
    checkOps(ck, randomCase(seed, 64), Eng::Model, ctx);
  });
}

TEST(CompilerLong, TheCoreAndCosimGiveTheHostsResults) {
  const cc::CompiledKernel ck = compileKernel("long_ops.cl");
  const uint64_t seed = simt::cltest::seedFromEnv(64);
  checkOps(ck, randomCase(seed + 100, 8), Eng::Rtl, "random operands, replay with SIMT_SEED=" + std::to_string(seed));
  OpsCase d = directedCase();
  d.a.resize(8);
  d.b.resize(8);
  d.shifts.resize(8);
  checkOps(ck, d, Eng::Cosim, "directed operands");
}

// FNV-1a over a window in a loop (two-word phis), a private array and a __local array of
// ulong, a divergent branch on a ulong compare.
TEST(CompilerLong, LoopCarriedPrivateAndLocalLongs) {
  const int n = 64, local = 32, steps = 7;
  rt::SplitMix64 g(9);
  std::vector<uint64_t> in(64);
  for (auto& v : in) v = g.next();
  const cc::CompiledKernel ck = compileKernel("long_loop.cl");
  const rt::LaunchResult r = launch(ck, std::to_string(n), std::to_string(local),
                                    {longBuffer("in", in), "buf:out:" + std::to_string(2 * n) + ":u32",
                                     "i32:" + std::to_string(steps)},
                                    Eng::Model);
  ASSERT_EQ(r.run.status, RunStatus::Ok) << r.run.message;
  std::vector<uint64_t> h(n), p1(n), p2(n);
  for (int i = 0; i < n; ++i) {
    uint64_t hash = 0xcbf29ce484222325ull, sum = 0, priv[4] = {};
    for (int k = 0; k < steps; ++k) {
      const uint64_t v = in[static_cast<size_t>((i + k) % 64)];
      hash = (hash ^ (v & 0xff)) * 0x100000001b3ull;
      sum += v;
      priv[k & 3] = sum;
    }
    h[i] = hash;
    p1[i] = priv[1];
    p2[i] = priv[2];
  }
  const auto out = longs(simt::cltest::bufferWords(r.buffers, "out"));
  ASSERT_EQ(out.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int base = i / local * local;
    uint64_t want = h[static_cast<size_t>(base + (i - base + 1) % local)];
    want = want > h[i] ? want - p1[i] : want ^ (p2[i] << 3);
    EXPECT_EQ(out[i], want) << "work-item " << i;
  }
}

// A long and a ulong argument take two param words each, low word first; the hidden block
// follows them (docs/compiler.md, "Launch ABI").
TEST(CompilerLong, LongArgumentsAreTwoParamWords) {
  const cc::CompiledKernel ck = compileKernel("long_ops.cl");
  ASSERT_EQ(ck.args.size(), 6u);
  const int words[6] = {0, 1, 2, 3, 4, 6};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(ck.args[i].word, words[i]) << i;
  EXPECT_EQ(ck.args[4].words, 2);
  EXPECT_EQ(ck.args[5].words, 2);
  EXPECT_EQ(ck.hiddenBase, 8);
  EXPECT_NE(ck.assembly.find("[16,20] c"), std::string::npos) << ck.assembly.substr(0, 400);
  // A 32-bit value for a long parameter, and the reverse, are refused naming the parameter.
  OpsCase t = directedCase();
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> args;
  for (const char* a : {"buf:a:2:u32", "buf:b:2:u32", "buf:s:1:i32", "buf:out:80:u32", "i32:5", "u64:1"})
    args.push_back(rt::parseArg(a, buffers));
  rt::DeviceLimits limits;
  try {
    rt::buildLaunch(ck, rt::parseRange("1", "1", limits.maxThreadsPerGroup), args, buffers, limits);
    ADD_FAILURE() << "i32 for a long accepted";
  } catch (const rt::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("expected i64:V or u64:V"), std::string::npos) << e.what();
  }
  // Bad values: out of range, a negative ulong, not a number.
  for (const char* bad : {"i64:9223372036854775808", "u64:-1", "u64:18446744073709551616", "i64:12x", "i64:"}) {
    std::vector<rt::Buffer> none;
    EXPECT_THROW(rt::parseArg(bad, none), rt::LaunchError) << bad;
  }
  std::vector<rt::Buffer> none;
  const rt::KernelArg m = rt::parseArg("i64:-2", none);
  EXPECT_TRUE(m.is64);
  EXPECT_EQ(m.value, 0xfffffffeu);
  EXPECT_EQ(m.high, 0xffffffffu);
  const rt::KernelArg u = rt::parseArg("u64:0x123456789", none);
  EXPECT_EQ(u.value, 0x23456789u);
  EXPECT_EQ(u.high, 1u);
}

// ---------------------------------------------------------------------------------------
// Division and remainder by a variable (expandI64): long_div.cl against the host, with the
// results docs/compiler.md gives where C leaves them undefined (x / 0, INT64_MIN / -1).

constexpr int kDivOps = 12;  // results per work-item of long_div.cl

int64_t sdivRef(int64_t x, int64_t y) {
  if (y == 0) return x < 0 ? 1 : -1;
  if (x == INT64_MIN && y == -1) return INT64_MIN;
  return x / y;
}
int64_t sremRef(int64_t x, int64_t y) {
  if (y == 0) return x;
  if (x == INT64_MIN && y == -1) return 0;
  return x % y;
}
uint64_t udivRef(uint64_t x, uint64_t y) { return y ? x / y : ~uint64_t{0}; }
uint64_t uremRef(uint64_t x, uint64_t y) { return y ? x % y : x; }

std::vector<uint64_t> referenceDiv(uint64_t ux, uint64_t uy, int64_t c) {
  const int64_t x = static_cast<int64_t>(ux), y = static_cast<int64_t>(uy);
  uint64_t sum = 0, digits = 0;
  uint64_t v = ux;
  do {
    sum += v % 10;
    v /= 10;
    ++digits;
  } while (v);
  const int64_t q = (x ^ y) & 1 ? sdivRef(x, y | 1) : sremRef(y, x ^ 0x5555);
  return {static_cast<uint64_t>(sdivRef(x, y)),
          static_cast<uint64_t>(sremRef(x, y)),
          udivRef(ux, uy),
          uremRef(ux, uy),
          static_cast<uint64_t>(sdivRef(x, c)),
          uremRef(ux, static_cast<uint64_t>(c)),
          static_cast<uint64_t>(x / 1000000007),
          ux / 10,
          ux % 0x100000003ull,
          static_cast<uint64_t>(q),
          sum,
          digits};
}

// Runs long_div.cl over the operand pairs (padded to whole warps of 32) and compares every
// result with the host.
void checkDiv(const cc::CompiledKernel& ck, std::vector<uint64_t> a, std::vector<uint64_t> b, int64_t c, Eng engine,
              const std::string& ctx) {
  while (a.size() % 32) {
    a.push_back(a[a.size() % 7]);
    b.push_back(b[b.size() % 5]);
  }
  const size_t n = a.size();
  compareResults(
      ck, n, "32", {longBuffer("a", a), longBuffer("b", b), outBuffer(kDivOps, n), "i64:" + std::to_string(c)},
      kDivOps, engine, ctx, [&](size_t i) { return referenceDiv(a[i], b[i], c); },
      [&](size_t i) { return "x = " + hex(a[i]) + ", y = " + hex(b[i]) + ", c = " + std::to_string(c); });
}

// Dividends and divisors around the word boundary, the extremes, powers of two and their
// neighbours, small divisors of large dividends and the reverse.
const std::vector<uint64_t>& divisionSpecials() {
  static const std::vector<uint64_t> v = {0,
                                          1,
                                          2,
                                          3,
                                          7,
                                          10,
                                          0xffffffffffffffffull,  // -1
                                          0xfffffffffffffff9ull,  // -7
                                          0x8000000000000000ull,
                                          0x7fffffffffffffffull,
                                          0x8000000000000001ull,
                                          0x7fffffffull,
                                          0x80000000ull,
                                          0xffffffffull,
                                          0x100000000ull,
                                          0x100000001ull,
                                          0xffffffff00000000ull,
                                          0x4000000000000001ull,
                                          0x3fffffffffffffffull,
                                          0x123456789abcdefull,
                                          0xfffffffe00000001ull,
                                          0x0000010000000003ull,
                                          0x0de0b6b3a7640000ull,  // 10^18
                                          0xffffffffc46535f9ull};  // -1000000007
  return v;
}

// A random operand: a random length (so that divisors smaller and larger than 2^32 and
// dividends below the divisor all occur), often negative, sometimes a special value.
uint64_t randomDivOperand(rt::SplitMix64& g) {
  const uint64_t r = g.next();
  if (r % 16 == 0) return divisionSpecials()[(r >> 8) % divisionSpecials().size()];
  uint64_t v = g.next() >> ((r >> 4) % 64);
  if ((r >> 12) % 3 == 0) v = 0 - v;
  return v;
}

TEST(CompilerLong, DivisionByAVariableOnDirectedOperands) {
  const cc::CompiledKernel ck = compileKernel("long_div.cl");
  const auto& sp = divisionSpecials();
  std::vector<uint64_t> a, b;
  for (uint64_t x : sp) {
    for (uint64_t y : sp) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (int64_t c : {int64_t{-7}, int64_t{0x100000003}, INT64_MIN}) {
    checkDiv(ck, a, b, c, Eng::Model, "directed operands");
    if (HasFailure()) return;
  }
}

TEST(CompilerLong, DivisionByAVariableOnRandomOperands) {
  const cc::CompiledKernel ck = compileKernel("long_div.cl");
  seededRounds("long division random: operand pairs through long_div.cl", [&](uint64_t seed, const std::string& ctx) {
    rt::SplitMix64 g(seed);
    std::vector<uint64_t> a(64), b(64);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = randomDivOperand(g);
      b[i] = randomDivOperand(g);
    }
    checkDiv(ck, a, b, static_cast<int64_t>(randomDivOperand(g) | 1), Eng::Model, ctx);
  });
}

// ---------------------------------------------------------------------------------------
// Conversions between long/ulong and float (expandI64): long_float.cl against the host's
// conversions, round to nearest even, bit for bit; float -> long saturating, NaN giving 0.

constexpr int kFloatOps = 10;  // results per work-item of long_float.cl

// The device's float -> long (docs/compiler.md): truncation toward zero, saturating at the
// type's limits, NaN gives 0; the host's cast within range.
int64_t toLongRef(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 0x1p63f) return INT64_MAX;
  if (f <= -0x1p63f) return INT64_MIN;
  return static_cast<int64_t>(f);
}
uint64_t toUlongRef(float f) {
  if (std::isnan(f) || f <= 0) return 0;
  if (f >= 0x1p64f) return ~uint64_t{0};
  return static_cast<uint64_t>(f);
}

// long -> float rounding toward zero: the magnitude's leading 24 bits, exactly.
float toFloatRtzRef(int64_t x) {
  uint64_t m = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  int shift = 0;
  while (m >> shift >= (uint64_t{1} << 24)) ++shift;
  const float f = std::ldexp(static_cast<float>(m >> shift), shift);
  return x < 0 ? -f : f;
}

std::vector<uint64_t> referenceFloat(uint64_t u, uint32_t gbits) {
  const int64_t x = static_cast<int64_t>(u);
  const float g = floatOf(gbits);
  return {bitsOf(static_cast<float>(x)),
          bitsOf(static_cast<float>(u)),
          bitsOf(static_cast<float>(x)),
          bitsOf(static_cast<float>(u)),
          // libclc's convert_float_rtz checks its rounding by converting back, which saturates
          // to INT64_MAX itself: for INT64_MAX it keeps the nearest float 2^63 (its 32-bit
          // form does the same at INT_MAX; docs/compiler.md)
          bitsOf(x == INT64_MAX ? 0x1p63f : toFloatRtzRef(x)),
          static_cast<uint64_t>(toLongRef(g)),
          toUlongRef(g),
          static_cast<uint64_t>(toLongRef(g)),
          toUlongRef(g),
          static_cast<uint64_t>(toLongRef(std::rint(g)))};
}

void checkFloat(const cc::CompiledKernel& ck, std::vector<uint64_t> a, std::vector<uint32_t> f, Eng engine,
                const std::string& ctx) {
  while (a.size() < f.size()) a.push_back(a[a.size() % 11]);
  while (f.size() < a.size()) f.push_back(f[f.size() % 13]);
  while (a.size() % 32) {
    a.push_back(a[a.size() % 7]);
    f.push_back(f[f.size() % 5]);
  }
  const size_t n = a.size();
  std::string fs = "buf:fbits:" + std::to_string(n) + ":u32=list:";
  for (size_t i = 0; i < n; ++i) fs += (i ? "," : "") + std::to_string(f[i]);
  compareResults(
      ck, n, "32", {longBuffer("a", a), fs, outBuffer(kFloatOps, n)}, kFloatOps, engine, ctx,
      [&](size_t i) { return referenceFloat(a[i], f[i]); },
      [&](size_t i) { return "x = " + hex(a[i]) + ", f = " + hex(f[i]) + " = " + std::to_string(floatOf(f[i])); });
}

// Integers near float's rounding boundaries: 2^24 + 1 (a tie, to even), + 3 (a tie, up),
// ties and their neighbours at every scale, 2^53 + 1, the extremes, values that round up to
// the next power of two (2^63, 2^64), and their negatives.
std::vector<uint64_t> conversionIntegers() {
  std::vector<uint64_t> v = {0,
                             1,
                             0xffffffffffffffffull,
                             0x8000000000000000ull,
                             0x7fffffffffffffffull,
                             0x8000000000000001ull,
                             (1ull << 24) + 1,
                             (1ull << 24) + 2,
                             (1ull << 24) + 3,
                             (1ull << 53) + 1,
                             (1ull << 53) - 1,
                             0xffffffffull,
                             0x100000001ull,
                             0xffffff8000000000ull,  // a tie between 2^64 - 2^40 and 2^64: to 2^64
                             0xffffff7fffffffffull,
                             0x7fffffc000000000ull,  // a tie: to 2^63
                             0x7fffffbfffffffffull,
                             0x8000008000000000ull,  // a tie: down to even 2^63
                             0x8000018000000000ull,  // a tie: up to even
                             0x8000008000000001ull};
  for (int k = 0; k <= 39; k += 3) {
    const uint64_t tie = ((1ull << 24) + 1) << k, up = ((1ull << 24) + 3) << k;
    for (uint64_t t : {tie, tie - 1, tie + 1, up, up - 1}) {
      v.push_back(t);
      v.push_back(0 - t);
    }
  }
  return v;
}

// Floats around the long and ulong range and its rounding: halves (ties for rte), the last
// floats below 2^63 and 2^64, the limits themselves, infinities, NaNs, subnormals (flushed).
std::vector<uint32_t> conversionFloats() {
  std::vector<uint32_t> v;
  for (float f : {0.0f, -0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 1.5f, -1.5f, 2.5f, -2.5f, 3.5f, 4194304.5f, 0.99999994f,
                  0x1p23f, 0x1p24f, 0x1p31f, 0x1p32f, -0x1p32f, 0x1p52f, 0x1p62f, -0x1p62f, 0x1p63f, -0x1p63f, 0x1p64f,
                  -0x1p64f, 1e19f, -1e19f, 123456.789f, -9.87654e15f}) {
    v.push_back(bitsOf(f));
  }
  for (uint32_t b : {0x5effffffu, 0xdeffffffu, 0xdf000001u, 0x5f7fffffu, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u,
                     0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x00000001u, 0x807fffffu}) {
    v.push_back(b);
  }
  return v;
}

TEST(CompilerLong, FloatConversionsOnDirectedOperands) {
  const cc::CompiledKernel ck = compileKernel("long_float.cl");
  checkFloat(ck, conversionIntegers(), conversionFloats(), Eng::Model, "directed operands");
}

TEST(CompilerLong, FloatConversionsOnRandomOperands) {
  const cc::CompiledKernel ck = compileKernel("long_float.cl");
  seededRounds("long <-> float random: operands through long_float.cl", [&](uint64_t seed, const std::string& ctx) {
    rt::SplitMix64 g(seed);
    std::vector<uint64_t> a(64);
    std::vector<uint32_t> f(64);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = randomDivOperand(g);
      // mostly exponents from 2^-27 to 2^73, where the conversions have work to do
      const uint64_t r = g.next();
      f[i] = r % 8 == 0 ? static_cast<uint32_t>(r >> 32)
                        : static_cast<uint32_t>((r >> 63) << 31 | (100 + (r >> 8) % 101) << 23 | (r >> 20 & 0x7fffff));
    }
    checkFloat(ck, a, f, Eng::Model, ctx);
  });
}

// The core runs the division loop (divergent trip counts) and the conversions as the host does.
TEST(CompilerLong, DivisionAndFloatConversionsOnTheCoreGiveTheHostsResults) {
  const uint64_t seed = simt::cltest::seedFromEnv(64);
  rt::SplitMix64 g(seed + 200);
  std::vector<uint64_t> a(32), b(32);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = randomDivOperand(g);
    b[i] = randomDivOperand(g);
  }
  b[0] = 0;  // x / 0 and x % 0 as documented
  a[1] = 0x8000000000000000ull;
  b[1] = 0xffffffffffffffffull;
  const std::string ctx = "random operands, replay with SIMT_SEED=" + std::to_string(seed);
  checkDiv(compileKernel("long_div.cl"), a, b, -7, Eng::Rtl, ctx);
  std::vector<uint64_t> ints = conversionIntegers();
  std::vector<uint32_t> floats = conversionFloats();
  ints.resize(32);
  floats.resize(32);
  checkFloat(compileKernel("long_float.cl"), ints, floats, Eng::Rtl, "directed operands");
}

// What the split does not cover is refused naming the construct and the source line.
TEST(CompilerLong, AtomicOnALongIsRefusedNamingTheLine) {
  const std::string path = ::testing::TempDir() + "/long_atomic.cl";
  {
    std::ofstream f(path);
    f << "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
         "__kernel void k(__global long* a, long d) {\n"
         "  const int i = get_global_id(0);\n"
         "  atom_add(a + i, d);\n"
         "}\n";
  }
  try {
    cc::compileFile(path, {});
    FAIL() << "compiled";
  } catch (const cc::CompileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("long_atomic.cl:4:"), std::string::npos) << m;
    EXPECT_NE(m.find("on 64-bit integers"), std::string::npos) << m;
  }
}

// sin, cos and tan from libclc (their argument reduction multiplies in 64 bits): the error in
// ulp against the host's double-precision functions (as docs/compiler.md's accuracy table),
// within OpenCL's 4 ulp, on the model; the core gives the model's bits.
struct TrigError {
  double maxUlp[3] = {0, 0, 0}, meanUlp[3] = {0, 0, 0};
};

TrigError measureTrig(const cc::CompiledKernel& ck, float lo, float hi, Eng engine, std::vector<uint32_t>* bits) {
  const int n = 4096;
  char range[64];
  std::snprintf(range, sizeof range, "f32:%.9g", lo);
  std::string los = range;
  std::snprintf(range, sizeof range, "f32:%.9g", hi);
  const rt::LaunchResult r =
      launch(ck, std::to_string(n), "64",
             {"buf:r:4096:f32=rand:5", "buf:x:4096:f32", "buf:s:4096:f32", "buf:c:4096:f32", "buf:t:4096:f32", los, range},
             engine);
  TrigError err;
  EXPECT_EQ(r.run.status, RunStatus::Ok) << r.run.message;
  if (r.run.status != RunStatus::Ok) return err;
  const auto x = simt::cltest::bufferWords(r.buffers, "x");
  const char* names[3] = {"s", "c", "t"};
  for (int f = 0; f < 3; ++f) {
    const auto w = simt::cltest::bufferWords(r.buffers, names[f]);
    if (bits) bits->insert(bits->end(), w.begin(), w.end());
    int counted = 0;
    for (int i = 0; i < n; ++i) {
      float xf, got;
      std::memcpy(&xf, &x[i], 4);
      std::memcpy(&got, &w[i], 4);
      const double xd = xf;
      const double want = f == 0 ? std::sin(xd) : f == 1 ? std::cos(xd) : std::tan(xd);
      const double e = simt::cltest::ulpError(got, want);
      if (e < 0) continue;
      err.maxUlp[f] = std::max(err.maxUlp[f], e);
      err.meanUlp[f] += e;
      ++counted;
    }
    err.meanUlp[f] /= counted;
  }
  return err;
}

TEST(CompilerLong, SinCosTanFromLibclcWithinOpenCLsUlp) {
  const cc::CompiledKernel ck = compileKernel("trig.cl");
  const struct {
    float lo, hi;
  } ranges[] = {{-3.2f, 3.2f}, {-100.0f, 100.0f}, {-1e6f, 1e6f}};
  for (const auto& rg : ranges) {
    const TrigError e = measureTrig(ck, rg.lo, rg.hi, Eng::Model, nullptr);
    std::printf("[%g, %g]: max ulp sin %.2f cos %.2f tan %.2f; mean %.2f %.2f %.2f\n", rg.lo, rg.hi, e.maxUlp[0],
                e.maxUlp[1], e.maxUlp[2], e.meanUlp[0], e.meanUlp[1], e.meanUlp[2]);
    for (int f = 0; f < 3; ++f) {
      EXPECT_LE(e.maxUlp[f], 4.0) << "sin cos tan"[4 * f] << " in [" << rg.lo << ", " << rg.hi << "]";
      EXPECT_GT(e.meanUlp[f], 0.0);  // the comparison ran
    }
  }
}

TEST(CompilerLong, SinCosTanOnTheCoreGiveTheModelsBits) {
  const cc::CompiledKernel ck = compileKernel("trig.cl");
  std::vector<uint32_t> model, core;
  measureTrig(ck, -1e6f, 1e6f, Eng::Model, &model);
  measureTrig(ck, -1e6f, 1e6f, Eng::Rtl, &core);
  ASSERT_EQ(model.size(), core.size());
  for (size_t i = 0; i < model.size(); ++i) ASSERT_EQ(model[i], core[i]) << i;
}

}  // namespace
