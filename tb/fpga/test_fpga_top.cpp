// The core's FPGA top (rtl/fpga/simt_fpga_top.sv) driven only through its host port, as a
// board's host would: load code, params and data, set up the launch, start, poll the status,
// read the data memory, the counters and the fault registers back, and service token-queue
// overflows through the maintenance registers (the runtime's re-centring, seed 002). Results
// are compared with the ISA model's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Vsimt_fpga_top.h"
#include "asm/assembler.h"
#include "common/sim_context.h"
#include "fpga/board_builds.h"
#include "host/device_engine.h"
#include "model/sm/sm_model.h"
#include "runtime/recentre_runtime.h"

namespace simt::tb {
namespace {

// Register map (docs/blocks/fpga_top.md).
constexpr uint16_t kCtrl = 0x0000, kNtid = 0x0001, kNctaid = 0x0002, kCodeSize = 0x0003,
                   kParamWords = 0x0004, kSharedBytes = 0x0005, kBarPrio = 0x0009, kFaultCause = 0x0010,
                   kFaultPc = 0x0012, kFaultAddr = 0x0014, kExc = 0x0018, kQPtrs = 0x0019,
                   kMntCmd = 0x0020, kMntPtrs = 0x0021, kMntData = 0x0022, kPerf = 0x0040,
                   kGeometry = 0x0030, kImem = 0x1000, kParam = 0x2000, kData = 0x8000;
constexpr int kQueueDepth = 16;   // the top's default
constexpr int kDataWords = 2048;

class HostPort {
 public:
  HostPort() : sim_("simt_fpga_top") {
    sim_->host_valid_i = 0;
    sim_.reset();
  }

  void write(uint16_t addr, uint32_t data) { access(true, addr, data); }
  uint32_t read(uint16_t addr) { return access(false, addr, 0); }

  // Load a kernel and start it.
  void launch(const assembler::Kernel& k) {
    for (size_t i = 0; i < k.code.size(); ++i) {
      write(static_cast<uint16_t>(kImem + 2 * i), static_cast<uint32_t>(k.code[i]));
      write(static_cast<uint16_t>(kImem + 2 * i + 1), static_cast<uint32_t>(k.code[i] >> 32));
    }
    for (size_t i = 0; i < k.params.size(); ++i) write(static_cast<uint16_t>(kParam + i), k.params[i]);
    for (size_t i = 0; i < k.data.size(); ++i) write(static_cast<uint16_t>(kData + i), k.data[i]);
    write(kNtid, static_cast<uint32_t>(k.threads));
    write(kNctaid, static_cast<uint32_t>(k.ctas));
    write(kCodeSize, static_cast<uint32_t>(k.code.size()));
    write(kParamWords, static_cast<uint32_t>(k.params.size()));
    write(kSharedBytes, k.sharedBytes);
    write(kCtrl, 1);
  }

  // Poll the status until done or fault, servicing queue exceptions; returns the status.
  uint32_t wait(uint64_t maxCycles = 2'000'000) {
    while (sim_.cycle() < maxCycles && sim_.ok()) {
      const uint32_t st = read(kCtrl);
      if (st & 0x6u) return st;
      if (st & 0x8u) recentre();
    }
    ADD_FAILURE() << "the core did not finish";
    return 0;
  }

  std::vector<uint32_t> data(size_t words) {
    std::vector<uint32_t> v;
    for (size_t i = 0; i < words; ++i) v.push_back(read(static_cast<uint16_t>(kData + i)));
    return v;
  }
  int recentred = 0;
  bool ok() const { return sim_.ok(); }

 private:
  uint32_t access(bool we, uint16_t addr, uint32_t wdata) {
    sim_->host_valid_i = 1;
    sim_->host_we_i = we;
    sim_->host_addr_i = addr;
    sim_->host_wdata_i = wdata;
    sim_.eval();
    for (int guard = 0; !sim_->host_ready_o; ++guard) {
      sim_.tick();
      EXPECT_LT(guard, 100) << "host port never ready";
      if (guard >= 100) break;
    }
    sim_.tick();
    sim_->host_valid_i = 0;
    sim_.eval();
    if (we) return 0;
    EXPECT_TRUE(sim_->host_rvalid_o) << "read data one cycle after the read";
    return sim_->host_rdata_o;
  }

