#include "rtl/sm_rtl.h"

#include <verilated.h>

#include <map>
#include <sstream>
#include <tuple>

#include "Vsimt_sm.h"
#include "common/gtkw.h"
#include "common/port_bits.h"
#if SIMT_TRACE
#include <verilated_fst_c.h>
#endif
#include "model/common/token.h"
#include "model/mem/line_memory.h"
#include "rtl/core_report.h"
#include "rtl/mem_port.h"
#include "runtime/recentre_runtime.h"

namespace simt::rtl {

using model::RunResult;
using model::RunStatus;

namespace {

// Longer than any impatient barrier's TIMEOUT (ISA: at most 32767 cycles) plus the barrier
// unit's timeout scan: a core quiet this long can only be deadlocked.
constexpr uint64_t kQuietLimit = 40'000;

const char* const kReasonNames[] = {"", "SYNC", "DIV", "CALL", "BRK", "CONT", "YIELD", "BARRIER",
                                    "EXIT"};

}  // namespace

struct SmRtl::Impl {
  const assembler::Kernel k;  // a copy: callers may pass a temporary
  model::RunConfig cfg;
  int nCtas, nThreads;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vsimt_sm> dut;
  std::vector<uint32_t> global;  // the kernel's data, padded to whole lines
  size_t globalWords;            // the kernel's data words
  std::unique_ptr<model::LineMemory> memory;
  runtime::RecentreRuntime rt{CoreGeometry::kQueueDepth};
  RetireHook retire;
  WakeHook wakeHook;
  CycleHook cycleHook;
  AcceptHook acceptHook, requestHook;
  BarrierHook timeoutHook, grantHook;
  SmRtl::LaunchHook launchHook;
  SmRtl::MemWindowHook memWindowHook;
  SmRtl::CtaRetireHook ctaRetireHook;
  // The instruction in flight: register writes (lane, reg -> value).
  std::map<std::pair<int, int>, uint32_t> rfNew;
  // The memory window: global loads' register writes ((warp, lane, reg) -> value) and the
  // global words written (addr -> value).
  std::map<std::tuple<int, int, int>, uint32_t> loadNew;
  std::map<uint32_t, uint32_t> memWritten;
  uint64_t cycle = 0, overflows = 0;
  bool mntReadLast = false;

#if SIMT_TRACE
  std::unique_ptr<VerilatedFstC> trace;
#endif

  Impl(const assembler::Kernel& kernel, const model::RunConfig& c, const std::string& wavePath)
      : k(kernel), cfg(c), nCtas(c.ctas > 0 ? c.ctas : kernel.ctas),
        nThreads(c.threads > 0 ? c.threads : kernel.threads),
        ctx(std::make_unique<VerilatedContext>()), global(kernel.data), globalWords(kernel.data.size()) {
    constexpr size_t lineWords = CoreGeometry::kLineBytes / 4;
    global.resize((globalWords + lineWords - 1) / lineWords * lineWords, 0);
    model::LineMemory::Timing timing;
    timing.latency = cfg.memLatency;
    timing.bandwidth = cfg.memBandwidth;
    timing.error256 = cfg.memErrorPer256;
    timing.maxOutstanding = cfg.memOutstanding != 0
                                ? cfg.memOutstanding
                                : model::LineMemory::outstandingFor(cfg.memLatency, cfg.memBandwidth,
                                                                    CoreGeometry::kLineBytes);
    memory = std::make_unique<model::LineMemory>(global, CoreGeometry::kLineBytes, timing);
    memory->onWrite([this](uint32_t addr, uint32_t, uint32_t neu) { memWritten[addr] = neu; });
    ctx->fatalOnError(false);  // an RTL assertion ends the run as an error, not an abort
    ctx->randReset(2);
    ctx->randSeed(1);
#if SIMT_TRACE
    if (!wavePath.empty()) ctx->traceEverOn(true);
#endif
    dut = std::make_unique<Vsimt_sm>(ctx.get(), "TOP");
#if SIMT_TRACE
    if (!wavePath.empty()) {
      trace = std::make_unique<VerilatedFstC>();
      dut->trace(trace.get(), 99);
      trace->open(wavePath.c_str());
      std::string gtkw = wavePath;
      const auto dot = gtkw.rfind(".fst");
      gtkw = (dot == std::string::npos ? gtkw : gtkw.substr(0, dot)) + ".gtkw";
      wave::writeGtkwSave(gtkw, wavePath, waveGroups());
    }
#else
    (void)wavePath;
#endif
  }

