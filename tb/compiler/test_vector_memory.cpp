// Vector types and vector memory in the OpenCL compiler (docs/compiler.md, "Vector types and
// vector memory"): float4/int4 kernels on the ISA model and the verilated core against host
// references; ld/st.global.v4 exactly where the access is global and 16-byte aligned; the
// allocator's register tuples (four consecutive registers, within the allocatable ones)
// under register pressure and in subroutines; what is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
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

using simt::cltest::Eng;
using simt::cltest::engineFor;
using simt::cltest::engName;

struct Launch {
  std::string file, global, local;
  std::vector<std::string> args;
  Eng engine = Eng::Model;
  int maxRegisters = 31;
  bool subroutines = false;
};

struct Outcome {
  cc::CompiledKernel ck;
  rt::LaunchResult res;
  std::vector<uint32_t> words(const std::string& name) const { return simt::cltest::bufferWords(res.buffers, name); }
};

cc::CompiledKernel compile(const std::string& file, int maxRegisters = 31,
                           bool subroutines = false) {
  cc::CompileOptions opt;
  opt.maxRegisters = maxRegisters;
  opt.subroutines = subroutines;
  return cc::compileFile(std::string(SIMT_CL_KERNEL_DIR) + "/" + file, opt);
}

Outcome run(const Launch& l) {
  Outcome o;
  o.ck = compile(l.file, l.maxRegisters, l.subroutines);
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> args;
  for (const auto& a : l.args) args.push_back(rt::parseArg(a, buffers));
  rt::DeviceLimits limits;
  const rt::NDRange range = rt::parseRange(l.global, l.local, limits.maxThreadsPerGroup);
  simt::model::RunConfig cfg;
  cfg.maxCycles = 5'000'000;
  o.res = rt::launch(o.ck, range, args, buffers, cfg, engineFor(l.engine), limits);
  return o;
}

#define EXPECT_OK(o) \
  ASSERT_EQ((o).res.run.status, RunStatus::Ok) << (o).res.run.message << "\n" << (o).ck.assembly

