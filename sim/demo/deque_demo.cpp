// simt_demo: the double-ended token queue (seed 002) on the verilated RTL, step by step, with
// the golden model checking every step. Replays seed 002's worked example (an IF whose taken
// path calls a function holding a nested IF), a YIELD at the back, and an overflow that the
// demo, acting as the runtime, re-centres through the maintenance port.
#include <verilated.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "Vtoken_deque.h"
#include "model/divergence/token_deque.h"

namespace po = boost::program_options;
using simt::model::MntOp;
using simt::model::Token;
using simt::model::TokenDeque;
using simt::model::TokenType;

namespace {

std::string summaryStr(uint8_t s) {
  static const char* const kNames[] = {"SYNC", "DIV", "CALL", "YIELD", "BRK", "CONT"};
  std::string out;
  for (int i = 0; i < 6; ++i) {
    if ((s >> i) & 1u) out += (out.empty() ? "" : "|") + std::string(kNames[i]);
  }
  return out.empty() ? "-" : out;
}

class DequeDemo {
 public:
  explicit DequeDemo(int warp)
      : warp_(warp), ctx_(std::make_unique<VerilatedContext>()),
        model_(TokenDeque::Config{8, 32, 64}) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vtoken_deque>(ctx_.get(), "TOP");
    idle();
    dut_->rst_ni = 1;  // (an asynchronous reset takes effect on its falling edge)
    dut_->eval();
    dut_->rst_ni = 0;
    dut_->eval();
    tick();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~DequeDemo() { dut_->final(); }

  bool ok() const { return mismatches_ == 0 && !ctx_->gotError(); }

  // Returns whether the RTL accepted the push.
  bool push(TokenType type, uint32_t mask, uint32_t addr, bool back) {
    Token t;
    t.type = type;
    t.mask = mask;
    t.addr = addr;
    idle();
    dut_->push_valid_i = 1;
    dut_->push_back_i = back;
    dut_->push_token_i = simt::model::pack64(t);
    dut_->eval();
    const bool ready = dut_->push_ready_o;
    tick();
    const auto result =
        model_.push(warp_, back ? TokenDeque::End::Back : TokenDeque::End::Front, t);
    if (ready != (result == TokenDeque::PushResult::Accepted)) ++mismatches_;
    show(std::string(back ? "push back  " : "push front ") + t.str() +
         (ready ? "" : "  REFUSED: overflow exception, queue stalled"));
    return ready;
  }

  // Returns whether a token was popped.
  bool pop() {
    idle();
    dut_->pop_valid_i = 1;
    dut_->eval();
    const bool ready = dut_->pop_ready_o;
    const Token got = simt::model::unpack64(dut_->pop_token_o);
    tick();
    const auto want = model_.pop(warp_);
    if (ready != want.has_value() || (want && *want != got)) {
      ++mismatches_;
      std::printf("  MISMATCH on pop: rtl %s, model %s\n", got.str().c_str(),
                  want ? want->str().c_str() : "none");
    }
    show("pop        " + (ready ? got.str() : std::string("(empty)")));
    return ready;
  }

  // The runtime's overflow handler: read the entries, write them centred, resume.
  void recentre() {
    const int head = dut_->qry_head_o, tail = dut_->qry_tail_o, n = head - tail;
    const int newTail = (32 - n) / 2;
    std::vector<uint64_t> copy;
    for (int i = 0; i < n; ++i) {
      mnt(MntOp::Read, tail + i);
      copy.push_back(dut_->mnt_rdata_o);  // read data arrives the cycle after the read
    }
    for (int i = 0; i < n; ++i) mnt(MntOp::Write, newTail + i, copy[static_cast<size_t>(i)]);
    mnt(MntOp::Resume, 0, 0, newTail + n, newTail);
    model_.recentre(warp_);
    show("runtime re-centred " + std::to_string(n) + " tokens: tail " + std::to_string(tail) +
         " -> " + std::to_string(newTail));
  }

