#include "sm/random_kernel.h"

#include <sstream>
#include <vector>

namespace simt::tb {
namespace {

// r1 = tid, r2 = gtid, r3..r12 data, r13 loop counter, r14 trip count, r16 = the thread's
// 64-byte slot in `out`, r17 = tid * 4 (own shared word), r18 = next thread's shared word.
class Generator {
 public:
  Generator(Rng& rng, Rng* fp) : rng_(rng), fp_(fp) {}

  std::string run() {
    ctas_ = rng_.range(1, 3);
    threads_ = 32 * rng_.range(1, 3) - (rng_.chance(30) ? rng_.range(1, 20) : 0);
    calls_ = rng_.range(0, 2);
    nesting_ = rng_.chance(50);
    os_ << ".launch ctas=" << ctas_ << " threads=" << threads_ << "\n";
    os_ << ".shared " << threads_ * 4 << "\n.data\n";
    os_ << "out: .zero " << ctas_ * threads_ * 64 << "\nacc: .zero 16\n.text\n";
    os_ << "mov r1, %tid\nmov r2, %gtid\nshl r16, r2, 6\nshl r17, r1, 2\n";
    os_ << "add r18, r1, 1\nmov r19, %ntid\nsetp.ge p6, r18, r19\n@p6 mov r18, 0\nshl r18, r18, 2\n";
    for (int r = 3; r <= 12; ++r) {
      if (rng_.chance(50)) os_ << "add r" << r << ", r1, " << rng_.range(-50, 50) << "\n";
      else os_ << "mov r" << r << ", " << rng_.range(-1000, 1000) << "\n";
    }
    block(0, rng_.range(6, 14), /*inCall=*/false, /*inLoop=*/false);
    if (rng_.chance(50)) section();  // every other program has at least one section
    for (int r = 3; r <= 12; ++r) os_ << "st.global [r16+out+" << (r - 3) * 4 << "], r" << r << "\n";
    os_ << "exit\n";
    for (int f = 0; f < calls_; ++f) {
      os_ << "f" << f << ":\n";
      block(1, rng_.range(2, 5), /*inCall=*/true, /*inLoop=*/false);
      os_ << "ret\n";
    }
    return os_.str();
  }

 private:
  std::string reg() { return "r" + std::to_string(rng_.range(1, 12)); }
  std::string dst() { return "r" + std::to_string(rng_.range(3, 12)); }
  std::string pred() { return "p" + std::to_string(rng_.range(0, 3)); }
  std::string label() { return "L" + std::to_string(labels_++); }
  std::string guard() {
    if (!rng_.chance(25)) return "";
    return std::string(rng_.chance(50) ? "@!" : "@") + pred() + " ";
  }
  std::string operandB() {
    return rng_.chance(40) ? std::to_string(rng_.range(-64, 64)) : reg();
  }

  // A critical section: a read-modify-write of a counter, one thread at a time; ordered or
  // unordered, sometimes exclusive, blocking or non-blocking bottom. Each section has its own
  // id: after a non-blocking bottom a thread may reach the next section while this one still
  // serves others (one id, two tags: a deadlock). An impatient one has its warps arrive
  // staggered and, guarded, only some threads take part (the body carries the same guard):
  // portions start by MIN or TIMEOUT and late arrivals join the running portion. In half the
  // programs a section may hold a nested one (COUNT 1: each thread inside the outer one is a
  // portion of its own), in service while the outer one is; those programs have no exclusive
  // section, which would need every slot while an outer one waits for its inner one behind
  // it in the ready FIFO (a deadlock of the program, reported as such). Several sections of one
  // program (and of several CTAs) queue for the slot arbiter, whose grants the co-simulation
  // follows.
  void section(bool inner = false, std::string g = "") {
    const int id = sectionId_++;
    if (!inner) g = rng_.chance(50) ? "" : "@" + pred() + " ";
    const bool imp = !inner && (!g.empty() || rng_.chance(30));
    std::string top = std::string("bar.top.") + (rng_.chance(60) ? "ocs" : "ucs");
    const std::string bot = "bar.bot." + top.substr(8);
    const bool excl = !inner && !nesting_ && rng_.chance(20);
    if (excl) top += ".ex";
    if (imp) {
      const std::string loop = label(), go = label();
      os_ << "mov r20, %warpid\nmul r20, r20, " << rng_.range(5, 60) << "\n" << loop
          << ": setp.gt p6, r20, 0\n@!p6 bra " << go << "\nsub r20, r20, 1\nbra " << loop << "\n" << go
          << ": " << g << top << ".imp " << id << ", " << threads_ << ", "
          << (rng_.chance(30) ? rng_.range(1, threads_) : 0) << ", " << rng_.range(10, 150) << "\n";
    } else if (inner) {
      os_ << g << top << " " << id << ", 1\n";
    } else {
      os_ << top << " " << id << "\n";
    }
    os_ << g << "ld.global r21, [acc+8]\n" << g << "add r21, r21, " << reg() << "\n" << g
        << "st.global [acc+8], r21\n";
    if (!inner && nesting_ && sectionId_ < 16 && rng_.chance(40)) section(/*inner=*/true, g);
    os_ << g << "mov " << dst() << ", r21\n" << g << bot << (rng_.chance(50) ? ".nb " : " ") << id
        << "\n";
  }

