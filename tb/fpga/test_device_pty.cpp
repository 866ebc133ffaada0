// `simt run --device` without a board: the verilated simt_fpga_uart_top behind a
// pseudo-terminal (tb/fpga/pty_board.h), the host on the pty's slave side through a real
// serial port (host::SerialPort: termios, raw, timeouts), in this process and as the simt
// binary. Kernels of the suite give the same status and data image (every --dump) as on
// --engine rtl, including one whose token queues overflow (re-centred through the FPGA top's
// maintenance registers) and the deadlock and fault reports; faults on the line are retried;
// a dead line ends in a clear error, never a hang.
//
// The simulated board moves some 5,000 bytes per second of real time (40 clocks a byte), so
// the host is told 9600 baud: the pty ignores the rate, and the client's timeouts, which
// scale with the line time, stay above the simulation's pace on a loaded machine.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

#include "asm/assembler.h"
#include "fpga/pty_board.h"
#include "host/device_engine.h"
#include "host/serial_port.h"
#include "rtl/sm_rtl.h"

namespace simt::tb {
namespace {

constexpr uint32_t kPtyBaud = 9600;

host::DeviceEngine::Options ptyOptions() {
  host::DeviceEngine::Options opt;
  opt.link.baud = kPtyBaud;
  opt.link.timeoutBits = kBoardTimeoutBits;
  // The board is a simulation sharing the machine with other jobs: an answer may come late
  // by the scheduler's whim (a helper saw 7 timeouts of 142 ms in a row under heavy load).
  // 200 ms on top of the line time; a dead line still ends within the test's 5 s.
  opt.link.latencyUs = 200'000;
  opt.link.retries = 6;
  return opt;
}

struct PtyRun {
  model::RunResult res;
  host::DeviceEngine::LinkReport link;
};

PtyRun runOnPty(const PtyBoard& board, const assembler::Kernel& k, const model::RunConfig& cfg) {
  host::SerialPort port(board.path(), kPtyBaud);
  host::DeviceEngine dev(port, ptyOptions());
  PtyRun r;
  r.res = dev.run(k, cfg);
  r.link = dev.lastLink();
  return r;
}

std::string kernelPath(const std::string& name) {
  return std::string(SIMT_KERNEL_DIR) + "/" + name;
}

// The text of a fault or deadlock report before its details (which differ: the device has
// no debug port).
std::string headline(const std::string& message) { return message.substr(0, message.find(" (")); }

struct SuiteCase {
  const char* kernel;
  model::DivergenceMode divergence;
  model::RunStatus status;
  bool overflows;     // its token queues overflow at the FPGA top's depth (16)
  bool sameCounters;  // a run without races: the same instruction counts at any geometry
};

// The name ctest shows (not the struct's bytes).
void PrintTo(const SuiteCase& c, std::ostream* os) { *os << c.kernel; }

class DevicePtySuite : public ::testing::TestWithParam<SuiteCase> {};

TEST_P(DevicePtySuite, RunsLikeTheRtlEngine) {
  const SuiteCase& c = GetParam();
  const auto k = assembler::assembleFile(kernelPath(c.kernel));
  model::RunConfig cfg;
  cfg.divergence = c.divergence;
  const model::RunResult ref = rtl::SmRtl(k, cfg).run();
  ASSERT_EQ(ref.status, c.status) << ref.message;
  PtyBoard board(baseSeed());
  const PtyRun dev = runOnPty(board, k, cfg);
  EXPECT_EQ(dev.res.status, c.status) << dev.res.message;
  EXPECT_EQ(dev.res.global, ref.global) << "the data image after the run (what --dump prints)";
  if (c.status == model::RunStatus::Error) {
    EXPECT_EQ(headline(dev.res.message), headline(ref.message));
  }
  EXPECT_GT(dev.res.cycles, 0u);
  EXPECT_EQ(dev.res.stats.at("threads_per_cta"), ref.stats.at("threads_per_cta"));
  if (c.sameCounters) {
    EXPECT_EQ(dev.res.instructions, ref.instructions);
    EXPECT_EQ(dev.res.threadInstructions, ref.threadInstructions);
    EXPECT_EQ(dev.res.stats.at("barrier_arrivals"), ref.stats.at("barrier_arrivals"));
  }
  if (c.overflows) {
    EXPECT_GT(dev.res.stats.at("queue_overflows"), 0u) << "re-centred through the host port";
  }
  EXPECT_EQ(board.linkErrors, 0u) << "a clean line: no frame answered with an error";
  EXPECT_TRUE(board.rtlOk);
  std::printf("DevicePty: %s: %s, %llu cycles, %llu queue overflows, %llu transactions, %.2f s\n",
              c.kernel, model::runStatusName(dev.res.status),
              static_cast<unsigned long long>(dev.res.cycles),
              static_cast<unsigned long long>(
                  dev.res.stats.count("queue_overflows") ? dev.res.stats.at("queue_overflows") : 0),
              static_cast<unsigned long long>(dev.link.stats.transactions), dev.link.seconds);
}

using model::DivergenceMode;
using model::RunStatus;
INSTANTIATE_TEST_SUITE_P(
    Kernels, DevicePtySuite,
    ::testing::Values(
        SuiteCase{"vector_add.s", DivergenceMode::Deque, RunStatus::Ok, false, true},
        SuiteCase{"bar_nested.s", DivergenceMode::Deque, RunStatus::Ok, false, true},
        SuiteCase{"spin_lock.s", DivergenceMode::Deque, RunStatus::Ok, true, false},
        SuiteCase{"atm.s", DivergenceMode::Deque, RunStatus::Ok, true, false},
        SuiteCase{"bar_tag_deadlock.s", DivergenceMode::Deque, RunStatus::Deadlock, false, false},
        SuiteCase{"fault_misaligned.s", DivergenceMode::Deque, RunStatus::Error, false, true}),
    [](const ::testing::TestParamInfo<SuiteCase>& i) {
      const std::string k = i.param.kernel;
      return k.substr(0, k.find('.'));
    });

// Faults at given bytes of each direction, each in another transaction (more than the
// longest frame apart): flipped bits and lost bytes in requests and answers. Every one costs
// an attempt; the run ends as on a clean line.
TEST(DevicePty, RetriesAbsorbFlippedBitsAndDroppedBytes) {
  const auto k = assembler::assembleFile(kernelPath("vector_add.s"));
  PtyRun ref;
  {
    PtyBoard clean(baseSeed());
    ref = runOnPty(clean, k, {});
  }
  ASSERT_EQ(ref.res.status, RunStatus::Ok) << ref.res.message;
  PtyBoard board(baseSeed());
  // The run's bytes, after the engine's geometry read (the bridge's status, then a burst),
  // whose retries the run's report does not count.
  namespace uart = host::uart;
  const uint64_t toBoard0 = host::requestBytes(uart::CmdStatus, 0) +
                            host::requestBytes(uart::CmdBurstRead, host::fpga_map::kGeometryWords);
  const uint64_t toHost0 = host::responseBytes(uart::CmdStatus, 0) +
                           host::responseBytes(uart::CmdBurstRead, host::fpga_map::kGeometryWords);
  for (uint64_t i : {30, 700}) board.faults.flipAt(LineFaults::ToBoard, toBoard0 + i);
  for (uint64_t i : {360, 1000}) board.faults.dropAt(LineFaults::ToBoard, toBoard0 + i);
  for (uint64_t i : {20, 640}) board.faults.flipAt(LineFaults::ToHost, toHost0 + i);
  for (uint64_t i : {330, 950}) board.faults.dropAt(LineFaults::ToHost, toHost0 + i);
  const PtyRun r = runOnPty(board, k, {});
  ASSERT_EQ(r.res.status, RunStatus::Ok) << r.res.message;
  EXPECT_EQ(r.res.global, ref.res.global);
  EXPECT_EQ(r.res.cycles, ref.res.cycles) << "the kernel ran once, as on a clean line";
  EXPECT_EQ(board.faults.flips, 4u);
  EXPECT_EQ(board.faults.drops, 4u);
  EXPECT_GE(r.link.stats.retries, 8u) << "one attempt per fault";
  EXPECT_GT(board.linkErrors, 0u) << "corrupt requests answered with an error";
  EXPECT_EQ(r.link.stats.transactions, ref.link.stats.transactions);
  std::printf("DevicePty: 8 faults: %llu retries, %.2f s (clean: %.2f s)\n",
              static_cast<unsigned long long>(r.link.stats.retries), r.link.seconds,
              ref.link.seconds);
}

TEST(DevicePty, ADeadLineEndsInNoAnswerSoon) {
  const auto k = assembler::assembleFile(kernelPath("vector_add.s"));
  PtyBoard board(baseSeed());
  board.faults.setDead(true);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    runOnPty(board, k, {});
    FAIL() << "a run over a dead line must not succeed";
  } catch (const host::LinkError& e) {
    EXPECT_EQ(e.kind(), host::LinkError::Kind::NoAnswer) << e.what();
    EXPECT_NE(std::string(e.what()).find("no answer"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("after 7 attempts"), std::string::npos) << e.what();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 5.0) << "bounded by the attempts' timeouts";
}

// A run's statistics without the link's (whose retries depend on timing).
std::map<std::string, uint64_t> coreStats(const model::RunResult& r) {
  std::map<std::string, uint64_t> s;
  for (const auto& [key, value] : r.stats) {
    if (key.rfind("link.", 0) != 0) s[key] = value;
  }
  return s;
}

// Two kernels one after the other on one board: the counters count from reset, the host
// reports each run's own.
TEST(DevicePty, BackToBackRunsReportTheirOwnCounters) {
  const auto k = assembler::assembleFile(kernelPath("vector_add.s"));
  PtyBoard board(baseSeed());
  const PtyRun a = runOnPty(board, k, {});
  const PtyRun b = runOnPty(board, k, {});
  ASSERT_EQ(a.res.status, RunStatus::Ok) << a.res.message;
  ASSERT_EQ(b.res.status, RunStatus::Ok) << b.res.message;
  EXPECT_EQ(a.res.global, b.res.global);
  EXPECT_EQ(a.res.cycles, b.res.cycles);
  EXPECT_EQ(a.res.instructions, b.res.instructions);
  EXPECT_EQ(coreStats(a.res), coreStats(b.res));
}

// --max-cycles on a board: the host stops waiting (status timeout) and stops the kernel (a
// core reset); the next run on the board runs as on a fresh one.
TEST(DevicePty, ATimeoutStopsTheKernelAndTheNextRunGoesOn) {
  const auto k = assembler::assembleFile(kernelPath("spin_lock.s"));
  PtyBoard board(baseSeed());
  model::RunConfig cfg;
  cfg.divergence = DivergenceMode::Stack;  // never finishes (seed 002)
  cfg.maxCycles = 20'000;
  const PtyRun a = runOnPty(board, k, cfg);
  EXPECT_EQ(a.res.status, RunStatus::Timeout) << a.res.message;
  EXPECT_GE(a.res.cycles, cfg.maxCycles);
  EXPECT_NE(a.res.message.find("timeout after"), std::string::npos) << a.res.message;
  const auto add = assembler::assembleFile(kernelPath("vector_add.s"));
  const PtyRun b = runOnPty(board, add, {});
  ASSERT_EQ(b.res.status, RunStatus::Ok) << b.res.message;
  const model::RunResult m = model::SmModel(add, {}).run();
  EXPECT_EQ(b.res.global, m.global);
  EXPECT_EQ(b.res.instructions, m.instructions);
}

// What the FPGA top cannot run is refused before anything is loaded (only the geometry is
// read): a CTA wider than its 2 warp slots, FP32 instructions (it has no FP lanes).
TEST(DevicePty, KernelsBeyondTheTopAreRefusedBeforeLoading) {
  PtyBoard board(baseSeed());
  host::SerialPort port(board.path(), kPtyBaud);
  host::DeviceEngine dev(port, ptyOptions());
  EXPECT_EQ(dev.geometry(), verilatedGeometry(BoardBuild::Default));
  const uint64_t geometryBytes = board.bytesToBoard;
  const std::pair<const char*, const char*> cases[] = {
      {"bar_sync.s", "a CTA of 96 threads needs more than the device's 2 warp slots"},
      {"fp32.s", "has FP32 instructions ("}};
  for (const auto& [name, words] : cases) {
    const model::RunResult r = dev.run(assembler::assembleFile(kernelPath(name)), {});
    EXPECT_EQ(r.status, RunStatus::Error) << name;
    EXPECT_NE(r.message.find(words), std::string::npos) << r.message;
    EXPECT_EQ(dev.lastLink().stats.transactions, 0u) << name;
  }
  EXPECT_EQ(board.bytesToBoard, geometryBytes) << "nothing sent after the geometry";
}

// The simt binary, as a user runs it.
struct Command {
  int status = -1;
  std::string out, err;
};

Command runCommand(const std::string& args) {
  const std::string errFile = ::testing::TempDir() + "simt_device_stderr.txt";
  const std::string cmd = std::string(SIMT_CLI) + " " + args + " 2>" + errFile;
  Command c;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return c;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) c.out.append(buf, n);
  const int st = ::pclose(p);
  c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream in(errFile);
  std::stringstream ss;
  ss << in.rdbuf();
  c.err = ss.str();
  return c;
}

TEST(DevicePtyCli, SimtRunDeviceGivesTheRtlEnginesJson) {
  PtyBoard board(baseSeed());
  const std::string kernel = kernelPath("vector_add.s") + " --dump c --dump a:8 --json -";
  const Command rtl = runCommand("run " + kernel);
  const Command dev = runCommand("run " + kernel + " --device " + board.path() + " --baud 9600");
  ASSERT_EQ(rtl.status, 0) << rtl.err;
  ASSERT_EQ(dev.status, 0) << dev.err;
  const auto jr = nlohmann::json::parse(rtl.out), jd = nlohmann::json::parse(dev.out);
  EXPECT_EQ(jd["status"], "ok");
  EXPECT_EQ(jd["engine"], "device");
  EXPECT_EQ(jd["memory"], jr["memory"]) << "the same dumps";
  EXPECT_EQ(jd["instructions"], jr["instructions"]);
  EXPECT_EQ(jd["stats"]["thread_instructions"], jr["stats"]["thread_instructions"]);
  EXPECT_EQ(jd["device"]["port"], board.path());
  EXPECT_EQ(jd["device"]["retries"], 0);
  EXPECT_GT(jd["device"]["payload_words"].get<int>(), 0);
  const host::DeviceGeometry g = verilatedGeometry(BoardBuild::Default);
  const auto& geo = jd["device"]["geometry"];
  EXPECT_EQ(geo["warp_slots"], g.warpSlots) << geo;
  EXPECT_EQ(geo["cta_warps"], g.ctaWarps) << geo;
  EXPECT_EQ(geo["max_threads_per_cta"], 64) << geo;
  EXPECT_EQ(geo["resident_ctas"], g.residentCtas) << geo;
  EXPECT_EQ(geo["queue_depth"], g.queueDepth) << geo;
  EXPECT_EQ(geo["imem_words"], g.imemWords) << geo;
  EXPECT_EQ(geo["param_words"], g.paramWords) << geo;
  EXPECT_EQ(geo["shared_bytes"], g.sharedBytes) << geo;
  EXPECT_EQ(geo["data_words"], g.dataWords) << geo;
  EXPECT_EQ(geo["fp_lanes"], false) << geo;

  // The summary: the engine's line and the dumps, then the link's.
  const Command sum = runCommand("run " + kernelPath("vector_add.s") + " --dump c:4 --device " +
                                 board.path() + " --baud 9600");
  ASSERT_EQ(sum.status, 0) << sum.err;
  EXPECT_NE(sum.out.find("ok (engine device, divergence deque)"), std::string::npos) << sum.out;
  EXPECT_NE(sum.out.find("  c: 101 105 109 113\n"), std::string::npos) << sum.out;
  EXPECT_NE(sum.out.find("  device " + board.path() + " at 9600 baud: "), std::string::npos)
      << sum.out;
  EXPECT_NE(sum.out.find("  device geometry: 2 warp slots (64 threads per CTA), 2 resident CTAs"),
            std::string::npos)
      << sum.out;
}

// The CLI's limits are the board's: bar_sync.s (a CTA of 96 threads) is refused by the
// default build (2 warp slots) and runs on the other (8 slots, CTAs of up to 4 warps) as on
// --engine rtl; the JSON says which board it was.
TEST(DevicePtyCli, TheLimitsAreTheBoardsGeometry) {
  const std::string kernel = kernelPath("bar_sync.s") + " --json -";
  const Command rtl = runCommand("run " + kernel);
  ASSERT_EQ(rtl.status, 0) << rtl.err;
  {
    PtyBoard board(baseSeed());
    const Command dev = runCommand("run " + kernel + " --device " + board.path() + " --baud 9600");
    EXPECT_EQ(dev.status, 1) << dev.err;
    EXPECT_NE(dev.err.find("a CTA of 96 threads needs more than the device's 2 warp slots"),
              std::string::npos)
        << dev.err;
  }
  PtyBoard board(baseSeed(), BoardBuild::Other);
  const Command dev = runCommand("run " + kernel + " --device " + board.path() + " --baud 9600");
  ASSERT_EQ(dev.status, 0) << dev.err;
  const auto jr = nlohmann::json::parse(rtl.out), jd = nlohmann::json::parse(dev.out);
  EXPECT_EQ(jd["memory"], jr["memory"]);
  EXPECT_EQ(jd["instructions"], jr["instructions"]);
  EXPECT_EQ(jd["device"]["geometry"]["warp_slots"], 8);
  EXPECT_EQ(jd["device"]["geometry"]["cta_warps"], 4);
  EXPECT_EQ(jd["device"]["geometry"]["data_words"], 4096);
  EXPECT_TRUE(board.rtlOk);
}

// An OpenCL kernel (one argument: the launch ABI's 15 words and it fit the top's 16 param
// words) through the compiler and the runtime onto the board.
TEST(DevicePtyCli, AnOpenClKernelRunsOnTheDevice) {
  PtyBoard board(baseSeed());
  const std::string kernel =
      std::string(SIMT_CL_KERNEL_DIR) + "/call.cl --global 64 --arg buf:out:64 --json -";
  const Command rtl = runCommand("run " + kernel);
  if (rtl.err.find("no OpenCL compiler") != std::string::npos) GTEST_SKIP() << rtl.err;
  const Command dev = runCommand("run " + kernel + " --device " + board.path() + " --baud 9600");
  ASSERT_EQ(rtl.status, 0) << rtl.err;
  ASSERT_EQ(dev.status, 0) << dev.err;
  const auto jr = nlohmann::json::parse(rtl.out), jd = nlohmann::json::parse(dev.out);
  EXPECT_EQ(jd["engine"], "device");
  EXPECT_EQ(jd["memory"], jr["memory"]);
  EXPECT_EQ(jd["instructions"], jr["instructions"]);
  EXPECT_EQ(jd["compile"]["kernel"], "call");
}

TEST(DevicePtyCli, ABoardThatDoesNotAnswerExitsWithStatus5) {
  PtyBoard board(baseSeed());
  board.faults.setDead(true);
  const Command c = runCommand("run " + kernelPath("vector_add.s") + " --device " + board.path() +
                               " --baud 115200");
  EXPECT_EQ(c.status, 5) << c.out << c.err;
  EXPECT_NE(c.err.find("the board does not answer"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find(board.path()), std::string::npos) << c.err;
  EXPECT_TRUE(c.out.empty()) << c.out;
}

}  // namespace
}  // namespace simt::tb