// The runtime's rand:SEED contents (KERNELS.md): words, and floats in [0, 1).
std::vector<uint32_t> randWords(uint64_t seed, size_t n) {
  rt::SplitMix64 g(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = static_cast<uint32_t>(g.next());
  return v;
}
std::vector<float> randFloats(uint64_t seed, size_t n) {
  std::vector<float> f;
  for (uint32_t w : randWords(seed, n)) f.push_back(static_cast<float>(w >> 8) / 16777216.0f);
  return f;
}
uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The first register of every ld/st.global.v4 in the assembly.
std::vector<int> tupleBases(const std::string& assembly) {
  std::vector<int> bases;
  static const std::regex ld(R"(ld\.global\.v4 r(\d+),)"),
      st(R"(st\.global\.v4 \[[^\]]*\], r(\d+))");
  for (const std::regex* re : {&ld, &st}) {
    for (std::sregex_iterator it(assembly.begin(), assembly.end(), *re), end; it != end; ++it) {
      bases.push_back(std::stoi((*it)[1]));
    }
  }
  return bases;
}

// ---------------------------------------------------------------------------------------
// Kernels against host references, on the model and the verilated core

class VectorKernels : public ::testing::TestWithParam<Eng> {};

TEST_P(VectorKernels, Float4CopyAndScale) {
  const int n = 64;
  const float k = 1.5f;
  Launch l{"vec4_copy.cl",
           "64",
           "32",
           {"buf:in:256:f32=rand:5", "buf:out:256:f32", "buf:scaled:256:f32", "f32:1.5"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = randFloats(5, 4 * n);
  const auto out = o.words("out"), scaled = o.words("scaled");
  for (int i = 0; i < 4 * n; ++i) {
    EXPECT_EQ(out[i], bits(in[i])) << i;
    // v * k + c contracts to one ffma (OpenCL's FP_CONTRACT): fmaf on the host, no subnormals
    EXPECT_EQ(scaled[i], bits(std::fmaf(in[i], k, static_cast<float>(i % 4 + 1)))) << i;
  }
}

TEST_P(VectorKernels, Int4ArithmeticSwizzlesAndSelect) {
  const int n = 64;
  Launch l{"vec4_arith.cl",
           "64",
           "32",
           {"buf:a:256=rand:1", "buf:b:256=rand:2", "buf:out:512", "buf:sums:64"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto a = randWords(1, 4 * n), b = randWords(2, 4 * n);
  const auto out = o.words("out"), sums = o.words("sums");
  for (int i = 0; i < n; ++i) {
    const uint32_t* x = &a[4 * i];
    const uint32_t* y = &b[4 * i];
    uint32_t r[4];
    for (int e = 0; e < 4; ++e) r[e] = x[e] * y[e] + x[3 - e];
    r[0] ^= y[3];
    const int32_t sub[4] = {i, 2 * i, 3, -4};
    for (int e = 0; e < 4; ++e) {
      r[e] = static_cast<uint32_t>(static_cast<int32_t>(r[e]) >> 3) - static_cast<uint32_t>(sub[e]);
      // select(r, r & 0xffff, x > y): the element where the comparison holds (-1) is masked
      if (static_cast<int32_t>(x[e]) > static_cast<int32_t>(y[e])) r[e] &= 0xffffu;
    }
    const uint32_t perm[4] = {r[3], r[1], r[2], r[0]};
    const uint32_t mixed[4] = {r[0] ^ y[1], r[1] ^ y[1], x[2] ^ y[1], x[3] ^ y[1]};
    for (int e = 0; e < 4; ++e) {
      EXPECT_EQ(out[8 * i + e], perm[e]) << i << "." << e;
      EXPECT_EQ(out[8 * i + 4 + e], mixed[e]) << i << "." << e;
    }
    EXPECT_EQ(sums[i], r[0] + r[1] + r[2] + r[3]) << i;
  }
}

TEST_P(VectorKernels, Vload4AtUnalignedOffsetsFallsBackToWords) {
  const int n = 64;
  Launch l{"vload_unaligned.cl", "64", "32", {"buf:in:260:f32=rand:9", "buf:out:264:f32=const:7"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = randFloats(9, 260);
  const auto out = o.words("out");
  for (int j = 0; j < 264; ++j) {
    const int i = (j - 3) / 4, e = (j - 3) % 4;
    if (j < 3 || i >= n) {
      EXPECT_EQ(out[j], bits(7.0f)) << j;  // untouched: the buffer's fill
      continue;
    }
    const float* v = &in[1 + 4 * i];
    const float swapped[4] = {v[1], v[0], v[3], v[2]};
    EXPECT_EQ(out[j], bits(std::fmaf(swapped[e], 2.0f, -v[e]))) << j;
  }
}

TEST_P(VectorKernels, Int4InLocalAndPrivateMemory) {
  const int n = 64, local = 32;
  Launch l{"vec4_spaces.cl", "64", "32", {"buf:in:256=rand:3", "buf:out:256", "local:512"}};
  l.engine = GetParam();
  const Outcome o = run(l);
  EXPECT_OK(o);
  const auto in = randWords(3, 4 * n);
  const auto out = o.words("out");
  for (int i = 0; i < n; ++i) {
    const int g = i / local * local, lid = i % local;
    uint32_t p[4][4];
    for (int k = 0; k < 4; ++k) {
      for (int e = 0; e < 4; ++e)
        p[k][e] = in[4 * (g + (lid + k) % local) + e] * static_cast<uint32_t>(k + 1);
    }
    for (int e = 0; e < 4; ++e) {
      EXPECT_EQ(out[4 * i + e], p[0][e] + p[1][e] + p[2][e] + p[3][e] + p[lid & 3][e])
          << i << "." << e;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(VectorMemory, VectorKernels, ::testing::Values(Eng::Model, Eng::Rtl),
                         [](const auto& info) { return std::string(engName(info.param)); });

// ---------------------------------------------------------------------------------------
// The code: v4 where global and 16-byte aligned, word accesses elsewhere

TEST(VectorMemory, AssemblyHasV4OnlyForAlignedGlobalAccesses) {
  const std::string copy = compile("vec4_copy.cl").assembly;
  EXPECT_EQ(count(copy, "ld.global.v4"), 1) << copy;
  EXPECT_EQ(count(copy, "st.global.v4"), 2) << copy;
  // The copied vector is stored from the loaded tuple itself: no moves in the kernel's body.
  EXPECT_EQ(count(copy.substr(copy.find("ld.global.v4")), "mov r"), 4) << copy;  // the constants

  const std::string arith = compile("vec4_arith.cl").assembly;
  EXPECT_EQ(count(arith, "ld.global.v4"), 2) << arith;
  EXPECT_EQ(count(arith, "st.global.v4"), 2) << arith;

  const std::string unaligned = compile("vload_unaligned.cl").assembly;
  EXPECT_EQ(count(unaligned, ".v4"), 0) << unaligned;
  EXPECT_EQ(count(unaligned, "ld.global r"), 4) << unaligned;
  EXPECT_EQ(count(unaligned, "st.global ["), 4) << unaligned;

  const std::string spaces = compile("vec4_spaces.cl").assembly;
  EXPECT_EQ(count(spaces, "ld.global.v4"), 1) << spaces;
  EXPECT_EQ(count(spaces, "st.global.v4"), 1) << spaces;
  EXPECT_EQ(count(spaces, "st.shared ["), 4) << spaces;
  EXPECT_GE(count(spaces, "ld.shared r"), 4) << spaces;
}

TEST(VectorMemory, TuplesAreConsecutiveRegistersWithinTheAllocatableOnes) {
  for (const char* file : {"vec4_copy.cl", "vec4_arith.cl", "vec4_spaces.cl", "vec4_pressure.cl"}) {
    const cc::CompiledKernel ck = compile(file);
    const auto bases = tupleBases(ck.assembly);
    EXPECT_FALSE(bases.empty()) << file;
    const bool frame = ck.assembly.find("frame pointer") != std::string::npos;
    for (int b : bases) EXPECT_LE(b + 3, frame ? 26 : 30) << file << "\n" << ck.assembly;
  }
}

// ---------------------------------------------------------------------------------------
// Register pressure: tuples with few registers (spilling), and the same results

class FewRegisters : public ::testing::TestWithParam<int> {};

TEST_P(FewRegisters, TuplesStillFitAndResultsAgree) {
  const int regs = GetParam();
  const int n = 64;
  Launch l{"vec4_pressure.cl", "64", "32", {"buf:in:1536=rand:21", "buf:out:1024"}};
  l.maxRegisters = regs;
  const Outcome o = run(l);
  EXPECT_OK(o);
  if (regs < 31) {
    EXPECT_GT(o.ck.stats.spilledRegisters, 0) << o.ck.assembly;
  }
  for (int b : tupleBases(o.ck.assembly)) EXPECT_LE(b + 3, std::min(regs, 27) - 1) << o.ck.assembly;
  EXPECT_EQ(count(o.ck.assembly, "ld.global.v4"), 6);
  EXPECT_EQ(count(o.ck.assembly, "st.global.v4"), 4);
  const auto in = randWords(21, 24 * n);
  const auto out = o.words("out");
  for (int i = 0; i < n; ++i) {
    const uint32_t* a = &in[24 * i];
    const uint32_t *b = a + 4, *c = a + 8, *d = a + 12, *e = a + 16, *f = a + 20;
    uint32_t s[4], t[4], ref[4][4];
    for (int k = 0; k < 4; ++k) {
      s[k] = a[k] * b[k] + c[k];
      t[k] = d[k] ^ e[(k + 1) % 4];
    }
    const uint32_t mix[4] = {b[0], c[1], d[2], e[3]};
    for (int k = 0; k < 4; ++k) {
      ref[0][k] = s[k] + f[k];
      ref[1][k] = t[k] - a[k];
      ref[2][k] = s[k] * t[k] + mix[k];
      ref[3][k] = f[3 - k] + (a[k] & b[k]) + (c[k] | d[k]);
    }
    for (int v = 0; v < 4; ++v) {
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(out[16 * i + 4 * v + k], ref[v][k]) << regs << ": " << i << "." << v << "." << k;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(VectorMemory, FewRegisters, ::testing::Values(31, 12, 8, 6, 4),
                         [](const auto& info) { return "r" + std::to_string(info.param); });

TEST(VectorMemory, FewRegistersOnTheCore) {
  Launch l{"vec4_pressure.cl", "64", "32", {"buf:in:1536=rand:21", "buf:out:1024"}};
  l.maxRegisters = 6;
  const Outcome model = run(l);
  EXPECT_OK(model);
  l.engine = Eng::Rtl;
  const Outcome core = run(l);
  EXPECT_OK(core);
  EXPECT_EQ(core.words("out"), model.words("out"));
}

// ---------------------------------------------------------------------------------------
// Subroutines: a callee's tuples are saved for its caller

TEST(VectorMemory, TuplesInASubroutine) {
  const int n = 64;
  for (Eng e : {Eng::Model, Eng::Cosim}) {
    Launch l{
        "vec4_helper.cl", "64", "32", {"buf:in:256:f32=rand:13", "buf:out:512:f32", "f32:3.0"}};
    l.subroutines = true;
    l.engine = e;
    const Outcome o = run(l);
    EXPECT_OK(o);
    EXPECT_NE(o.ck.assembly.find("F_scale4"), std::string::npos);
    EXPECT_EQ(count(o.ck.assembly, "ld.global.v4"), 2) << o.ck.assembly;
    const auto in = randFloats(13, 4 * n);
    const auto out = o.words("out");
    for (int i = 0; i < 4 * n; ++i) {
      EXPECT_EQ(out[i], bits(in[i] * 3.0f)) << engName(e) << " " << i;
      EXPECT_EQ(out[4 * n + i], bits(in[i] + 3.0f)) << engName(e) << " " << i;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Refused: a message naming the file and line

std::string compileError(const std::string& name, const std::string& text) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream(path) << text;
  try {
    cc::compileFile(path, cc::CompileOptions{});
  } catch (const cc::CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(VectorMemory, UnsupportedVectorUsesAreRefusedNamingTheLine) {
  // a vector kernel argument by value
  std::string e =
      compileError("byval.cl", "__kernel void k(int4 v, __global int* a) {\n  a[0] = v.x;\n}\n");
  EXPECT_NE(e.find("byval.cl:"), std::string::npos) << e;
  EXPECT_NE(e.find("(int4): this argument type is not supported"), std::string::npos) << e;
  // a built-in on vectors that has no element-wise form here
  e = compileError("half.cl",
                   "__kernel void k(__global const half* h, __global float4* o) {\n"
                   "  o[0] = vload_half4(0, h);\n}\n");
  EXPECT_NE(e.find("half.cl:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("vload_half4"), std::string::npos) << e;
}

TEST(VectorMemory, OtherVectorWidthsWorkElementWise) {
  // float2, int8 and char4 through global memory: element accesses or v4 chunks
  const std::string src =
      "__kernel void k(__global float2* f, __global int8* w, __global uchar4* c) {\n"
      "  int i = get_global_id(0);\n"
      "  f[i] = f[i].yx * 2.0f;\n"
      "  w[i] = w[i] + (int8)(1, 2, 3, 4, 5, 6, 7, 8);\n"
      "  c[i] = c[i].wzyx + (uchar4)(1);\n"
      "}\n";
  const std::string path = std::string(::testing::TempDir()) + "widths.cl";
  std::ofstream(path) << src;
  cc::CompileOptions opt;
  const cc::CompiledKernel ck = cc::compileFile(path, opt);
  EXPECT_EQ(count(ck.assembly, "ld.global.v4"), 2) << ck.assembly;  // int8: two tuples
  EXPECT_EQ(count(ck.assembly, "st.global.v4"), 2) << ck.assembly;
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> args;
  for (const char* a : {"buf:f:16:f32=rand:2", "buf:w:64=iota", "buf:c:8:u32=rand:4"}) {
    args.push_back(rt::parseArg(a, buffers));
  }
  rt::DeviceLimits limits;
  simt::model::RunConfig cfg;
  const rt::LaunchResult res = rt::launch(ck, rt::parseRange("8", "8", limits.maxThreadsPerGroup),
                                          args, buffers, cfg, rt::modelEngine(), limits);
  ASSERT_EQ(res.run.status, RunStatus::Ok) << res.run.message;
  const auto f = randFloats(2, 16);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(res.buffers[0].words[2 * i], bits(f[2 * i + 1] * 2.0f)) << i;
    EXPECT_EQ(res.buffers[0].words[2 * i + 1], bits(f[2 * i] * 2.0f)) << i;
  }
  for (uint32_t j = 0; j < 64; ++j) EXPECT_EQ(res.buffers[1].words[j], j + j % 8 + 1) << j;
  const auto c = randWords(4, 8);
  for (int i = 0; i < 8; ++i) {
    uint32_t ref = 0;
    for (int k = 0; k < 4; ++k) ref |= (((c[i] >> (8 * (3 - k)) & 0xffu) + 1u) & 0xffu) << (8 * k);
    EXPECT_EQ(res.buffers[2].words[i], ref) << i;  // bytes reversed, each plus 1 modulo 256
  }
}

TEST(VectorMemory, ConstantTableVload3LoopAndDot) {
  // a __constant float4 table (word loads at its label), vload3/vstore3 (stride three), a
  // float4 accumulated in a loop (a vector phi, split by the Scalarizer) and libclc's dot
  const std::string src =
      "__constant float4 tab[2] = {(float4)(1.0f, 2.0f, 3.0f, 4.0f),\n"
      "                            (float4)(5.0f, 6.0f, 7.0f, 8.0f)};\n"
      "__kernel void k(__global const float* in, __global float* out, __global float4* a) {\n"
      "  int i = get_global_id(0);\n"
      "  float3 v = vload3(i, in);\n"
      "  vstore3(v.zyx + (float3)(1.0f), i, out);\n"
      "  float4 acc = (float4)(0.0f);\n"
      "  for (int k = 0; k < i; ++k) acc += tab[k & 1] * (float)k;\n"
      "  a[i] = acc + (float4)(dot(tab[0], tab[1]));\n"
      "}\n";
  const std::string path = std::string(::testing::TempDir()) + "misc.cl";
  std::ofstream(path) << src;
  const cc::CompiledKernel ck = cc::compileFile(path, cc::CompileOptions{});
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> args;
  for (const char* a : {"buf:in:24:f32=iota", "buf:out:24:f32", "buf:a:32:f32"}) {
    args.push_back(rt::parseArg(a, buffers));
  }
  rt::DeviceLimits limits;
  simt::model::RunConfig cfg;
  const rt::LaunchResult res = rt::launch(ck, rt::parseRange("8", "8", limits.maxThreadsPerGroup),
                                          args, buffers, cfg, rt::modelEngine(), limits);
  ASSERT_EQ(res.run.status, RunStatus::Ok) << res.run.message;
  const float tab[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  for (int i = 0; i < 8; ++i) {
    for (int e = 0; e < 3; ++e) {
      EXPECT_EQ(res.buffers[1].words[3 * i + e], bits(static_cast<float>(3 * i + 2 - e) + 1.0f));
    }
    for (int e = 0; e < 4; ++e) {
      float acc = 0;
      for (int k = 0; k < i; ++k) acc += tab[k & 1][e] * static_cast<float>(k);
      EXPECT_EQ(res.buffers[2].words[4 * i + e], bits(acc + 70.0f)) << i << "." << e;
    }
  }
}

}  // namespace
