// simt_mem_sram (the FPGA top's data memory, docs/blocks/mem_port.md "Who serves the port")
// against the harness memory's model (model::LineMemory::perform, its functional part, on a
// flat word array). The bench drives random requests (line reads, byte-enabled writes of whole
// words, atomics of every kind, addresses past the end) and random host-port reads and
// writes, and takes responses with random back-pressure; each request is performed by the
// model in the cycle the memory accepts it (rule 3: acceptance order), each response checked
// against what the model answered then, in request order. Every cycle
// the bench also checks that the request's ready does not depend on the response's ready
// (issue #26: a registered ready, the skid register), and at the end that every request was
// answered and the memory's words (read back through the host port) are the reference's.
#include <cstdint>
#include <deque>
#include <vector>

#include "Vmem_sram.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/mem/line_memory.h"

namespace simt::tb {
namespace {

// The verilated geometry (CMakeLists.txt): the FPGA top's 16-byte lines, 256 words, 2-bit ids.
constexpr uint32_t kLineBytes = 16, kLineWords = kLineBytes / 4, kWords = 256;
constexpr uint32_t kLines = kWords / kLineWords, kIds = 4;

using MemRequest = model::LineMemory::Request;
// A request's response as the model performs it, and the words of it the memory defines: a
// read's line, an atomic's old word (a write's data are not defined).
struct Expected {
  model::LineMemory::Response rsp;
  uint32_t checkWords = 0;
};

class SramBench {
 public:
  explicit SramBench(uint64_t seed)
      : sim_("simt_mem_sram", seed), rng_(seed), ref_(kWords, 0), mem_(ref_, kLineBytes, {}) {
    req_.be.assign(kLineBytes, 0);  // the payload driven while no request is offered
    req_.wdata.assign(kLineWords, 0);
    sim_.reset();
    // Known contents through the host port, one word a cycle.
    for (uint32_t a = 0; a < kWords; ++a) {
      ref_[a] = static_cast<uint32_t>(rng_.bits64());
      hostAccess(true, a, ref_[a]);
    }
  }

  // One cycle of random traffic: requestPct, a request offered when none is held; takePct,
  // the response's ready; hostPct, a host access offered when no request is.
  void cycle(int requestPct, int takePct, int hostPct) {
    auto& d = sim_.dut();
    if (!held_ && rng_.chance(requestPct)) {
      req_ = randomRequest();
      held_ = true;
    }
    drive(req_, held_);
    const bool host = !held_ && rng_.chance(hostPct);
    const bool hostWe = rng_.chance(50);
    const uint32_t hostAddr = static_cast<uint32_t>(rng_.below(kWords));
    const uint32_t hostData = static_cast<uint32_t>(rng_.bits64());
    d.host_valid_i = host;
    d.host_we_i = hostWe;
    d.host_addr_i = hostAddr;
    d.host_wdata_i = hostData;
    // The request's ready from registers: the same whatever the response's ready says.
    d.rsp_ready_i = 0;
    sim_.eval();
    const bool readyIfHeld = d.req_ready_o;
    d.rsp_ready_i = 1;
    sim_.eval();
    EXPECT_EQ(readyIfHeld, static_cast<bool>(d.req_ready_o))
        << "req_ready_o follows rsp_ready_i at cycle " << sim_.cycle();
    const bool take = rng_.chance(takePct);
    d.rsp_ready_i = take;
    sim_.eval();

    const bool rspValid = d.rsp_valid_o;
    if (rspValid) {
      if (!take) ++stalledResponses_;
      if (take) checkResponse();
    }
    if (held_ && d.req_ready_o) {
      if (rspValid && !take) ++requestsBesideStalled_;
      perform(req_);
      held_ = false;
    }
    int hostRead = -1;
    if (host && d.host_ready_o) {
      if (hostWe) {
        ref_[hostAddr] = hostData;
      } else {
        hostRead = static_cast<int>(hostAddr);
      }
    } else if (host) {
      ++hostRefused_;
    }
    sim_.tick();
    if (hostRead >= 0) {
      EXPECT_EQ(ref_[hostRead], static_cast<uint32_t>(sim_->host_rdata_o))
          << "host read of word " << hostRead << " at cycle " << sim_.cycle();
    }
  }

