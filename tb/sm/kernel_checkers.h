// Property checkers of the kernel suite (sim/kernels/*.s, "; check: NAME"): results that are
// sets or orders rather than fixed words (a lock kernel's table, whose order is the order the
// locks were won). Shared by the suite (test_kernels.cpp) and the board's eight-lane runs
// (tb/fpga/test_fpga_uart_top.cpp); each reports with GoogleTest assertions.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"

namespace simt::tb {

using Checker =
    std::function<void(const assembler::Kernel&, const model::RunResult&, const model::RunConfig&)>;

// The global words at a data label of the kernel.
std::vector<uint32_t> words(const assembler::Kernel& k, const model::RunResult& r, const std::string& label);
// Threads the run launched (the configuration's CTAs and threads, else the kernel's).
int launchedThreads(const assembler::Kernel& k, const model::RunConfig& c);
// The checkers by name.
const std::map<std::string, Checker>& kernelCheckers();

}  // namespace simt::tb
