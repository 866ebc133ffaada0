// End to end without a board, in simulated time: simt_fpga_uart_top (the UART bridge in front
// of the core's FPGA top) driven only through its serial pins by the host of `simt run
// --device` (host::DeviceEngine over host::UartClient) on a bit-accurate line
// (tb/fpga/uart_board.h): 3 Mbaud at 12 MHz and 4 clocks per bit. A kernel of the suite is
// loaded, started, polled and read back, compared with the ISA model, on a clean line and
// with bytes corrupted in both directions, which the client's retries (and the bridge's
// repeated-write detection) absorb (2 in 1000 bytes with a flipped bit, both ways). The
// link's throughput is measured here. The host takes what fits from the geometry the top
// reports, at the top's defaults and at other parameters, and refuses a board whose geometry
// words it does not know.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "fpga/uart_board.h"
#include "host/uart_protocol.h"
#include "host/device_engine.h"
#include "model/sm/sm_model.h"
#include "sm/kernel_checkers.h"

namespace simt::tb {
namespace {

host::DeviceEngine::Options simOptions() {
  host::DeviceEngine::Options opt;
  opt.link.baud = kBoardBaud;
  opt.link.timeoutBits = kBoardTimeoutBits;
  opt.link.retries = 8;
  opt.link.latencyUs = 2;
  return opt;
}

struct Outcome {
  model::RunResult res;
  host::UartClient::Stats link;
  uint64_t cycles = 0, bytesOnLine = 0, linkErrors = 0, faults = 0;
};

Outcome runOverUart(const assembler::Kernel& k, int flipPerMille, int dropPerMille, uint64_t seed,
                    uint64_t turnaroundClocks = 0) {
  UartBoard board(seed);
  LineFaults faults(seed);
  faults.set(flipPerMille, dropPerMille);
  SimTimeLink link(board, faults);
  link.turnaroundClocks = turnaroundClocks;
  host::DeviceEngine dev(link, simOptions());
  Outcome o;
  o.res = dev.run(k, model::RunConfig{});
  o.link = dev.lastLink().stats;
  o.cycles = board.cycle();
  o.bytesOnLine = link.bytesToBoard + link.bytesToHost;
  o.linkErrors = board.linkErrors;
  o.faults = faults.flips + faults.drops;
  EXPECT_TRUE(board.ok());
  return o;
}

model::RunResult modelRun(const assembler::Kernel& k) {
  const model::RunResult m = model::SmModel(k, model::RunConfig{}).run();
  EXPECT_EQ(m.status, model::RunStatus::Ok) << m.message;
  return m;
}

TEST(FpgaUartTop, RunsAKernelOfTheSuiteThroughTheUartOnly) {
  const auto k = assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/vector_add.s");
  const model::RunResult m = modelRun(k);
  for (int corrupt : {0, 2}) {
    SCOPED_TRACE("corrupted bytes: " + std::to_string(corrupt) + " per mille");
    const Outcome o = runOverUart(k, corrupt, 0, baseSeed());
    ASSERT_EQ(o.res.status, model::RunStatus::Ok) << o.res.message;
    EXPECT_EQ(o.res.global, m.global) << "results read back over the link";
    EXPECT_EQ(o.res.global[128 + 5], 101u + 5 * 4);
    EXPECT_EQ(o.res.instructions, m.instructions) << "warp-instructions counter";
    EXPECT_EQ(o.res.threadInstructions, m.threadInstructions) << "thread-instructions counter";
    if (corrupt) {
      EXPECT_GT(o.faults, 0u);
      EXPECT_GT(o.link.retries, 0u);
      EXPECT_GT(o.linkErrors, 0u) << "the bridge answered corrupt frames with errors";
    } else {
      EXPECT_EQ(o.link.retries, 0u);
      EXPECT_EQ(o.linkErrors, 0u);
    }
    std::printf(
        "FpgaUartTop: %d per mille of the bytes corrupted: %llu cycles (%.1f ms at 12 MHz, 3 "
        "Mbaud), "
        "%llu transactions, %llu payload words, %llu retries\n",
        corrupt, static_cast<unsigned long long>(o.cycles), o.cycles / 12e3,
        static_cast<unsigned long long>(o.link.transactions),
        static_cast<unsigned long long>(o.link.payloadWords),
        static_cast<unsigned long long>(o.link.retries));
  }
}

// The link's payload rate at 3 Mbaud: from the protocol (bytes on the line per payload word,
// 10 bit times per byte) and from the simulation's own clock count, which adds what the line
// alone does not have: the bridge's few clocks per transaction and the host's wait for each
// answer (no USB turnaround in simulation). 16 bursts of 64 words each way.
TEST(FpgaUartTop, PayloadWordsPerSecondAt3Mbaud) {
  constexpr size_t kWords = 1024;
  constexpr int kBurst = 64;
  UartBoard board(baseSeed());
  LineFaults clean(baseSeed());
  SimTimeLink link(board, clean);
  host::UartClient client(link, simOptions().link);
  ASSERT_EQ(client.status().maxBurst, kBurst);
  std::vector<uint32_t> words(kWords);
  for (size_t i = 0; i < kWords; ++i) words[i] = static_cast<uint32_t>(i * 2654435761u);
  struct Phase {
    const char* name;
    uint64_t cycles, bytes;
  };
  std::vector<Phase> phases;
  auto measure = [&](const char* name, auto&& transfer) {
    const uint64_t c0 = board.cycle(), b0 = link.bytesToBoard + link.bytesToHost;
    transfer();
    phases.push_back({name, board.cycle() - c0, link.bytesToBoard + link.bytesToHost - b0});
  };
  measure("burst write", [&] { client.writeBurst(host::fpga_map::kData, words); });
  std::vector<uint32_t> back;
  measure("burst read", [&] { back = client.readBurst(host::fpga_map::kData, kWords); });
  EXPECT_EQ(back, words);
  EXPECT_EQ(client.stats().retries, 0u);
  const size_t bursts = kWords / kBurst;
  for (const Phase& p : phases) {
    // A burst write is 8 + 4 * 64 bytes out and 6 back; a burst read 8 out and 6 + 4 * 64 back.
    EXPECT_EQ(p.bytes, bursts * (8 + 6 + 4 * kBurst)) << p.name;
    const double lineRate = kBoardBaud / 10.0 / (static_cast<double>(p.bytes) / kWords);
    const double simRate = kWords / (static_cast<double>(p.cycles) / kBoardClockHz);
    EXPECT_LE(simRate, lineRate) << p.name << ": faster than the line";
    EXPECT_GT(simRate, 0.97 * lineRate) << p.name << ": the bridge costs more than the line";
    std::printf(
        "FpgaUartTop: %s at 3 Mbaud: %.3f bytes per payload word, %.0f words/s by the "
        "line, %.0f words/s simulated (%llu clocks at 12 MHz for %zu words)\n",
        p.name, static_cast<double>(p.bytes) / kWords, lineRate, simRate,
        static_cast<unsigned long long>(p.cycles), kWords);
  }
}

// The demo kernels (`make run`: vector_add, spin_lock) through the link at 3 Mbaud: what a
// board spends on them, from the simulated link's figures. The turnaround of a real link (USB)
// per transaction and the kernel's cycles at the board's clock are added in
// docs/blocks/uart_bridge.md ("Host link").
TEST(FpgaUartTop, DemoKernelsThroughTheLinkAt3Mbaud) {
  for (const char* name : {"vector_add.s", "spin_lock.s"}) {
    SCOPED_TRACE(name);
    const auto k = assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/" + name);
    const model::RunResult m = modelRun(k);
    const Outcome o = runOverUart(k, 0, 0, baseSeed());
    ASSERT_EQ(o.res.status, model::RunStatus::Ok) << o.res.message;
    EXPECT_EQ(o.res.global, m.global);
    EXPECT_EQ(o.link.retries, 0u);
    // The line (40 clocks a byte) is busy nearly all the time: the host polls while the
    // kernel runs. What is not the line's is the kernel's or the bridge's few clocks.
    const uint64_t lineClocks = o.bytesOnLine * 10 * kBoardDiv;
    EXPECT_GE(o.cycles, std::max(lineClocks, o.res.cycles));
    EXPECT_LE(o.cycles - lineClocks, lineClocks / 30 + o.res.cycles);
    std::printf(
        "FpgaUartTop: %s at 3 Mbaud: %llu transactions, %llu payload words, %llu bytes "
        "(%.2f ms on the line), %llu queue overflows serviced, kernel %llu cycles; "
        "simulated %llu clocks (%.2f ms at 12 MHz)\n",
        name, static_cast<unsigned long long>(o.link.transactions),
        static_cast<unsigned long long>(o.link.payloadWords),
        static_cast<unsigned long long>(o.bytesOnLine), o.bytesOnLine * 10 / 3e3,
        static_cast<unsigned long long>(o.res.stats.at("queue_overflows")),
        static_cast<unsigned long long>(o.res.cycles), static_cast<unsigned long long>(o.cycles),
        o.cycles / 12e3);
  }
}

// A link with a board's turnaround per transaction (0.5 ms: 6,000 clocks at 12 MHz, the board
// running on meanwhile): the core waits for the host's re-centring of each overflow for many
// turnarounds, far longer than the 40,000 cycles without an instruction that mean a
// deadlock; the run ends ok with the model's result.
TEST(FpgaUartTop, ALinkWithTurnaroundsKeepsTheCoreWaitingNotDeadlocked) {
  // One warp, 12 nested ssy: its queue (16 entries, from the middle) overflows at the front.
  std::string src = ".launch ctas=1 threads=32\n.data\nout: .zero 4\n.text\nmov r1, 0\n";
  for (int i = 0; i < 12; ++i) src += "ssy l" + std::to_string(i) + "\nadd r1, r1, 1\n";
  for (int i = 11; i >= 0; --i)
    src += "sync l" + std::to_string(i) + "\nl" + std::to_string(i) + ":\n";
  src += "mov r2, %tid\nsetp.eq p0, r2, 0\n@p0 st.global [out], r1\nexit\n";
  const auto k = assembler::assemble(src, "nested_ssy.s");
  const model::RunResult m = modelRun(k);
  const Outcome o = runOverUart(k, 0, 0, baseSeed(), 6'000);
  ASSERT_EQ(o.res.status, model::RunStatus::Ok) << o.res.message;
  EXPECT_EQ(o.res.global, m.global);
  EXPECT_GT(o.res.stats.at("queue_overflows"), 0u);
  // The warp's ssy waits in the divergence unit while its queue is stalled.
  EXPECT_GT(o.res.stats.at("divergence_unit_wait_cycles"), 2 * 40'000u) << "the core waited";
  EXPECT_EQ(o.res.global[0], 12u);
  std::printf(
      "FpgaUartTop: 12 nested ssy with 0.5 ms turnarounds: %llu transactions, kernel %llu "
      "cycles (%llu waiting for the host), %.1f ms at 12 MHz\n",
      static_cast<unsigned long long>(o.link.transactions),
      static_cast<unsigned long long>(o.res.cycles),
      static_cast<unsigned long long>(o.res.stats.at("divergence_unit_wait_cycles")),
      o.cycles / 12e3);
}

// A board of either build on a clean simulated line.
struct CleanBoard {
  explicit CleanBoard(BoardBuild build)
      : board(baseSeed(), build), clean(baseSeed()), link(board, clean) {}
  UartBoard board;
  LineFaults clean;
  SimTimeLink link;
};

const char* buildName(BoardBuild b) { return b == BoardBuild::Default ? "default build" : "other build"; }

// The geometry the host reads is the one each build was verilated with (CMakeLists.txt).
TEST(FpgaUartTop, TheHostReadsTheGeometryEachBuildWasVerilatedWith) {
  for (const BoardBuild build : {BoardBuild::Default, BoardBuild::Other}) {
    SCOPED_TRACE(buildName(build));
    CleanBoard b(build);
    host::DeviceEngine dev(b.link, simOptions());
    const host::DeviceGeometry want = verilatedGeometry(build);
    const host::DeviceGeometry& got = dev.geometry();
    EXPECT_EQ(got, want) << got.describe() << " instead of " << want.describe();
    EXPECT_NE(got.describe().find(build == BoardBuild::Other
                                      ? "8 warp slots (128 threads per CTA, 4 warps), 2 resident"
                                      : "2 warp slots (64 threads per CTA), 2 resident"),
              std::string::npos)
        << got.describe();
    const uint64_t bytes = b.link.bytesToBoard;
    EXPECT_GT(bytes, 0u);
    dev.geometry();
    EXPECT_EQ(b.link.bytesToBoard, bytes) << "read once per engine";
    EXPECT_TRUE(b.board.ok());
  }
}

// A CTA of 128 threads and a data image beyond 2048 words: refused on the default build (2
// warp slots, 2048 data words), run on the other (CTAs of up to 4 warps, 4096 words) with the
// model's results; its queues are re-centred at the reported depth (32).
TEST(FpgaUartTop, WhatFitsFollowsTheBoardsGeometry) {
  std::string src =
      ".launch ctas=3 threads=128\n.data\npad: .zero 8192\nout: .zero 1536\n.text\n"
      "mov r1, %gtid\nshl r2, r1, 2\nmov r3, 0\n";
  for (int i = 0; i < 20; ++i) src += "ssy l" + std::to_string(i) + "\nadd r3, r3, 1\n";
  for (int i = 19; i >= 0; --i) {
    src += "sync l" + std::to_string(i) + "\nl" + std::to_string(i) + ":\n";
  }
  src += "add r3, r3, r1\nst.global [r2+out], r3\nexit\n";
  const auto k = assembler::assemble(src, "wide.s");
  ASSERT_GT(k.data.size(), 2048u);
  const model::RunResult m = modelRun(k);
  for (const BoardBuild build : {BoardBuild::Default, BoardBuild::Other}) {
    SCOPED_TRACE(buildName(build));
    CleanBoard b(build);
    host::DeviceEngine dev(b.link, simOptions());
    const model::RunResult r = dev.run(k, model::RunConfig{});
    if (build == BoardBuild::Default) {
      EXPECT_EQ(r.status, model::RunStatus::Error);
      EXPECT_NE(r.message.find("2048-word data memory"), std::string::npos) << r.message;
      EXPECT_EQ(dev.lastLink().stats.transactions, 0u) << "nothing loaded";
      continue;
    }
    ASSERT_EQ(r.status, model::RunStatus::Ok) << r.message;
    EXPECT_EQ(r.global, m.global);
    EXPECT_EQ(r.global[2048 + 383], 20u + 383u);
    EXPECT_EQ(r.instructions, m.instructions);
    EXPECT_GT(r.stats.at("queue_overflows"), 0u) << "20 nested ssy overflow 32 entries";
    EXPECT_TRUE(b.board.ok());
  }
}

// The other build has 8 warp slots for CTAs of up to 4 warps (CtaWarps, the barrier unit's
// per-thread state): a CTA of 160 threads is refused by the host, which reads the limit from
// the geometry, and by the core itself (FltLaunch) when a host writes the launch anyway; 128
// threads run. Two CTAs of 128 threads are resident at once and meet at their barriers.
TEST(FpgaUartTop, ACtaOfMoreWarpsThanTheCoreTakesIsRefusedByHostAndCore) {
  const host::DeviceGeometry g = verilatedGeometry(BoardBuild::Other);
  ASSERT_EQ(g.ctaWarps, 4);
  ASSERT_GT(g.warpSlots, g.ctaWarps);
  const std::string body =
      ".data\nout: .zero 1024\n.text\nmov r1, %tid\nmov r2, %ctaid\nshl r3, r2, 7\n"
      "add r3, r3, r1\nbar.sync 0\nadd r4, r1, 1\nshl r3, r3, 2\nst.global [r3+out], r4\n"
      "exit\n";
  CleanBoard b(BoardBuild::Other);
  host::DeviceEngine dev(b.link, simOptions());
  {
    const auto k = assembler::assemble(".launch ctas=2 threads=160\n" + body, "wide_cta.s");
    const model::RunResult r = dev.run(k, model::RunConfig{});
    EXPECT_EQ(r.status, model::RunStatus::Error);
    EXPECT_NE(r.message.find("a CTA of 160 threads needs more than the device's 4 warps per CTA"),
              std::string::npos)
        << r.message;
    EXPECT_EQ(dev.lastLink().stats.transactions, 0u) << "nothing loaded";
  }
  const auto k = assembler::assemble(".launch ctas=2 threads=128\n" + body, "cta4.s");
  const model::RunResult m = modelRun(k);
  const model::RunResult r = dev.run(k, model::RunConfig{});
  ASSERT_EQ(r.status, model::RunStatus::Ok) << r.message;
  EXPECT_EQ(r.global, m.global);
  EXPECT_EQ(r.global[255], 128u);

  // The core's own check, past the host's: the launch registers written by hand.
  host::UartClient client(b.link, simOptions().link);
  client.setMaxBurst(client.status().maxBurst);
  auto launch = [&](uint32_t threads) {
    client.write(host::fpga_map::kCtrl, host::fpga_map::kCoreReset);
    client.writeBurst(host::fpga_map::kNtid,
                      {threads, 2u, static_cast<uint32_t>(k.code.size()), 0u, 0u, 0u, 1u, 0u, 0u});
    client.write(host::fpga_map::kCtrl, host::fpga_map::kStart);
    uint32_t st = 0;
    for (int i = 0; i < 200 && !(st & (host::fpga_map::kDone | host::fpga_map::kFault)); ++i) {
      st = client.read(host::fpga_map::kCtrl);
    }
    return st;
  };
  uint32_t st = launch(160);
  ASSERT_TRUE(st & host::fpga_map::kFault) << "status " << st;
  EXPECT_EQ(client.read(host::fpga_map::kFaultCause), 10u) << "simt_pkg::FltLaunch";
  st = launch(128);
  EXPECT_TRUE(st & host::fpga_map::kDone) << "status " << st;
  EXPECT_FALSE(st & host::fpga_map::kFault) << "cause " << client.read(host::fpga_map::kFaultCause);
  EXPECT_TRUE(b.board.ok());
}

// The suite's kernels on the other build, whose core has 8 ALU lanes and 4 FP lanes (a warp's
// ALU instruction in 4 passes, an FP one in 8, docs/blocks/sm.md "Passes"): the model's memory (and instruction
// count, where it does not depend on timing: lock kernels spin as long as their holder takes)
// through the board's host link, one kernel per mechanism (ALU, predicates, special
// registers, calls, divergence, barriers, sections, atomics, yields, memory, FP32, v4), and
// the lock kernels whose atomics of one group join the load/store unit's sending queue
// behind another group's (hash_table, linked_list: the 8-lane core tripped an assertion
// there, 2026-12-07).
struct LaneCase {
  const char* kernel;
  bool spins;                    // instructions depend on timing
  const char* check = nullptr;   // a property checker (kernel_checkers.h) instead of the
                                 // model's memory: a lock kernel's order is its locks' order
};

class EightLaneSuite : public ::testing::TestWithParam<LaneCase> {};

TEST_P(EightLaneSuite, RunsLikeTheModel) {
  const LaneCase c = GetParam();
  const auto k = assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/" + c.kernel);
  const model::RunResult m = modelRun(k);
  ASSERT_EQ(verilatedGeometry(BoardBuild::Other).lanes, 8);
  CleanBoard b(BoardBuild::Other);
  host::DeviceEngine dev(b.link, simOptions());
  ASSERT_EQ(dev.geometry().lanes, 8) << "the board reports its lanes";
  const model::RunResult r = dev.run(k, model::RunConfig{});
  ASSERT_EQ(r.status, model::RunStatus::Ok) << r.message;
  if (c.check != nullptr) {
    SCOPED_TRACE(std::string("check ") + c.check);
    kernelCheckers().at(c.check)(k, r, model::RunConfig{});
    kernelCheckers().at(c.check)(k, m, model::RunConfig{});  // (the checker's own check)
  } else {
    EXPECT_EQ(r.global, m.global);
  }
  if (!c.spins) {
    EXPECT_EQ(r.instructions, m.instructions);
  }
  EXPECT_TRUE(b.board.ok());
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, EightLaneSuite,
    ::testing::Values(LaneCase{"alu.s", false}, LaneCase{"predicates.s", false},
                      LaneCase{"special_regs.s", false}, LaneCase{"loops.s", false},
                      LaneCase{"calls.s", false}, LaneCase{"indirect.s", false},
                      LaneCase{"exit_divergent.s", false}, LaneCase{"divergent_barrier.s", false},
                      LaneCase{"bar_nested.s", false}, LaneCase{"bar_ordered.s", false},
                      LaneCase{"bar_unordered.s", false}, LaneCase{"atm.s", true},
                      LaneCase{"spin_lock.s", true}, LaneCase{"hash_table.s", true, "hash_table"},
                      LaneCase{"linked_list.s", true}, LaneCase{"yield_forms.s", false},
                      LaneCase{"memory.s", false}, LaneCase{"vector_add.s", false},
                      LaneCase{"fp32.s", false}, LaneCase{"v4_stream.s", false}),
    [](const ::testing::TestParamInfo<LaneCase>& i) {
      std::string n = i.param.kernel;
      n = n.substr(0, n.find('.'));
      n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
      return n;
    });

// Between the host and the board: the answer to a read of `addr` edited (and its CRC made
// anew), as a board with another top, or another layout of its geometry, would answer.
class TamperLink : public host::ByteLink {
 public:
  TamperLink(host::ByteLink& inner, uint16_t addr, std::function<void(std::vector<uint32_t>&)> edit)
      : inner_(inner), addr_(addr), edit_(std::move(edit)) {}
  void send(const std::vector<uint8_t>& bytes) override {
    // A5 CMD SEQ ADDR_L ADDR_H CNT ...: one request per send.
    const uint8_t cmd = bytes.size() > 5 ? bytes[1] : 0;
    armed_ = (cmd == host::uart::CmdRead || cmd == host::uart::CmdBurstRead) &&
             (bytes[3] | bytes[4] << 8) == addr_;
    writes += cmd == host::uart::CmdWrite || cmd == host::uart::CmdBurstWrite;
    inner_.send(bytes);
  }
  std::optional<uint8_t> recv(uint64_t timeoutUs) override {
    if (armed_ && out_.empty()) {
      host::ResponseDecoder dec;
      for (;;) {
        const auto b = inner_.recv(timeoutUs);
        if (!b) return std::nullopt;
        const auto ev = dec.feed(*b);
        if (ev == host::ResponseDecoder::Event::None) continue;
        EXPECT_EQ(ev, host::ResponseDecoder::Event::Frame) << "a clean line";
        break;
      }
      host::Response r = dec.frame();
      edit_(r.data);
      const std::vector<uint8_t> bytes = host::encodeResponse(r);
      out_.assign(bytes.begin(), bytes.end());
      armed_ = false;
      ++edited;
    }
    if (out_.empty()) return inner_.recv(timeoutUs);
    const uint8_t b = out_.front();
    out_.pop_front();
    return b;
  }
  int edited = 0, writes = 0;

 private:
  host::ByteLink& inner_;
  uint16_t addr_;
  std::function<void(std::vector<uint32_t>&)> edit_;
  bool armed_ = false;
  std::deque<uint8_t> out_;
};

// A board whose geometry words are not what this host knows (another top, one built before
// it had them, another layout version, a value out of range): a LinkError (WrongDevice)
// naming what was read, at once, before anything is loaded.
TEST(FpgaUartTop, AGeometryTheHostDoesNotKnowIsAClearErrorBeforeLoading) {
  const auto k = assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/vector_add.s");
  struct Case {
    const char* name;
    std::function<void(std::vector<uint32_t>&)> edit;
    std::vector<const char*> words;
  };
  const Case cases[] = {
      {"wrong magic", [](std::vector<uint32_t>& w) { w[0] = 0xDEADBEEF; },
       {"reads 0xdeadbeef at 0x0030", "magic 0x53494d54"}},
      {"no geometry words", [](std::vector<uint32_t>& w) { std::fill(w.begin(), w.end(), 0u); },
       {"reads 0x00000000 at 0x0030", "built before it reported its geometry"}},
      {"layout version 1", [](std::vector<uint32_t>& w) { w[1] = 1; },
       {"layout is version 1", "this host knows version 3"}},
      {"no warp slots", [](std::vector<uint32_t>& w) { w[2] = 0; },
       {"reports 0 warp slots (at 0x0032), outside 1..256"}},
      {"a warp of 64", [](std::vector<uint32_t>& w) { w[12] = 64; }, {"64 threads per warp"}},
      {"lanes that do not divide a warp", [](std::vector<uint32_t>& w) { w[13] = 12; },
       {"12 ALU lanes (at 0x003d), which do not divide a warp"}},
      {"more warps per CTA than slots", [](std::vector<uint32_t>& w) { w[14] = w[2] + 1; },
       {"reports 3 warps per CTA (at 0x003e), outside 1..2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    CleanBoard b(BoardBuild::Default);
    TamperLink link(b.link, host::fpga_map::kGeometry, c.edit);
    host::DeviceEngine dev(link, simOptions());
    const uint64_t c0 = b.board.cycle();
    try {
      dev.run(k, model::RunConfig{});
      ADD_FAILURE() << "a run on an unknown board must not start";
    } catch (const host::LinkError& e) {
      EXPECT_EQ(e.kind(), host::LinkError::Kind::WrongDevice) << e.what();
      for (const char* w : c.words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
    EXPECT_EQ(link.edited, 1);
    EXPECT_EQ(link.writes, 0) << "nothing loaded, nothing started";
    EXPECT_EQ(b.link.bytesToBoard, host::requestBytes(host::uart::CmdStatus, 0) +
                                    host::requestBytes(host::uart::CmdBurstRead, 0))
        << "the bridge's status and the geometry, once: no retries";
    EXPECT_LT(b.board.cycle() - c0, 20'000u) << "at once, not after timeouts";
  }
}

TEST(FpgaUartTop, GeometryWordsOfTheWrongCountAreRefused) {
  try {
    host::DeviceGeometry::decode({host::fpga_map::kGeometryMagic, host::fpga_map::kGeometryVersion});
    FAIL() << "two words are no geometry";
  } catch (const host::LinkError& e) {
    EXPECT_EQ(e.kind(), host::LinkError::Kind::WrongDevice);
    EXPECT_NE(std::string(e.what()).find("15 words, not 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace simt::tb