  // The runtime's overflow handler, each maintenance operation through the registers.
  void recentre() {
    const uint32_t exc = read(kExc), ptrs = read(kQPtrs);
    runtime::RecentreRuntime rt(kQueueDepth);
    rt.start(static_cast<int>(exc & 0xFF), static_cast<int>(ptrs & 0xFFFF), static_cast<int>(ptrs >> 16));
    ASSERT_FALSE(rt.lastWasUnrecoverable());
    while (rt.busy()) {
      ASSERT_TRUE(rt.wantsPort());
      const model::TokenDequeIn in = rt.request(model::TokenDequeIn{});
      const uint64_t w = model::pack64(in.mntWdata);
      write(kMntPtrs, static_cast<uint32_t>(in.mntHead) | static_cast<uint32_t>(in.mntTail) << 16);
      write(kMntData, static_cast<uint32_t>(w));
      write(kMntData + 1, static_cast<uint32_t>(w >> 32));
      write(kMntCmd, static_cast<uint32_t>(in.mntOp) | static_cast<uint32_t>(in.mntWarp) << 8 |
                         static_cast<uint32_t>(in.mntIdx) << 16);
      uint32_t st = 0;
      for (int guard = 0; ((st = read(kMntCmd)) & 1u) && guard < 100; ++guard) {}
      ASSERT_FALSE(st & 1u) << "maintenance operation not taken";
      rt.accepted(64);
      if (in.mntOp == model::MntOp::Read) {
        ASSERT_TRUE(st & 2u) << "read data captured";
        const uint64_t rd = read(kMntData) | static_cast<uint64_t>(read(kMntData + 1)) << 32;
        rt.capture(true, {rd, 0}, 64);
      }
    }
    ++recentred;
  }

