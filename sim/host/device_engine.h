// The core on a board as an engine of `simt run` (--device PORT): the host of
// simt_fpga_uart_top over any byte link (a serial port, a simulated line). It loads a
// kernel's code, params and data image through the UART bridge into the FPGA top's host port
// (docs/blocks/fpga_top.md), sets up the launch, starts it, polls the status, re-centres
// overflowing token queues through the maintenance registers as the runtime does
// (sim/runtime/recentre_runtime.h, seed 002), and reads the data image, the fault registers
// and the performance counters back. The core starts once per reset: the host resets it
// (0x0000 bit 1) before each launch, and after a run it gave up on (timeout, deadlock), so
// that no kernel goes on running on the board. The same RunConfig -> RunResult as the ISA
// model and the verilated core (an Engine of sim/runtime/cl_runtime.h). What fits comes from
// the board: it reports its parameters (DeviceGeometry), read once per engine. Link failures
// that outlast the client's retries, and a board that is not an FPGA top this host knows,
// throw host::LinkError.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "host/uart_protocol.h"
#include "model/sm/sm_model.h"

namespace simt::host {

// simt_fpga_top's register and memory map (word addresses, docs/blocks/fpga_top.md).
namespace fpga_map {
constexpr uint16_t kCtrl = 0x0000;        // W: start; R: {exc, fault, done, busy}
constexpr uint16_t kNtid = 0x0001;        // 0x0001-0x0009: the launch registers, in order
constexpr uint16_t kFaultCause = 0x0010;  // 0x0010-0x0014: cause, warp, pc, lane, address
constexpr uint16_t kExc = 0x0018;         // {back end, warp}; 0x0019 {tail, head}
constexpr uint16_t kMntCmd = 0x0020;      // W {idx, warp, op}; R {read data valid, busy}
constexpr uint16_t kMntPtrs = 0x0021;     // W {tail, head}
constexpr uint16_t kMntData = 0x0022;     // 0x0022/23 the token, low and high word
constexpr uint16_t kGeometry = 0x0030;    // R: 0x0030-0x003E, DeviceGeometry's words
constexpr uint16_t kPerf = 0x0040;        // performance counter n at 0x0040 + n
constexpr uint16_t kImem = 0x1000;        // instruction i: low word at 2i, high at 2i+1
constexpr uint16_t kParam = 0x2000;
constexpr uint16_t kData = 0x8000;
constexpr uint32_t kBusy = 1, kDone = 2, kFault = 4, kQueueExc = 8;  // status bits
constexpr uint32_t kStart = 1, kCoreReset = 2;                       // 0x0000 write bits
// The geometry words: magic ("SIMT"), layout version, then warp slots, resident CTAs, queue
// depth, instruction words, param words, shared bytes per CTA, data words, FP lanes, line
// bytes, barrier slots, threads per warp, physical ALU lanes, warps per CTA.
constexpr uint32_t kGeometryMagic = 0x53494D54;
constexpr uint32_t kGeometryVersion = 3;  // 2: the physical lanes (0x003D); 3: warps per CTA (0x003E)
constexpr size_t kGeometryWords = 15;
}  // namespace fpga_map

// What a build of the FPGA top can run: its parameters, as its geometry words (0x0030-0x003E)
// report them. The host reads them when it connects (DeviceEngine::geometry) and takes every
// limit from them: threads per CTA, the memories, the queue depth its re-centring needs.
struct DeviceGeometry {
  int warpSlots = 0;         // NumWarps
  int residentCtas = 0;      // NumCtas
  int queueDepth = 0;        // QueueDepth: token-queue entries per warp
  int imemWords = 0;         // ImemDepth: instructions
  int paramWords = 0;        // ParamWords
  uint32_t sharedBytes = 0;  // SharedWords * 4, per resident CTA
  int dataWords = 0;         // DataWords: the global data memory
  bool fpLanes = false;      // HasFpu
  int lineBytes = 0;         // LineBytes: the core's memory port
  int barrierSlots = 0;      // NumBarSlots
  int warpSize = 0;          // threads per warp
  int lanes = 0;             // NumLanes: physical ALU lanes (a warp in warpSize / lanes passes)
  int ctaWarps = 0;          // CtaWarps: warps a CTA may have (at most warpSlots)
  int maxThreadsPerCta() const { return ctaWarps * warpSize; }
  bool operator==(const DeviceGeometry& o) const;
  // The geometry words from 0x0030 (kGeometryWords of them): throws LinkError (WrongDevice)
  // naming what was read when the magic, the layout version or a value is not one this
  // host knows.
  static DeviceGeometry decode(const std::vector<uint32_t>& words);
  // One line, for the summary: "2 warp slots (64 threads per CTA), ..." (with "of 2 warps"
  // after the thread count when a CTA may have fewer warps than the slots).
  std::string describe() const;
};

class DeviceEngine {
 public:
  struct Options {
    UartClient::Options link;
    // Polls of a running kernel whose cycle counter does not move before giving up (a core
    // that is not clocked): a bound, so that nothing waits forever.
    int stuckPolls = 200;
  };
  // What the link did during the last run (the client's counters) and how long it took.
  struct LinkReport {
    UartClient::Stats stats;
    double seconds = 0;
  };

  DeviceEngine(ByteLink& link, const Options& opt);

  // The board's geometry, read and checked at the first call (a run makes that call first):
  // throws LinkError when the board does not answer, or (WrongDevice) when what answers is
  // not an FPGA top of a layout this host knows.
  const DeviceGeometry& geometry();

  // Runs a kernel to completion, fault, deadlock (no instruction for longer than any barrier
  // timeout) or cfg.maxCycles. Throws LinkError when the board does not answer.
  model::RunResult run(const assembler::Kernel& k, const model::RunConfig& cfg);
  const LinkReport& lastLink() const { return report_; }

 private:
  std::string configError(const assembler::Kernel& k, int ctas, int threads) const;
  void load(const assembler::Kernel& k, const model::RunConfig& cfg, int ctas, int threads);
  // Re-centres the stalled queue the exception registers name; false (and a fault message)
  // for a queue too full to re-centre.
  bool recentre(std::string& fault);
  // One maintenance operation through the registers; returns the read data of a read.
  uint64_t maintenance(uint32_t cmd, bool read);
  std::string faultMessage(const assembler::Kernel& k, int threads);

  ByteLink& link_;
  Options opt_;
  std::optional<DeviceGeometry> geometry_;
  std::optional<UartClient> client_;  // a new one per run (its SEQ and counters from 0)
  LinkReport report_;
};

}  // namespace simt::host
