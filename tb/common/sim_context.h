// Simulation context: owns a Verilated model, its VerilatedContext, the clock and reset, and
// optional FST tracing. A failed RTL assertion becomes a failed test: the context runs with
// fatalOnError(false) and checks gotError() after every edge.
//
// Timing convention: inputs are applied while the clock is low, eval() settles the
// combinational outputs (compare them then), tick() makes the rising edge and returns with
// the clock low again.
#pragma once

#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/harness.h"

#if SIMT_TRACE
#include <verilated_fst_c.h>
#endif

namespace simt::tb {

// Clocked DUTs have clk_i and rst_ni; purely combinational ones (find_next_set) do not.
template <class T, class = void>
struct HasClock : std::false_type {};
template <class T>
struct HasClock<T, std::void_t<decltype(std::declval<T&>().clk_i)>> : std::true_type {};

template <class Dut>
class SimContext {
 public:
  // topName: the RTL module name, used for the paths in the wave save file.
  explicit SimContext(std::string topName, uint64_t seed = baseSeed())
      : topName_(std::move(topName)), ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    ctx_->randReset(2);  // X-initialised state is randomised ...
    ctx_->randSeed(static_cast<int>(seed & 0x7FFFFFFF));  // ... reproducibly
    dut_ = std::make_unique<Dut>(ctx_.get(), "TOP");
    openTraceIfRequested();
    if constexpr (HasClock<Dut>::value) {
      dut_->clk_i = 0;
      dut_->rst_ni = 1;
    }
    dut_->eval();
  }

  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;

  ~SimContext() {
    dut_->final();
#if SIMT_TRACE
    if (trace_) trace_->close();
#endif
  }

  Dut& dut() { return *dut_; }
  Dut* operator->() { return dut_.get(); }
  uint64_t cycle() const { return cycle_; }
  // False once an RTL assertion has failed (the test has already been failed).
  bool ok() const { return !assertFailed_; }

  // Declare wave groups; written as <test>.gtkw next to the FST when tracing.
  void setWaveGroups(std::vector<WaveGroup> groups) {
    groups_ = std::move(groups);
#if SIMT_TRACE
    if (trace_) writeGtkwSave(gtkwPath_, fstPath_, groups_);
#endif
  }

  // Asynchronous active-low reset for the given number of cycles.
  void reset(int cycles = 2) {
    static_assert(HasClock<Dut>::value, "reset() needs a clocked DUT");
    dut_->rst_ni = 0;
    dut_->eval();
    for (int i = 0; i < cycles; ++i) tick();
    dut_->rst_ni = 1;
    dut_->eval();
    dump();
  }

  // Settle combinational logic after changing inputs (clock low).
  void eval() {
    dut_->eval();
    checkAssertions();
  }

  // One clock cycle: rising edge, then falling edge.
  void tick() {
    static_assert(HasClock<Dut>::value, "tick() needs a clocked DUT");
    dut_->clk_i = 0;
    dut_->eval();
    dump();
    ctx_->timeInc(5);
    dut_->clk_i = 1;
    dut_->eval();
    dump();
    ctx_->timeInc(5);
    dut_->clk_i = 0;
    dut_->eval();
    ++cycle_;
    checkAssertions();
  }

 private:
  void checkAssertions() {
    if (!assertFailed_ && ctx_->gotError()) {
      assertFailed_ = true;
      ADD_FAILURE() << "RTL assertion failed in " << topName_ << " at cycle " << cycle_
                    << " (message on stderr)";
    }
  }

  void dump() {
#if SIMT_TRACE
    if (trace_) trace_->dump(ctx_->time());
#endif
  }

  void openTraceIfRequested() {
    const char* wave = std::getenv("SIMT_WAVE");
    if (wave == nullptr || std::string(wave) != "1") return;
#if SIMT_TRACE
    std::filesystem::create_directories(SIMT_WAVE_DIR);
    const std::string base = std::string(SIMT_WAVE_DIR) + "/" + currentTestName();
    fstPath_ = base + ".fst";
    ctx_->traceEverOn(true);
    trace_ = std::make_unique<VerilatedFstC>();
    dut_->trace(trace_.get(), 99);
    trace_->open(fstPath_.c_str());
    gtkwPath_ = base + ".gtkw";
#else
    ADD_FAILURE() << "SIMT_WAVE=1 but this build has no tracing: use 'make wave TEST=...'";
#endif
  }

  std::string topName_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Dut> dut_;
#if SIMT_TRACE
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  std::string fstPath_, gtkwPath_;
  std::vector<WaveGroup> groups_;
  uint64_t cycle_ = 0;
  bool assertFailed_ = false;
};

}  // namespace simt::tb