  SimContext<Vsimt_fpga_top> sim_;
};

model::RunResult modelRun(const assembler::Kernel& k) {
  model::RunConfig cfg;
  return model::SmModel(k, cfg).run();
}

TEST(FpgaTop, RunsAKernelLoadedThroughTheHostPort) {
  const auto k = assembler::assemble(
      ".launch ctas=3 threads=48\n.data\na: .zero 576\nout: .zero 576\n.text\n"
      "mov r1, %gtid\nshl r2, r1, 2\nmul r3, r1, r1\nst.global [r2+a], r3\nld.global r4, [r2+a]\n"
      "ld.param r5, [0]\nadd r4, r4, r5\nst.global [r2+out], r4\nexit\n"
      ".param 1000\n", "inline.s");
  HostPort host;
  host.launch(k);
  const uint32_t st = host.wait();
  ASSERT_EQ(st & 0x6u, 0x2u) << "done without a fault";
  const model::RunResult m = modelRun(k);
  ASSERT_EQ(m.status, model::RunStatus::Ok) << m.message;
  EXPECT_EQ(host.data(k.data.size()), std::vector<uint32_t>(m.global.begin(), m.global.begin() + k.data.size()));
  EXPECT_EQ(host.data(k.data.size())[144 + 5], 25u + 1000u);
  EXPECT_EQ(host.read(kPerf + 1), m.instructions) << "warp-instructions counter";
  EXPECT_GT(host.read(kPerf + 0), m.instructions) << "cycles";
  EXPECT_TRUE(host.ok());
}

TEST(FpgaTop, TheBarrierPriorityRegisterOrdersWaitingSections) {
  // Lane 0 of warp 0 holds the exclusive section 0; meanwhile warp 1 diverges: lane 0 queues
  // at section 1, lane 1 at section 2, both in the ready FIFO. When section 0 ends both take
  // slots; round robin grants section 2 (slot 1) first; with id 1 at priority 3 (register
  // 0x0009, 2 bits per id) section 1 overtakes it. order[] holds each ticket.
  const auto k = assembler::assemble(
      ".launch ctas=1 threads=64\n.data\nticket: .word 0\norder: .zero 12\n.text\n"
      "mov r1, %laneid\nmov r20, %warpid\nmov r2, 1\nsetp.eq p1, r20, 0\n@p1 bra w0\n"
      "setp.eq p0, r1, 0\n@p0 bra s1\nsetp.eq p0, r1, 1\n@!p0 exit\n"
      "bar.top.ocs 2, 1\natom.global.add r5, [ticket], r2\nst.global [order+8], r5\nbar.bot.ocs 2\nexit\n"
      "s1: bar.top.ocs 1, 1\natom.global.add r5, [ticket], r2\nst.global [order+4], r5\nbar.bot.ocs 1\nexit\n"
      "w0: setp.eq p0, r1, 0\n@!p0 exit\nbar.top.ocs.ex 0, 1\natom.global.add r5, [ticket], r2\n"
      "st.global [order], r5\nmov r22, 400\nhold: setp.gt p2, r22, 0\n@!p2 bra out\nsub r22, r22, 1\n"
      "bra hold\nout: bar.bot.ocs 0\nexit\n",
      "inline.s");
  for (const uint8_t prio : {0, 3}) {
    HostPort host;
    host.write(kBarPrio, static_cast<uint32_t>(prio) << 2);
    EXPECT_EQ(host.read(kBarPrio), static_cast<uint32_t>(prio) << 2);
    host.launch(k);
    ASSERT_EQ(host.wait() & 0x6u, 0x2u) << "done without a fault";
    model::RunConfig cfg;
    cfg.barrierPriority[1] = prio;
    const model::RunResult m = model::SmModel(k, cfg).run();
    ASSERT_EQ(m.status, model::RunStatus::Ok) << m.message;
    const std::vector<uint32_t> order = {m.global[1], m.global[2], m.global[3]};
    const std::vector<uint32_t> expected = prio ? std::vector<uint32_t>{0, 1, 2} : std::vector<uint32_t>{0, 2, 1};
    EXPECT_EQ(order, expected) << "the model's order, priority " << int{prio};
    EXPECT_EQ(host.data(4), std::vector<uint32_t>(m.global.begin(), m.global.begin() + 4)) << "priority " << int{prio};
  }
}

TEST(FpgaTop, AFaultIsReportedInTheStatusAndFaultRegisters) {
  const auto k = assembler::assemble(
      ".launch ctas=1 threads=32\n.data\nd: .zero 8\n.text\nmov r1, %tid\nnop\nld.global r2, [r1+d]\nexit\n",
      "inline.s");
  HostPort host;
  host.launch(k);
  const uint32_t st = host.wait();
  ASSERT_EQ(st & 0x4u, 0x4u) << "fault";
  const model::RunResult m = modelRun(k);
  ASSERT_NE(m.message.find("misaligned global access at 1"), std::string::npos) << m.message;
  EXPECT_EQ(host.read(kFaultPc), 2u);
  EXPECT_EQ(host.read(kFaultAddr), 1u) << "thread 1's address";
  EXPECT_EQ(host.read(kFaultCause), 4u) << "simt_pkg::FltGlobalAlign";
}

TEST(FpgaTop, TheHostReCentresAnOverflowingTokenQueue) {
  // 10 nested ssy at the front of a 16-entry queue that starts in the middle.
  std::string src = ".data\nout: .zero 4\n.text\nmov r1, 0\n";
  for (int i = 0; i < 10; ++i) src += "ssy l" + std::to_string(i) + "\nadd r1, r1, 1\n";
  for (int i = 9; i >= 0; --i) src += "sync l" + std::to_string(i) + "\nl" + std::to_string(i) + ":\n";
  src += "mov r2, %tid\nsetp.eq p0, r2, 0\n@p0 st.global [out], r1\nexit\n";
  const auto k = assembler::assemble(src, "inline.s");
  HostPort host;
  host.launch(k);
  const uint32_t st = host.wait();
  ASSERT_EQ(st & 0x6u, 0x2u) << "done without a fault";
  EXPECT_GE(host.recentred, 1);
  EXPECT_EQ(host.read(kData), 10u);
}

// The core starts once per reset; bit 1 of 0x0000 resets it (not the memories, not the
// launch registers), so a host runs one kernel after another, and stops one it gave up on.
TEST(FpgaTop, AHostResetOfTheCoreLetsTheNextKernelRun) {
  auto kernel = [](uint32_t param) {
    return assembler::assemble(".launch ctas=2 threads=32\n.data\nout: .zero 256\n.text\n"
                               "mov r1, %gtid\nshl r2, r1, 2\nld.param r3, [0]\nadd r3, r3, r1\n"
                               "st.global [r2+out], r3\nexit\n.param " + std::to_string(param) + "\n",
                               "inline.s");
  };
  HostPort host;
  host.launch(kernel(100));
  ASSERT_EQ(host.wait() & 0x6u, 0x2u);
  const uint32_t cycles = host.read(kPerf);
  EXPECT_EQ(host.data(64)[63], 163u);
  host.launch(kernel(500));  // without a reset the start is ignored: still done, old data
  EXPECT_EQ(host.read(kCtrl) & 0x7u, 0x2u);
  EXPECT_EQ(host.data(64)[63], 0u) << "the new image, not run";
  host.write(kCtrl, 2);
  EXPECT_EQ(host.read(kCtrl) & 0xFu, 0u) << "reset: idle, not done";
  EXPECT_EQ(host.read(kPerf), 0u) << "the counters restart";
  EXPECT_EQ(host.read(kNtid), 32u) << "the launch registers stay";
  host.write(kCtrl, 1);
  ASSERT_EQ(host.wait() & 0x6u, 0x2u);
  EXPECT_EQ(host.data(64)[63], 563u);
  EXPECT_EQ(host.read(kPerf), cycles);
  // A kernel that never ends stops at a reset.
  const auto spin = assembler::assemble("l: bra l\n", "spin.s");
  host.write(kCtrl, 2);
  host.launch(spin);
  for (int i = 0; i < 4; ++i) host.read(kCtrl);  // the start reaches the core a cycle later
  EXPECT_EQ(host.read(kCtrl) & 0x7u, 0x1u) << "busy";
  host.write(kCtrl, 2);
  EXPECT_EQ(host.read(kCtrl) & 0x7u, 0x0u) << "stopped";
  EXPECT_TRUE(host.ok());
}

TEST(FpgaTop, DataOutsideTheKernelsImageIsTheHostsScratch) {
  HostPort host;
  host.write(static_cast<uint16_t>(kData + kDataWords - 1), 0xCAFEF00Du);
  host.write(kData + 7, 42u);
  EXPECT_EQ(host.read(static_cast<uint16_t>(kData + kDataWords - 1)), 0xCAFEF00Du);
  EXPECT_EQ(host.read(kData + 7), 42u);
  EXPECT_EQ(host.read(kCtrl) & 0x7u, 0u) << "idle, not done, no fault before a start";
}

// The geometry words: the parameters Vsimt_fpga_top was verilated with (its defaults),
// constants that a write does not change; the words around them read 0.
TEST(FpgaTop, TheGeometryWordsReportTheParametersAndIgnoreWrites) {
  HostPort host;
  std::vector<uint32_t> words;
  for (uint16_t a = kGeometry; a < kGeometry + host::fpga_map::kGeometryWords; ++a) {
    words.push_back(host.read(a));
  }
  EXPECT_EQ(words[0], 0x53494D54u) << "\"SIMT\"";
  EXPECT_EQ(words[1], host::fpga_map::kGeometryVersion) << "layout version";
  const host::DeviceGeometry g = host::DeviceGeometry::decode(words);
  const host::DeviceGeometry want = verilatedGeometry(BoardBuild::Default);
  EXPECT_EQ(g, want) << g.describe() << " instead of " << want.describe();
  EXPECT_EQ(g.queueDepth, kQueueDepth);
  EXPECT_EQ(g.dataWords, kDataWords);
  for (uint16_t a = kGeometry; a < kGeometry + host::fpga_map::kGeometryWords; ++a) {
    host.write(a, 0xFFFFFFFFu);
  }
  for (uint16_t a = kGeometry; a < kGeometry + host::fpga_map::kGeometryWords; ++a) {
    EXPECT_EQ(host.read(a), words[a - kGeometry]) << "address " << a << " is read-only";
  }
  EXPECT_EQ(host.read(kGeometry - 1), 0u);
  EXPECT_EQ(host.read(static_cast<uint16_t>(kGeometry + host::fpga_map::kGeometryWords)), 0u);
  EXPECT_EQ(host.read(kNtid), 0u) << "no launch register written";
  EXPECT_TRUE(host.ok());
}

}  // namespace
}  // namespace simt::tb
