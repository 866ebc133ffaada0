// The core's reports in the words of a RunResult, for every host of the core: the runner of
// the verilated core (sim/rtl/sm_rtl.cpp, through its ports) and the host of a board
// (sim/host/device_engine.cpp, through the FPGA top's registers) print the same fault text
// and the same statistics.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace simt::rtl {

// A fault cause (simt_pkg::fault_e, fault_cause_o) as the ISA model words it.
inline std::string faultCauseText(int cause, uint32_t addr) {
  switch (cause) {
    case 1:
      return "illegal instruction";
    case 2:
      return "instruction address out of range";
    case 3:
      return "trap";
    case 4:
      return "misaligned global access at " + std::to_string(addr);
    case 5:
      return "global access out of range at " + std::to_string(addr);
    case 6:
      return "misaligned shared access at " + std::to_string(addr);
    case 7:
      return "shared access out of range at " + std::to_string(addr);
    case 8:
      return "misaligned param access";
    case 9:
      return "param access out of range";
    case 10:
      return "the launch does not fit the core";
    case 11:
      return "memory error at " + std::to_string(addr);
    default:
      return "unknown fault cause " + std::to_string(cause);
  }
}

// The performance counters 2-19 and 22-30 (docs/blocks/sm.md) as the run's statistics;
// perf(n) reads counter n. Cycles (0) and warp-instructions (1) are RunResult fields of their own.
template <class Perf>
void perfStats(Perf&& perf, std::map<std::string, uint64_t>& stats) {
  stats["thread_instructions"] = perf(2);
  stats["issue_idle_cycles"] = perf(3);
  stats["memory_wait_cycles"] = perf(4);
  stats["divergence_unit_wait_cycles"] = perf(5);
  stats["barrier_arrivals"] = perf(6);
  stats["barrier_wake_tokens"] = perf(7);
  stats["barrier_refusals"] = perf(8);
  stats["yield_tokens"] = perf(9);
  stats["tokens_popped"] = perf(10);
  stats["tokens_discarded"] = perf(11);
  stats["idle_barrier_cycles"] = perf(12);
  stats["idle_queue_service_cycles"] = perf(13);
  stats["idle_other_cycles"] = perf(14);
  stats["shared_bank_conflict_cycles"] = perf(15);
  stats["idle_memory_cycles"] = perf(22);
  stats["writeback_wait_cycles"] = perf(23);
  stats["memory_id_wait_cycles"] = perf(26);
  stats["memory_slot_wait_cycles"] = perf(27);
  stats["memory_sender_wait_cycles"] = perf(28);
  stats["memory_refused_cycles"] = perf(29);
  stats["scoreboard_give_backs"] = perf(30);
  stats["l1.hits"] = perf(16);
  stats["l1.misses"] = perf(17);
  stats["l1.mshr_merges"] = perf(18);
  stats["l1.evictions"] = perf(19);
  stats["l1.mshr_full_cycles"] = perf(24);
  stats["l1.order_wait_cycles"] = perf(25);
}
// Counters 0..kPerfStatCounters-1 are the ones the statistics read.
constexpr int kPerfStatCounters = 31;

}  // namespace simt::rtl
