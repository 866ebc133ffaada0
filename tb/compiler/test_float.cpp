// FP32 in the OpenCL compiler (issue #24, docs/compiler.md "FP32"): every float operation
// the lowering emits checked bit for bit against the host under the FPU's rules (round to
// nearest even, subnormals flushed to zero before and after, canonical NaN, saturating
// conversions); the float kernels (saxpy, dot product, tiled sgemm, 5-point stencil, n-body
// step, Black-Scholes) against double-precision host references with the tolerances of
// docs/compiler.md; libclc's pow, erfc and tgamma within OpenCL's 16 ulp; FP kernels on the RTL core fail naming the instruction (the core has no
// FPU yet). All on the ISA model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"
#include "cl_engines.h"
#include "runtime/cl_runtime.h"

namespace {

namespace cc = simt::compiler;
namespace rt = simt::runtime;
using simt::model::RunStatus;

using simt::cltest::bitsOf;
using simt::cltest::floatOf;

// The FPU's flush: a subnormal becomes the zero of its sign.
float ftz(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

struct FloatRun {
  cc::CompiledKernel ck;
  rt::LaunchResult res;
  std::vector<uint32_t> words(const std::string& name) const { return simt::cltest::bufferWords(res.buffers, name); }
  std::vector<float> floats(const std::string& name) const {
    std::vector<float> f;
    for (uint32_t w : words(name)) f.push_back(floatOf(w));
    return f;
  }
};

using On = simt::cltest::Eng;

FloatRun launch(const std::string& file, const std::string& global, const std::string& local,
           const std::vector<std::string>& argSpecs, On on = On::Model) {
  FloatRun r;
  cc::CompileOptions opt;
  r.ck = cc::compileFile(std::string(SIMT_CL_KERNEL_DIR) + "/" + file, opt);
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> args;
  for (const auto& a : argSpecs) args.push_back(rt::parseArg(a, buffers));
  rt::DeviceLimits limits;
  const rt::NDRange range = rt::parseRange(global, local, limits.maxThreadsPerGroup);
  simt::model::RunConfig cfg;
  cfg.maxCycles = 20'000'000;
  r.res = rt::launch(r.ck, range, args, buffers, cfg, simt::cltest::engineFor(on), limits);
  return r;
}

// SplitMix64 as KERNELS.md defines rand: for f32 buffers.
std::vector<float> randFloats(uint64_t seed, size_t n) {
  rt::SplitMix64 g(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(static_cast<uint32_t>(g.next()) >> 8) / 16777216.0f;
  return v;
}

std::string listOf(const std::vector<uint32_t>& bits) {
  std::string s;
  for (size_t i = 0; i < bits.size(); ++i) s += (i ? "," : "") + std::string("0x") + [&] {
    char h[16];
    std::snprintf(h, sizeof h, "%08x", bits[i]);
    return std::string(h);
  }();
  return s;
}

#define EXPECT_RUN_OK(r) ASSERT_EQ((r).res.run.status, RunStatus::Ok) << (r).res.run.message << "\n" << (r).ck.assembly

// ---------------------------------------------------------------------------------------
// Bit-exact: every float operation of float_ops.cl over special and random operands.

constexpr uint32_t kNan = 0x7FC00000u;

// A result under the FPU's rules: flushed, NaN canonical.
uint32_t fpu(float r) { return std::isnan(r) ? kNan : bitsOf(ftz(r)); }

int32_t toS32(float x) {  // saturating, NaN -> 0, toward zero
  x = ftz(x);
  if (std::isnan(x)) return 0;
  const float t = std::trunc(x);
  if (t >= 2147483648.0f) return INT32_MAX;
  if (t < -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(t);
}
uint32_t toU32(float x) {
  x = ftz(x);
  if (std::isnan(x)) return 0;
  const float t = std::trunc(x);
  if (t >= 4294967296.0f) return UINT32_MAX;
  if (t <= 0.0f) return 0;
  return static_cast<uint32_t>(t);
}
float fminRef(float x, float y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == 0 && y == 0) return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
float fmaxRef(float x, float y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == 0 && y == 0) return std::signbit(x) ? y : x;
  return x > y ? x : y;
}

TEST(CompilerFloat, EveryOperationMatchesTheHostBitForBit) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> special = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, -2.5f, 2.5f, 3.0f,
                                      inf, -inf, std::nanf(""), floatOf(0x00000001u), floatOf(0x80400000u),
                                      1.17549435e-38f, 3.4e38f, -3.4e38f, 2147483648.0f, -2147483904.0f,
                                      4294967296.0f, 8388608.5f, 0.49999997f, 1e-20f, 123456.789f};
  std::vector<float> a, b, c;
  for (float x : special) {
    for (float y : special) {
      a.push_back(x);
      b.push_back(y);
      c.push_back(special[(a.size() * 7) % special.size()]);
    }
  }
  const auto r1 = randFloats(41, 3 * 128);
  for (size_t i = 0; i < 128; ++i) {  // random magnitudes and signs
    a.push_back((r1[i] - 0.5f) * std::ldexp(1.0f, static_cast<int>(i % 40) - 20));
    b.push_back((r1[128 + i] - 0.5f) * std::ldexp(1.0f, static_cast<int>(i % 23) - 11));
    c.push_back(r1[256 + i] * 4.0f - 2.0f);
  }
  const size_t n = (a.size() + 31) / 32 * 32;
  a.resize(n, 1.0f);
  b.resize(n, 2.0f);
  c.resize(n, 3.0f);
  std::vector<uint32_t> ab, bb, cb;
  for (size_t i = 0; i < n; ++i) {
    ab.push_back(bitsOf(a[i]));
    bb.push_back(bitsOf(b[i]));
    cb.push_back(bitsOf(c[i]));
  }
  const std::string N = std::to_string(n), N40 = std::to_string(40 * n);
  const FloatRun r = launch("float_ops.cl", N, "32",
                       {"buf:a:" + N + ":u32=list:" + listOf(ab), "buf:b:" + N + ":u32=list:" + listOf(bb),
                        "buf:c:" + N + ":u32=list:" + listOf(cb), "buf:f:" + N40 + ":f32", "buf:k:" + N40 + "=rand:9"});
  EXPECT_RUN_OK(r);
  const auto f = r.words("f"), k = r.words("k");
  rt::SplitMix64 g(9);
  std::vector<uint32_t> kInit(40 * n);
  for (auto& w : kInit) w = static_cast<uint32_t>(g.next());
  int failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    const float x = a[i], y = b[i], z = c[i];
    const float fx = ftz(x), fy = ftz(y), fz = ftz(z);
    const int32_t q39 = static_cast<int32_t>(kInit[40 * i + 39]);
    const uint32_t want[24] = {
        fpu(fx + fy), fpu(fx - fy), fpu(fx * fy), fpu(fx / fy), fpu(std::fma(fx, fy, fz)),
        fpu(std::sqrt(std::fabs(fx))), fpu(fminRef(fx, fy)), fpu(fmaxRef(fx, fy)),
        bitsOf(x) ^ 0x80000000u, bitsOf(y) & 0x7FFFFFFFu, (bitsOf(x) & 0x7FFFFFFFu) | (bitsOf(y) & 0x80000000u),
        fpu(std::floor(fx)), fpu(std::ceil(fx)), fpu(std::trunc(fx)), fpu(std::nearbyint(fx)),
        fpu(std::round(fx)), fx < fy ? bitsOf(x) : bitsOf(z),
        fpu(static_cast<float>(toS32(ftz(fx * 1000.0f)))), fpu(static_cast<float>(q39)),
        fpu(static_cast<float>(static_cast<uint32_t>(q39))), fpu(std::fma(fx, 3.0f, 0.25f)), fpu(2.0f - fx),
        fpu(1.0f / fy), fpu(std::fma(fx, 0.5f, fy))};
    // The rounding functions keep x's sign for zero results and return x's own bits for
    // |x| >= 2^23 (NaN canonical): what floorf & co. give after the flush.
    for (int j = 0; j < 24; ++j) {
      if (f[40 * i + j] != want[j]) {
        ADD_FAILURE() << "o[" << j << "] for x=" << x << " (0x" << std::hex << bitsOf(x) << ") y=" << y << " (0x"
                      << bitsOf(y) << ") z=" << z << ": got 0x" << f[40 * i + j] << " want 0x" << want[j] << std::dec;
        ++failures;
      }
    }
    const bool un = std::isnan(fx) || std::isnan(fy);
    const int32_t wantK[22] = {fx == fy, fx != fy, fx < fy, fx <= fy, fx > fy, fx >= fy, std::isnan(fx), un, !un,
                               !(fx < fy), !(fx >= fy), !(fx == fy), toS32(fx), static_cast<int32_t>(toU32(fx)),
                               static_cast<int32_t>(bitsOf(x) ^ bitsOf(y)), fx > fy, fx < fy || fx > fy, fx == fz,
                               std::isinf(fy), static_cast<int32_t>(bitsOf(x) >> 31), std::isfinite(fx),
                               fx > 0 ? 1 : fx < 0 ? -1 : 0};
    for (int j = 0; j < 22; ++j) {
      if (static_cast<int32_t>(k[40 * i + j]) != wantK[j]) {
        ADD_FAILURE() << "q[" << j << "] for x=" << x << " (0x" << std::hex << bitsOf(x) << ") y=" << y << " (0x"
                      << bitsOf(y) << std::dec << "): got " << static_cast<int32_t>(k[40 * i + j]) << " want " << wantK[j];
        ++failures;
      }
    }
  }
  // The operations are the FPU's instructions, not library calls.
  for (const char* op : {"fadd", "fsub", "fmul", "fdiv", "ffma", "fsqrt", "fmin", "fmax", "fneg", "fabs",
                         "fsetp.nan", "fsetp.neu", "fcvt.s32.f32.rz", "fcvt.u32.f32.rz", "fcvt.f32.s32.rn",
                         "fcvt.f32.u32.rn", "fcvt.s32.f32.rm", "fcvt.s32.f32.rp"}) {
    EXPECT_NE(r.ck.assembly.find(std::string(" ") + op + " "), std::string::npos) << op;
  }
}

