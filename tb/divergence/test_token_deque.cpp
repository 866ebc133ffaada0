// simt_token_deque against model::TokenDeque (through model::TokenDequeCycle), every output
// every cycle: directed tests for seed 002's worked example, overflow at both ends with the
// test acting as the runtime that re-centres the entries, and long random runs with both
// token widths.
#include <array>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "Vtoken_deque.h"
#include "Vtoken_deque128.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "runtime/recentre_runtime.h"
#include "model/divergence/token_deque.h"

namespace simt::tb {
namespace {

using runtime::RecentreRuntime;
using model::MntOp;
using model::PackedToken;
using model::Token;
using model::TokenDeque;
using model::TokenDequeIn;
using model::TokenDequeOut;
using model::TokenType;

// ---- port access for 64-bit (QData) and 128-bit (VlWide<4>) token ports -----------------
void setPort(uint64_t& port, const PackedToken& t) { port = t[0]; }
void setPort(VlWide<4>& port, const PackedToken& t) {
  port[0] = static_cast<uint32_t>(t[0]);
  port[1] = static_cast<uint32_t>(t[0] >> 32);
  port[2] = static_cast<uint32_t>(t[1]);
  port[3] = static_cast<uint32_t>(t[1] >> 32);
}
PackedToken getPort(const uint64_t& port) { return {port, 0}; }
PackedToken getPort(const VlWide<4>& port) {
  return {static_cast<uint64_t>(port[0]) | (static_cast<uint64_t>(port[1]) << 32),
          static_cast<uint64_t>(port[2]) | (static_cast<uint64_t>(port[3]) << 32)};
}

// ---- bench: drives DUT and model with the same inputs, compares every output ------------
template <class Dut>
class DequeBench {
 public:
  DequeBench(const TokenDeque::Config& cfg, uint64_t seed)
      : cfg_(cfg), sim_("simt_token_deque", seed), model_(cfg), cycleModel_(model_),
        sb_("token_deque") {
    const int warpW = cfg.numWarps > 1 ? bitsFor(cfg.numWarps - 1) : 1;
    const int ptrW = bitsFor(cfg.depth);
    auto s = [](const char* n, int w) { return waveSignal("simt_token_deque", n, w); };
    sim_.setWaveGroups({
        {"push", {s("push_valid_i", 1), s("push_warp_i", warpW), s("push_back_i", 1),
                  s("push_token_i", cfg.tokenBits), s("push_ready_o", 1),
                  s("fit_warp_i", warpW), s("push_front_ready_o", 1),
                  s("push_back_ready_o", 1)}},
        {"pop", {s("pop_valid_i", 1), s("pop_warp_i", warpW), s("pop_ready_o", 1),
                 s("pop_token_o", cfg.tokenBits)}},
        {"query", {s("qry_warp_i", warpW), s("qry_count_o", ptrW), s("qry_head_o", ptrW),
                   s("qry_tail_o", ptrW), s("qry_types_o", 6), s("qry_front_o", cfg.tokenBits),
                   s("cnt_warp_i", warpW), s("cnt_count_o", ptrW)}},
        {"exception", {s("exc_valid_o", 1), s("exc_warp_o", warpW), s("exc_back_o", 1),
                       s("stalled_o", cfg.numWarps)}},
        {"access", {s("acc_valid_i", 1), s("acc_we_i", 1), s("acc_warp_i", warpW),
                    s("acc_pos_i", ptrW), s("acc_ready_o", 1), s("acc_rvalid_o", 1),
                    s("acc_rdata_o", cfg.tokenBits)}},
        {"maintenance", {s("mnt_valid_i", 1), s("mnt_op_i", 2), s("mnt_warp_i", warpW),
                         s("mnt_ready_o", 1), s("mnt_rvalid_o", 1),
                         s("mnt_rdata_o", cfg.tokenBits)}},
        {"ram", {s("ram_we", 1), s("ram_re", 1), s("refill_q", 1)}},
    });
    sim_.reset();
  }

  static int bitsFor(int maxValue) {
    int b = 0;
    while ((1 << b) <= maxValue) ++b;
    return b;
  }