 private:
  void idle() {
    dut_->push_valid_i = 0;
    dut_->pop_valid_i = 0;
    dut_->mnt_valid_i = 0;
    dut_->push_warp_i = static_cast<uint8_t>(warp_);
    dut_->pop_warp_i = static_cast<uint8_t>(warp_);
    dut_->qry_warp_i = static_cast<uint8_t>(warp_);
    dut_->mnt_warp_i = static_cast<uint8_t>(warp_);
  }

  void mnt(MntOp op, int idx, uint64_t wdata = 0, int head = 0, int tail = 0) {
    idle();
    dut_->mnt_valid_i = 1;
    dut_->mnt_op_i = static_cast<uint8_t>(op);
    dut_->mnt_idx_i = static_cast<uint8_t>(idx);
    dut_->mnt_wdata_i = wdata;
    dut_->mnt_head_i = static_cast<uint8_t>(head);
    dut_->mnt_tail_i = static_cast<uint8_t>(tail);
    tick();
    idle();
    dut_->eval();
  }

  void tick() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    idle();
    dut_->eval();
    ++cycle_;
  }

  void show(const std::string& what) {
    const int count = dut_->qry_count_o;
    const int head = dut_->qry_head_o;
    const int tail = dut_->qry_tail_o;
    const uint8_t types = dut_->qry_types_o;
    const bool stalled = (dut_->stalled_o >> warp_) & 1u;
    const bool agree = count == model_.count(warp_) && head == model_.head(warp_) &&
                       tail == model_.tail(warp_) && types == model_.types(warp_) &&
                       stalled == model_.stalled(warp_);
    if (!agree) ++mismatches_;
    std::printf("%4llu  %-64s tail=%2d head=%2d n=%2d types=%-22s%s%s\n",
                static_cast<unsigned long long>(cycle_), what.c_str(), tail, head, count,
                summaryStr(types).c_str(), stalled ? " STALLED" : "",
                agree ? "" : "  <-- RTL/model MISMATCH");
  }

  int warp_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vtoken_deque> dut_;
  TokenDeque model_;
  uint64_t cycle_ = 0;
  int mismatches_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  po::options_description desc("simt_demo: the token queue of seed 002 on the verilated RTL");
  int warp = 0;
  desc.add_options()("help,h", "show this help")(
      "warp", po::value<int>(&warp)->default_value(0), "warp whose queue is used (0..7)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "simt_demo: " << e.what() << "\n" << desc;
    return 1;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  if (warp < 0 || warp > 7) {
    std::cerr << "simt_demo: --warp must be 0..7\n";
    return 1;
  }

  DequeDemo demo(warp);
  std::printf("== seed 002 worked example: IF { call f() { IF {...} } } ==\n");
  demo.push(TokenType::Sync, 0xFFFFFFFF, 40, false);  // ssy before the outer IF
  demo.push(TokenType::Div, 0xFFFF0000, 12, false);   // outer IF diverges
  demo.push(TokenType::Call, 0x0000FFFF, 13, false);  // call in the taken path
  demo.push(TokenType::Sync, 0x0000FFFF, 30, false);  // ssy of the nested IF
  demo.push(TokenType::Div, 0x000000FF, 25, false);   // nested IF diverges
  std::printf("== a spinning path yields: its token goes to the back ==\n");
  demo.push(TokenType::Yield, 0x00000F00, 18, true);
  std::printf("== unwind from the front ==\n");
  while (demo.pop()) {
  }
  std::printf("== overflow at the front and re-centring by the runtime ==\n");
  // Push until the front end of the warp's region is reached and a push is refused.
  int pushed = 0;
  while (pushed < 40 && demo.push(TokenType::Sync, 1u << (pushed % 32), 100 + pushed, false)) {
    ++pushed;
  }
  demo.recentre();
  demo.push(TokenType::Sync, 1u << (pushed % 32), 100 + pushed, false);  // replayed
  while (demo.pop()) {
  }
  if (!demo.ok()) {
    std::printf("RESULT: FAIL (RTL and model disagree or an RTL assertion fired)\n");
    return 1;
  }
  std::printf("RESULT: ok, RTL and golden model agree on every step\n");
  return 0;
}