  ~Impl() {
    dut->final();
#if SIMT_TRACE
    if (trace) trace->close();
#endif
  }

  void dump() {
#if SIMT_TRACE
    if (trace) trace->dump(ctx->time());
#endif
  }

  // One clock cycle. settle=false leaves the falling edge's evaluation to the caller's next
  // eval() (the run loop evaluates every cycle after setting the inputs, and nothing in the
  // core acts on the falling edge): a third of the evaluations per cycle saved. Verilator
  // sees an edge only between evaluations, so two ticks without an eval between need settle.
  void tick(bool settle = true) {
    dut->clk_i = 1;
    dut->eval();
    dump();
    ctx->timeInc(5);
    dut->clk_i = 0;
#if SIMT_TRACE
    settle = settle || trace != nullptr;
#endif
    if (settle) {
      dut->eval();
      dump();
    }
    ctx->timeInc(5);
  }

  // The save file's groups: the core's issue, per warp its PC, active mask and queue
  // occupancy, the barrier unit's states and slots, the memory port.
  static std::vector<wave::WaveGroup> waveGroups() {
    auto s = [](const std::string& n, int w) { return wave::waveSignal("simt_sm", n, w); };
    std::vector<wave::WaveGroup> g;
    const int wb = 3;  // warp-slot index bits at kWarpSlots = 8
    g.push_back({"sequencer", {s("clk_i", 1), s("u_seq.stage_q", 4), s("u_seq.issue_due_q", 1),
                               s("u_seq.cycle_q", 32)}});
    g.push_back({"issue and DE", {s("u_issue.sched_valid", 1), s("u_issue.sched_warp", wb),
                                  s("u_issue.de_v_q", 1), s("u_issue.de_w_q", wb),
                                  s("u_issue.de_pc_q", 22), s("u_issue.held_q", 8)}});
    g.push_back({"EXEC", {s("u_decode.w_q", wb), s("u_decode.pc_q", 22), s("u_decode.ir_q", 64),
                          s("u_decode.active_q", 32), s("u_decode.guard_q", 32),
                          s("retire_valid_o", 1)}});
    g.push_back({"units", {s("u_launch.state_q", 3), s("u_launch.resident_q", 8),
                           s("u_lsu.state_q", 3), s("u_lsu.pend_q", 32), s("u_lsu.elem_q", 2),
                           s("u_lsu.out_q", 16),
                           s("u_control.state_q", 3), s("u_control.ret_q", 2),
                           s("u_control.wdone_q", 8), s("u_control.wactive_q", 8)}});
    for (int w = 0; w < CoreGeometry::kWarpSlots; ++w) {
      // Queue occupancy is head - tail (seed 002's pointers).
      const std::string i = "[" + std::to_string(w) + "]";
      g.push_back({"warp " + std::to_string(w),
                   {s("u_sync.u_du.pc_q" + i, 22), s("u_sync.u_du.active_q" + i, 32),
                    s("u_sync.u_du.u_queue.head_q" + i, 6), s("u_sync.u_du.u_queue.tail_q" + i, 6)}});
    }
    g.push_back({"barrier unit", {s("bar_busy_o", 64), s("bar_static_long_o", 64),
                                  s("u_sync.bu_slots", 16), s("u_sync.bu_fifo_count", 6),
                                  s("u_sync.wake_valid_o", 1), s("u_sync.wake_mask_o", 32),
                                  s("u_sync.wake_slot_o", wb)}});
    g.push_back({"memory", {s("mem_req_valid_o", 1), s("mem_req_ready_i", 1), s("mem_req_id_o", 4),
                            s("mem_req_we_o", 1), s("mem_req_amo_o", 4), s("mem_req_addr_o", 32),
                            s("mem_req_be_o", 64), s("mem_rsp_valid_i", 1), s("mem_rsp_id_i", 4),
                            s("mem_rsp_err_i", 1)}});
    return g;
  }