  // One cycle: apply inputs, compare the combinational and registered outputs with the
  // model, then clock both. Returns the DUT's outputs of this cycle.
  TokenDequeOut cycle(const TokenDequeIn& in) {
    drive(in);
    sim_.eval();
    const TokenDequeOut want = cycleModel_.evaluate(in);
    const TokenDequeOut got = sample(want);
    sb_.check("cycle " + std::to_string(sim_.cycle()), fields(want, want), fields(got, want));
    cycleModel_.commit(in);
    sim_.tick();
    return got;
  }

  TokenDeque& model() { return model_; }
  SimContext<Dut>& sim() { return sim_; }
  Scoreboard& scoreboard() { return sb_; }
  const TokenDeque::Config& config() const { return cfg_; }
  bool ok() const { return sim_.ok() && sb_.clean(); }

 private:
  void drive(const TokenDequeIn& in) {
    Dut& d = sim_.dut();
    d.push_valid_i = in.pushValid;
    d.push_warp_i = static_cast<uint8_t>(in.pushWarp);
    d.push_back_i = in.pushBack;
    d.fit_warp_i = static_cast<uint8_t>(in.fitWarp);
    setPort(d.push_token_i, model::pack(in.pushToken, cfg_.tokenBits));
    d.pop_valid_i = in.popValid;
    d.pop_warp_i = static_cast<uint8_t>(in.popWarp);
    d.qry_warp_i = static_cast<uint8_t>(in.qryWarp);
    d.cnt_warp_i = static_cast<uint8_t>(in.cntWarp);
    d.acc_valid_i = in.accValid;
    d.acc_we_i = in.accWe;
    d.acc_warp_i = static_cast<uint8_t>(in.accWarp);
    d.acc_pos_i = static_cast<uint8_t>(in.accPos);
    setPort(d.acc_wdata_i, model::pack(in.accWdata, cfg_.tokenBits));
    d.mnt_valid_i = in.mntValid;
    d.mnt_op_i = static_cast<uint8_t>(in.mntOp);
    d.mnt_warp_i = static_cast<uint8_t>(in.mntWarp);
    d.mnt_idx_i = static_cast<uint8_t>(in.mntIdx);
    setPort(d.mnt_wdata_i, model::pack(in.mntWdata, cfg_.tokenBits));
    d.mnt_head_i = static_cast<uint8_t>(in.mntHead);
    d.mnt_tail_i = static_cast<uint8_t>(in.mntTail);
  }

  // DUT outputs; data outputs are taken only where the model defines them.
  TokenDequeOut sample(const TokenDequeOut& want) {
    Dut& d = sim_.dut();
    TokenDequeOut o;
    o.pushReady = d.push_ready_o;
    o.pushFrontReady = d.push_front_ready_o;
    o.pushBackReady = d.push_back_ready_o;
    o.popReady = d.pop_ready_o;
    if (want.popToken) o.popToken = model::unpack(getPort(d.pop_token_o), cfg_.tokenBits);
    if (want.qryFront) o.qryFront = model::unpack(getPort(d.qry_front_o), cfg_.tokenBits);
    o.qryEmpty = d.qry_empty_o;
    o.qryCount = d.qry_count_o;
    o.cntCount = d.cnt_count_o;
    o.qryHead = d.qry_head_o;
    o.qryTail = d.qry_tail_o;
    o.qryTypes = d.qry_types_o;
    o.excValid = d.exc_valid_o;
    o.excWarp = d.exc_warp_o;
    o.excBack = d.exc_back_o;
    o.stalled = d.stalled_o;
    o.accReady = d.acc_ready_o;
    o.accRvalid = d.acc_rvalid_o;
    if (want.accRdata) o.accRdata = model::unpack(getPort(d.acc_rdata_o), cfg_.tokenBits);
    o.mntReady = d.mnt_ready_o;
    o.mntRvalid = d.mnt_rvalid_o;
    if (want.mntRdata) o.mntRdata = model::unpack(getPort(d.mnt_rdata_o), cfg_.tokenBits);
    rawMntRdata_ = getPort(d.mnt_rdata_o);
    return o;
  }

