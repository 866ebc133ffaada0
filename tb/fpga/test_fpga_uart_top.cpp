// End to end without a board, in simulated time: simt_fpga_uart_top (the UART bridge in front
// of the core's FPGA top) driven only through its serial pins by the host of `simt run
// --device` (host::DeviceEngine over host::UartClient) on a bit-accurate line
// (tb/fpga/uart_board.h): 3 Mbaud at 12 MHz and 4 clocks per bit. A kernel of the suite is
// loaded, started, polled and read back, compared with the ISA model, on a clean line and
// with bytes corrupted in both directions, which the client's retries (and the bridge's
// repeated-write detection) absorb (2 in 1000 bytes with a flipped bit, both ways). The
// link's throughput is measured here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "fpga/uart_board.h"
#include "host/device_engine.h"
#include "model/sm/sm_model.h"

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

}  // namespace
}  // namespace simt::tb
