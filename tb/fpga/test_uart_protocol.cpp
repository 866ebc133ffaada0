// The host side of the UART bridge's protocol (sim/host/uart_protocol) against the bridge's
// model (model::UartBridge) through a byte link that corrupts and drops bytes in both
// directions: every transaction completes with the right data within its retries, a write is
// executed exactly once even when its answer is lost (the repeated-write rule), and a link
// that never answers, answers garbage or refuses a request ends in a LinkError, never a hang.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "common/harness.h"
#include "host/uart_protocol.h"
#include "model/fpga/uart_bridge.h"

namespace simt::tb {
namespace {

namespace uart = model::uart;

// A memory behind the bridge; writing address 0 counts starts (side effects must not repeat).
class CountingPort : public model::HostPortIf {
 public:
  void write(uint16_t a, uint32_t d) override {
    if (a == 0) ++starts;
    mem[a] = d;
  }
  uint32_t read(uint16_t a) override { return mem.count(a) ? mem[a] : 0; }
  std::map<uint16_t, uint32_t> mem;
  int starts = 0;
};

// The model at the other end of the link. Time is virtual: a wait for an answer lets the
// line go quiet (the model's idle event) when the wait is at least the bridge's timeout.
class ModelLink : public host::ByteLink {
 public:
  ModelLink(model::UartBridge& bridge, uint64_t seed, uint64_t quietUs) : bridge_(bridge), rng_(seed), quietUs_(quietUs) {}
  void send(const std::vector<uint8_t>& bytes) override {
    for (uint8_t b : bytes) {
      if (rng_.below(1000) < dropPerMille) { ++faults; continue; }
      if (rng_.below(1000) < flipPerMille) { b ^= static_cast<uint8_t>(1u << rng_.below(8)); ++faults; }
      bridge_.rxByte(b);
    }
  }
  std::optional<uint8_t> recv(uint64_t timeoutUs) override {
    if (pending_.empty()) {
      take();
      if (pending_.empty() && bridge_.inFrame()) {
        EXPECT_GE(timeoutUs, quietUs_) << "the client waits at least the bridge's timeout";
        bridge_.idle();
        take();
      }
    }
    if (dead || pending_.empty()) {
      elapsedUs += timeoutUs;
      return std::nullopt;
    }
    ++elapsedUs;
    const uint8_t b = pending_.front();
    pending_.pop_front();
    return garbage ? static_cast<uint8_t>(rng_.bits(8)) : b;
  }
  int flipPerMille = 0, dropPerMille = 0, faults = 0;
  bool dead = false, garbage = false;
  uint64_t elapsedUs = 0;