// ---------------------------------------------------------------------------------------
// Kernels against double-precision references.

constexpr double kEps = 1.0 / 16777216.0;  // 2^-24: half an ulp at 1

TEST(CompilerFloat, SaxpyIsOneFusedMultiplyAddPerElement) {
  const int n = 200;
  const FloatRun r = launch("saxpy.cl", "224", "32",
                       {"f32:-1.75", "buf:x:224:f32=rand:1", "buf:y:224:f32=rand:2", "i32:" + std::to_string(n)});
  EXPECT_RUN_OK(r);
  const auto x = randFloats(1, 224), y0 = randFloats(2, 224), y = r.floats("y");
  for (int i = 0; i < 224; ++i) {
    // a * x + y contracts to one ffma (OpenCL's default FP_CONTRACT on): exactly fmaf.
    const float want = i < n ? std::fma(-1.75f, x[i], y0[i]) : y0[i];
    EXPECT_EQ(bitsOf(y[i]), bitsOf(want)) << i;
  }
  EXPECT_NE(r.ck.assembly.find("ffma"), std::string::npos);
}

// Issue 20, found on Rodinia's particlefilter: the SPIR target advertised cl_khr_fp64, so
// `x * 1.5` was double arithmetic and refused. Without doubles the literals are floats.
TEST(CompilerFloat, UnsuffixedLiteralsAreSinglePrecision) {
  const FloatRun r = launch("float_literals.cl", "64", "32",
                            {"buf:a:64:f32=rand:41", "buf:b:64:f32=rand:42"});
  EXPECT_RUN_OK(r);
  const auto a0 = randFloats(41, 64), b0 = randFloats(42, 64);
  const auto a = r.floats("a"), b = r.floats("b");
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(bitsOf(a[i]), bitsOf(ftz(std::fma(a0[i], 1.5f, 0.25f)))) << i;
    EXPECT_EQ(bitsOf(b[i]), bitsOf(ftz(b0[i] / 3.0f + static_cast<float>(1.0e-3)))) << i;
  }
  EXPECT_EQ(r.ck.assembly.find("double"), std::string::npos);
  EXPECT_NE(r.ck.diagnostics.find("casting to single precision"), std::string::npos)
      << r.ck.diagnostics;
}