  // FP32 instructions (issue #24, several in flight), from a stream of their own so that the
  // programs without them stay as they were: a run of 1..4 after an ALU instruction, on the
  // data registers' bits as floats (any bit pattern is a float: NaNs, subnormals and all).
  // Independent ones overlap in the FP unit; a run reusing a register waits (RAW, WAW).
  void fp() {
    if (fp_ == nullptr || !fp_->chance(45)) return;
    Rng& f = *fp_;
    auto r = [&] { return "r" + std::to_string(f.range(3, 12)); };
    auto b = [&] {
      static const char* const kImm[] = {"1.5", "-2.0", "0.25", "3e5", "-1e-3", "inf", "0x00000001"};
      return f.chance(25) ? std::string(kImm[f.below(7)]) : (f.chance(20) ? "r1" : r());
    };
    const int n = f.range(1, 4);
    for (int i = 0; i < n; ++i) {
      static const char* const kBin[] = {"fadd", "fsub", "fmul", "fmin", "fmax"};
      const std::string g = f.chance(20) ? std::string(f.chance(50) ? "@!" : "@") + "p" +
                                               std::to_string(f.range(0, 3)) + " "
                                         : std::string();
      const int kind = f.below(100);
      if (kind < 40) {
        os_ << g << kBin[f.below(5)] << " " << r() << ", " << r() << ", " << b() << "\n";
      } else if (kind < 62) {
        os_ << g << "ffma " << r() << ", " << r() << ", " << b() << ", " << r() << "\n";
      } else if (kind < 70) {
        os_ << g << (f.chance(50) ? "fabs " : "fneg ") << r() << ", " << r() << "\n";
      } else if (kind < 80) {
        static const char* const kCvt[] = {"fcvt.f32.s32", "fcvt.f32.u32", "fcvt.s32.f32",
                                           "fcvt.u32.f32.rn", "fcvt.s32.f32.rm"};
        os_ << g << kCvt[f.below(5)] << " " << r() << ", " << r() << "\n";
      } else if (kind < 88) {
        os_ << g << (f.chance(60) ? "fdiv " + r() + ", " + r() + ", " + b() : "fsqrt " + r() + ", " + r())
            << "\n";
      } else {
        static const char* const kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "neu", "nan", "num"};
        os_ << g << "fsetp." << kCmp[f.below(9)] << " p" << f.range(0, 3) << ", " << r() << ", " << b()
            << "\n";
      }
    }
  }

  void alu() {
    fp();
    static const char* const kOps[] = {"add", "sub", "mul", "and", "or", "xor", "shl", "shr", "sra",
                                       "min", "max", "minu", "maxu"};
    const int kind = rng_.below(10);
    if (kind < 7) {
      os_ << guard() << kOps[rng_.below(13)] << " " << dst() << ", " << reg() << ", " << operandB() << "\n";
    } else if (kind == 7) {
      os_ << guard() << "not " << dst() << ", " << reg() << "\n";
    } else if (kind == 8) {
      os_ << guard() << "selp " << dst() << ", " << reg() << ", " << reg() << ", " << pred() << "\n";
    } else {
      static const char* const kSregs[] = {"%tid", "%laneid", "%warpid", "%ctaid", "%gtid", "%ntid"};
      os_ << "mov " << dst() << ", " << kSregs[rng_.below(6)] << "\n";
    }
  }

  void setp() {
    static const char* const kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
    if (rng_.chance(80)) {
      os_ << "setp." << kCmp[rng_.below(10)] << " " << pred() << ", " << reg() << ", " << operandB() << "\n";
    } else {
      static const char* const kPop[] = {"pand", "por", "pxor"};
      os_ << kPop[rng_.below(3)] << " " << pred() << ", " << pred() << ", " << pred() << "\n";
    }
  }

  // A condition that differs between threads of a warp.
  void divergentCondition(const std::string& p) {
    os_ << "and r20, " << reg() << ", " << rng_.range(1, 7) << "\n";
    os_ << "setp.eq " << p << ", r20, " << rng_.range(0, 3) << "\n";
  }

