// Differential random test: random integer expressions and control flow (if/else, loops with
// break and continue, while, switch, a helper function, a work-group barrier with a __local
// exchange) as an OpenCL kernel, compiled for the core by
// sim/compiler and run on the ISA model (some on cosim, some with few registers), and
// compiled for the host by clang-16 as C with a small shim; the outputs must agree.
// SIMT_SEED=<n> replays one program set, SIMT_REPEAT=<k> runs k times as many programs.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "cosim/cosim.h"
#include "runtime/cl_runtime.h"

namespace {

namespace cc = simt::compiler;
namespace rt = simt::runtime;

constexpr int kItems = 64;

class ProgramGen {
 public:
  explicit ProgramGen(uint64_t seed) : rng_(seed) {}

  // The same statements make the device kernel and the host program. Half the programs put
  // a work-group barrier between two phases with a __local exchange; the host runs the phases
  // as two loops over the work-items, which is what the barrier means.
  struct Program {
    std::string device, host;
    bool barrier = false;
  };

  Program generate() {
    Program p;
    std::ostringstream helper;
    // A helper the kernel calls (inlined, or a subroutine with CompileOptions::subroutines).
    helper << "__attribute__((noinline)) uint helper(uint a, uint b, uint c, uint d, uint i) {\n"
           << "  short s = (short)a;\n  char h = (char)b;\n";
    helper << stmts(1, 1, 3);
    helper << "  return a ^ (b << 3) ^ (c * 5u) ^ d ^ (uint)s ^ (uint)h;\n}\n";
    helperReady_ = true;
    const std::string init =
        "  uint a = in[i], b = in[(i * 7u + 3u) & 63u], c = i, d = in[63u - i];\n"
        "  short s = (short)in[(i + 5u) & 63u];\n  char h = (char)(in[i] >> 8);\n";
    const std::string phase1 = stmts(2, 1, 3);
    const std::string phase2 = stmts(2, 1, 3);
    const std::string finish =
        "  out[i] = a;\n  out[i + 64u] = b ^ (c << 1) ^ (uint)s;\n  out[i + 128u] = d + (uint)h;\n";
    p.barrier = pick(2) == 0;
    std::ostringstream dev;
    dev << helper.str() << "__kernel void rnd(__global const uint* in, __global uint* out) {\n";
    if (p.barrier) dev << "  __local uint sh[32];\n";
    dev << "  uint i = get_global_id(0);\n  uint l = get_local_id(0);\n" << init << phase1;
    if (p.barrier) {
      dev << "  sh[l] = a ^ d;\n  barrier(CLK_LOCAL_MEM_FENCE);\n  b ^= sh[(l * 5u + 1u) & 31u];\n";
    }
    dev << phase2 << finish << "}\n";
    p.device = dev.str();
    std::ostringstream host;
    host << helper.str()
         << "struct St { uint a, b, c, d; short s; char h; };\n"
            "static void run(const uint* in, uint* out) {\n"
            "  static struct St st[64];\n  static uint shm[2][32];\n"
            "  for (uint g = 0; g < 64u; ++g) {\n  uint i = g, l = g & 31u;\n  (void)l;\n"
         << init << phase1 << "  shm[g >> 5][l] = a ^ d;\n"
         << "  st[g].a = a; st[g].b = b; st[g].c = c; st[g].d = d; st[g].s = s; st[g].h = h;\n  }\n"
         << "  for (uint g = 0; g < 64u; ++g) {\n  uint i = g, l = g & 31u;\n  (void)l;\n"
         << "  uint a = st[g].a, b = st[g].b, c = st[g].c, d = st[g].d;\n  short s = st[g].s;\n  char h = st[g].h;\n"
         << (p.barrier ? "  b ^= shm[g >> 5][(l * 5u + 1u) & 31u];\n" : "") << phase2 << finish << "  }\n}\n";
    p.host = host.str();
    return p;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  std::string var() { return std::string(1, static_cast<char>('a' + pick(4))); }
  std::string indent(int level) { return std::string(2 * static_cast<size_t>(level) + 2, ' '); }

  std::string expr(int depth) {
    if (depth <= 0 || pick(4) == 0) {
      switch (pick(4)) {
        case 0: return std::to_string(rng_() % 2 ? rng_() % 16 : static_cast<uint32_t>(rng_())) + "u";
        case 1: return "i";
        default: return var();
      }
    }
    const std::string x = expr(depth - 1), y = expr(depth - 1);
    if (pick(6) == 0) {  // short and char arithmetic (promotions, sign extension, narrowing)
      switch (pick(6)) {
        case 0: return "(uint)(s * h)";
        case 1: return "(uint)(s >> (" + y + " & 7u))";
        case 2: return "(uint)((short)" + x + " < (short)" + y + ")";
        case 3: return "(uint)((char)" + x + " + h)";
        case 4: return "(uint)((ushort)" + x + " / (ushort)((" + y + " & 0xffu) | 1u))";
        default: return "(uint)((short)" + x + " % (short)((" + y + " & 0xffu) | 1u))";
      }
    }
    switch (pick(17)) {
      case 0: return "(" + x + " + " + y + ")";
      case 1: return "(" + x + " - " + y + ")";
      case 2: return "(" + x + " * " + y + ")";
      case 3: return "(" + x + " & " + y + ")";
      case 4: return "(" + x + " | " + y + ")";
      case 5: return "(" + x + " ^ " + y + ")";
      case 6: return "(" + x + " << (" + y + " & 31u))";
      case 7: return "(" + x + " >> (" + y + " & 31u))";
      case 8: return "(uint)((int)" + x + " >> (" + y + " & 31u))";
      case 9: return "(" + x + " / ((" + y + " & 0x7fffu) | 1u))";
      case 10: return "(" + x + " % ((" + y + " & 0x7fffu) | 1u))";
      case 11: return "(uint)((int)" + x + " / (int)((" + y + " & 0x7fffu) | 1u))";
      case 12: return "(uint)((int)" + x + " % (int)((" + y + " & 0x7fffu) | 1u))";
      case 13: return "(uint)(" + x + " < " + y + ")";
      case 14: return "(uint)((int)" + x + " <= (int)" + y + ")";
      case 15: return "(" + cond(depth - 1) + " ? " + x + " : " + y + ")";
      default: return "(uint)(uchar)(" + x + ")";
    }
  }

  std::string cond(int depth) {
    const std::string x = expr(depth), y = expr(depth);
    static const char* const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    const std::string op = ops[pick(6)];
    if (pick(2)) return "((int)" + x + " " + op + " (int)" + y + ")";
    return "(" + x + " " + op + " " + y + ")";
  }

  std::string stmts(int depth, int level, int n) {
    std::string s;
    const int count = 1 + pick(n);
    for (int k = 0; k < count; ++k) s += stmt(depth, level);
    return s;
  }

  std::string stmt(int depth, int level) {
    const std::string in = indent(level);
    const int kind = depth <= 0 ? 0 : pick(6);
    switch (kind) {
      case 1:
        return in + "if " + cond(2) + " {\n" + stmts(depth - 1, level + 1, 3) + in + "} else {\n" +
               stmts(depth - 1, level + 1, 3) + in + "}\n";
      case 2: {
        const std::string k = "k" + std::to_string(loop_++);
        std::string body = stmts(depth - 1, level + 1, 3);
        if (pick(2)) body += indent(level + 1) + "if " + cond(1) + " break;\n";
        if (pick(2)) body = indent(level + 1) + "if " + cond(1) + " continue;\n" + body;
        body += stmts(depth - 1, level + 1, 2);
        return in + "for (uint " + k + " = 0; " + k + " < (" + expr(1) + " & 7u); ++" + k + ") {\n" + body + in +
               "  " + var() + " += " + k + ";\n" + in + "}\n";
      }
      case 3: {
        const std::string n = "n" + std::to_string(loop_++);
        return in + "{\n" + in + "  uint " + n + " = " + expr(1) + " & 7u;\n" + in + "  while (" + n + " != 0u) {\n" +
               stmts(depth - 1, level + 2, 2) + in + "    --" + n + ";\n" + in + "  }\n" + in + "}\n";
      }
      case 4:
        return in + "switch (" + expr(1) + " & 3u) {\n" + in + "  case 0: " + assign() + " break;\n" + in +
               "  case 1: " + assign() + "\n" + in + "  case 2: " + assign() + " break;\n" + in + "  default: " +
               assign() + "\n" + in + "}\n";
      default:
        return in + assign() + "\n";
    }
  }

  std::string assign() {
    if (helperReady_ && pick(10) == 0) return var() + " = helper(" + var() + ", " + var() + ", c, d, i);";
    switch (pick(8)) {
      case 0: return "s = (short)(" + expr(2) + ");";
      case 1: return "h = (char)(" + expr(2) + ");";
      default: return var() + " = " + expr(3) + ";";
    }
  }

  std::mt19937_64 rng_;
  int loop_ = 0;
  bool helperReady_ = false;  // the helper is defined: kernel statements may call it
};

std::vector<uint32_t> inputs(uint64_t seed) {
  std::vector<uint32_t> v(kItems);
  rt::SplitMix64 g(seed);
  for (auto& x : v) x = static_cast<uint32_t>(g.next());
  return v;
}

std::string tempDir() {
  const char* t = std::getenv("TMPDIR");
  return std::string(t && *t ? t : "/tmp");
}

// A file in TMPDIR removed when the test leaves its scope (passed or failed).
class ScopedTempFile {
 public:
  explicit ScopedTempFile(std::string path) : path_(std::move(path)) {}
  ~ScopedTempFile() { std::remove(path_.c_str()); }
  ScopedTempFile(const ScopedTempFile&) = delete;
  ScopedTempFile& operator=(const ScopedTempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The host reference: the program's host text (the same statements) as C through clang-16.
bool hostRun(const std::string& program, const std::vector<uint32_t>& in, std::vector<uint32_t>& out, std::string& err) {
  const std::string base = tempDir() + "/simt_rnd_" + std::to_string(::getpid());
  std::ofstream c(base + ".c");
  c << "#include <stdio.h>\ntypedef unsigned int uint;\ntypedef unsigned char uchar;\n"
       "typedef unsigned short ushort;\n"
    << program << "int main(void) {\n  static const uint in[" << kItems << "] = {";
  for (size_t i = 0; i < in.size(); ++i) c << (i ? "," : "") << in[i] << "u";
  c << "};\n  static uint out[" << 3 * kItems << "];\n  run(in, out);\n  for (int i = 0; i < " << 3 * kItems
    << "; ++i) printf(\"%u\\n\", out[i]);\n  return 0;\n}\n";
  c.close();
  const std::string cmd = std::string(SIMT_HOST_CLANG) + " -O1 -w -x c " + base + ".c -o " + base + ".exe 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> p(::popen(cmd.c_str(), "r"), ::pclose);
  char buf[512];
  err.clear();
  while (p && std::fgets(buf, sizeof buf, p.get())) err += buf;
  p.reset();
  std::unique_ptr<FILE, int (*)(FILE*)> r(::popen((base + ".exe").c_str(), "r"), ::pclose);
  out.clear();
  unsigned v = 0;
  while (r && std::fscanf(r.get(), "%u", &v) == 1) out.push_back(v);
  r.reset();
  std::remove((base + ".c").c_str());
  std::remove((base + ".exe").c_str());
  return out.size() == 3 * kItems;
}

uint64_t envOr(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : dflt;
}

TEST(RandomPrograms, CoreAgreesWithHost) {
  const uint64_t seed0 = envOr("SIMT_SEED", 2026);
  const int programs = static_cast<int>(24 * envOr("SIMT_REPEAT", 1));
  int spilled = 0, diverged = 0, withCalls = 0, barriers = 0;
  for (int p = 0; p < programs; ++p) {
    const uint64_t seed = seed0 * 1000 + static_cast<uint64_t>(p);
    ProgramGen gen(seed);
    const ProgramGen::Program prog = gen.generate();
    const std::string& src = prog.device;
    barriers += prog.barrier;
    const ScopedTempFile source(tempDir() + "/simt_rnd_" + std::to_string(::getpid()) + ".cl");
    const std::string& path = source.path();
    std::ofstream(path) << src;
    cc::CompileOptions opt;
    if (p % 4 == 3) opt.maxRegisters = 7;  // heavy spilling
    if (p % 5 == 2) opt.structurize = true;
    if (p % 3 == 1) opt.subroutines = true;  // the helper as a subroutine (cal/ret)
    cc::CompiledKernel ck;
    try {
      ck = cc::compileFile(path, opt);
    } catch (const cc::CompileError& e) {
      FAIL() << e.what() << "\nreplay with SIMT_SEED=" << seed0 << " (program " << p << ")\n" << src;
    }
    spilled += ck.stats.spilledRegisters > 0;
    withCalls += ck.assembly.find(" cal F_helper") != std::string::npos;
    diverged += ck.stats.divergentBranches > 0;
    const auto in = inputs(seed);
    std::vector<uint32_t> want;
    std::string err;
    ASSERT_TRUE(hostRun(prog.host, in, want, err)) << "host build failed: " << err << "\n" << prog.host;
    std::vector<rt::Buffer> bufs(2);
    bufs[0].name = "in";
    bufs[0].type = rt::ElemType::U32;
    bufs[0].words = in;
    bufs[1].name = "out";
    bufs[1].type = rt::ElemType::U32;
    bufs[1].words.assign(3 * kItems, 0);
    std::vector<rt::KernelArg> args(2);
    args[0].kind = args[1].kind = rt::KernelArg::BufferArg;
    args[0].buffer = "in";
    args[1].buffer = "out";
    simt::model::RunConfig cfg;
    cfg.maxCycles = 20'000'000;
    const bool onCore = p % 6 == 5 && ck.stats.instructions < 1000;  // the core holds 1,024
    rt::Engine engine = onCore ? rt::Engine([](const simt::assembler::Kernel& k, const simt::model::RunConfig& c) {
      simt::cosim::Cosim co(k, c);
      return co.run();
    })
                               : rt::modelEngine();
    const auto res = rt::launch(ck, rt::parseRange("64", "32", 256), args, bufs, cfg, engine);
    ASSERT_EQ(res.run.status, simt::model::RunStatus::Ok)
        << res.run.message << "\nreplay with SIMT_SEED=" << seed0 << " (program " << p << ")\n" << src << ck.assembly;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(res.buffers[1].words[i], want[i])
          << "out[" << i << "] differs" << (onCore ? " (cosim)" : "") << "\nreplay with SIMT_SEED=" << seed0
          << " (program " << p << ")\n" << src << "\n" << ck.assembly;
    }
  }
  EXPECT_GT(spilled, 0);
  EXPECT_GT(diverged, programs / 2);
  EXPECT_GT(withCalls, 0);
  EXPECT_GT(barriers, 0);
  std::printf("random programs: %d (seed %llu), %d with divergent branches, %d spilling, %d calling a subroutine, "
              "%d with a barrier\n", programs, static_cast<unsigned long long>(seed0), diverged, spilled, withCalls,
              barriers);
}

}  // namespace