  // Takes every response left (no new requests); false if one never comes.
  bool drain() {
    auto& d = sim_.dut();
    d.host_valid_i = 0;
    for (int i = 0; i < 64 && (held_ || !expected_.empty()); ++i) cycle(0, 100, 0);
    d.req_valid_i = 0;
    return !held_ && expected_.empty();
  }

  // The memory's words through the host port against the reference.
  void checkWords() {
    for (uint32_t a = 0; a < kWords; ++a) {
      ASSERT_EQ(ref_[a], hostAccess(false, a, 0)) << "word " << a;
    }
  }

  uint64_t responses() const { return responses_; }
  uint64_t stalledResponses() const { return stalledResponses_; }
  uint64_t requestsBesideStalled() const { return requestsBesideStalled_; }
  uint64_t atomics() const { return atomics_; }
  uint64_t errors() const { return errors_; }
  uint64_t hostRefused() const { return hostRefused_; }
  bool ok() const { return sim_.ok(); }

 private:
  MemRequest randomRequest() {
    MemRequest r;
    r.id = nextId_++ % kIds;
    const int kind = rng_.below(100);
    const bool past = rng_.chance(5);
    r.addr = (past ? kLines + static_cast<uint32_t>(rng_.below(64)) : static_cast<uint32_t>(rng_.below(kLines))) *
             kLineBytes;
    r.wdata.resize(kLineWords);
    for (auto& w : r.wdata) w = static_cast<uint32_t>(rng_.bits64());
    // Whole words only (the memory asserts it): a read requests the line.
    uint32_t words = (1u << kLineWords) - 1;
    if (kind >= 45 && kind < 80) {
      r.write = true;
      words = static_cast<uint32_t>(rng_.range(1, (1 << kLineWords) - 1));
    } else if (kind >= 80) {
      r.amo = static_cast<uint8_t>(rng_.range(1, 8));
      words = 1u << rng_.below(kLineWords);
      // cas: a compare value that matches half the time (the word as it is when offered).
      const uint32_t word = r.addr / 4 + static_cast<uint32_t>(__builtin_ctz(words));
      r.cmp = (rng_.chance(50) && word < kWords) ? ref_[word] : static_cast<uint32_t>(rng_.bits64());
    }
    r.be.assign(kLineBytes, 0);
    for (uint32_t b = 0; b < kLineBytes; ++b) r.be[b] = (words >> (b / 4)) & 1;
    return r;
  }

  // The request's byte enables as the port's bits.
  static uint32_t beMask(const MemRequest& r) {
    uint32_t be = 0;
    for (uint32_t b = 0; b < kLineBytes; ++b) be |= static_cast<uint32_t>(r.be[b] != 0) << b;
    return be;
  }

  void drive(const MemRequest& r, bool valid) {
    auto& d = sim_.dut();
    d.req_valid_i = valid;
    d.req_id_i = r.id;
    d.req_we_i = r.write;
    d.req_amo_i = r.amo;
    d.req_addr_i = r.addr;
    d.req_be_i = beMask(r);
    for (uint32_t w = 0; w < kLineWords; ++w) setBits(d.req_wdata_i, static_cast<int>(32 * w), 32, r.wdata[w]);
    d.req_cmp_i = r.cmp;
  }

  // The request as the memory performs it when it accepts it: the model's effect.
  void perform(const MemRequest& r) {
    Expected e;
    e.rsp = mem_.perform(r);
    if (e.rsp.err) {
      ++errors_;
    } else if (r.amo) {
      e.checkWords = 1u << (__builtin_ctz(beMask(r)) / 4);
      ++atomics_;
    } else if (!r.write) {
      e.checkWords = (1u << kLineWords) - 1;
    }
    expected_.push_back(e);
  }

  void checkResponse() {
    auto& d = sim_.dut();
    ASSERT_FALSE(expected_.empty()) << "a response with no request at cycle " << sim_.cycle();
    const Expected e = expected_.front();
    expected_.pop_front();
    ++responses_;
    EXPECT_EQ(e.rsp.id, static_cast<uint32_t>(d.rsp_id_o)) << "response order at cycle " << sim_.cycle();
    EXPECT_EQ(e.rsp.err, static_cast<bool>(d.rsp_err_o)) << "id " << e.rsp.id << " at cycle " << sim_.cycle();
    for (uint32_t w = 0; w < kLineWords; ++w) {
      if (e.checkWords >> w & 1) {
        EXPECT_EQ(e.rsp.rdata[w], static_cast<uint32_t>(getBits(d.rsp_rdata_o, static_cast<int>(32 * w), 32)))
            << "word " << w << " of id " << e.rsp.id << " at cycle " << sim_.cycle();
      }
    }
  }