  void idleInputs() {
    dut->imem_we_i = 0;
    dut->param_we_i = 0;
    dut->start_i = 0;
    dut->mem_req_ready_i = 1;
    dut->mem_rsp_valid_i = 0;
    dut->mnt_valid_i = 0;
    dut->dbg_warp_i = 0;
    dut->perf_sel_i = 0;
  }

  std::string configError() const {
    if (cfg.warpSlots != CoreGeometry::kWarpSlots && cfg.warpSlots != model::RunConfig{}.warpSlots)
      return "the verilated core has 8 warp slots";
    if (cfg.maxResidentCtas != CoreGeometry::kResidentCtas) return "the verilated core holds 4 resident CTAs";
    if (cfg.queueDepth != CoreGeometry::kQueueDepth) return "the verilated core has 32-entry token queues";
    if (k.code.size() > CoreGeometry::kImemWords)
      return "the kernel has " + std::to_string(k.code.size()) + " instructions; the core's instruction memory holds " +
             std::to_string(CoreGeometry::kImemWords);
    if (k.params.size() > CoreGeometry::kParamWords) return "too many .param words for the core (64)";
    if (k.sharedBytes > CoreGeometry::kSharedBytes) return ".shared exceeds the core's 4096 bytes per CTA";
    if (nThreads > CoreGeometry::kWarpSlots * 32)
      return "a CTA of " + std::to_string(nThreads) + " threads needs more than the core's 8 warp slots";
    if (nThreads < 1 || nCtas < 1 || nCtas > 0xFFFF) return "bad launch size";
    return {};
  }

  void load() {
    // The reset is asynchronous: it takes effect on its falling edge, so it first rises
    // (inputs power up at 0, and without an edge the flip-flops reset only at the first
    // clock, whose edge the memories' assertions see with the power-up state).
    idleInputs();
    dut->clk_i = 0;
    dut->rst_ni = 1;
    dut->eval();
    dut->rst_ni = 0;
    dut->eval();
    tick();
    tick();
    dut->rst_ni = 1;
    dut->eval();
    for (size_t i = 0; i < k.code.size(); ++i) {
      dut->imem_we_i = 1;
      dut->imem_waddr_i = static_cast<uint32_t>(i);
      dut->imem_wdata_i = k.code[i];
      tick();
    }
    dut->imem_we_i = 0;
    for (size_t i = 0; i < k.params.size(); ++i) {
      dut->param_we_i = 1;
      dut->param_waddr_i = static_cast<uint32_t>(i);
      dut->param_wdata_i = k.params[i];
      tick();
    }
    dut->param_we_i = 0;
    dut->cfg_code_size_i = static_cast<uint32_t>(k.code.size());
    dut->cfg_param_words_i = static_cast<uint32_t>(k.params.size());
    dut->cfg_ntid_i = static_cast<uint32_t>(nThreads);
    dut->cfg_nctaid_i = static_cast<uint32_t>(nCtas);
    dut->cfg_global_bytes_i = static_cast<uint32_t>(globalWords * 4);
    dut->cfg_shared_bytes_i = k.sharedBytes;
    dut->cfg_stack_i = cfg.divergence == model::DivergenceMode::Stack;
    dut->cfg_policy_i = static_cast<uint8_t>(cfg.policy);
    dut->cfg_static_limit_i = 0;
    dut->cfg_tmo_origin_i = static_cast<uint8_t>(cfg.timeoutOrigin);
    uint32_t prio = 0;
    for (int id = 0; id < 16; ++id) prio |= (cfg.barrierPriority[static_cast<size_t>(id)] & 3u) << (2 * id);
    dut->cfg_bar_prio_i = prio;
    // The ISA model's LFSR seed rule (sm_model.cpp): the low 16 bits, 0 taken as 1.
    dut->cfg_lfsr_seed_i = static_cast<uint16_t>((cfg.seed & 0xFFFF) ? (cfg.seed & 0xFFFF) : 1);
  }

