// FuseSoC's `sim` target (simtcore.core): the verilated FPGA top run through its host port, as a
// board's host would drive it, with no library of the project's: vector_add
// (sim/kernels/vector_add.s) is loaded as its encodings, params and data image, launched on
// 2 CTAs x 32 threads, polled until done, and its result array read back and checked.
// Prints the cycles and `1 passed, 0 failed` (or the first wrong word and exit 1).
//
//   fusesoc run --target=sim simtcore:simtcore:sm
//
// Register map: docs/blocks/fpga_top.md. The encodings are `simt asm sim/kernels/vector_add.s`.
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <memory>

#include "Vsimt_fpga_top.h"

namespace {

constexpr uint16_t kCtrl = 0x0000, kNtid = 0x0001, kNctaid = 0x0002, kCodeSize = 0x0003,
                   kParamWords = 0x0004, kSharedBytes = 0x0005, kFaultCause = 0x0010,
                   kFaultPc = 0x0012, kImem = 0x1000, kParam = 0x2000, kData = 0x8000;

// vector_add: c[i] = a[i] + b[i], i < n; params a, b, c (byte addresses) and n.
constexpr uint64_t kCode[] = {
    0x000000003000170eull,  // mov r1, %gtid
    0x0000000c0000a79aull,  // ld.param r10, [12]
    0x000000002a820711ull,  // setp.ge p0, r1, r10
    0x000000000000002eull,  // @p0 exit
    0x0000000200022786ull,  // shl r2, r1, 2
    0x000000000000379aull,  // ld.param r3, [0]
    0x0000000000864700ull,  // add r4, r3, r2
    0x0000000000085716ull,  // ld.global r5, [r4]
    0x0000010000046716ull,  // ld.global r6, [r2+256]
    0x00000000018a7700ull,  // add r7, r5, r6
    0x0000020001c40717ull,  // st.global [r2+512], r7
    0x000000000000072eull,  // exit
};
constexpr uint32_t kN = 64, kA = 0, kB = 256, kC = 512;  // byte addresses
constexpr uint32_t kParams[] = {kA, kB, kC, kN};

class Host {
 public:
  Host() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vsimt_fpga_top>(ctx_.get(), "TOP");
    dut_->clk_i = 0;
    dut_->host_valid_i = 0;
    dut_->rst_ni = 1;  // (an asynchronous reset takes effect on its falling edge)
    dut_->eval();
    dut_->rst_ni = 0;
    dut_->eval();
    tick();
    tick();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~Host() { dut_->final(); }

  void write(uint16_t addr, uint32_t data) { access(true, addr, data); }
  uint32_t read(uint16_t addr) { return access(false, addr, 0); }
  uint64_t cycles() const { return cycles_; }
  bool ok() const { return !ctx_->gotError(); }

 private:
  // One access: held until host_ready_o, taken at the rising edge; read data the cycle after.
  uint32_t access(bool we, uint16_t addr, uint32_t wdata) {
    dut_->host_valid_i = 1;
    dut_->host_we_i = we;
    dut_->host_addr_i = addr;
    dut_->host_wdata_i = wdata;
    dut_->eval();
    for (int guard = 0; !dut_->host_ready_o && guard < 1000; ++guard) tick();
    tick();
    dut_->host_valid_i = 0;
    dut_->eval();
    return dut_->host_rdata_o;
  }

  void tick() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
    ++cycles_;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsimt_fpga_top> dut_;
  uint64_t cycles_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  Host h;
  const uint32_t nCode = sizeof(kCode) / sizeof(kCode[0]);
  for (uint32_t i = 0; i < nCode; ++i) {
    h.write(static_cast<uint16_t>(kImem + 2 * i), static_cast<uint32_t>(kCode[i]));
    h.write(static_cast<uint16_t>(kImem + 2 * i + 1), static_cast<uint32_t>(kCode[i] >> 32));
  }
  for (uint32_t i = 0; i < 4; ++i) h.write(static_cast<uint16_t>(kParam + i), kParams[i]);
  for (uint32_t i = 0; i < kN; ++i) {
    h.write(static_cast<uint16_t>(kData + kA / 4 + i), i + 1);
    h.write(static_cast<uint16_t>(kData + kB / 4 + i), 100 + 3 * i);
    h.write(static_cast<uint16_t>(kData + kC / 4 + i), 0);
  }
  h.write(kNtid, 32);
  h.write(kNctaid, 2);
  h.write(kCodeSize, nCode);
  h.write(kParamWords, 4);
  h.write(kSharedBytes, 0);
  const uint64_t start = h.cycles();
  h.write(kCtrl, 1);
  uint32_t st = 0;
  while (h.ok() && h.cycles() - start < 100000 && !((st = h.read(kCtrl)) & 0x6u)) {
  }
  const uint64_t ran = h.cycles() - start;
  if (!(st & 0x2u)) {
    std::printf("vector_add: no done after %llu cycles (status 0x%x, fault %u at pc %u)%s\n",
                static_cast<unsigned long long>(ran), st, h.read(kFaultCause),
                h.read(kFaultPc), h.ok() ? "" : ", an RTL assertion failed");
    std::printf("0 passed, 1 failed\n");
    return 1;
  }
  for (uint32_t i = 0; i < kN; ++i) {
    const uint32_t got = h.read(static_cast<uint16_t>(kData + kC / 4 + i));
    const uint32_t want = (i + 1) + (100 + 3 * i);
    if (got != want) {
      std::printf("vector_add: c[%u] = %u, expected %u\n", i, got, want);
      std::printf("0 passed, 1 failed\n");
      return 1;
    }
  }
  std::printf("vector_add on simt_fpga_top: %u results right, %llu cycles from start to done\n",
              kN, static_cast<unsigned long long>(ran));
  std::printf("1 passed, 0 failed\n");
  return h.ok() ? 0 : 1;
}
