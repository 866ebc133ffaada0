// End to end without a board: simt_fpga_uart_top (the UART bridge in front of the core's
// FPGA top) driven only through its serial pins, by the host-side protocol library
// (host::UartClient) over a bit-accurate line model (tb/fpga/uart_line.h). A kernel of the
// suite is assembled, its code, params and data written over the link, started, polled and
// its results read back, compared with the ISA model; once on a clean line and once with
// bytes corrupted in both directions (3 in 1000), which the client's retries (and the bridge's
// repeated-write detection) must absorb. Verilated with BaudDiv 4, TimeoutBits 64, MaxBurst 64.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "Vsimt_fpga_uart_top.h"
#include "asm/assembler.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "fpga/uart_line.h"
#include "host/uart_protocol.h"
#include "model/sm/sm_model.h"

namespace simt::tb {
namespace {

constexpr int kDiv = 4;                  // CMakeLists.txt: Vsimt_fpga_uart_top
constexpr int kTimeoutBits = 64;
constexpr uint32_t kClockHz = 12'000'000;  // so 3 Mbaud at 4 clocks per bit
constexpr uint32_t kBaud = kClockHz / kDiv;

// The serial port of a host, its other end at the verilated top's pins. Time advances only
// while the host waits (recv): one microsecond is kClockHz / 1e6 clocks.
class SimLink : public host::ByteLink {
 public:
  SimLink(SimContext<Vsimt_fpga_uart_top>& sim, uint64_t seed) : sim_(sim), line_(kDiv), rx_(kDiv), rng_(seed) {}

  void send(const std::vector<uint8_t>& bytes) override {
    for (uint8_t b : bytes) {
      uint16_t flip = 0;
      if (corruptPerMille_ && rng_.below(1000) < corruptPerMille_) {
        flip = static_cast<uint16_t>(1u << rng_.range(1, 8));
        ++corruptedOut;
      }
      line_.put(b, flip);
    }
  }

  std::optional<uint8_t> recv(uint64_t timeoutUs) override {
    const uint64_t end = sim_.cycle() + timeoutUs * (kClockHz / 1'000'000);
    while (sim_.cycle() < end && sim_.ok()) {
      sim_->uart_rx_i = line_.next();
      sim_.eval();
      const auto b = rx_.clock(sim_->uart_tx_o);
      linkErrors += sim_->link_err_o;
      sim_.tick();
      if (b) {
        uint8_t v = b->data;
        if (corruptPerMille_ && rng_.below(1000) < corruptPerMille_) {
          v = static_cast<uint8_t>(v ^ (1u << rng_.below(8)));
          ++corruptedIn;
        }
        return v;
      }
    }
    return std::nullopt;
  }

  void setCorruption(int perMille) { corruptPerMille_ = perMille; }
  int corruptedOut = 0, corruptedIn = 0, linkErrors = 0;

 private:
  SimContext<Vsimt_fpga_uart_top>& sim_;
  UartLine line_;
  UartRxModel rx_;
  Rng rng_;
  int corruptPerMille_ = 0;
};

// simt_fpga_top's register map (docs/blocks/fpga_top.md).
constexpr uint16_t kCtrl = 0x0000, kNtid = 0x0001, kNctaid = 0x0002, kCodeSize = 0x0003, kParamWords = 0x0004,
                   kSharedBytes = 0x0005, kPerf = 0x0040, kImem = 0x1000, kParam = 0x2000, kData = 0x8000;

struct Outcome {
  uint32_t status = 0;
  std::vector<uint32_t> data;
  uint32_t instructions = 0;
  uint64_t cycles = 0;
  host::UartClient::Stats stats;
};

Outcome runOverUart(const assembler::Kernel& k, int corruptPerMille, uint64_t seed) {
  SimContext<Vsimt_fpga_uart_top> sim("simt_fpga_uart_top", seed);
  sim->uart_rx_i = 1;
  sim.reset();
  SimLink link(sim, seed);
  link.setCorruption(corruptPerMille);
  host::UartClient::Options opt;
  opt.baud = kBaud;
  opt.timeoutBits = kTimeoutBits;
  opt.maxBurst = 64;
  opt.retries = 8;
  opt.latencyUs = 2;
  host::UartClient client(link, opt);
  Outcome out;
  const auto st = client.status();
  EXPECT_EQ(st.version, 1);
  EXPECT_EQ(st.maxBurst, 64);
  std::vector<uint32_t> code;
  for (uint64_t w : k.code) {
    code.push_back(static_cast<uint32_t>(w));
    code.push_back(static_cast<uint32_t>(w >> 32));
  }
  client.writeBurst(kImem, code);  // low word then high word: ascending addresses
  if (!k.params.empty()) client.writeBurst(kParam, k.params);
  if (!k.data.empty()) client.writeBurst(kData, k.data);
  client.writeBurst(kNtid, {static_cast<uint32_t>(k.threads), static_cast<uint32_t>(k.ctas),
                            static_cast<uint32_t>(k.code.size()), static_cast<uint32_t>(k.params.size()),
                            k.sharedBytes});
  client.write(kCtrl, 1);
  for (int polls = 0; polls < 1000; ++polls) {
    out.status = client.read(kCtrl);
    if (out.status & 0x6u) break;
    EXPECT_FALSE(out.status & 0x8u) << "no queue exception expected";
  }
  out.data = client.readBurst(kData, k.data.size());
  out.instructions = client.read(kPerf + 1);
  out.cycles = sim.cycle();
  out.stats = client.stats();
  EXPECT_TRUE(sim.ok());
  if (corruptPerMille) {
    EXPECT_GT(link.corruptedOut + link.corruptedIn, 0);
    EXPECT_GT(link.linkErrors, 0) << "the bridge answered corrupt frames with errors";
  } else {
    EXPECT_EQ(link.linkErrors, 0);
  }
  return out;
}

TEST(FpgaUartTop, RunsAKernelOfTheSuiteThroughTheUartOnly) {
  const auto k = assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/vector_add.s");
  model::RunConfig cfg;
  const model::RunResult m = model::SmModel(k, cfg).run();
  ASSERT_EQ(m.status, model::RunStatus::Ok) << m.message;
  const std::vector<uint32_t> expect(m.global.begin(), m.global.begin() + static_cast<long>(k.data.size()));
  for (int corrupt : {0, 3}) {
    SCOPED_TRACE("corrupted bytes: " + std::to_string(corrupt) + " per mille");
    const Outcome o = runOverUart(k, corrupt, baseSeed());
    EXPECT_EQ(o.status & 0x6u, 0x2u) << "done without a fault";
    EXPECT_EQ(o.data, expect) << "results read back over the link";
    EXPECT_EQ(o.data[128 + 5], 101u + 5 * 4);
    EXPECT_EQ(o.instructions, m.instructions) << "warp-instructions counter";
    if (corrupt) EXPECT_GT(o.stats.retries, 0u);
    else EXPECT_EQ(o.stats.retries, 0u);
    std::printf("FpgaUartTop: %d per mille of the bytes corrupted: %llu cycles (%.1f ms at 12 MHz, 3 Mbaud), %llu transactions, "
                "%llu payload words, %llu retries\n",
                corrupt, static_cast<unsigned long long>(o.cycles), o.cycles / 12e3,
                static_cast<unsigned long long>(o.stats.transactions),
                static_cast<unsigned long long>(o.stats.payloadWords), static_cast<unsigned long long>(o.stats.retries));
  }
}

}  // namespace
}  // namespace simt::tb