  void memory() {
    const int kind = rng_.below(6);
    const int slot = rng_.range(10, 15) * 4;  // scratch words of the thread's slot
    if (kind == 0) {
      os_ << guard() << "st.global [r16+out+" << slot << "], " << reg() << "\n";
    } else if (kind == 1) {
      os_ << guard() << "ld.global " << dst() << ", [r16+out+" << slot << "]\n";
    } else if (kind == 2) {
      static const char* const kAtom[] = {"add", "min", "max", "and", "or", "xor", "exch"};
      os_ << guard() << "atom.global." << kAtom[rng_.below(7)] << " " << dst() << ", [acc+"
          << 4 * rng_.below(3) << "], " << reg() << "\n";
    } else if (kind == 3) {
      os_ << "atom.global.cas " << dst() << ", [acc+12], " << reg() << ", " << reg() << "\n";
    } else if (kind == 4) {
      os_ << guard() << "st.shared [r17], " << reg() << "\n";
    } else {
      os_ << guard() << "ld.shared " << dst() << ", [r17]\n";
    }
  }

  void block(int depth, int n, bool inCall, bool inLoop) {
    for (int i = 0; i < n; ++i) {
      const int kind = rng_.below(100);
      if (kind < 35) {
        alu();
      } else if (kind < 47) {
        setp();
      } else if (kind < 62) {
        memory();
      } else if (kind < 72 && depth < 2) {
        // if / else
        const std::string e = label(), j = label(), p = pred();
        divergentCondition(p);
        os_ << "ssy " << j << "\n@" << p << " bra " << e << "\n";
        block(depth + 1, rng_.range(1, 4), inCall, inLoop);
        os_ << "sync " << j << "\n" << e << ":\n";
        block(depth + 1, rng_.range(1, 4), inCall, inLoop);
        os_ << "sync " << j << "\n" << j << ":\n";
      } else if (kind < 79 && depth < 2 && !inLoop) {
        // counted loop, 1..4 trips per thread, leaving with brk
        const std::string top = label(), done = label();
        os_ << "and r14, r1, 3\nadd r14, r14, 1\nmov r13, 0\npbrk " << done << "\n" << top << ":\n";
        // brk with the fallback label: after a yield the BRK token may be gone (seed 002)
        os_ << "setp.ge p5, r13, r14\n@p5 brk " << done << "\n";
        block(depth + 1, rng_.range(1, 4), inCall, /*inLoop=*/true);
        if (rng_.chance(50)) os_ << "yield\n";
        os_ << "add r13, r13, 1\nbra " << top << "\n" << done << ":\n";
      } else if (kind < 84 && calls_ > 0 && !inCall) {
        os_ << guard() << "cal f" << rng_.below(calls_) << "\n";
      } else if (kind < 88) {
        static const char* const kYield[] = {"yield", "yield.2", "yield.4", "yield.p"};
        os_ << guard() << kYield[rng_.below(4)] << "\n";
      } else if (kind < 92 && depth == 0 && !inCall) {
        // CTA barrier: every thread is here (top level, converged); exchange through shared
        os_ << "st.shared [r17], " << reg() << "\nbar.sync 0\nld.shared " << dst() << ", [r18]\n";
        os_ << "bar.sync 1\n";  // nobody overwrites a word before its neighbour has read it
      } else if (kind < 97 && depth == 0 && !inCall && sectionId_ < 16) {
        // impatient barrier on a fresh id: warps arrive staggered by a per-warp delay, so
        // portions start by MIN or by TIMEOUT (the core's choice of cycle, which the
        // co-simulation checks) and late arrivals join a new portion or pass (.pass).
        const int id = sectionId_++;
        const std::string loop = label(), go = label();
        os_ << "mov r20, %warpid\nmul r20, r20, " << rng_.range(5, 60) << "\n" << loop
            << ": setp.gt p6, r20, 0\n@!p6 bra " << go << "\nsub r20, r20, 1\nbra " << loop << "\n"
            << go << ": " << (rng_.chance(30) ? "@" + pred() + " " : std::string())  // non-participants
            << "bar.sync.imp" << (rng_.chance(40) ? ".pass " : " ") << id << ", " << threads_
            << ", " << (rng_.chance(30) ? rng_.range(1, threads_) : 0) << ", " << rng_.range(10, 150)
            << "\n";
      } else if (depth == 0 && !inCall && sectionId_ < 16) {
        section();
      } else {
        alu();
      }
    }
  }

  Rng& rng_;
  Rng* fp_;  // FP instructions' stream (none: integer programs only)
  std::ostringstream os_;
  int ctas_ = 1, threads_ = 32, calls_ = 0, labels_ = 0, sectionId_ = 2;
  bool nesting_ = false;  // sections may nest (and none is exclusive)
};

}  // namespace

std::string randomKernel(Rng& rng) { return Generator(rng, nullptr).run(); }
std::string randomKernel(Rng& rng, Rng& fp) { return Generator(rng, &fp).run(); }

}  // namespace simt::tb
