// Benchmarks of the verilated SM core (issue: integrated core): IPC on an ALU-bound kernel at
// 1, 2, 4, 8 warps; barrier release and critical-section hand-off latency; deque against
// stack mode cycles on kernels without locks; RTL simulation speed and the co-simulation's
// overhead. Figures are measured in one run and reported as ratios where they compare.
// A benchmark, not a test: `make bench`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "cosim/cosim.h"
#include "model/sm/sm_model.h"
#include "rtl/sm_rtl.h"

namespace {

using simt::model::RunConfig;
using simt::model::RunResult;

simt::assembler::Kernel assemble(const std::string& src) {
  return simt::assembler::assemble(src, "bench.s");
}

// 64 iterations of 16 independent ALU instructions per warp.
std::string aluKernel(int warps) {
  std::string s = ".launch ctas=1 threads=" + std::to_string(warps * 32) + "\n.text\nmov r1, 0\nmov r2, %tid\n";
  s += "loop:\n";
  for (int i = 0; i < 16; ++i) s += "add r" + std::to_string(3 + i % 8) + ", r2, " + std::to_string(i) + "\n";
  s += "add r1, r1, 1\nsetp.lt p0, r1, 64\n@p0 bra loop\nexit\n";
  return s;
}

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  constexpr int kLanes = simt::rtl::CoreGeometry::kNumLanes;
  std::printf("== The core has %d ALU lanes (NumLanes): a full warp's ALU instruction takes %d "
              "EXEC cycle(s)\n", kLanes, simt::rtl::CoreGeometry::kPasses);
  std::printf("== IPC on an ALU-bound kernel (warp-instructions per cycle; the limit is 1.0, "
              "%.3f for a full warp's ALU instructions)\n",
              static_cast<double>(kLanes) / 32.0);
  std::printf("%6s %10s %12s %8s\n", "warps", "cycles", "instructions", "IPC");
  for (int warps : {1, 2, 4, 8}) {
    const auto k = assemble(aluKernel(warps));
    const RunResult r = simt::rtl::SmRtl(k, RunConfig{}).run();
    std::printf("%6d %10llu %12llu %8.3f\n", warps, static_cast<unsigned long long>(r.cycles),
                static_cast<unsigned long long>(r.instructions),
                static_cast<double>(r.instructions) / static_cast<double>(r.cycles));
  }

  // Barrier release: 4 warps reach bar.sync; from the retire of the last arrival to the retire
  // of the first instruction after the barrier.
  {
    const auto k = assemble(".launch ctas=1 threads=128\nmov r1, %tid\nbar.sync 0\nadd r2, r1, 1\nexit\n");
    simt::rtl::SmRtl core(k, RunConfig{});
    uint64_t lastArrival = 0, firstAfter = 0;
    core.onRetire([&](const simt::rtl::Retired& r) {
      if (r.pc == 1) lastArrival = r.cycle;
      if (r.pc == 2 && !firstAfter) firstAfter = r.cycle;
      return std::string{};
    });
    core.run();
    std::printf("\n== Barrier release: last arrival retired at cycle %llu, first woken instruction "
                "retired at %llu: %llu cycles\n",
                static_cast<unsigned long long>(lastArrival), static_cast<unsigned long long>(firstAfter),
                static_cast<unsigned long long>(firstAfter - lastArrival));
  }

  // Critical-section hand-off: from one thread's bar.bot.ocs retire to the next thread's
  // first section instruction retire. Consecutive threads of one warp with a blocking bottom
  // (the ordered section of ISA.md): the finished thread sleeps, its warp-mate is woken and
  // issued at once. With a non-blocking bottom the next thread of the same warp runs only when
  // the finished one leaves (here by exit), so that figure includes the warp's own
  // instructions. Across warps (lane 0 of 4 warps takes part) the thread select searches two
  // empty 16-thread groups between members.
  auto handOff = [](const std::string& src, const char* what) {
    const auto k = assemble(src);
    simt::rtl::SmRtl core(k, RunConfig{});
    std::vector<uint64_t> bottoms, bodies;
    const uint32_t body = src.find("setp") != std::string::npos ? 3 : 2;
    core.onRetire([&](const simt::rtl::Retired& r) {
      if (r.exec == 0) return std::string{};  // non-participants pass the section's code
      if (r.pc == body) bodies.push_back(r.cycle);
      if (r.pc == body + 1) bottoms.push_back(r.cycle);
      return std::string{};
    });
    core.run();
    std::printf("== Critical-section hand-off %s (bottom retire -> next thread's body retire):", what);
    for (size_t i = 0; i + 1 < bodies.size() && i < bottoms.size(); ++i) {
      std::printf(" %llu", static_cast<unsigned long long>(bodies[i + 1] - bottoms[i]));
    }
    std::printf(" cycles\n");
  };
  handOff(".launch ctas=1 threads=4\nmov r1, %tid\nbar.top.ocs 1\nadd r2, r1, 1\n"
          "bar.bot.ocs 1\nexit\n",
          "consecutive threads, blocking bottom");
  handOff(".launch ctas=1 threads=4\nmov r1, %tid\nbar.top.ocs 1\nadd r2, r1, 1\n"
          "bar.bot.ocs.nb 1\nexit\n",
          "consecutive threads, non-blocking bottom");
  handOff(".launch ctas=1 threads=128\nmov r1, %laneid\nsetp.eq p1, r1, 0\n@p1 bar.top.ocs 1, 4\n"
          "@p1 add r2, r1, 1\n@p1 bar.bot.ocs.nb 1\nexit\n",
          "lane 0 of 4 warps, non-blocking bottom");

  std::printf("\n== Deque against stack mode: cycles on kernels without locks\n");
  std::printf("%-16s %10s %10s %8s\n", "kernel", "deque", "stack", "ratio");
  for (const char* name : {"alu", "vector_add", "loops", "calls", "predicates", "memory", "indirect",
                           "special_regs", "bar_sync"}) {
    const auto k = simt::assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/" + name + ".s");
    RunConfig d, st;
    st.divergence = simt::model::DivergenceMode::Stack;
    const RunResult rd = simt::rtl::SmRtl(k, d).run();
    const RunResult rs = simt::rtl::SmRtl(k, st).run();
    std::printf("%-16s %10llu %10llu %8.3f\n", name, static_cast<unsigned long long>(rd.cycles),
                static_cast<unsigned long long>(rs.cycles),
                static_cast<double>(rs.cycles) / static_cast<double>(rd.cycles));
  }

  std::printf("\n== Simulation speed (linked_list.s, deque): RTL alone, lockstep cosim, ISA model\n");
  {
    const auto k = simt::assembler::assembleFile(std::string(SIMT_KERNEL_DIR) + "/linked_list.s");
    auto t0 = std::chrono::steady_clock::now();
    const RunResult r = simt::rtl::SmRtl(k, RunConfig{}).run();
    const double tRtl = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    const RunResult c = simt::cosim::Cosim(k, RunConfig{}).run();
    const double tCosim = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    const RunResult m = simt::model::SmModel(k, RunConfig{}).run();
    const double tModel = seconds(t0);
    std::printf("rtl:   %s, %llu cycles in %.2f s = %.3e cycles/s\n", runStatusName(r.status),
                static_cast<unsigned long long>(r.cycles), tRtl, r.cycles / tRtl);
    std::printf("cosim: %s, %.2f s = %.2fx the RTL alone\n", runStatusName(c.status), tCosim, tCosim / tRtl);
    std::printf("model: %s, %llu warp-instructions in %.3f s\n", runStatusName(m.status),
                static_cast<unsigned long long>(m.instructions), tModel);
  }
  return 0;
}
