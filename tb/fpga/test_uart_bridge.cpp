// simt_uart_bridge (with simt_uart_rx and simt_uart_tx) against model::UartBridge, at the
// pins: a bit-accurate serial line from the host (tb/fpga/uart_line.h) into rx_i, the
// response decoded from tx_o, and a host-port memory behind the bridge that holds
// host_ready_i low at random. A cycle-accurate copy of the receiver tells the model which
// bytes the bridge received. Random frame streams (every command, bad commands and counts,
// repeated writes) with fault injection (flipped bits, dropped bytes, truncated frames,
// garbage between frames, low stop bits, breaks) go into both; each transaction's host-port
// accesses and response bytes are compared, every corrupt frame must be answered with an
// error (or not at all, when its sync byte is lost) and write nothing; at the end the
// memories and the bridge's counters. Directed tests pin each command and error code, the
// drop counter and the divisors. Verilated as Vuart_bridge: MaxBurst 16, TimeoutBits 48.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "Vuart_bridge.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "fpga/uart_line.h"
#include "host/uart_protocol.h"
#include "model/fpga/uart_bridge.h"

namespace simt::tb {
namespace {

namespace uart = model::uart;
using Access = model::UartBridge::Access;

constexpr int kMaxBurst = 16;     // CMakeLists.txt: Vuart_bridge
constexpr int kTimeoutBits = 48;

class MemPort : public model::HostPortIf {
 public:
  explicit MemPort(std::vector<uint32_t>& mem) : mem_(mem) {}
  void write(uint16_t a, uint32_t d) override { mem_[a] = d; }
  uint32_t read(uint16_t a) override { return mem_[a]; }

 private:
  std::vector<uint32_t>& mem_;
};

class BridgeBench {
 public:
  BridgeBench(int div, uint64_t seed)
      : sim_("simt_uart_bridge", seed), rng_(seed), div_(div), line_(div), rxModel_(div), txDecoder_(div),
        mem_(65536), modelMem_(65536), modelPort_(modelMem_), model_({kMaxBurst}, modelPort_) {
    for (size_t i = 0; i < mem_.size(); ++i) mem_[i] = modelMem_[i] = static_cast<uint32_t>(rng_.bits64());
    sim_->baud_div_i = static_cast<uint16_t>(div);
    sim_->rx_i = 1;
    sim_->host_ready_i = 1;
    sim_->host_rvalid_i = 0;
    sim_->host_rdata_i = 0;
    auto s = [](const char* name, int w) { return waveSignal("simt_uart_bridge", name, w); };
    sim_.setWaveGroups({
        {"line", {s("rx_i", 1), s("tx_o", 1), s("rx_valid", 1), s("rx_data", 8), s("rx_ferr", 1),
                  s("tx_valid", 1), s("tx_ready", 1), s("tx_data", 8)}},
        {"engine", {s("state_q", 4), s("pos_q", 10), s("cmd_q", 8), s("seq_q", 8), s("cnt_q", 8),
                    s("crc_q", 16), s("tmo_q", 16), s("err_q", 8), s("rsp_st_q", 8)}},
        {"host", {s("host_valid_o", 1), s("host_ready_i", 1), s("host_we_o", 1), s("host_addr_o", 16),
                  s("host_wdata_o", 32), s("host_rvalid_i", 1), s("host_rdata_i", 32)}},
    });
    sim_.reset();
  }

  UartLine& line() { return line_; }
  model::UartBridge& model() { return model_; }
  std::vector<uint32_t>& mem() { return mem_; }
  std::vector<uint32_t>& modelMem() { return modelMem_; }
  SimContext<Vuart_bridge>& sim() { return sim_; }
  void setBackPressure(int percent) { bp_ = percent; }
  // Bytes received meanwhile reach the RTL while it is busy answering: the model counts them
  // as dropped (a test makes sure they fall into an answer).
  void setModelBusy(bool busy) { modelBusy_ = busy; }
  uint64_t stalls() const { return stalls_; }
  int div() const { return div_; }