TEST(CompilerFloat, DotProductWithALocalReduction) {
  const int n = 1000, groups = 4, local = 64;
  const FloatRun r = launch("dot.cl", std::to_string(groups * local), std::to_string(local),
                       {"buf:x:1000:f32=rand:3", "buf:y:1000:f32=rand:4", "buf:partial:4:f32",
                        "local:" + std::to_string(4 * local), "i32:" + std::to_string(n)});
  EXPECT_RUN_OK(r);
  const auto x = randFloats(3, n), y = randFloats(4, n), partial = r.floats("partial");
  double total = 0, got = 0, mag = 0;
  for (int g = 0; g < groups; ++g) {
    double s = 0, m = 0;
    for (int i = 0; i < n; ++i) {
      if ((i % (groups * local)) / local != g) continue;
      s += static_cast<double>(x[i]) * y[i];
      m += std::fabs(static_cast<double>(x[i]) * y[i]);
    }
    // Error bound of a float sum of k terms in any order: k * 2^-24 * sum |terms|.
    const double bound = (n / (groups * local) + 1 + 6) * kEps * m;
    EXPECT_NEAR(partial[g], s, bound) << "group " << g;
    total += s;
    got += partial[g];
    mag += m;
  }
  EXPECT_NEAR(got, total, n * kEps * mag);
}

