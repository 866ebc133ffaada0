// Unit tests of the lowering's analyses on the IR of small kernels (Clang 16 -O2 and the
// compiler's own preparation): UniformityInfo and the reconvergence plan.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "compiler/divergence.h"
#include "compiler/frontend.h"
#include "compiler/pipeline.h"

namespace {

namespace cc = simt::compiler;
using namespace llvm;

// One kernel's IR and its analyses.
struct Analysed {
  LLVMContext ctx;
  std::unique_ptr<Module> module;
  Function* kernel = nullptr;
  std::unique_ptr<DominatorTree> dt;
  std::unique_ptr<LoopInfo> li;
  std::unique_ptr<PostDominatorTree> pdt;
  std::unique_ptr<cc::UniformityInfo> ui;
  cc::ReconvergencePlan plan;

  explicit Analysed(const std::string& source) {
    // A file of this test's own: ctest runs the tests of this binary in parallel processes.
    const std::string path = std::string(::testing::TempDir()) + "passes_" +
                             ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                             std::to_string(::getpid()) + ".cl";
    std::ofstream(path) << source;
    module = cc::runFrontend(path, {}, ctx).module;
    std::remove(path.c_str());
    cc::prepareModule(*module);
    for (Function& f : *module) {
      if (!f.isDeclaration() && f.getCallingConv() == CallingConv::SPIR_KERNEL) kernel = &f;
    }
    dt = std::make_unique<DominatorTree>(*kernel);
    li = std::make_unique<LoopInfo>(*dt);
    pdt = std::make_unique<PostDominatorTree>(*kernel);
    ui = std::make_unique<cc::UniformityInfo>(*kernel, *pdt, *li);
    plan = cc::planReconvergence(*kernel, *ui, *pdt, *li);
  }
  int branches(bool divergent) const {
    int n = 0;
    for (const BasicBlock& bb : *kernel) {
      const auto* br = dyn_cast<BranchInst>(bb.getTerminator());
      if (br && br->isConditional() && ui->isDivergentBranch(&bb) == divergent) ++n;
    }
    return n;
  }
  // The value stored by the store whose pointer's base is kernel argument `arg`.
  const Value* storedTo(unsigned arg) const {
    for (const BasicBlock& bb : *kernel) {
      for (const Instruction& I : bb) {
        const auto* st = dyn_cast<StoreInst>(&I);
        if (st && getUnderlyingObject(st->getPointerOperand()) == kernel->getArg(arg)) return st->getValueOperand();
      }
    }
    return nullptr;
  }
};

TEST(Uniformity, ArgumentsAndGroupIdsAreUniformWorkItemIdsAreNot) {
  Analysed a("__kernel void k(__global int* o, __global int* p, __global int* q, int n) {\n"
             "  o[0] = n * 3 + get_group_id(0);\n"
             "  p[get_local_id(0)] = get_local_id(0) + n;\n"
             "  q[get_global_id(0)] = o[n];\n}\n");
  EXPECT_FALSE(a.ui->isDivergent(a.storedTo(0)));
  EXPECT_TRUE(a.ui->isDivergent(a.storedTo(1)));
  EXPECT_TRUE(a.ui->isDivergent(a.storedTo(2)));  // a load: conservative
}

TEST(Uniformity, UniformLoopDivergentIf) {
  Analysed a("__kernel void k(__global int* o, __global int* p, int n) {\n"
             "  for (int i = 0; i < n; ++i) { if (get_local_id(0) > i) atomic_add(p, i); }\n}\n");
  EXPECT_EQ(a.branches(true), 1);   // the if
  EXPECT_GE(a.branches(false), 1);  // the loop (and its guard)
}

TEST(Uniformity, JoinOfADivergentBranchIsDivergent) {
  Analysed a("__kernel void k(__global int* o, int n) {\n"
             "  int v = n;\n  if (get_local_id(0) & 1) v = n + 5;\n  o[0] = v;\n}\n");
  const Value* v = a.storedTo(0);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(a.ui->isDivergent(v)) << "the phi (or select) of two uniform values at a divergent join";
}

TEST(Uniformity, ValueLeavingALoopWithDivergentExitIsDivergent) {
  Analysed a("__kernel void k(__global int* o, int n) {\n  int i = 0;\n"
             "  while (i < n && i != get_local_id(0)) ++i;\n  o[0] = i * n;\n}\n");
  const Value* v = a.storedTo(0);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(a.ui->isDivergent(v));
}

TEST(ReconvergencePlan, DivergentIfReconvergesAtItsJoin) {
  Analysed a("__kernel void k(__global int* o) {\n  int t = get_local_id(0), v;\n"
             "  if (t & 1) v = o[t] * 3; else v = o[t + 1] - 2;\n  o[t] = v + 1;\n}\n");
  ASSERT_EQ(a.plan.tokens.size(), 1u);
  const auto& tok = a.plan.tokens[0];
  EXPECT_NE(tok.at, tok.post);
  EXPECT_TRUE(isa<BranchInst>(tok.at->getTerminator()) && cast<BranchInst>(tok.at->getTerminator())->isConditional());
  int syncs = 0;
  for (const auto& e : a.plan.syncEdges) syncs += e.second == tok.post;
  EXPECT_EQ(syncs, 2);  // both arms
  EXPECT_TRUE(a.plan.yieldEdges.empty());
}

TEST(ReconvergencePlan, LoopWithDivergentExitPushesItsTokenInThePreheader) {
  Analysed a("__kernel void k(__global int* o) {\n  int t = get_local_id(0), s = 0;\n"
             "  for (int i = 0; i < t; ++i) s += o[i];\n  o[t] = s;\n}\n");
  bool inPreheader = false;
  for (const auto& tok : a.plan.tokens) {
    for (const Loop* l : *a.li) inPreheader |= l->getLoopPreheader() == tok.at;
  }
  EXPECT_TRUE(inPreheader);
}

TEST(ReconvergencePlan, PathsThatOnlyMeetToExitNeedNoToken) {
  Analysed a("__kernel void k(__global int* o, int n) {\n  int i = get_global_id(0);\n"
             "  if (i < n) o[i] = 1;\n}\n");
  EXPECT_EQ(a.branches(true), 1);
  EXPECT_TRUE(a.plan.tokens.empty());
}

TEST(ReconvergencePlan, SpinLoopsYieldOnTheirBackEdge) {
  Analysed a("__kernel void k(__global int* l, __global int* c) {\n"
             "  while (atomic_cmpxchg(l, 0, 1) != 0) {}\n  *c += 1;\n  atomic_xchg(l, 0);\n}\n");
  ASSERT_EQ(a.plan.yieldEdges.size(), 1u);
  const auto& [from, to] = *a.plan.yieldEdges.begin();
  const Loop* l = a.li->getLoopFor(to);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->getHeader(), to);
  EXPECT_TRUE(l->contains(from));
}

