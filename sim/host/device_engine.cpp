#include "host/device_engine.h"

#include <chrono>
#include <iomanip>
#include <sstream>
#include <vector>

#include "asm/isa.h"
#include "rtl/core_report.h"
#include "runtime/recentre_runtime.h"

namespace simt::host {

using model::RunResult;
using model::RunStatus;
namespace map = fpga_map;

namespace {

// As the verilated core's runner: no instruction for longer than any impatient barrier's
// TIMEOUT (at most 32767 cycles) plus the barrier unit's timeout scan is a deadlock.
constexpr uint64_t kQuietLimit = 40'000;
// Reads of the maintenance status before an operation counts as not taken.
constexpr int kMaintenancePolls = 100;

// A counter's increase since `before` (32-bit counters that wrap).
uint64_t since(uint32_t now, uint32_t before) { return static_cast<uint32_t>(now - before); }

std::string hex(uint32_t v, int digits = 8) {
  std::ostringstream os;
  os << "0x" << std::hex << std::setw(digits) << std::setfill('0') << v;
  return os.str();
}
std::string hexAddr(size_t a) { return hex(static_cast<uint32_t>(a), 4); }

LinkError wrongDevice(const std::string& what) {
  return LinkError(LinkError::Kind::WrongDevice, what);
}

}  // namespace

DeviceGeometry DeviceGeometry::decode(const std::vector<uint32_t>& w) {
  if (w.size() != map::kGeometryWords) {
    throw wrongDevice("the geometry is " + std::to_string(map::kGeometryWords) + " words, not " +
                      std::to_string(w.size()));
  }
  if (w[0] != map::kGeometryMagic) {
    throw wrongDevice("the board reads " + hex(w[0]) + " at " + hexAddr(map::kGeometry) +
                      ", not the FPGA top's magic " + hex(map::kGeometryMagic) +
                      " (\"SIMT\"): not simt_fpga_top, or one built before it reported its "
                      "geometry");
  }
  if (w[1] != map::kGeometryVersion) {
    throw wrongDevice("the FPGA top's geometry layout is version " + std::to_string(w[1]) +
                      " (" + hex(w[1]) + " at " + hexAddr(map::kGeometry + 1u) +
                      "); this host knows version " + std::to_string(map::kGeometryVersion));
  }
  // The bounds are the host map's windows (the RTL asserts the same) and what the host's
  // own fields hold: a value outside them is a corrupt or unknown board, not a limit.
  auto field = [&w](size_t i, const char* name, uint32_t lo, uint32_t hi) {
    if (w[i] < lo || w[i] > hi) {
      throw wrongDevice("the board reports " + std::to_string(w[i]) + " " + name + " (at " +
                        hexAddr(map::kGeometry + i) + "), outside " +
                        std::to_string(lo) + ".." + std::to_string(hi));
    }
    return static_cast<int>(w[i]);
  };
  DeviceGeometry g;
  g.warpSlots = field(2, "warp slots", 1, 256);
  g.residentCtas = field(3, "resident CTAs", 1, 256);
  g.queueDepth = field(4, "token-queue entries", 2, 0x7FFF);
  g.imemWords = field(5, "instruction words", 1, 2048);
  g.paramWords = field(6, "param words", 1, 4096);
  g.sharedBytes = static_cast<uint32_t>(field(7, "shared bytes per CTA", 0, 1u << 30));
  g.dataWords = field(8, "data words", 1, 32768);
  g.fpLanes = field(9, "FP lanes (a flag)", 0, 1) != 0;
  g.lineBytes = field(10, "line bytes", 4, 4096);
  g.barrierSlots = field(11, "barrier slots", 1, 1024);
  g.warpSize = field(12, "threads per warp (the ISA's 32)", 32, 32);
  g.lanes = field(13, "physical ALU lanes", 1, 32);
  g.ctaWarps = field(14, "warps per CTA", 1, static_cast<uint32_t>(g.warpSlots));
  if (g.warpSize % g.lanes != 0) {
    throw wrongDevice("the board reports " + std::to_string(g.lanes) + " ALU lanes (at " +
                      hexAddr(map::kGeometry + 13u) + "), which do not divide a warp");
  }
  return g;
}

bool DeviceGeometry::operator==(const DeviceGeometry& o) const {
  return warpSlots == o.warpSlots && residentCtas == o.residentCtas && queueDepth == o.queueDepth &&
         imemWords == o.imemWords && paramWords == o.paramWords && sharedBytes == o.sharedBytes &&
         dataWords == o.dataWords && fpLanes == o.fpLanes && lineBytes == o.lineBytes &&
         barrierSlots == o.barrierSlots && warpSize == o.warpSize && lanes == o.lanes &&
         ctaWarps == o.ctaWarps;
}

std::string DeviceGeometry::describe() const {
  std::ostringstream os;
  // "8 warp slots (128 threads per CTA, 4 warps), ..." when a CTA may not fill the slots.
  const std::string ctaLimit =
      ctaWarps < warpSlots ? ", " + std::to_string(ctaWarps) + " warps" : std::string();
  os << warpSlots << " warp slots (" << maxThreadsPerCta() << " threads per CTA" << ctaLimit
     << "), " << residentCtas << " resident CTAs, " << imemWords << " instructions, " << paramWords << " param words, "
     << sharedBytes << " shared bytes per CTA, " << dataWords << " data words, queue depth "
     << queueDepth << ", " << lanes << " ALU lanes, " << (fpLanes ? "FP lanes" : "no FP lanes");
  return os.str();
}

DeviceEngine::DeviceEngine(ByteLink& link, const Options& opt) : link_(link), opt_(opt) {}

const DeviceGeometry& DeviceEngine::geometry() {
  if (!geometry_) {
    // Reads only: a run's client after this one starts its SEQ anew without a write that
    // could be taken for a repeat.
    UartClient client(link_, opt_.link);
    client.setMaxBurst(client.status().maxBurst);
    geometry_ = DeviceGeometry::decode(client.readBurst(map::kGeometry, map::kGeometryWords));
  }
  return *geometry_;
}

std::string DeviceEngine::configError(const assembler::Kernel& k, int ctas, int threads) const {
  const DeviceGeometry& g = *geometry_;
  if (k.code.size() > static_cast<size_t>(g.imemWords)) {
    return "the kernel has " + std::to_string(k.code.size()) +
           " instructions; the device's instruction memory holds " + std::to_string(g.imemWords);
  }
  if (k.params.size() > static_cast<size_t>(g.paramWords)) {
    return "too many .param words for the device (" + std::to_string(g.paramWords) + ")";
  }
  if (k.sharedBytes > g.sharedBytes) {
    return ".shared exceeds the device's " + std::to_string(g.sharedBytes) + " bytes per CTA";
  }
  if (k.data.size() > static_cast<size_t>(g.dataWords)) {
    return "the kernel's data (" + std::to_string(k.data.size()) + " words) exceeds the device's " +
           std::to_string(g.dataWords) + "-word data memory";
  }
  if (threads > g.maxThreadsPerCta()) {
    return "a CTA of " + std::to_string(threads) + " threads needs more than the device's " +
           (g.ctaWarps < g.warpSlots ? std::to_string(g.ctaWarps) + " warps per CTA"
                                     : std::to_string(g.warpSlots) + " warp slots");
  }
  if (threads < 1 || ctas < 1 || ctas > 0xFFFF) return "bad launch size";
  for (size_t pc = 0; pc < k.code.size() && !g.fpLanes; ++pc) {
    if (!isa::isFp(isa::Instr::decode(k.code[pc]).op)) continue;
    const std::string at = pc < k.codeLine.size() ? k.file + ":" + std::to_string(k.codeLine[pc])
                                                  : "pc " + std::to_string(pc);
    return "the kernel has FP32 instructions (" + at + "); the device's FPGA top has no FP lanes";
  }
  return {};
}

void DeviceEngine::load(const assembler::Kernel& k, const model::RunConfig& cfg, int ctas,
                        int threads) {
  std::vector<uint32_t> code;
  for (uint64_t w : k.code) {  // low word, then high word: ascending addresses
    code.push_back(static_cast<uint32_t>(w));
    code.push_back(static_cast<uint32_t>(w >> 32));
  }
  client_->writeBurst(map::kImem, code);
  if (!k.params.empty()) client_->writeBurst(map::kParam, k.params);
  if (!k.data.empty()) client_->writeBurst(map::kData, k.data);
  uint32_t prio = 0;
  for (int id = 0; id < 16; ++id) {
    prio |= (cfg.barrierPriority[static_cast<size_t>(id)] & 3u) << (2 * id);
  }
  const uint32_t mode = (cfg.divergence == model::DivergenceMode::Stack ? 1u : 0u) |
                        static_cast<uint32_t>(cfg.policy) << 1 |
                        static_cast<uint32_t>(cfg.timeoutOrigin) << 4;
  // The ISA model's LFSR seed rule (sm_model.cpp): the low 16 bits, 0 taken as 1.
  const uint32_t seed = (cfg.seed & 0xFFFF) ? static_cast<uint32_t>(cfg.seed & 0xFFFF) : 1u;
  // ntid, nctaid, code size, param words, shared bytes, mode, seed, static limit (off), priorities.
  client_->writeBurst(map::kNtid,
                      {static_cast<uint32_t>(threads), static_cast<uint32_t>(ctas),
                       static_cast<uint32_t>(k.code.size()), static_cast<uint32_t>(k.params.size()),
                       k.sharedBytes, mode, seed, 0u, prio});
}

uint64_t DeviceEngine::maintenance(uint32_t cmd, bool read) {
  client_->write(map::kMntCmd, cmd);
  for (int i = 0; i < kMaintenancePolls; ++i) {
    // {read data valid, busy}, 0x0021 (reads 0), the read data's low and high word.
    const std::vector<uint32_t> r = client_->readBurst(map::kMntCmd, 4);
    if (r[0] & 1u) continue;
    if (read && !(r[0] & 2u)) throw std::runtime_error("a maintenance read returned no data");
    return r[2] | static_cast<uint64_t>(r[3]) << 32;
  }
  throw std::runtime_error("the token queue's maintenance port does not take an operation");
}

bool DeviceEngine::recentre(std::string& fault) {
  const std::vector<uint32_t> exc = client_->readBurst(map::kExc, 2);  // {back, warp}, pointers
  const int warp = static_cast<int>(exc[0] & 0xFF);
  runtime::RecentreRuntime rt(geometry_->queueDepth);
  rt.start(warp, static_cast<int>(exc[1] & 0xFFFF), static_cast<int>(exc[1] >> 16));
  if (rt.lastWasUnrecoverable()) {
    fault = "fault: unrecoverable token-queue overflow (warp slot " + std::to_string(warp) + ")";
    return false;
  }
  while (rt.busy()) {
    const model::TokenDequeIn in = rt.request(model::TokenDequeIn{});
    const bool read = in.mntOp == model::MntOp::Read;
    if (in.mntOp == model::MntOp::Write) {
      const uint64_t w = model::pack64(in.mntWdata);
      client_->writeBurst(map::kMntData,
                          {static_cast<uint32_t>(w), static_cast<uint32_t>(w >> 32)});
    } else if (in.mntOp == model::MntOp::Resume) {
      client_->write(map::kMntPtrs,
                     static_cast<uint32_t>(in.mntHead) | static_cast<uint32_t>(in.mntTail) << 16);
    }
    const uint64_t rd =
        maintenance(static_cast<uint32_t>(in.mntOp) | static_cast<uint32_t>(in.mntWarp) << 8 |
                        static_cast<uint32_t>(in.mntIdx) << 16,
                    read);
    rt.accepted(64);
    if (read) rt.capture(true, {rd, 0}, 64);
  }
  return true;
}

std::string DeviceEngine::faultMessage(const assembler::Kernel& k, int threads) {
  // cause, warp slot, pc, {lane valid, lane}, address
  const std::vector<uint32_t> f = client_->readBurst(map::kFaultCause, 5);
  std::ostringstream os;
  os << "fault: " << rtl::faultCauseText(static_cast<int>(f[0]), f[4]);
  if (f[0] == 10) {
    os << " (" << threads << " threads per CTA, " << k.sharedBytes << " shared bytes)";
    return os.str();
  }
  os << " (warp slot " << f[1] << ", pc " << f[2];
  if (f[3] & 0x20u) os << ", lane " << (f[3] & 0x1Fu);
  if (f[2] < k.codeLine.size()) os << ", " << k.file << ":" << k.codeLine[f[2]];
  os << ")";
  return os.str();
}

RunResult DeviceEngine::run(const assembler::Kernel& k, const model::RunConfig& cfg) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult res;
  const int ctas = cfg.ctas > 0 ? cfg.ctas : k.ctas;
  const int threads = cfg.threads > 0 ? cfg.threads : k.threads;
  geometry();  // once per engine: what fits is the board's
  if (const std::string err = configError(k, ctas, threads); !err.empty()) {
    res.status = RunStatus::Error;
    res.message = "error: " + err;
    return res;
  }
  client_.emplace(link_, opt_.link);
  report_ = LinkReport{};
  // The client's counters and the time, also when the link fails.
  struct Report {
    DeviceEngine& e;
    std::chrono::steady_clock::time_point t0;
    ~Report() {
      e.report_.stats = e.client_->stats();
      e.report_.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
  } report{*this, t0};