  // One clock.
  void step() {
    if (!line_.empty()) lastLine_ = sim_.cycle();
    const bool level = line_.next();
    sim_->rx_i = level;
    sim_->host_ready_i = !rng_.chance(bp_);
    sim_.eval();
    if (sim_->host_valid_o) {
      if (!sim_->host_ready_i) ++stalls_;
      else {
        const uint16_t a = sim_->host_addr_o;
        if (sim_->host_we_o) {
          mem_[a] = sim_->host_wdata_o;
          rtlAcc_.push_back({true, a, sim_->host_wdata_o});
        } else {
          rtlAcc_.push_back({false, a, mem_[a]});
          readPending_ = true;
        }
      }
    }
    const bool rvalidNext = readPending_ && sim_->host_valid_o && sim_->host_ready_i && !sim_->host_we_o;
    if (auto b = rxModel_.clock(level)) {
      if (modelBusy_) model_.rxWhileBusy();
      else model_.rxByte(b->data, b->framingError);
      lastRx_ = sim_.cycle();
    }
    if (auto b = txDecoder_.clock(sim_->tx_o)) {
      EXPECT_FALSE(b->framingError) << "the bridge's stop bit";
      rtlTx_.push_back(b->data);
      lastTx_ = sim_.cycle();
    }
    sim_.tick();
    sim_->host_rvalid_i = rvalidNext;
    sim_->host_rdata_i = rvalidNext ? rtlAcc_.back().data : 0;
    if (rvalidNext) readPending_ = false;
    // The line quiet for the bridge's timeout: the model's idle event (tests keep bytes
    // within a frame far closer than that, and quiet periods far longer).
    if (model_.inFrame() && sim_.cycle() - lastRx_ > static_cast<uint64_t>((kTimeoutBits + 3) * div_)) model_.idle();
  }

  // Runs until the line is sent, the expected answer is out and the line has been quiet long
  // enough for anything unexpected to show (a partial frame's timeout answer included).
  void settle() {
    const uint64_t quiet = static_cast<uint64_t>((kTimeoutBits + 8) * div_) + 200;
    const uint64_t bound = sim_.cycle() + line_.pending() + 20 * quiet + static_cast<uint64_t>((6 + 4 * kMaxBurst) * 12 * div_);
    while (sim_.cycle() < bound && sim_.ok()) {
      step();
      const uint64_t last = std::max({lastRx_, lastTx_, lastLine_});
      if (line_.empty() && !model_.inFrame() && rtlTx_.size() >= model_.tx.size() && txDecoder_.idle() &&
          !sim_->host_valid_o && sim_.cycle() - last > quiet)
        return;
    }
    ADD_FAILURE() << "the bridge did not settle";
  }

  // Compares and clears this transaction's accesses and response bytes; returns the RTL's.
  struct Observed {
    std::vector<Access> acc;
    std::vector<uint8_t> tx;
  };
  Observed compare(const std::string& what) {
    EXPECT_EQ(rtlAcc_.size(), model_.accesses.size()) << what;
    for (size_t i = 0; i < std::min(rtlAcc_.size(), model_.accesses.size()); ++i) {
      const Access& r = rtlAcc_[i];
      const Access& m = model_.accesses[i];
      EXPECT_TRUE(r == m) << what << ": access " << i << " rtl {" << r.write << ", 0x" << std::hex << r.addr
                          << ", 0x" << r.data << "} model {" << m.write << ", 0x" << m.addr << ", 0x" << m.data
                          << "}" << std::dec;
    }
    EXPECT_EQ(rtlTx_, model_.tx) << what << ": response bytes";
    Observed o{rtlAcc_, rtlTx_};
    rtlAcc_.clear();
    rtlTx_.clear();
    model_.accesses.clear();
    model_.tx.clear();
    model_.statuses.clear();
    return o;
  }

  // Sends bytes back to back (with a few idle bits between some), then settles.
  void send(const std::vector<uint8_t>& bytes, int maxGapBits = 0) {
    for (uint8_t b : bytes) {
      if (maxGapBits > 0) line_.idleBits(rng_.below(maxGapBits + 1));
      line_.put(b);
    }
  }