 private:
  void take() {
    for (uint8_t b : bridge_.tx) {
      if (rng_.below(1000) < dropPerMille) { ++faults; continue; }
      if (rng_.below(1000) < flipPerMille) { b ^= static_cast<uint8_t>(1u << rng_.below(8)); ++faults; }
      pending_.push_back(b);
    }
    bridge_.tx.clear();
    bridge_.accesses.clear();
  }
  model::UartBridge& bridge_;
  Rng rng_;
  uint64_t quietUs_;
  std::deque<uint8_t> pending_;
};

host::UartClient::Options options() {
  host::UartClient::Options o;
  o.baud = 3'000'000;
  o.timeoutBits = 2000;
  o.maxBurst = 64;
  o.retries = 6;
  o.latencyUs = 1000;
  return o;
}
constexpr uint64_t kQuietUs = 2000 * 1'000'000ull / 3'000'000;

TEST(UartProtocol, CrcIsCcittFalse) {
  const char* check = "123456789";
  EXPECT_EQ(uart::crc16(reinterpret_cast<const uint8_t*>(check), std::strlen(check)), 0x29B1);
  const auto f = host::encodeRequest({uart::CmdWrite, 7, 0x1234, 1, {0xCAFEF00D}});
  ASSERT_EQ(f.size(), 12u);
  EXPECT_EQ(f[3], 0x34);
  EXPECT_EQ(f[6], 0x0D) << "data little endian";
  EXPECT_EQ(uart::crc16(f.data(), f.size()), 0) << "a frame with its CRC sums to 0";
}

TEST(UartProtocol, TransactionsSurviveACorruptLineAndWritesHappenOnce) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    CountingPort port;
    model::UartBridge bridge({64}, port);
    ModelLink link(bridge, seed, kQuietUs);
    link.flipPerMille = 1;  // 1 in 2 of the 270-byte bursts fails
    link.dropPerMille = 1;
    host::UartClient::Options opt = options();
    opt.retries = 12;
    host::UartClient client(link, opt);
    Rng rng(seed ^ 0xABCD);
    std::map<uint16_t, uint32_t> ref;
    int starts = 0;
    for (int i = 0; i < 300 * lengthScale(); ++i) {
      const int op = rng.below(5);
      const uint16_t a = static_cast<uint16_t>(0x8000 + rng.below(200));
      if (op == 0) {
        const uint32_t v = static_cast<uint32_t>(rng.bits64());
        client.write(a, v);
        ref[a] = v;
      } else if (op == 1) {
        EXPECT_EQ(client.read(a), ref.count(a) ? ref[a] : 0u);
      } else if (op == 2) {
        std::vector<uint32_t> w(static_cast<size_t>(rng.range(1, 150)));
        for (auto& x : w) x = static_cast<uint32_t>(rng.bits64());
        client.writeBurst(a, w);
        for (size_t j = 0; j < w.size(); ++j) ref[static_cast<uint16_t>(a + j)] = w[j];
      } else if (op == 3) {
        const size_t n = static_cast<size_t>(rng.range(1, 150));
        const auto got = client.readBurst(a, n);
        for (size_t j = 0; j < n; ++j) {
          const uint16_t aj = static_cast<uint16_t>(a + j);
          EXPECT_EQ(got[j], ref.count(aj) ? ref[aj] : 0u) << "word " << j;
        }
      } else {
        client.write(0, 1);
        ++starts;
      }
    }
    EXPECT_EQ(port.starts, starts) << "every start written exactly once";
    EXPECT_GT(link.faults, 0);
    EXPECT_GT(client.stats().retries, 0u);
    const auto st = client.status();
    EXPECT_EQ(st.version, 1);
    EXPECT_EQ(st.maxBurst, 64);
    EXPECT_GT(st.bad, 0) << "the bridge answered corrupt frames with errors";
  }
}

TEST(UartProtocol, ADeadOrGarbledLinkIsAnErrorNotAHang) {
  CountingPort port;
  model::UartBridge bridge({64}, port);
  ModelLink link(bridge, baseSeed(), kQuietUs);
  host::UartClient client(link, options());
  link.dead = true;
  try {
    client.read(0);
    ADD_FAILURE() << "no error";
  } catch (const host::LinkError& e) {
    EXPECT_EQ(e.kind(), host::LinkError::Kind::NoAnswer) << e.what();
    EXPECT_NE(std::string(e.what()).find("7 attempts"), std::string::npos) << e.what();
  }
  EXPECT_LT(link.elapsedUs, 20'000'000u) << "bounded: under 20 s of waiting";
  link.dead = false;
  link.garbage = true;  // a wrong baud rate: bytes arrive, none makes a frame
  EXPECT_THROW(client.write(0, 1), host::LinkError);
  link.garbage = false;
  EXPECT_EQ(client.read(0), 1u) << "the link recovers (the write went through; its answers were garbled)";
}

TEST(UartProtocol, ARefusedRequestIsNotRetried) {
  CountingPort port;
  model::UartBridge bridge({16}, port);  // a bridge with smaller bursts than the client assumes
  ModelLink link(bridge, baseSeed(), kQuietUs);
  host::UartClient client(link, options());
  try {
    client.readBurst(0x8000, 40);
    ADD_FAILURE() << "no error";
  } catch (const host::LinkError& e) {
    EXPECT_EQ(e.kind(), host::LinkError::Kind::Refused) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad count"), std::string::npos) << e.what();
  }
  EXPECT_EQ(client.stats().retries, 0u);
  EXPECT_EQ(client.status().maxBurst, 16) << "the status word tells the host the bridge's burst";
}

}  // namespace
}  // namespace simt::tb