TEST(CompilerFloat, TiledSgemm) {
  const int n = 32;
  const FloatRun r = launch("sgemm.cl", "32,32", "8,8",
                       {"buf:A:1024:f32=rand:5", "buf:B:1024:f32=rand:6", "buf:C:1024:f32=rand:7", "i32:32",
                        "f32:1.5", "f32:-0.5"});
  EXPECT_RUN_OK(r);
  const auto A = randFloats(5, 1024), B = randFloats(6, 1024), C0 = randFloats(7, 1024), C = r.floats("C");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double s = 0, m = 0;
      for (int k = 0; k < n; ++k) {
        s += static_cast<double>(A[i * n + k]) * B[k * n + j];
        m += std::fabs(static_cast<double>(A[i * n + k]) * B[k * n + j]);
      }
      const double want = 1.5 * s - 0.5 * C0[i * n + j];
      const double bound = (n + 2) * kEps * (1.5 * m + 0.5 * std::fabs(C0[i * n + j])) * 2;
      EXPECT_NEAR(C[i * n + j], want, bound) << i << "," << j;
    }
  }
  EXPECT_NE(r.ck.assembly.find("ffma"), std::string::npos);
}

TEST(CompilerFloat, FivePointStencil) {
  const int w = 20, h = 12;
  const FloatRun r = launch("stencil5.cl", "24,12", "8,4",
                       {"buf:in:240:f32=rand:8", "buf:out:240:f32=const:-1", "i32:20", "i32:12", "f32:0.5",
                        "f32:0.125"});
  EXPECT_RUN_OK(r);
  const auto in = randFloats(8, 240), out = r.floats("out");
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int i = y * w + x;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        EXPECT_EQ(bitsOf(out[i]), bitsOf(in[i])) << x << "," << y;
        continue;
      }
      const double nb = static_cast<double>(in[i - 1]) + in[i + 1] + in[i - w] + in[i + w];
      const double want = 0.5 * in[i] + 0.125 * nb;
      EXPECT_NEAR(out[i], want, 6 * kEps * (0.5 * in[i] + 0.125 * nb)) << x << "," << y;
    }
  }
}

