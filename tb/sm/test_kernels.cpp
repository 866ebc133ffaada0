// The kernel suite (sim/kernels/*.s) on the ISA model, on the verilated core (engine rtl) and
// on both in lockstep (engine cosim), in both divergence modes. Each kernel
// states what it must produce in comment lines:
//   ; expect[ deque| stack]: status ok|deadlock|timeout|error   (alternatives with '|')
//   ; expect[ deque| stack]: LABEL = v0 v1 ...                  (global words at LABEL)
//   ; expect[ deque| stack]: message TEXT                       (in the run's message)
//   ; expect[ deque| stack]: stat NAME =|>=|<= N                (a statistics counter)
//   ; check[ deque| stack]: NAME                                (a property checker below)
//   ; policies: lrr                  (only these scheduler policies: the kernel times warps
//                                     against each other with delay loops, which needs the
//                                     fairness of round robin; default: lrr and gto)
// Without a status line a kernel must end ok. A kernel without any expectation fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"
#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"
#include "sm/kernel_checkers.h"

namespace simt::model {
namespace {

namespace fs = std::filesystem;
using tb::kernelCheckers;
using tb::words;

struct Expectations {
  std::set<std::string> status;  // empty: ok
  std::map<std::string, std::vector<uint32_t>> memory;
  std::vector<std::string> checks;
  std::vector<std::string> messages;  // substrings of the fault/deadlock/timeout message
  struct Stat {
    std::string name, op;
    uint64_t value;
  };
  std::vector<Stat> stats;
  uint64_t maxCycles = 2'000'000;
  std::set<std::string> policies{"lrr", "gto"};
  bool any = false;
};

// Lines "; expect: ..." apply to both modes, "; expect stack: ..." to one.
Expectations parseExpectations(const std::string& path, DivergenceMode mode) {
  Expectations e;
  std::ifstream f(path);
  std::string line;
  const std::string modeName = mode == DivergenceMode::Deque ? "deque" : "stack";
  while (std::getline(f, line)) {
    std::istringstream is(line);
    std::string semi, key;
    is >> semi >> key;
    if (semi != ";") continue;
    std::string forMode;
    if (key == "policies:") {
      e.policies.clear();
      std::string p;
      while (is >> p) e.policies.insert(p);
      continue;
    }
    if (key == "expect" || key == "check" || key == "max-cycles") {
      is >> forMode;
      if (forMode.empty() || forMode.back() != ':') continue;
      forMode.pop_back();
    } else if (key == "expect:" || key == "check:" || key == "max-cycles:") {
      key.pop_back();
    } else {
      continue;
    }
    if (!forMode.empty() && forMode != modeName) {
      e.any = true;
      continue;
    }
    e.any = true;
    if (key == "check") {
      std::string name;
      is >> name;
      e.checks.push_back(name);
    } else if (key == "max-cycles") {
      is >> e.maxCycles;
    } else {
      std::string first;
      is >> first;
      if (first == "message") {
        std::string rest;
        std::getline(is >> std::ws, rest);
        e.messages.push_back(rest);
      } else if (first == "stat") {
        Expectations::Stat st;
        is >> st.name >> st.op >> st.value;
        e.stats.push_back(st);
      } else if (first == "status") {
        std::string alts;
        is >> alts;
        std::stringstream ss(alts);
        std::string s;
        while (std::getline(ss, s, '|')) e.status.insert(s);
      } else {
        std::string eq;
        is >> eq;
        uint64_t v;
        auto& words = e.memory[first];
        while (is >> v) words.push_back(static_cast<uint32_t>(v));
      }
    }
  }
  return e;
}

enum class Engine { Model, Rtl, Cosim };

struct KernelCase {
  std::string path;
  DivergenceMode mode;
  SchedPolicy policy = SchedPolicy::Lrr;
  Engine engine = Engine::Model;
};

std::vector<KernelCase> allCases() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(SIMT_KERNEL_DIR)) {
    if (e.path().extension() == ".s") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<KernelCase> cases;
  for (const auto& f : files) {
    for (auto mode : {DivergenceMode::Deque, DivergenceMode::Stack}) {
      const auto policies = parseExpectations(f, mode).policies;
      // Results must not depend on the policy, unless the kernel says it times warps.
      for (auto engine : {Engine::Model, Engine::Rtl, Engine::Cosim}) {
        if (policies.count("lrr")) cases.push_back({f, mode, SchedPolicy::Lrr, engine});
        if (policies.count("gto")) cases.push_back({f, mode, SchedPolicy::Gto, engine});
      }
    }
  }
  return cases;
}

void PrintTo(const KernelCase& c, std::ostream* os) {
  *os << c.path << (c.mode == DivergenceMode::Deque ? " (deque" : " (stack")
      << (c.policy == SchedPolicy::Gto ? ", gto" : ", lrr")
      << (c.engine == Engine::Rtl ? ", rtl)" : c.engine == Engine::Cosim ? ", cosim)" : ", model)");
}

class Kernel : public ::testing::TestWithParam<KernelCase> {};

constexpr uint64_t kRtlCycleFactor = 20;

TEST_P(Kernel, MeetsExpectations) {
  const KernelCase& kc = GetParam();
  const Expectations e = parseExpectations(kc.path, kc.mode);
  ASSERT_TRUE(e.any) << kc.path << " states no expectation";
  const auto k = assembler::assembleFile(kc.path);
  RunConfig cfg;
  cfg.divergence = kc.mode;
  cfg.policy = kc.policy;
  cfg.maxCycles = e.maxCycles;
  // The core runs one instruction at a time in several cycles (docs/blocks/sm.md): a kernel
  // that must finish gets kRtlCycleFactor times the model's budget. A kernel expected to
  // time out keeps the model's budget (it must not finish either way).
  const std::set<std::string> wantStatus = e.status.empty() ? std::set<std::string>{"ok"} : e.status;
  if (kc.engine != Engine::Model && !wantStatus.count("timeout")) cfg.maxCycles *= kRtlCycleFactor;
  // The RTL runs against the default memory (what `simt run` gives users), the co-simulation
  // against the fastest (1 cycle, a line per cycle): both timings are covered.
  if (kc.engine == Engine::Cosim) {
    cfg.memLatency = 1;
    cfg.memBandwidth = 64;
  }
  RunResult r;
  if (kc.engine == Engine::Model) {
    r = SmModel(k, cfg).run();
  } else if (kc.engine == Engine::Rtl) {
    r = rtl::SmRtl(k, cfg).run();
  } else {
    r = cosim::Cosim(k, cfg).run();
  }
  const std::string status = runStatusName(r.status);
  const std::set<std::string> want = e.status.empty() ? std::set<std::string>{"ok"} : e.status;
  ASSERT_TRUE(want.count(status)) << "status " << status << "\n" << r.message;
  if (r.status != RunStatus::Ok) {
    EXPECT_FALSE(r.message.empty()) << "a failing run must say why";
  }
  for (const auto& m : e.messages) {
    EXPECT_NE(r.message.find(m), std::string::npos) << "message lacks '" << m << "':\n" << r.message;
  }
  for (const auto& st : e.stats) {
    const uint64_t got = r.stats.count(st.name) ? r.stats.at(st.name) : 0;
    if (st.op == "=") EXPECT_EQ(got, st.value) << st.name;
    else if (st.op == ">=") EXPECT_GE(got, st.value) << st.name;
    else if (st.op == "<=") EXPECT_LE(got, st.value) << st.name;
    else ADD_FAILURE() << "bad stat comparison '" << st.op << "'";
  }
  for (const auto& [label, expect] : e.memory) {
    ASSERT_TRUE(k.dataLabels.count(label)) << "no label " << label;
    const auto got = words(k, r, label);
    ASSERT_GE(got.size(), expect.size()) << label;
    for (size_t i = 0; i < expect.size(); ++i) {
      EXPECT_EQ(got[i], expect[i]) << label << "[" << i << "]";
    }
  }
  for (const auto& name : e.checks) {
    ASSERT_TRUE(kernelCheckers().count(name)) << "unknown checker " << name;
    SCOPED_TRACE("check " + name);
    kernelCheckers().at(name)(k, r, cfg);
  }
}

std::string caseName(const ::testing::TestParamInfo<KernelCase>& info) {
  std::string n = fs::path(info.param.path).stem().string();
  return n + (info.param.mode == DivergenceMode::Deque ? "_deque" : "_stack") +
         (info.param.policy == SchedPolicy::Gto ? "_gto" : "") +
         (info.param.engine == Engine::Rtl ? "_rtl" : info.param.engine == Engine::Cosim ? "_cosim" : "");
}

INSTANTIATE_TEST_SUITE_P(Suite, Kernel, ::testing::ValuesIn(allCases()), caseName);

}  // namespace
}  // namespace simt::model