  uint32_t perf(int sel) {
    dut->perf_sel_i = static_cast<uint8_t>(sel);
    dut->eval();
    return dut->perf_o;
  }

  std::string where(uint32_t pc) const {
    if (pc < k.codeLine.size()) return k.file + ":" + std::to_string(k.codeLine[pc]);
    return "outside the code";
  }

  // Per resident warp: PC, masks, queue, disable reasons; barriers busy. Read through the
  // debug port while the core is idle.
  std::string warpReport() {
    std::ostringstream os;
    for (int w = 0; w < CoreGeometry::kWarpSlots; ++w) {
      dut->dbg_warp_i = static_cast<uint8_t>(w);
      dut->eval();
      if (!dut->dbg_resident_o || dut->dbg_done_o) continue;
      const uint32_t pc = dut->dbg_pc_o;
      os << "\n  cta " << dut->dbg_ctaid_o << " warp " << static_cast<int>(dut->dbg_warp_in_cta_o)
         << ": warp slot " << w << " pc=" << pc << " active=0x" << std::hex << dut->dbg_active_o
         << std::dec << " queued tokens=" << static_cast<int>(dut->dbg_q_count_o);
      uint32_t byReason[9] = {};
      for (int t = 0; t < 32; ++t) {
        const uint32_t r = (dut->dbg_reason_o[t / 8] >> ((t % 8) * 4)) & 0xF;
        if (r < 9) byReason[r] |= 1u << t;
      }
      for (int r = 1; r < 8; ++r) {
        if (byReason[r]) os << " " << kReasonNames[r] << "=0x" << std::hex << byReason[r] << std::dec;
      }
      os << " (" << where(pc) << ")";
      // With nothing active and no token left, threads waiting for a token never run again.
      uint32_t waiting = 0;
      for (int r = 1; r < 7; ++r) waiting |= byReason[r];
      if (dut->dbg_active_o == 0 && dut->dbg_q_count_o == 0 && waiting) {
        os << "\n    stranded (waiting for a token that no longer exists): threads 0x" << std::hex
           << waiting << std::dec;
      }
      if (dut->dbg_held_o) os << "\n    held: its barrier id is busy with another instance";
    }
    dut->dbg_warp_i = 0;
    dut->eval();
    for (int e = 0; e < CoreGeometry::kResidentCtas * 16; ++e) {
      if ((dut->bar_busy_o >> e) & 1u) {
        os << "\n  barrier " << (e % 16) << " of resident cta index " << (e / 16) << " is busy";
        if ((dut->bar_sec_active_o >> e) & 1u) {
          const bool excl = (dut->bar_sec_excl_o >> e) & 1u;
          if ((dut->bar_sec_queued_o >> e) & 1u) {
            os << ": " << (excl ? "an exclusive" : "a") << " critical section waiting for an execution slot"
               << (excl ? " (it waits until every slot is free; the ready FIFO holds the sections behind it)" : "");
          } else {
            os << ": " << (excl ? "an exclusive" : "a") << " critical section in service";
          }
        }
      }
    }
    return os.str();
  }