  Scoreboard::Fields fields(const TokenDequeOut& o, const TokenDequeOut& want) const {
    auto tok = [&](const std::optional<Token>& t, int word) -> uint64_t {
      if (!t) return 0;
      return model::pack(*t, cfg_.tokenBits)[static_cast<size_t>(word)];
    };
    Scoreboard::Fields f = {
        {"push_ready", o.pushReady},        {"push_front_ready", o.pushFrontReady},
        {"push_back_ready", o.pushBackReady},
        {"pop_ready", o.popReady},
        {"pop_token.lo", tok(o.popToken, 0)}, {"pop_token.hi", tok(o.popToken, 1)},
        {"qry_front.lo", tok(o.qryFront, 0)}, {"qry_front.hi", tok(o.qryFront, 1)},
        {"qry_empty", o.qryEmpty},          {"qry_count", static_cast<uint64_t>(o.qryCount)},
        {"qry_head", static_cast<uint64_t>(o.qryHead)},
        {"qry_tail", static_cast<uint64_t>(o.qryTail)},
        {"qry_types", o.qryTypes},          {"cnt_count", static_cast<uint64_t>(o.cntCount)},
        {"exc_valid", o.excValid},
        {"exc_warp", want.excValid ? static_cast<uint64_t>(o.excWarp) : 0},
        {"exc_back", want.excValid ? o.excBack : false},
        {"stalled", o.stalled},             {"acc_ready", o.accReady},
        {"acc_rvalid", o.accRvalid},
        {"acc_rdata.lo", tok(o.accRdata, 0)}, {"acc_rdata.hi", tok(o.accRdata, 1)},
        {"mnt_ready", o.mntReady},
        {"mnt_rvalid", o.mntRvalid},
        {"mnt_rdata.lo", tok(o.mntRdata, 0)}, {"mnt_rdata.hi", tok(o.mntRdata, 1)},
    };
    return f;
  }

 public:
  // Raw maintenance read data of the last cycle (what a runtime would see).
  PackedToken rawMntRdata() const { return rawMntRdata_; }