// ---- the ISA model beyond the kernel files ------------------------------------------------
namespace simt::model {
namespace {

RunResult runSource(const std::string& src, RunConfig cfg = {}) {
  const auto k = assembler::assemble(src, "inline.s");
  SmModel sm(k, cfg);
  return sm.run();
}

TEST(IsaModel, MoreCtasThanSlotsLaunchAsSlotsFree) {
  // 12 CTAs of 3 warps on 8 warp slots: at most 2 resident at once; each writes its ids.
  const std::string src =
      ".launch ctas=12 threads=96\n.data\nout: .zero 4608\n.text\n"
      "mov r1, %gtid\nshl r2, r1, 2\nmov r3, %ctaid\nmul r3, r3, 1000\nmov r4, %tid\n"
      "add r3, r3, r4\nst.global [r2+out], r3\nexit\n";
  const auto k = assembler::assemble(src, "inline.s");
  SmModel sm(k, RunConfig{});
  const RunResult r = sm.run();
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  for (uint32_t g = 0; g < 12 * 96; ++g) EXPECT_EQ(r.global[g], (g / 96) * 1000 + g % 96) << g;
  EXPECT_EQ(r.stats.at("ctas"), 12u);
  EXPECT_EQ(r.stats.at("max_resident_ctas"), 2u) << "3 warps per CTA on 8 warp slots";
}

TEST(IsaModel, ACtaOf1024ThreadsGetsEnoughWarpSlots) {
  const std::string src =
      ".launch ctas=2 threads=1024\n.shared 4096\n.data\nout: .zero 8192\n.text\n"
      "mov r1, %tid\nshl r2, r1, 2\nst.shared [r2], r1\nbar.sync 0\nxor r3, r1, 1023\n"
      "shl r3, r3, 2\nld.shared r4, [r3]\nmov r5, %gtid\nshl r5, r5, 2\nst.global [r5+out], r4\nexit\n";
  const RunResult r = runSource(src);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  for (uint32_t g = 0; g < 2048; ++g) EXPECT_EQ(r.global[g], 1023 - g % 1024) << g;
}

TEST(IsaModel, IllegalInstructionFaultsWithWarpAndPc) {
  auto k = assembler::assemble("nop\nnop\nexit\n", "inline.s");
  k.code[1] = 0x7F;  // an opcode no instruction has
  SmModel sm(k, RunConfig{});
  const RunResult r = sm.run();
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("illegal instruction"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("pc 1"), std::string::npos) << r.message;
}

TEST(IsaModel, JumpOutsideTheCodeFaults) {
  const RunResult r = runSource("mov r1, 1000\njmx r1\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("instruction address out of range"), std::string::npos) << r.message;
}

TEST(IsaModel, SharedOutOfRangeFaultsWithThread) {
  const RunResult r = runSource(".shared 16\nmov r1, %tid\nshl r1, r1, 2\nld.shared r2, [r1]\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("shared access out of range at 16"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("thread 4"), std::string::npos) << r.message;
}

TEST(IsaModel, TrapFaults) {
  const RunResult r = runSource("trap\n");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("fault: trap"), std::string::npos) << r.message;
}

TEST(IsaModel, MaxCyclesStopsWithTimeout) {
  RunConfig cfg;
  cfg.maxCycles = 100;
  const RunResult r = runSource("loop: bra loop\n", cfg);
  EXPECT_EQ(r.status, RunStatus::Timeout);
  EXPECT_EQ(r.cycles, 100u);
  EXPECT_EQ(exitCode(r.status), 3);
}

TEST(IsaModel, StrandedThreadsAreADeadlockNamingThem) {
  // `sync` without a label and without a SYNC token: the threads wait for nothing.
  const RunResult r = runSource("sync\nexit\n");
  EXPECT_EQ(r.status, RunStatus::Deadlock);
  EXPECT_NE(r.message.find("stranded"), std::string::npos) << r.message;
  EXPECT_EQ(exitCode(r.status), 2);
}

TEST(IsaModel, ClockReadsTheCycleCounter) {
  const RunResult r = runSource(
      ".launch ctas=1 threads=1\n.data\nt: .zero 8\n.text\nmov r1, %clock\nnop\nnop\n"
      "mov r2, %clock\nst.global [t], r1\nst.global [t+4], r2\nexit\n");
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.global[1] - r.global[0], 3u) << "one warp issues every cycle";
}

}  // namespace
}  // namespace simt::model