  // Global memory behind the port (model::LineMemory: latency, bandwidth). The response on
  // offer and the request's ready before the cycle's evaluation; the transfers after it.
  void serveMemory() { offerMemory(*dut, *memory); }
  void acceptMemory() {
    if (dut->mem_rsp_valid_i && dut->mem_rsp_ready_o) memory->take();
    if (dut->mem_req_valid_o && dut->mem_req_ready_i) memory->accept(memRequestOf(*dut, CoreGeometry::kLineBytes));
    memory->tick();
  }

  // The runtime's overflow handler on the maintenance port (seed 002's re-centring).
  bool serveRuntime(std::string& fault) {
    dut->mnt_valid_i = 0;
    const bool offered = rt.wantsPort();
    if (offered) {
      const model::TokenDequeIn in = rt.request(model::TokenDequeIn{});
      dut->mnt_valid_i = 1;
      dut->mnt_op_i = static_cast<uint8_t>(in.mntOp);
      dut->mnt_warp_i = static_cast<uint8_t>(in.mntWarp);
      dut->mnt_idx_i = static_cast<uint8_t>(in.mntIdx);
      dut->mnt_wdata_i = model::pack64(in.mntWdata);
      dut->mnt_head_i = static_cast<uint8_t>(in.mntHead);
      dut->mnt_tail_i = static_cast<uint8_t>(in.mntTail);
    }
    dut->eval();
    rt.capture(dut->mnt_rvalid_o && mntReadLast, {dut->mnt_rdata_o, 0}, 64);
    mntReadLast = false;
    if (offered && dut->mnt_ready_o) {
      mntReadLast = dut->mnt_op_i == static_cast<uint8_t>(model::MntOp::Read);
      rt.accepted(64);
    }
    if (dut->exc_valid_o && !rt.busy()) {
      ++overflows;
      rt.start(dut->exc_warp_o, dut->q_head_o, dut->q_tail_o);
      if (rt.lastWasUnrecoverable()) {
        fault = "fault: unrecoverable token-queue overflow (warp slot " +
                std::to_string(dut->exc_warp_o) + ")";
        return false;
      }
    }
    return true;
  }

  std::string faultMessage() {
    const int slot = dut->fault_warp_o;
    const uint32_t pc = dut->fault_pc_o;
    std::ostringstream os;
    os << "fault: " << faultCauseText(dut->fault_cause_o, dut->fault_addr_o);
    if (dut->fault_cause_o == 10) {
      os << " (" << nThreads << " threads per CTA, " << k.sharedBytes << " shared bytes)";
      return os.str();
    }
    dut->dbg_warp_i = static_cast<uint8_t>(slot);
    dut->eval();
    os << " (warp slot " << slot << ", cta " << dut->dbg_ctaid_o << " warp "
       << static_cast<int>(dut->dbg_warp_in_cta_o) << ", pc " << pc;
    if (dut->fault_lane_valid_o) {
      os << ", thread " << (static_cast<int>(dut->dbg_warp_in_cta_o) * 32 + dut->fault_lane_o);
    }
    if (pc < k.codeLine.size()) os << ", " << where(pc);
    os << ")";
    return os.str();
  }

