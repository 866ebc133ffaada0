// simt_rr_arbiter (N=5, not a power of two) against model::RrArbiter every cycle, plus the
// bounded-wait property: a requester that holds its request is granted within N grants.
#include "Vrr_arbiter.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/common/rr_arbiter.h"

namespace simt::tb {
namespace {

constexpr int kN = 5;

TEST(RrArbiter, RandomRequestsMatchModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<Vrr_arbiter> sim("simt_rr_arbiter", seed);
    sim.reset();
    model::RrArbiter model(kN);
    Scoreboard sb("rr_arbiter");
    Coverage cov("rr_arbiter");
    cov.define({"no_request", "single_request", "all_request", "wrap_around", "held_no_ack"});
    for (int i = 0; i < kN; ++i) cov.define("grant_" + std::to_string(i));

    int waiting[kN] = {};  // grants to others while requester i kept requesting
    const int cycles = 20000 * lengthScale();
    uint32_t req = 0;
    for (int c = 0; c < cycles && sim.ok(); ++c) {
      // Requests persist until granted (like real requesters), with new ones arriving.
      req |= static_cast<uint32_t>(rng.bits(kN)) & static_cast<uint32_t>(rng.bits(kN));
      if (rng.chance(3)) req = 0;
      for (int i = 0; i < kN; ++i) {
        if (!((req >> i) & 1u)) waiting[i] = 0;  // a withdrawn request starts over
      }
      const bool ack = !rng.chance(20);
      sim->req_i = req;
      sim->ack_i = ack;
      sim.eval();
      const auto want = model.grant(req);
      const uint32_t wantOneHot = want ? (1u << *want) : 0u;
      sb.check("cycle " + std::to_string(c),
               {{"valid", want.has_value()}, {"gnt", wantOneHot}, {"idx", want.value_or(0)}},
               {{"valid", sim->valid_o}, {"gnt", sim->gnt_o}, {"idx", want ? sim->gnt_idx_o : 0u}});
      cov.sample("no_request", req == 0);
      cov.sample("single_request", req != 0 && (req & (req - 1)) == 0);
      cov.sample("all_request", req == (1u << kN) - 1);
      cov.sample("wrap_around", want && *want < model.pointer());
      cov.sample("held_no_ack", want.has_value() && !ack);
      if (want && ack) {
        cov.hit("grant_" + std::to_string(*want));
        for (int i = 0; i < kN; ++i) {
          if (i == *want) {
            waiting[i] = 0;
          } else if ((req >> i) & 1u) {
            EXPECT_LT(++waiting[i], kN) << "requester " << i << " starved at cycle " << c;
          }
        }
        req &= ~wantOneHot;
      }
      model.commit(sim->req_i, ack);
      sim.tick();
    }
    EXPECT_TRUE(sb.clean());
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