  Rng& rng() { return rng_; }

 private:
  SimContext<Vuart_bridge> sim_;
  Rng rng_;
  int div_;
  UartLine line_;
  UartRxModel rxModel_, txDecoder_;
  std::vector<uint32_t> mem_, modelMem_;
  MemPort modelPort_;
  model::UartBridge model_;
  std::vector<Access> rtlAcc_;
  std::vector<uint8_t> rtlTx_;
  uint64_t lastRx_ = 0, lastTx_ = 0, lastLine_ = 0, stalls_ = 0;
  bool readPending_ = false, modelBusy_ = false;
  int bp_ = 0;
};

host::Response decode(const std::vector<uint8_t>& tx) {
  host::ResponseDecoder dec;
  for (uint8_t b : tx) {
    if (dec.feed(b) == host::ResponseDecoder::Event::Frame) return dec.frame();
  }
  ADD_FAILURE() << "no complete response frame in " << tx.size() << " bytes";
  return {0xEE, 0, {}};
}

std::vector<uint8_t> frame(uint8_t cmd, uint8_t seq, uint16_t addr, uint8_t cnt, std::vector<uint32_t> data = {}) {
  return host::encodeRequest({cmd, seq, addr, cnt, std::move(data)});
}

// Sends one frame, settles, compares with the model and returns the decoded answer.
host::Response transact(BridgeBench& b, const std::vector<uint8_t>& bytes, const std::string& what,
                        std::vector<Access>* acc = nullptr) {
  b.send(bytes);
  b.settle();
  const auto o = b.compare(what);
  if (acc) *acc = o.acc;
  return decode(o.tx);
}

// ---- directed ---------------------------------------------------------------------------

TEST(UartBridge, EachCommandDoesItsAccessesAndAnswers) {
  BridgeBench b(4, baseSeed());
  std::vector<Access> acc;
  auto r = transact(b, frame(uart::CmdWrite, 1, 0x8005, 1, {0xDEADBEEF}), "write", &acc);
  EXPECT_EQ(r.status, uart::StOk);
  EXPECT_EQ(r.seq, 1);
  EXPECT_TRUE(r.data.empty());
  ASSERT_EQ(acc.size(), 1u);
  EXPECT_TRUE((acc[0] == Access{true, 0x8005, 0xDEADBEEF}));
  EXPECT_EQ(b.mem()[0x8005], 0xDEADBEEFu);

  r = transact(b, frame(uart::CmdRead, 2, 0x8005, 1), "read", &acc);
  EXPECT_EQ(r.status, uart::StOk);
  ASSERT_EQ(r.data.size(), 1u);
  EXPECT_EQ(r.data[0], 0xDEADBEEFu);
  ASSERT_EQ(acc.size(), 1u);
  EXPECT_FALSE(acc[0].write);

  std::vector<uint32_t> words;
  for (int i = 0; i < kMaxBurst; ++i) words.push_back(0x1000u * static_cast<uint32_t>(i) + 7);
  r = transact(b, frame(uart::CmdBurstWrite, 3, 0xFFF8, kMaxBurst, words), "burst write wrapping at 0xFFFF", &acc);
  EXPECT_EQ(r.status, uart::StOk);
  ASSERT_EQ(acc.size(), static_cast<size_t>(kMaxBurst));
  EXPECT_EQ(acc[8].addr, 0x0000) << "addresses wrap";
  b.setBackPressure(60);
  r = transact(b, frame(uart::CmdBurstRead, 4, 0xFFF8, kMaxBurst), "burst read under back-pressure", &acc);
  EXPECT_EQ(r.status, uart::StOk);
  EXPECT_EQ(r.data, words);
  EXPECT_GT(b.stalls(), 0u);

  r = transact(b, frame(uart::CmdStatus, 5, 0, 0), "status");
  EXPECT_EQ(r.status, uart::StOk);
  ASSERT_EQ(r.data.size(), 3u);
  EXPECT_EQ(r.data[0], 0x53010000u | kMaxBurst << 8) << "magic, version, MaxBurst, no error yet";
  EXPECT_EQ(r.data[1], 5u) << "five good frames, none bad";
  EXPECT_EQ(r.data[2], 0u) << "nothing dropped or discarded";
  EXPECT_TRUE(b.sim().ok());
}

TEST(UartBridge, EveryErrorCodeIsAnsweredAndWritesNothing) {
  BridgeBench b(5, baseSeed());
  const auto before = b.mem();
  std::vector<Access> acc;
  // CRC: one data bit flipped on the line.
  auto f = frame(uart::CmdWrite, 9, 0x8001, 1, {0x12345678});
  b.line().put(f[0]);
  for (size_t i = 1; i < f.size(); ++i) b.line().put(f[i], i == 7 ? 1u << 3 : 0);
  b.settle();
  auto o = b.compare("CRC");
  auto r = decode(o.tx);
  EXPECT_EQ(r.status, uart::ErrCrc);
  EXPECT_TRUE(o.acc.empty());
  // Unknown commands, bad counts for every command.
  for (uint8_t cmd : {0x00, 0x06, 0x7F, 0xFF}) {
    r = transact(b, frame(cmd, 10, 0x8001, 0), "unknown command", &acc);
    EXPECT_EQ(r.status, uart::ErrCmd) << int{cmd};
    EXPECT_TRUE(acc.empty());
  }
  struct Bad { uint8_t cmd, cnt; };
  for (const Bad& x : {Bad{uart::CmdRead, 0}, Bad{uart::CmdRead, 2}, Bad{uart::CmdWrite, 2},
                       Bad{uart::CmdWrite, 0}, Bad{uart::CmdBurstRead, 0}, Bad{uart::CmdBurstRead, kMaxBurst + 1},
                       Bad{uart::CmdBurstWrite, 0}, Bad{uart::CmdBurstWrite, kMaxBurst + 3}, Bad{uart::CmdStatus, 1}}) {
    const bool wr = x.cmd == uart::CmdWrite || x.cmd == uart::CmdBurstWrite;
    r = transact(b, frame(x.cmd, 11, 0x8000, x.cnt, std::vector<uint32_t>(wr ? x.cnt : 0, 0xAAAA5555u)), "bad count", &acc);
    EXPECT_EQ(r.status, uart::ErrLen) << int{x.cmd} << " count " << int{x.cnt};
    EXPECT_TRUE(acc.empty());
  }
  // Timeout: a frame cut short.
  f = frame(uart::CmdBurstWrite, 12, 0x8000, 4, {1, 2, 3, 4});
  r = transact(b, std::vector<uint8_t>(f.begin(), f.begin() + 9), "truncated", &acc);
  EXPECT_EQ(r.status, uart::ErrTimeout);
  EXPECT_EQ(r.seq, 12);
  EXPECT_TRUE(acc.empty());
  // Framing: a low stop bit in the data. The receiver then waits for a high level and finds
  // the next start bit inside a data byte: the frame comes up short, and its timeout is
  // answered as the framing error it was.
  f = frame(uart::CmdWrite, 13, 0x8002, 1, {0xFFFFFFFF});
  for (size_t i = 0; i < f.size(); ++i) b.line().put(f[i], i == 8 ? 1u << 9 : 0);
  b.settle();
  o = b.compare("framing");
  r = decode(o.tx);
  EXPECT_EQ(r.status, uart::ErrFraming);
  EXPECT_TRUE(o.acc.empty());
  EXPECT_EQ(b.mem(), before) << "no error wrote anything";
  // The status word counts them and names the last error.
  r = transact(b, frame(uart::CmdStatus, 14, 0, 0), "status");
  ASSERT_EQ(r.data.size(), 3u);
  EXPECT_EQ(r.data[0] & 0xFF, uart::ErrFraming);
  EXPECT_EQ(r.data[1] >> 16, 1u + 4 + 9 + 1 + 1) << "bad frames";
  EXPECT_EQ(r.data[1] & 0xFFFF, 1u) << "good frames: this one";
  EXPECT_TRUE(b.sim().ok());
}

TEST(UartBridge, ARepeatedWriteIsAnsweredWithoutWritingAgain) {
  BridgeBench b(4, baseSeed());
  std::vector<Access> acc;
  const auto f = frame(uart::CmdWrite, 42, 0x0000, 1, {1});  // the core's start register
  EXPECT_EQ(transact(b, f, "first", &acc).status, uart::StOk);
  EXPECT_EQ(acc.size(), 1u);
  EXPECT_EQ(transact(b, f, "repeat (the answer was lost)", &acc).status, uart::StDup);
  EXPECT_TRUE(acc.empty()) << "a lost answer's retry does not start the kernel twice";
  EXPECT_EQ(transact(b, frame(uart::CmdRead, 42, 0, 1), "a read with that SEQ is done", &acc).status, uart::StOk);
  EXPECT_EQ(acc.size(), 1u);
  EXPECT_EQ(transact(b, f, "the write again after the read", &acc).status, uart::StOk);
  EXPECT_EQ(acc.size(), 1u);
}

TEST(UartBridge, GarbageBreaksAndBytesDuringAnAnswerNeverWedgeIt) {
  BridgeBench b(4, baseSeed());
  // Garbage between frames is discarded and counted; a break is one framing-error byte.
  b.send({0x00, 0x13, 0xFF, 0x5A});
  b.line().breakBits(40);
  b.line().idleBits(2);
  b.settle();
  EXPECT_TRUE(b.compare("garbage and a break").tx.empty()) << "garbage is not answered";
  // Bytes sent while the bridge answers a burst read are dropped and counted.
  b.send(frame(uart::CmdBurstRead, 1, 0x8000, kMaxBurst));
  while (!b.line().empty()) b.step();
  for (int i = 0; i < 40 * b.div(); ++i) b.step();  // 4 of the answer's 70 bytes are out
  b.setModelBusy(true);
  b.send({uart::kSyncReq, 0x01, 0x02});
  while (!b.line().empty()) b.step();
  for (int i = 0; i < 2 * b.div(); ++i) b.step();  // the receiver decides a stop bit 2 clocks late
  b.setModelBusy(false);
  b.settle();
  EXPECT_EQ(decode(b.compare("burst read with bytes during its answer").tx).data.size(), static_cast<size_t>(kMaxBurst));
  const auto r = transact(b, frame(uart::CmdStatus, 2, 0, 0), "status");
  ASSERT_EQ(r.data.size(), 3u);
  EXPECT_EQ(r.data[2], 3u << 16 | 5u) << "3 dropped, 5 discarded (4 garbage, the break)";
  EXPECT_EQ(r.data[0] & 0xFF, 0u) << "no error answered";
  EXPECT_EQ(transact(b, frame(uart::CmdWrite, 3, 0x8000, 1, {5}), "a write after it").status, uart::StOk);
  EXPECT_TRUE(b.sim().ok());
}

// ---- random frame streams with faults ------------------------------------------------------

enum class Fault { None, BitFlip, Drop, Truncate, Framing, Break, Garbage, Glitch };

void randomStream(uint64_t seed, int div, int transactions) {
  SIMT_SEED_TRACE(seed);
  std::printf("UartBridge random stream: seed %llu, divisor %d (replay with SIMT_SEED=%llu)\n",
              static_cast<unsigned long long>(seed), div, static_cast<unsigned long long>(seed));
  BridgeBench b(div, seed);
  Rng& rng = b.rng();
  Coverage cov("UartBridge.Random");
  cov.define({"read", "write", "burst_read", "burst_write", "status", "max_burst", "ok", "dup", "err_crc",
              "err_cmd", "err_len", "err_timeout", "err_framing", "no_answer", "fault_bitflip", "fault_drop",
              "fault_truncate", "fault_framing", "fault_break", "fault_garbage", "fault_glitch", "garbage_sync", "backpressure"});
  uint8_t seq = 0;
  std::vector<uint8_t> lastWrite;  // the last frame answered ok that wrote: resent as a retry
  Fault prevFault = Fault::None;
  for (int t = 0; t < transactions && b.sim().ok() && !::testing::Test::HasFailure(); ++t) {
    b.setBackPressure(rng.chance(30) ? rng.range(20, 80) : 0);
    std::vector<uint8_t> f;
    bool retry = false, valid = true;  // valid: a known command with a good count
    if (!lastWrite.empty() && rng.chance(8)) {
      f = lastWrite;
      retry = true;
    } else {
      const int kind = rng.below(100);
      const uint16_t addr = rng.chance(70) ? static_cast<uint16_t>(0x8000 + rng.below(48))
                                            : static_cast<uint16_t>(rng.bits(16));
      uint8_t cmd, cnt;
      if (kind < 20) { cmd = uart::CmdRead; cnt = 1; }
      else if (kind < 40) { cmd = uart::CmdWrite; cnt = 1; }
      else if (kind < 60) { cmd = uart::CmdBurstRead; cnt = static_cast<uint8_t>(rng.range(1, kMaxBurst)); }
      else if (kind < 80) { cmd = uart::CmdBurstWrite; cnt = static_cast<uint8_t>(rng.range(1, kMaxBurst)); }
      else if (kind < 88) { cmd = uart::CmdStatus; cnt = 0; }
      else if (kind < 93) { cmd = static_cast<uint8_t>(rng.chance(50) ? rng.range(6, 255) : 0); cnt = static_cast<uint8_t>(rng.below(3)); }
      else {  // a bad count
        const uint8_t cmds[] = {uart::CmdRead, uart::CmdWrite, uart::CmdBurstRead, uart::CmdBurstWrite, uart::CmdStatus};
        cmd = cmds[rng.below(5)];
        cnt = cmd == uart::CmdStatus ? static_cast<uint8_t>(rng.range(1, 4))
              : rng.chance(30) ? 0 : static_cast<uint8_t>(cmd <= uart::CmdWrite ? rng.range(2, 4) : kMaxBurst + rng.range(1, 3));
      }
      const bool wr = cmd == uart::CmdWrite || cmd == uart::CmdBurstWrite;
      std::vector<uint32_t> data;
      for (int i = 0; wr && i < cnt; ++i) data.push_back(static_cast<uint32_t>(rng.bits64()));
      valid = kind < 88;
      f = frame(cmd, seq++, addr, cnt, data);
      cov.sample("read", cmd == uart::CmdRead);
      cov.sample("write", cmd == uart::CmdWrite);
      cov.sample("burst_read", cmd == uart::CmdBurstRead);
      cov.sample("burst_write", cmd == uart::CmdBurstWrite);
      cov.sample("status", cmd == uart::CmdStatus);
      cov.sample("max_burst", (cmd == uart::CmdBurstRead || cmd == uart::CmdBurstWrite) && cnt == kMaxBurst);
    }
    Fault fault = Fault::None;
    if (rng.chance(40)) fault = static_cast<Fault>(rng.range(1, 7));
    // Garbage first, then the frame's bytes with the fault, a few idle bits between some.
    if (fault == Fault::Garbage) {
      const int n = rng.range(1, 6);
      for (int i = 0; i < n; ++i) {
        const uint8_t g = rng.chance(15) ? uart::kSyncReq : static_cast<uint8_t>(rng.bits(8));
        cov.sample("garbage_sync", g == uart::kSyncReq);
        b.line().put(g);
      }
    }
    const size_t at = static_cast<size_t>(rng.below(static_cast<int>(f.size())));
    size_t end = f.size();
    if (fault == Fault::Truncate) end = static_cast<size_t>(rng.range(1, static_cast<int>(f.size()) - 1));
    for (size_t i = 0; i < end; ++i) {
      if (rng.chance(10)) b.line().idleBits(rng.range(1, 4));
      if (i == at && fault == Fault::Drop) continue;
      if (i == at && fault == Fault::Break) {
        b.line().breakBits(rng.range(11, 30));
        b.line().idleBits(1);
        continue;
      }
      uint16_t flip = 0;
      if (i == at && fault == Fault::BitFlip) flip = static_cast<uint16_t>(1u << rng.below(10));
      if (i == at && fault == Fault::Framing) flip = 1u << 9;
      if (i == at && fault == Fault::Glitch) {
        b.line().putGlitch(f[i], rng.below(10), b.div() / 2);  // on the centre sample
        continue;
      }
      b.line().put(f[i], flip);
    }
    b.settle();
    const std::string what = "transaction " + std::to_string(t);
    const auto o = b.compare(what);
    // A corrupted frame writes nothing and is answered with an error, or not at all.
    const bool corrupt = fault != Fault::None && fault != Fault::Garbage && fault != Fault::Glitch;
    std::vector<uint8_t> statuses;
    host::ResponseDecoder dec;
    for (uint8_t x : o.tx) {
      if (dec.feed(x) == host::ResponseDecoder::Event::Frame) statuses.push_back(dec.frame().status);
    }
    if (corrupt) {
      for (const Access& a : o.acc) EXPECT_FALSE(a.write) << what << ": a corrupt frame wrote 0x" << std::hex << a.addr;
      for (uint8_t st : statuses) EXPECT_NE(st & 0x7F, uart::StOk) << what << ": a corrupt frame answered ok";
      cov.sample("fault_bitflip", fault == Fault::BitFlip);
      cov.sample("fault_drop", fault == Fault::Drop);
      cov.sample("fault_truncate", fault == Fault::Truncate);
      cov.sample("fault_framing", fault == Fault::Framing);
      cov.sample("fault_break", fault == Fault::Break);
    }
    cov.sample("fault_garbage", fault == Fault::Garbage);
    if (fault == Fault::Glitch && valid) {
      cov.hit("fault_glitch");
      ASSERT_EQ(statuses.size(), 1u) << what << ": a one-clock glitch on a sample is voted out";
      EXPECT_EQ(statuses[0] & 0x7F, uart::StOk) << what << ": a one-clock glitch on a sample is voted out";
    }
    cov.sample("no_answer", statuses.empty());
    cov.sample("backpressure", b.stalls() > 0);
    for (uint8_t st : statuses) {
      cov.sample("ok", st == uart::StOk);
      cov.sample("dup", st == uart::StDup);
      cov.sample("err_crc", st == uart::ErrCrc);
      cov.sample("err_cmd", st == uart::ErrCmd);
      cov.sample("err_len", st == uart::ErrLen);
      cov.sample("err_timeout", st == uart::ErrTimeout);
      cov.sample("err_framing", st == uart::ErrFraming);
    }
    if (retry && fault == Fault::None) {
      ASSERT_EQ(statuses.size(), 1u) << what;
      EXPECT_EQ(statuses[0], uart::StDup) << what << ": a resent write (previous fault " << static_cast<int>(prevFault) << ")";
    }
    // The bridge's last executed frame: a write to resend, or something else.
    if (std::find(statuses.begin(), statuses.end(), uart::StOk) != statuses.end()) {
      const bool wrote = !corrupt && statuses.back() == uart::StOk && !o.acc.empty() && o.acc.back().write;
      lastWrite = wrote ? f : std::vector<uint8_t>{};
    }
    b.line().idleBits(rng.below(20));
    prevFault = fault;
  }
  // The memories and the counters (no byte dropped: the host waited for every answer).
  const auto r = transact(b, frame(uart::CmdStatus, seq++, 0, 0), "final status");
  ASSERT_EQ(r.data.size(), 3u);
  EXPECT_EQ(r.data[2] >> 16, 0u) << "bytes dropped";
  EXPECT_TRUE(b.mem() == b.modelMem()) << "host-port memory";
  EXPECT_TRUE(b.sim().ok());
  cov.requireAllHit();
}

TEST(UartBridge, RandomFrameStreamsWithFaultsMatchTheModel) {
  for (uint64_t seed : testSeeds()) {
    const int divs[] = {4, 5, 7, 16};
    randomStream(seed, divs[seed % 4], 400 * lengthScale());
  }
}

}  // namespace
}  // namespace simt::tb