  // The co-simulation's view of this cycle (inputs applied, before the clock edge).
  std::string observe() {
    // Thread t's register address on the trace port: 32 fields of RfAW bits, so the port is
    // RfAW 32-bit words wide (a write's threads share one; the v4 drain's each have their own).
    constexpr int kRfAW = static_cast<int>(sizeof(dut->trace_rf_waddr_o) / sizeof(uint32_t));
    auto traceWaddr = [&](int t) {
      return static_cast<uint32_t>(getBits(dut->trace_rf_waddr_o, t * kRfAW, kRfAW));
    };
    if (dut->trace_rf_late_o) {
      // A late write may put each thread at its own register (the v4 drain).
      for (int l = 0; l < 32; ++l) {
        if (!((dut->trace_rf_we_o >> l) & 1u)) continue;
        const uint32_t a = traceWaddr(l);
        loadNew[{static_cast<int>(a >> 5), l, static_cast<int>(a & 31)}] = dut->trace_rf_wdata_o[l];
      }
    } else if (dut->trace_inflight_o && dut->trace_rf_we_o) {
      const uint32_t a = traceWaddr(0);
      const int warp = static_cast<int>(a >> 5), reg = static_cast<int>(a & 31);
      if (warp == dut->retire_warp_o) {
        for (int l = 0; l < 32; ++l) {
          if ((dut->trace_rf_we_o >> l) & 1u) rfNew[{l, reg}] = dut->trace_rf_wdata_o[l];
        }
      }
    }
    if (dut->trace_bar_accept_o && acceptHook) acceptHook(cycle);
    if (dut->trace_bu_req_o && requestHook) requestHook(cycle);
    if (dut->trace_tmo_o && timeoutHook) {
      const std::string v = timeoutHook(BarrierEvent{cycle, dut->trace_tmo_warp_o, dut->trace_tmo_id_o});
      if (!v.empty()) return v;
    }
    if (dut->trace_cta_retire_o && ctaRetireHook) {
      const std::string v = ctaRetireHook(cycle, static_cast<int>(dut->trace_cta_retire_idx_o));
      if (!v.empty()) return v;
    }
    if (dut->trace_launch_o && launchHook) {
      const std::string v = launchHook(LaunchEvent{cycle, dut->trace_launch_warp_o});
      if (!v.empty()) return v;
    }
    if (dut->trace_grant_o && grantHook) {
      const std::string v = grantHook(BarrierEvent{cycle, dut->trace_grant_warp_o, dut->trace_grant_id_o});
      if (!v.empty()) return v;
    }
    if (dut->trace_wake_o && wakeHook) {
      const std::string v = wakeHook(Wake{cycle, dut->trace_wake_warp_o, dut->trace_wake_mask_o,
                                          dut->trace_wake_resume_o, dut->trace_wake_late_o != 0});
      if (!v.empty()) return v;
    }
    if (!dut->retire_valid_o) return {};
    Retired r{cycle, dut->retire_warp_o, dut->retire_pc_o, dut->retire_exec_o, dut->retire_active_o, {}};
    for (const auto& [key, value] : rfNew) r.regWrites.push_back({key.first, key.second, value});
    rfNew.clear();
    if (retire) {
      if (std::string v = retire(r); !v.empty()) return v;
    }
    return dut->trace_mem_quiet_o ? closeMemWindow() : std::string{};
  }