TEST(CompilerFloat, NBodyStep) {
  const int n = 64;
  const FloatRun r = launch("nbody.cl", "64", "32",
                       {"buf:pos:192:f32=rand:10", "buf:vel:192:f32=rand:11", "buf:newpos:192:f32", "i32:64",
                        "f32:0.01", "f32:0.01", "local:384"});
  EXPECT_RUN_OK(r);
  const auto pos = randFloats(10, 192), vel0 = randFloats(11, 192), vel = r.floats("vel"), np = r.floats("newpos");
  for (int i = 0; i < n; ++i) {
    double acc[3] = {0, 0, 0}, mag = 0;
    for (int j = 0; j < n; ++j) {
      double d[3], r2 = 0.01;
      for (int c = 0; c < 3; ++c) {
        d[c] = static_cast<double>(pos[3 * j + c]) - pos[3 * i + c];
        r2 += d[c] * d[c];
      }
      const double s = 1.0 / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c) acc[c] += d[c] * s;
      mag += std::sqrt(r2) * s;
    }
    for (int c = 0; c < 3; ++c) {
      const double v = vel0[3 * i + c] + 0.01 * acc[c];
      // Each pairwise term carries a few ulp (sqrt, divide, cube); the sum adds n ulp.
      const double bound = 0.01 * (n + 16) * kEps * mag * 2 + 4 * kEps * std::fabs(v);
      EXPECT_NEAR(vel[3 * i + c], v, bound) << "body " << i << " axis " << c;
      EXPECT_NEAR(np[3 * i + c], pos[3 * i + c] + 0.01 * v, 4 * kEps * (std::fabs(pos[3 * i + c]) + 0.01 * std::fabs(v)) + 0.01 * bound)
          << "body " << i << " axis " << c;
    }
  }
}

TEST(CompilerFloat, BlackScholesWithLibclcBuiltins) {
  const int n = 128;
  const FloatRun r = launch("black_scholes.cl", "128", "64",
                       {"buf:spot:128:f32=rand:12", "buf:strike:128:f32=rand:13", "buf:years:128:f32=rand:14",
                        "buf:call:128:f32", "buf:put:128:f32", "f32:0.04", "f32:0.3"});
  EXPECT_RUN_OK(r);
  const auto S = randFloats(12, n), K = randFloats(13, n), T = randFloats(14, n);
  const auto call = r.floats("call"), put = r.floats("put");
  auto cnd = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  for (int i = 0; i < n; ++i) {
    const double s = S[i], k = K[i], t = T[i];
    if (s <= 0 || k <= 0 || t <= 0) continue;
    const double sq = std::sqrt(t), d1 = (std::log(s / k) + (0.04 + 0.045) * t) / (0.3 * sq), d2 = d1 - 0.3 * sq;
    const double disc = std::exp(-0.04 * t);
    const double c = s * cnd(d1) - k * disc * cnd(d2), p = k * disc * cnd(-d2) - s * cnd(-d1);
    // Prices are differences of terms up to max(s, k): a relative 1e-5 of those (a few tens
    // of float ulp through log, exp and erfc) is the tolerance.
    const double scale = std::max(s, k);
    EXPECT_NEAR(call[i], c, 2e-5 * scale) << i << " s=" << s << " k=" << k << " t=" << t;
    EXPECT_NEAR(put[i], p, 2e-5 * scale) << i;
  }
}

