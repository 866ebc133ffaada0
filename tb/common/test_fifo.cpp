// simt_fifo (16 bits x 5 entries) against model::Fifo every cycle with random handshakes and
// flushes; nothing is lost or duplicated.
#include "Vfifo.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/common/fifo.h"

namespace simt::tb {
namespace {

constexpr int kDepth = 5;

TEST(Fifo, RandomHandshakesMatchModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<Vfifo> sim("simt_fifo", seed);
    sim.reset();
    model::Fifo<uint16_t> model(kDepth);
    Scoreboard sb("fifo");
    Coverage cov("fifo");
    cov.define({"full", "empty", "write_when_full_refused", "read_and_write", "flush",
                "wrap_pointer"});
    uint64_t writes = 0;
    const int cycles = 20000 * lengthScale();
    // Vary the write/read balance so the FIFO spends time both full and empty.
    int writePct = 50, readPct = 50;
    for (int c = 0; c < cycles && sim.ok(); ++c) {
      if (c % 500 == 0) {
        writePct = rng.range(10, 90);
        readPct = rng.range(10, 90);
      }
      const bool flush = rng.chance(1);
      const bool wvalid = rng.chance(writePct);
      const bool rready = rng.chance(readPct);
      const auto wdata = static_cast<uint16_t>(rng.bits(16));
      sim->flush_i = flush;
      sim->wvalid_i = wvalid;
      sim->wdata_i = wdata;
      sim->rready_i = rready;
      sim.eval();
      const auto head = model.head();
      sb.check("cycle " + std::to_string(c),
               {{"wready", model.writeReady()}, {"rvalid", model.readValid()},
                {"rdata", head.value_or(0)}, {"count", model.count()}},
               {{"wready", sim->wready_o}, {"rvalid", sim->rvalid_o},
                {"rdata", head ? sim->rdata_o : 0u}, {"count", sim->count_o}});
      cov.sample("full", model.count() == kDepth);
      cov.sample("empty", model.count() == 0);
      cov.sample("write_when_full_refused", wvalid && !model.writeReady());
      cov.sample("read_and_write", !flush && wvalid && rready && model.writeReady() &&
                                       model.readValid());
      cov.sample("flush", flush);
      if (!flush && wvalid && model.writeReady()) ++writes;
      cov.sample("wrap_pointer", writes > kDepth);
      model.commit(flush, wvalid, wdata, rready);
      sim.tick();
    }
    EXPECT_TRUE(sb.clean());
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