  // Hands the memory window to the co-simulation and starts the next.
  std::string closeMemWindow() {
    if (!memWindowHook || (loadNew.empty() && memWritten.empty())) return {};
    MemWindow w;
    w.cycle = cycle;
    for (const auto& [key, value] : loadNew) {
      w.loads.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), value});
    }
    for (const auto& [addr, value] : memWritten) w.globalWrites.push_back({addr, value});
    loadNew.clear();
    memWritten.clear();
    return memWindowHook(w);
  }

  RunResult run() {
    RunResult res;
    if (const std::string err = configError(); !err.empty()) {
      res.status = RunStatus::Error;
      res.message = "error: " + err;
      return res;
    }
    load();
    dut->start_i = 1;
    tick();
    dut->start_i = 0;
    uint64_t quiet = 0;
    std::string fault;
    while (true) {
      if (ctx->gotError()) {
        res.status = RunStatus::Error;
        res.message = "error: an RTL assertion failed at cycle " + std::to_string(cycle) +
                      " (message above)";
        break;
      }
      serveMemory();
      if (!serveRuntime(fault)) {
        res.status = RunStatus::Error;
        res.message = fault;
        break;
      }
      if (dut->done_o) {
        // Nothing is in flight: the last window closes.
        if (const std::string v = closeMemWindow(); !v.empty()) {
          res.status = RunStatus::Mismatch;
          res.message = v;
        }
        break;
      }
      if (dut->fault_o) {
        res.status = RunStatus::Error;
        res.message = faultMessage();
        break;
      }
      if (cycle >= cfg.maxCycles) {
        res.status = RunStatus::Timeout;
        res.message = "timeout after " + std::to_string(cycle) + " cycles (--max-cycles)" + warpReport();
        break;
      }
      quiet = dut->quiet_o ? quiet + 1 : 0;
      if (quiet > kQuietLimit) {
        res.status = RunStatus::Deadlock;
        res.message = "deadlock: nothing can issue and nothing is pending" + warpReport();
        break;
      }
      if (retire || wakeHook || acceptHook || requestHook || timeoutHook || grantHook || launchHook ||
          memWindowHook || ctaRetireHook) {
        const std::string verdict = observe();
        if (!verdict.empty()) {
          res.status = RunStatus::Mismatch;
          res.message = verdict;
          break;
        }
      }
      acceptMemory();
      tick(false);  // serveRuntime() evaluates the next cycle's inputs
      ++cycle;
      if (cycleHook) cycleHook(cycle);
    }
    res.cycles = perf(0);
    res.instructions = perf(1);
    res.threadInstructions = perf(2);
    res.global.assign(global.begin(), global.begin() + static_cast<std::ptrdiff_t>(globalWords));
    perfStats([this](int n) { return perf(n); }, res.stats);
    const model::LineMemory::Stats& ms = memory->stats();
    res.stats["mem.requests"] = ms.requests;
    res.stats["mem.read_bytes"] = ms.readBytes;
    res.stats["mem.write_bytes"] = ms.writeBytes;
    // Per warp slot, its recent L1 accesses and misses (counters 20-21 of dbg_warp_i).
    for (int s = 0; s < CoreGeometry::kWarpSlots; ++s) {
      dut->dbg_warp_i = static_cast<uint8_t>(s);
      const uint64_t accesses = perf(20), misses = perf(21);
      if (accesses == 0) continue;
      res.stats["l1.warp" + std::to_string(s) + "_accesses"] = accesses;
      res.stats["l1.warp" + std::to_string(s) + "_misses"] = misses;
    }
    dut->dbg_warp_i = 0;
    res.stats["queue_overflows"] = overflows;
    res.stats["ctas"] = static_cast<uint64_t>(nCtas);
    res.stats["threads_per_cta"] = static_cast<uint64_t>(nThreads);
    return res;
  }
};

SmRtl::SmRtl(const assembler::Kernel& kernel, const model::RunConfig& cfg, const std::string& wavePath)
    : impl_(std::make_unique<Impl>(kernel, cfg, wavePath)) {}
bool SmRtl::tracingBuilt() { return SIMT_TRACE != 0; }
SmRtl::~SmRtl() = default;
void SmRtl::onRetire(RetireHook f) { impl_->retire = std::move(f); }
void SmRtl::onWake(WakeHook f) { impl_->wakeHook = std::move(f); }
void SmRtl::onCycleEnd(CycleHook f) { impl_->cycleHook = std::move(f); }
void SmRtl::onBarrierAccept(AcceptHook f) { impl_->acceptHook = std::move(f); }
void SmRtl::onBarrierRequest(AcceptHook f) { impl_->requestHook = std::move(f); }
void SmRtl::onBarrierTimeout(BarrierHook f) { impl_->timeoutHook = std::move(f); }
void SmRtl::onBarrierGrant(BarrierHook f) { impl_->grantHook = std::move(f); }
void SmRtl::onLaunch(LaunchHook f) { impl_->launchHook = std::move(f); }
void SmRtl::onMemWindow(MemWindowHook f) { impl_->memWindowHook = std::move(f); }
void SmRtl::onCtaRetire(CtaRetireHook f) { impl_->ctaRetireHook = std::move(f); }
RunResult SmRtl::run() { return impl_->run(); }

}  // namespace simt::rtl