  // A read first: a write of this run never carries the SEQ of the last frame the bridge
  // executed, if that was another run's write (it would be taken for a repeat, not executed).
  const UartClient::BridgeStatus bridge = client_->status();
  client_->setMaxBurst(bridge.maxBurst);
  // A fresh core (it starts once per reset; a kernel left running by a host that died stops).
  client_->write(map::kCtrl, map::kCoreReset);
  load(k, cfg, ctas, threads);
  // The counters count from the reset; the run's figures are their increase all the same.
  const std::vector<uint32_t> before = client_->readBurst(map::kPerf, rtl::kPerfStatCounters);
  client_->write(map::kCtrl, map::kStart);

  uint64_t overflows = 0, cycles = 0, lastInsts = 0, progressAt = 0;
  int stuck = 0;
  bool gaveUp = false;    // the core may still run
  bool serviced = false;  // a queue was re-centred since the last counters' read
  std::string fault;
  try {
    for (;;) {
      const uint32_t st = client_->read(map::kCtrl);
      if (st & map::kDone) break;
      if (st & map::kFault) {
        res.status = RunStatus::Error;
        res.message = faultMessage(k, threads);
        break;
      }
      if (st & map::kQueueExc) {
        ++overflows;
        if (!recentre(fault)) {
          res.status = RunStatus::Error;
          res.message = fault;
          gaveUp = true;  // the queue stays stalled
          break;
        }
        serviced = true;
        continue;
      }
      const std::vector<uint32_t> c = client_->readBurst(map::kPerf, 2);  // cycles, instructions
      const uint64_t now = since(c[0], before[0]), insts = since(c[1], before[1]);
      stuck = now == cycles ? stuck + 1 : 0;
      cycles = now;
      // The cycles the core waited for the host's re-centring (milliseconds of turnarounds
      // on a board) are no deadlock: count quiet cycles from the resume.
      if (insts != lastInsts || serviced) {
        lastInsts = insts;
        progressAt = cycles;
        serviced = false;
      }
      if (cycles >= cfg.maxCycles) {
        res.status = RunStatus::Timeout;  // the message once the counters are read
        gaveUp = true;
        break;
      }
      if (cycles - progressAt > kQuietLimit) {
        res.status = RunStatus::Deadlock;
        res.message = "deadlock: nothing issued for " + std::to_string(cycles - progressAt) +
                      " cycles (the device has no debug port: --engine rtl names the waiting "
                      "threads)";
        gaveUp = true;
        break;
      }
      if (stuck > opt_.stuckPolls) {
        res.status = RunStatus::Error;
        res.message = "error: the device is busy but its cycle counter stands still";
        gaveUp = true;
        break;
      }
    }
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const LinkError*>(&e)) throw;
    res.status = RunStatus::Error;
    res.message = std::string("error: ") + e.what();
    gaveUp = true;
  }