// The RTL core's FP lanes (simt_sm_fpu) give the model's bits: saxpy, the reduction, the tiled
// matrix product, the stencil, the n-body step, Black-Scholes with libclc's built-ins and every
// operation on random bit patterns, on the core and in lockstep with the model (every register
// compared).
TEST(CompilerFloat, KernelsOnTheRtlCoreGiveTheModelsBits) {
  struct Case {
    std::string file, global, local, out;
    std::vector<std::string> args;
  };
  const Case cases[] = {
      {"saxpy.cl", "64", "32", "y", {"f32:2.5", "buf:x:64:f32=rand:3", "buf:y:64:f32=rand:4", "i32:64"}},
      {"dot.cl", "128", "64", "partial",
       {"buf:x:200:f32=rand:3", "buf:y:200:f32=rand:4", "buf:partial:2:f32", "local:256", "i32:200"}},
      {"sgemm.cl", "16,16", "8,8", "C",
       {"buf:A:256:f32=rand:5", "buf:B:256:f32=rand:6", "buf:C:256:f32=rand:7", "i32:16", "f32:1.5",
        "f32:-0.5"}},
      {"stencil5.cl", "24,12", "8,4", "out",
       {"buf:in:240:f32=rand:8", "buf:out:240:f32=const:-1", "i32:20", "i32:12", "f32:0.5", "f32:0.125"}},
      {"nbody.cl", "64", "32", "newpos",
       {"buf:pos:192:f32=rand:10", "buf:vel:192:f32=rand:11", "buf:newpos:192:f32", "i32:64", "f32:0.01",
        "f32:0.01", "local:384"}},
      // Random bit patterns: NaNs, infinities, subnormals and all, through every operation.
      {"float_ops.cl", "32", "32", "f",
       {"buf:a:32=rand:1", "buf:b:32=rand:2", "buf:c:32=rand:3", "buf:f:1280:f32", "buf:k:1280=rand:9"}},
      // libclc's log, exp and erfc: 1,186 instructions, in the core's 4,096-word code memory.
      {"black_scholes.cl", "64", "32", "call",
       {"buf:spot:64:f32=rand:12", "buf:strike:64:f32=rand:13", "buf:years:64:f32=rand:14", "buf:call:64:f32",
        "buf:put:64:f32", "f32:0.04", "f32:0.3"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const FloatRun model = launch(c.file, c.global, c.local, c.args, On::Model);
    ASSERT_EQ(model.res.run.status, RunStatus::Ok) << model.res.run.message;
    for (On on : {On::Rtl, On::Cosim}) {
      const FloatRun core = launch(c.file, c.global, c.local, c.args, on);
      ASSERT_EQ(core.res.run.status, RunStatus::Ok) << core.res.run.message;
      EXPECT_EQ(core.words(c.out), model.words(c.out)) << (on == On::Rtl ? "rtl" : "cosim");
    }
  }
}

// pow, erfc and tgamma from libclc within OpenCL 1.2's 16 ulp (docs/compiler.md, "FP32", the
// accuracy table): 4,096 inputs per range, uniform from SplitMix64 seed 5 (SIMT_SEED picks
// another), the error in ulp against the host's double-precision function at the kernel's own
// x (the kernel's lo + (hi - lo) * r is one fused multiply-add, and pow's constant operand is
// the float 1.3f, not 1.3: a reference that differs in either is off by tens of ulp), results
// in the flushed range skipped. erfc near 8 (libclc's z & 0xfffff000) and tgamma (libclc's
// exp(lgamma(x))) were 62.8 and 168.6 ulp before float_builtins.cpp's patchErfc and wrapTgamma.
struct UlpFigures {
  double maxUlp = 0, meanUlp = 0, worstX = 0;
  int counted = 0;
  std::vector<uint32_t> bits;
};

UlpFigures measureLibm(const std::string& kernel, float lo, float hi, float a, uint64_t seed, int n,
                       const std::function<double(double)>& ref, On on = On::Model) {
  cc::CompileOptions opt;
  opt.kernel = kernel;
  const cc::CompiledKernel ck = cc::compileFile(std::string(SIMT_CL_KERNEL_DIR) + "/libm_accuracy.cl", opt);
  char f[3][48];
  std::snprintf(f[0], sizeof f[0], "f32:%.9g", lo);
  std::snprintf(f[1], sizeof f[1], "f32:%.9g", hi);
  std::snprintf(f[2], sizeof f[2], "f32:%.9g", a);
  const std::string N = std::to_string(n);
  const std::vector<std::string> specs = {"buf:r:" + N + ":f32=rand:" + std::to_string(seed), "buf:x:" + N + ":f32",
                                          "buf:y:" + N + ":f32", f[0], f[1], f[2]};
  const rt::LaunchResult res = simt::cltest::launchSpecs(ck, N, "64", specs, on, 50'000'000);
  UlpFigures u;
  EXPECT_EQ(res.run.status, RunStatus::Ok) << kernel << ": " << res.run.message;
  if (res.run.status != RunStatus::Ok) return u;
  const auto x = simt::cltest::bufferWords(res.buffers, "x");
  u.bits = simt::cltest::bufferWords(res.buffers, "y");
  for (int i = 0; i < n; ++i) {
    const double e = simt::cltest::ulpError(floatOf(u.bits[i]), ref(floatOf(x[i])));
    if (e < 0) continue;
    if (e > u.maxUlp) u.maxUlp = e, u.worstX = floatOf(x[i]);
    u.meanUlp += e;
    ++u.counted;
  }
  if (u.counted) u.meanUlp /= u.counted;
  return u;
}

TEST(CompilerFloat, PowErfcTgammaFromLibclcWithinOpenCLsUlp) {
  const uint64_t seed = simt::cltest::seedFromEnv(5);
  const double b = 1.3f, p = 1.7f;  // the kernel's operands, as floats
  const struct {
    const char* name;
    const char* kernel;
    float lo, hi, a;
    std::function<double(double)> ref;
  } cases[] = {
      {"pow(1.3f, x)", "pow_base", -100.0f, 100.0f, 1.3f, [b](double x) { return std::pow(b, x); }},
      {"pow(x, 1.7f)", "pow_exponent", 0.0f, 100.0f, 1.7f, [p](double x) { return std::pow(x, p); }},
      {"erfc", "erfc_of", -5.0f, 9.0f, 0.0f, [](double x) { return std::erfc(x); }},
      {"erfc", "erfc_of", 7.9375f, 8.0f, 0.0f, [](double x) { return std::erfc(x); }},  // libclc's bad window
      {"tgamma", "tgamma_of", 0.1f, 30.0f, 0.0f, [](double x) { return std::tgamma(x); }},
      {"tgamma", "tgamma_of", -33.0f, -0.1f, 0.0f, [](double x) { return std::tgamma(x); }},
  };
  for (const auto& c : cases) {
    const UlpFigures u = measureLibm(c.kernel, c.lo, c.hi, c.a, seed, 4096, c.ref);
    std::printf("%s on [%g, %g]: max %.2f ulp (x = %.9g), mean %.3f, %d results (SIMT_SEED=%llu)\n", c.name, c.lo, c.hi,
                u.maxUlp, u.worstX, u.meanUlp, u.counted, static_cast<unsigned long long>(seed));
    EXPECT_LE(u.maxUlp, 16.0) << c.name << " on [" << c.lo << ", " << c.hi << "] at x = " << u.worstX
                              << ", replay with SIMT_SEED=" << seed;
    EXPECT_GT(u.counted, 3000) << c.name;  // the comparison ran
  }
}

// The replaced erfc and tgamma on the RTL core give the model's bits (their code fits the
// core's code memory, one built-in per kernel).
TEST(CompilerFloat, ErfcTgammaOnTheCoreGiveTheModelsBits) {
  for (const char* k : {"erfc_of", "tgamma_of"}) {
    SCOPED_TRACE(k);
    const float lo = std::string(k) == "erfc_of" ? 7.0f : -33.0f, hi = std::string(k) == "erfc_of" ? 9.0f : 36.0f;
    const auto id = [](double x) { return x; };
    const UlpFigures model = measureLibm(k, lo, hi, 0.0f, 5, 256, id, On::Model);
    const UlpFigures core = measureLibm(k, lo, hi, 0.0f, 5, 256, id, On::Rtl);
    EXPECT_EQ(core.bits, model.bits);
  }
}

}  // namespace