  // One host access with the requester quiet (the host then has the RAM): a read's data.
  uint32_t hostAccess(bool write, uint32_t addr, uint32_t data) {
    auto& d = sim_.dut();
    d.req_valid_i = 0;
    d.rsp_ready_i = 1;
    d.host_valid_i = 1;
    d.host_we_i = write;
    d.host_addr_i = addr;
    d.host_wdata_i = data;
    sim_.eval();
    EXPECT_TRUE(d.host_ready_o) << "the host kept out of a quiet memory, word " << addr;
    sim_.tick();
    d.host_valid_i = 0;
    return d.host_rdata_o;
  }

  SimContext<Vmem_sram> sim_;
  Rng rng_;
  std::vector<uint32_t> ref_;
  model::LineMemory mem_;  // performs requests on ref_ (its functional part: no timing)
  std::deque<Expected> expected_;
  MemRequest req_;
  bool held_ = false;
  uint32_t nextId_ = 0;
  uint64_t responses_ = 0, stalledResponses_ = 0, requestsBesideStalled_ = 0, atomics_ = 0,
           errors_ = 0, hostRefused_ = 0;
};

TEST(MemSram, RandomTrafficWithBackPressureMatchesAFlatMemory) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    std::printf("MemSram seed %llu\n", static_cast<unsigned long long>(seed));
    SramBench b(seed);
    const int n = 10000 * lengthScale();
    for (int i = 0; i < n && !::testing::Test::HasFailure(); ++i) {
      // Phases: a taker that keeps up, one that stalls often, and host traffic between.
      const int phase = (i / 500) % 3;
      b.cycle(phase == 2 ? 40 : 80, phase == 1 ? 30 : 90, 30);
    }
    ASSERT_TRUE(b.drain()) << "a request was never answered";
    b.checkWords();
    EXPECT_TRUE(b.ok());
    std::printf("MemSram: %llu responses, %llu held back, %llu requests beside a held one, "
                "%llu atomics, %llu errors, %llu host accesses kept out\n",
                static_cast<unsigned long long>(b.responses()),
                static_cast<unsigned long long>(b.stalledResponses()),
                static_cast<unsigned long long>(b.requestsBesideStalled()),
                static_cast<unsigned long long>(b.atomics()), static_cast<unsigned long long>(b.errors()),
                static_cast<unsigned long long>(b.hostRefused()));
    // The cases that matter happened: responses held back, a request taken beside a held
    // response (the skid), atomics, errors, the host kept out.
    EXPECT_GT(b.responses(), 3000u);
    EXPECT_GT(b.stalledResponses(), 100u);
    EXPECT_GT(b.requestsBesideStalled(), 50u);
    EXPECT_GT(b.atomics(), 100u);
    EXPECT_GT(b.errors(), 20u);
    EXPECT_GT(b.hostRefused(), 50u);
  }
}

// A taker that takes every response sees one request a cycle, each answered the next cycle.
TEST(MemSram, ReadsBackToBackAnswerInTheNextCycle) {
  SimContext<Vmem_sram> sim("simt_mem_sram");
  sim.reset();
  auto& d = sim.dut();
  d.rsp_ready_i = 1;
  d.req_we_i = 0;
  d.req_amo_i = 0;
  d.req_be_i = 0xFFFF;
  for (uint32_t i = 0; i < 8; ++i) {
    d.req_valid_i = 1;
    d.req_id_i = i % kIds;
    d.req_addr_i = i * kLineBytes;
    sim.eval();
    ASSERT_TRUE(d.req_ready_o) << "request " << i;
    if (i > 0) {
      ASSERT_TRUE(d.rsp_valid_o);
      EXPECT_EQ((i - 1) % kIds, static_cast<uint32_t>(d.rsp_id_o));
    }
    sim.tick();
  }
  d.req_valid_i = 0;
  sim.eval();
  ASSERT_TRUE(d.rsp_valid_o);
  EXPECT_EQ(7 % kIds, static_cast<uint32_t>(d.rsp_id_o));
  sim.tick();
  EXPECT_FALSE(d.rsp_valid_o);
  EXPECT_TRUE(sim.ok());
}

}  // namespace
}  // namespace simt::tb