  const std::vector<uint32_t> after = client_->readBurst(map::kPerf, rtl::kPerfStatCounters);
  auto perf = [&](int n) {
    return since(after[static_cast<size_t>(n)], before[static_cast<size_t>(n)]);
  };
  res.cycles = perf(0);
  if (res.status == RunStatus::Timeout) {
    res.message = "timeout after " + std::to_string(res.cycles) + " cycles (--max-cycles)";
  }
  res.instructions = perf(1);
  res.threadInstructions = perf(2);
  res.global = client_->readBurst(map::kData, k.data.size());
  rtl::perfStats(perf, res.stats);
  res.stats["queue_overflows"] = overflows;
  res.stats["ctas"] = static_cast<uint64_t>(ctas);
  res.stats["threads_per_cta"] = static_cast<uint64_t>(threads);
  const UartClient::Stats& ls = client_->stats();
  // A kernel the host gave up on (timeout, deadlock, a stuck counter) stops here.
  if (gaveUp) client_->write(map::kCtrl, map::kCoreReset);
  res.stats["link.transactions"] = ls.transactions;
  res.stats["link.retries"] = ls.retries;
  res.stats["link.payload_words"] = ls.payloadWords;
  res.stats["link.bytes_sent"] = ls.bytesSent;
  res.stats["link.bytes_received"] = ls.bytesReceived;
  return res;
}

}  // namespace simt::host