// DivRemOfInductionVariablePass (prepareModule's last loop step): the divisions and
// remainders by constants left inside loops at a loop depth, by the source line of each.
std::multiset<unsigned> divisionsInLoops(const Analysed& a, unsigned depth) {
  std::multiset<unsigned> lines;
  for (const BasicBlock& bb : *a.kernel) {
    if (a.li->getLoopDepth(&bb) != depth) continue;
    for (const Instruction& I : bb) {
      const unsigned op = I.getOpcode();
      if ((op == Instruction::UDiv || op == Instruction::URem || op == Instruction::SDiv ||
           op == Instruction::SRem) && isa<ConstantInt>(I.getOperand(1))) {
        lines.insert(I.getDebugLoc() ? I.getDebugLoc().getLine() : 0);
      }
    }
  }
  return lines;
}

TEST(DivRemOfInductionVariable, CountersThatNeverWrapKeepTheirRemainderAndQuotient) {
  Analysed a("__kernel void k(__global uint* o, __global const int* s, uint n) {\n"
             "  uint a = 0, b = 0, c = 0, d = 0;\n"
             "  for (int i = 0; i < (int)get_global_id(0); ++i) a += (uint)(i % 7) + (uint)(i / 7);\n"
             "  for (int j = 0; j < 4; ++j) for (int i = j * 11; i < j * 11 + n; i += 2) b += i % 6 + (i + 1) % 9 + i / 25;\n"
             "  for (int i = s[0]; i < s[0] + 40; i += 3) c += (uint)(i % 10);\n"  // may be negative
             "  for (uint i = n; i > 1000u; i += 97u) d += i % 1000u;\n"            // wraps
             "  o[0] = a; o[1] = b; o[2] = c; o[3] = d;\n}\n");
  // Lines 3 and 4 are rewritten (no division left in their loops: line 4's inner loop starts
  // its recurrences from the outer loop, in its preheader); 5 and 6 are not.
  const std::multiset<unsigned> left = divisionsInLoops(a, 1), inner = divisionsInLoops(a, 2);
  EXPECT_EQ(left.count(3), 0u);
  EXPECT_EQ(inner.count(4), 0u);
  EXPECT_EQ(left.count(4), 3u) << "the inner loop's starting quotients by 6, 9 and 25";
  EXPECT_GE(left.count(5), 1u);
  EXPECT_GE(left.count(6), 1u);
  int recurrences = 0;
  for (const BasicBlock& bb : *a.kernel) {
    for (const Instruction& I : bb) {
      if (isa<PHINode>(I) && (I.getName().startswith("iv.rem") || I.getName().startswith("iv.quot"))) ++recurrences;
    }
  }
  // Line 3: i % 7, i / 7; line 4: i % 6, i / 25 (i % 25 beside it), (i + 1) % 9.
  EXPECT_EQ(recurrences, 2 + 4) << "remainder and quotient recurrences";
}

TEST(ReconvergencePlan, SideEntriesDropTheInnerToken) {
  // The lowered switch's leaves share a default block: regions with side entries.
  Analysed a("__kernel void k(__global int* o) {\n  int v = o[get_local_id(0)], r = 0;\n"
             "  switch (v & 7) { case 0: r = 10; break; case 1: r = 20; case 2: r += 5; break;\n"
             "    case 5: r = v * v; break; case 6: return; default: r = -1; }\n"
             "  o[get_local_id(0)] = r;\n}\n");
  EXPECT_GT(a.plan.droppedTokens, 0);
  for (const auto& tok : a.plan.tokens) {
    for (const BasicBlock* b : tok.region) {
      for (const BasicBlock* p : predecessors(b)) {
        EXPECT_TRUE(tok.region.count(const_cast<BasicBlock*>(p)) || p == tok.at || b == tok.at)
            << "a kept token's region has a side entry";
      }
    }
  }
}

}  // namespace