 private:
  TokenDeque::Config cfg_;
  SimContext<Dut> sim_;
  TokenDeque model_;
  model::TokenDequeCycle cycleModel_;
  Scoreboard sb_;
  PackedToken rawMntRdata_{0, 0};
};

Token makeToken(TokenType type, uint64_t mask, uint32_t addr) {
  Token t;
  t.type = type;
  t.mask = mask;
  t.addr = addr;
  return t;
}

TokenDequeIn pushIn(int warp, bool back, const Token& t, int qry) {
  TokenDequeIn in;
  in.pushValid = true;
  in.pushWarp = warp;
  in.pushBack = back;
  in.pushToken = t;
  in.qryWarp = qry;
  return in;
}

TokenDequeIn popIn(int warp) {
  TokenDequeIn in;
  in.popValid = true;
  in.popWarp = warp;
  in.qryWarp = warp;
  return in;
}

TokenDequeIn queryIn(int warp) {
  TokenDequeIn in;
  in.qryWarp = warp;
  return in;
}

// Runs maintenance cycles (no push/pop) until the runtime is done.
template <class Dut>
void runRuntime(DequeBench<Dut>& bench, RecentreRuntime& rt, int qry) {
  for (int guard = 0; rt.busy() && guard < 10 * bench.config().depth + 10 && bench.ok();
       ++guard) {
    TokenDequeIn in = queryIn(qry);
    const bool offered = rt.wantsPort();
    if (offered) in = rt.request(in);
    const TokenDequeOut out = bench.cycle(in);
    if (offered && out.mntReady) rt.accepted(bench.config().tokenBits);
    // Read data appears in the cycle after the read: look at the outputs of the next cycle.
    const TokenDequeOut next = bench.cycle(queryIn(qry));
    rt.capture(next.mntRvalid, bench.rawMntRdata(), bench.config().tokenBits);
  }
  ASSERT_FALSE(rt.busy()) << "runtime did not finish";
}

// ---- directed -----------------------------------------------------------------------------

// Seed 002 figure: an IF whose taken path calls a function holding a nested IF pushes
// SYNC, DIV, CALL, SYNC, DIV. Each token's summary names the types at and below it.
TEST(TokenDeque, Seed002WorkedExample) {
  DequeBench<Vtoken_deque> b({8, 32, 64}, baseSeed());
  const int w = 3;
  const std::vector<TokenType> order = {TokenType::Sync, TokenType::Div, TokenType::Call,
                                        TokenType::Sync, TokenType::Div};
  const uint8_t expectSummary[] = {
      model::summary::kSync,
      model::summary::kSync | model::summary::kDiv,
      model::summary::kSync | model::summary::kDiv | model::summary::kCall,
      model::summary::kSync | model::summary::kDiv | model::summary::kCall,
      model::summary::kSync | model::summary::kDiv | model::summary::kCall};
  for (size_t i = 0; i < order.size(); ++i) {
    const auto out = b.cycle(pushIn(w, false, makeToken(order[i], 0xF0F0u + i, 100 + i), w));
    EXPECT_TRUE(out.pushReady);
    const auto after = b.cycle(queryIn(w));
    ASSERT_TRUE(after.qryFront.has_value());
    EXPECT_EQ(after.qryFront->type, order[i]);
    EXPECT_EQ(after.qryFront->summary, expectSummary[i]) << "after push " << i;
    EXPECT_EQ(after.qryTypes, expectSummary[i]);
    EXPECT_EQ(after.qryHead, 16 + static_cast<int>(i) + 1);  // head starts mid-allocation
    EXPECT_EQ(after.qryTail, 16);
  }
  // Unwind from the front: DIV, SYNC, CALL, DIV, SYNC, back-to-back pops (RAM refill bypass).
  for (int i = static_cast<int>(order.size()) - 1; i >= 0; --i) {
    const auto out = b.cycle(popIn(w));
    ASSERT_TRUE(out.popReady);
    ASSERT_TRUE(out.popToken.has_value());
    EXPECT_EQ(out.popToken->type, order[static_cast<size_t>(i)]);
    EXPECT_EQ(out.popToken->addr, 100u + static_cast<uint32_t>(i));
    EXPECT_EQ(out.popToken->summary, expectSummary[i]);
  }
  EXPECT_TRUE(b.cycle(queryIn(w)).qryEmpty);
  EXPECT_FALSE(b.cycle(popIn(w)).popReady);
  EXPECT_TRUE(b.ok());
}

// YIELD goes to the back; front tokens keep stacking in front of it.
TEST(TokenDeque, YieldTokenGoesToTheBack) {
  DequeBench<Vtoken_deque> b({8, 32, 64}, baseSeed());
  const int w = 0;
  b.cycle(pushIn(w, false, makeToken(TokenType::Sync, 0xFF, 10), w));
  b.cycle(pushIn(w, true, makeToken(TokenType::Yield, 0x0F, 20), w));
  b.cycle(pushIn(w, false, makeToken(TokenType::Div, 0xF0, 30), w));
  const auto q = b.cycle(queryIn(w));
  EXPECT_EQ(q.qryCount, 3);
  EXPECT_EQ(q.qryTypes, model::summary::kSync | model::summary::kDiv | model::summary::kYield);
  const TokenType expect[] = {TokenType::Div, TokenType::Sync, TokenType::Yield};
  for (TokenType t : expect) {
    const auto out = b.cycle(popIn(w));
    ASSERT_TRUE(out.popToken.has_value());
    EXPECT_EQ(out.popToken->type, t);
  }
  EXPECT_EQ(b.cycle(queryIn(w)).qryTypes, 0);  // cleared once empty
  EXPECT_TRUE(b.ok());
}

// Overflow at one end: exception, stall, refused push; the runtime re-centres; the replayed
// push succeeds; every token comes back in order.
template <class Dut>
void overflowAndRecentre(const TokenDeque::Config& cfg, bool back) {
  DequeBench<Dut> b(cfg, baseSeed());
  const int w = cfg.numWarps - 1;
  std::vector<Token> pushed;
  // Fill one end: depth/2 pushes reach the boundary from the middle.
  for (int i = 0; i < cfg.depth / 2; ++i) {
    Token t = makeToken(back ? TokenType::Yield : TokenType::Sync, 1ull << (i % 32), i);
    EXPECT_TRUE(b.cycle(pushIn(w, back, t, w)).pushReady);
    pushed.push_back(t);
  }
  const Token extra = makeToken(TokenType::Div, 0xABCD, 999);
  const auto refused = b.cycle(pushIn(w, back, extra, w));
  EXPECT_FALSE(refused.pushReady);
  const auto exc = b.cycle(queryIn(w));
  EXPECT_TRUE(exc.excValid);
  EXPECT_EQ(exc.excWarp, w);
  EXPECT_EQ(exc.excBack, back);
  EXPECT_EQ(exc.stalled, 1ull << w);
  EXPECT_EQ(exc.qryCount, cfg.depth / 2) << "the refused push changed the queue";
  EXPECT_FALSE(b.cycle(popIn(w)).popReady) << "a stalled queue must not pop";

  RecentreRuntime rt(cfg.depth);
  rt.start(w, exc.qryHead, exc.qryTail);
  runRuntime(b, rt, w);
  const auto resumed = b.cycle(queryIn(w));
  EXPECT_EQ(resumed.stalled, 0u);
  EXPECT_EQ(resumed.qryTail, (cfg.depth - cfg.depth / 2) / 2);
  EXPECT_EQ(resumed.qryCount, cfg.depth / 2);

  // The requester replays its push.
  EXPECT_TRUE(b.cycle(pushIn(w, back, extra, w)).pushReady);
  pushed.push_back(extra);
  // Pop everything: front pushes come back LIFO, back pushes FIFO.
  std::vector<Token> popped;
  for (int i = 0; i < static_cast<int>(pushed.size()); ++i) {
    const auto out = b.cycle(popIn(w));
    ASSERT_TRUE(out.popToken.has_value());
    popped.push_back(*out.popToken);
  }
  ASSERT_EQ(popped.size(), pushed.size());
  for (size_t i = 0; i < popped.size(); ++i) {
    const Token& want = back ? pushed[i] : pushed[pushed.size() - 1 - i];
    EXPECT_EQ(popped[i].addr, want.addr) << "pop " << i;
    EXPECT_EQ(popped[i].type, want.type) << "pop " << i;
  }
  EXPECT_TRUE(b.cycle(queryIn(w)).qryEmpty);
  EXPECT_TRUE(b.ok());
}

TEST(TokenDeque, FrontOverflowRecentresWithoutLoss) {
  overflowAndRecentre<Vtoken_deque>({8, 32, 64}, false);
}
TEST(TokenDeque, BackOverflowRecentresWithoutLoss) {
  overflowAndRecentre<Vtoken_deque>({8, 32, 64}, true);
}
TEST(TokenDeque128, FrontOverflowRecentresWithoutLoss) {
  overflowAndRecentre<Vtoken_deque128>({4, 8, 128}, false);
}
TEST(TokenDeque128, BackOverflowRecentresWithoutLoss) {
  overflowAndRecentre<Vtoken_deque128>({4, 8, 128}, true);
}

// ---- random ------------------------------------------------------------------------------

template <class Dut>
void randomRun(const TokenDeque::Config& cfg, uint64_t seed, int ops) {
  SIMT_SEED_TRACE(seed);
  Rng rng(seed);
  DequeBench<Dut> b(cfg, seed);
  RecentreRuntime rt(cfg.depth);
  Coverage cov("token_deque_" + std::to_string(cfg.tokenBits));
  cov.define({"push_front", "push_back", "pop", "pop_to_empty", "back_push_into_empty",
              "push_back_and_pop_same_warp", "front_push_clash_refused", "pop_after_pop_bypass",
              "push_front_on_refill", "overflow_front", "overflow_back", "recentre",
              "unrecoverable_full", "stalled_push_refused", "stalled_pop_refused",
              "mnt_waits_for_port", "voluntary_stall", "types_conservative", "acc_read",
              "acc_write_front", "acc_write_deep", "acc_refused_stalled"});
  for (int t = 1; t < model::kNumTokenTypes; ++t) {
    cov.define(std::string("type_") + model::tokenTypeName(static_cast<TokenType>(t)));
  }

  int pushPct = 60, popPct = 40, backPct = 30;
  int lastPopWarp = -1;
  int opsDone = 0;
  // Warps favoured in this phase, so some queues fill up and overflow.
  int hotWarp = 0;
  std::vector<std::optional<TokenDequeIn>> replay(static_cast<size_t>(cfg.numWarps));
  bool readLastCycle = false;
  std::deque<int> toService;  // stalled warps waiting for the runtime

  for (int c = 0; opsDone < ops && b.ok(); ++c) {
    if (c % 400 == 0) {
      pushPct = rng.range(20, 90);
      popPct = rng.range(10, 80);
      backPct = rng.range(0, 60);
      hotWarp = rng.below(cfg.numWarps);
    }
    TokenDequeIn in;
    in.qryWarp = rng.chance(50) ? hotWarp : rng.below(cfg.numWarps);
    in.cntWarp = rng.chance(50) ? hotWarp : rng.below(cfg.numWarps);
    in.fitWarp = rng.chance(50) ? hotWarp : rng.below(cfg.numWarps);
    // The runtime holds the port 70% of cycles while it works.
    const bool runtimeTurn = rt.busy() && rng.chance(70);
    if (!runtimeTurn) {
      if (rng.chance(pushPct)) {
        const int w = rng.chance(60) ? hotWarp : rng.below(cfg.numWarps);
        auto& pending = replay[static_cast<size_t>(w)];
        if (pending && !b.model().stalled(w)) {
          in.pushValid = true;
          in.pushWarp = w;
          in.pushBack = pending->pushBack;
          in.pushToken = pending->pushToken;
        } else {
          in.pushValid = true;
          in.pushWarp = w;
          in.pushBack = rng.chance(backPct);
          in.pushToken = makeToken(static_cast<TokenType>(rng.range(1, 7)), rng.bits64(),
                                   static_cast<uint32_t>(rng.bits64()));
        }
      }
      if (rng.chance(popPct)) {
        in.popValid = true;
        in.popWarp = rng.chance(30) && lastPopWarp >= 0 ? lastPopWarp
                     : rng.chance(40) && in.pushValid ? in.pushWarp
                                                       : rng.below(cfg.numWarps);
      }
    }
    // Positional access (the divergence unit's scan and YIELD merge) in idle cycles: read an
    // entry, or write it back with its mask changed (type and summary kept, as a merge does).
    if (!in.pushValid && !in.popValid && rng.chance(15)) {
      const int w = rng.below(cfg.numWarps);
      const TokenDeque& mm = b.model();
      if (mm.count(w) > 0) {
        in.accValid = true;
        in.accWarp = w;
        in.accPos = rng.chance(30) ? 0 : rng.below(mm.count(w));
        in.accWe = rng.chance(40);
        cov.sample("acc_refused_stalled", mm.stalled(w));
        if (!mm.stalled(w)) {
          if (in.accWe) {
            in.accWdata = mm.entryAt(w, in.accPos);
            in.accWdata.mask |= rng.bits64();
            cov.hit(in.accPos == 0 ? "acc_write_front" : "acc_write_deep");
          } else {
            cov.hit("acc_read");
          }
        }
      }
    }
    const bool mntOffered = rt.wantsPort();
    if (mntOffered) in = rt.request(in);
    // A voluntary inspection: stall an idle warp, then resume it in place.
    if (!rt.busy() && toService.empty() && !in.pushValid && !in.popValid && rng.chance(1)) {
      const int w = rng.below(cfg.numWarps);
      if (!b.model().stalled(w)) {
        in.mntValid = true;
        in.mntOp = MntOp::Stall;
        in.mntWarp = w;
      }
    }

    // Coverage of this cycle's situation (model state before the edge).
    TokenDeque& m = b.model();
    const auto endOf = [](bool back) { return back ? TokenDeque::End::Back : TokenDeque::End::Front; };
    if (in.pushValid) {
      const bool stalled = m.stalled(in.pushWarp);
      const bool ovf = !stalled && m.wouldOverflow(in.pushWarp, endOf(in.pushBack));
      const bool clash = in.popValid && in.popWarp == in.pushWarp && !in.pushBack;
      cov.sample("stalled_push_refused", stalled);
      cov.sample("overflow_front", ovf && !in.pushBack);
      cov.sample("overflow_back", ovf && in.pushBack);
      cov.sample("front_push_clash_refused", !stalled && !ovf && clash);
      const bool accepted = !stalled && !ovf && !clash;
      if (accepted) {
        ++opsDone;
        cov.hit(in.pushBack ? "push_back" : "push_front");
        cov.hit(std::string("type_") + model::tokenTypeName(in.pushToken.type));
        cov.sample("back_push_into_empty", in.pushBack && m.count(in.pushWarp) == 0);
        cov.sample("push_back_and_pop_same_warp",
                   in.pushBack && in.popValid && in.popWarp == in.pushWarp);
        cov.sample("push_front_on_refill", !in.pushBack && in.pushWarp == lastPopWarp &&
                                               m.count(in.pushWarp) > 0);
        replay[static_cast<size_t>(in.pushWarp)].reset();
      } else if (ovf) {
        replay[static_cast<size_t>(in.pushWarp)] = in;  // the requester keeps its token
      }
    }
    if (in.popValid) {
      const bool stalled = m.stalled(in.popWarp);
      cov.sample("stalled_pop_refused", stalled && m.count(in.popWarp) > 0);
      if (!stalled && m.count(in.popWarp) > 0) {
        ++opsDone;
        cov.hit("pop");
        cov.sample("pop_to_empty", m.count(in.popWarp) == 1);
        cov.sample("pop_after_pop_bypass", in.popWarp == lastPopWarp);
      }
    }
    cov.sample("mnt_waits_for_port", mntOffered && (in.pushValid || in.popValid));

    const bool popAccepted = in.popValid && !m.stalled(in.popWarp) && m.count(in.popWarp) > 0;
    const TokenDequeOut out = b.cycle(in);
    lastPopWarp = popAccepted ? in.popWarp : -1;
    rt.capture(out.mntRvalid && readLastCycle, b.rawMntRdata(), cfg.tokenBits);
    readLastCycle = false;
    if (mntOffered && out.mntReady) {
      readLastCycle = in.mntOp == MntOp::Read;
      rt.accepted(cfg.tokenBits);
    }
    if (in.mntValid && in.mntOp == MntOp::Stall && out.mntReady) {
      cov.hit("voluntary_stall");
      toService.push_back(in.mntWarp);
    }
    // The exception of a refused push arrives the cycle after it: the runtime takes it.
    if (out.excValid) {
      cov.hit("recentre");
      toService.push_back(out.excWarp);
    }
    if (!rt.busy() && !toService.empty()) {
      const int w = toService.front();
      toService.pop_front();
      ASSERT_TRUE(m.stalled(w)) << "the runtime only services stalled queues";
      rt.start(w, m.head(w), m.tail(w));
      cov.sample("unrecoverable_full", rt.lastWasUnrecoverable());
      // A requester facing a full queue gives up on this push; pops will make room.
      if (rt.lastWasUnrecoverable()) replay[static_cast<size_t>(w)].reset();
    }
    // The summary guarantee: never misses a type; exact without back-pushed types.
    for (int w = 0; w < cfg.numWarps; ++w) {
      const uint8_t exact = m.exactTypes(w);
      EXPECT_EQ(m.types(w) & exact, exact) << "summary misses a type, warp " << w;
      cov.sample("types_conservative", m.types(w) != exact);
    }
  }
  EXPECT_GE(opsDone, ops);
  EXPECT_TRUE(b.scoreboard().clean());
  EXPECT_GT(b.scoreboard().checks(), static_cast<uint64_t>(ops));
  cov.requireAllHit();
}

TEST(TokenDeque, RandomOpsMatchModel) {
  for (uint64_t seed : testSeeds()) randomRun<Vtoken_deque>({8, 32, 64}, seed, 20000 * lengthScale());
}

TEST(TokenDeque128, RandomOpsMatchModel) {
  for (uint64_t seed : testSeeds()) {
    randomRun<Vtoken_deque128>({4, 8, 128}, seed, 10000 * lengthScale());
  }
}

}  // namespace
}  // namespace simt::tb
