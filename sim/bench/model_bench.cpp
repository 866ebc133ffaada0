// Model speed (issue: ISA model): warp-instructions per second of the golden ISA model on
// every kernel of the suite, in deque mode. A benchmark, not a test: `make bench`.
// usage: simt_model_bench [KERNEL_DIR] [--seconds S]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::string dir = SIMT_KERNEL_DIR;
  double minSeconds = 0.3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) {
      minSeconds = std::atof(argv[++i]);
    } else {
      dir = a;
    }
  }
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".s") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::printf("%-24s %10s %10s %14s\n", "kernel", "status", "instrs", "warp-instr/s");
  uint64_t totalInstr = 0;
  double totalSec = 0;
  for (const auto& f : files) {
    const auto k = simt::assembler::assembleFile(f);
    simt::model::RunConfig cfg;
    cfg.maxCycles = 1'000'000;
    uint64_t instr = 0;
    int runs = 0;
    std::string status;
    const auto t0 = std::chrono::steady_clock::now();
    double sec = 0;
    do {
      simt::model::SmModel sm(k, cfg);
      const auto r = sm.run();
      instr += r.instructions;
      status = simt::model::runStatusName(r.status);
      ++runs;
      sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (sec < minSeconds);
    totalInstr += instr;
    totalSec += sec;
    std::printf("%-24s %10s %10llu %14.3e\n", fs::path(f).stem().string().c_str(), status.c_str(),
                static_cast<unsigned long long>(instr / static_cast<uint64_t>(runs)), instr / sec);
  }
  std::printf("%-24s %10s %10llu %14.3e\n", "suite (all runs)", "", static_cast<unsigned long long>(totalInstr),
              totalInstr / totalSec);
  return 0;
}
