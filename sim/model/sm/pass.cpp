#include "model/sm/pass.h"

#include <bitset>
#include <stdexcept>
#include <string>

namespace simt::model {

SmPass::SmPass(int lanes, int fpLanes) : lanes_(lanes), fpLanes_(fpLanes) {
  if (lanes < 1 || lanes > 32 || 32 % lanes != 0) {
    throw std::invalid_argument("SmPass: " + std::to_string(lanes) + " lanes do not divide a warp of 32");
  }
  if (fpLanes < 1 || fpLanes > lanes || lanes % fpLanes != 0) {
    throw std::invalid_argument("SmPass: " + std::to_string(fpLanes) + " FP lanes do not divide " +
                                std::to_string(lanes) + " lanes");
  }
}

uint32_t SmPass::groupThreads(int g, int size) {
  const uint32_t ones = size == 32 ? ~0u : ((1u << size) - 1u);
  return ones << (g * size);
}

uint32_t SmPass::groupsWithWork(uint32_t mask, int size) const {
  uint32_t work = 0;
  for (int g = 0; g < 32 / size; ++g) {
    if (mask & groupThreads(g, size)) work |= 1u << g;
  }
  return work;
}

int SmPass::passes(uint32_t mask, bool fp) const {
  const size_t n = std::bitset<32>(groupsWithWork(mask, size(fp))).count();
  return n == 0 ? 1 : static_cast<int>(n);
}

SmPass::Cycle SmPass::step(bool valid, bool multi, bool stop, uint32_t mask, bool fp) {
  const int sz = busy_ ? size_ : size(fp);
  const uint32_t todo = busy_ ? left_ : groupsWithWork(mask, sz);
  int g = 0;
  for (int k = 32 / sz - 1; k >= 0; --k) {
    if (todo & (1u << k)) g = k;
  }
  Cycle c;
  c.pass = g * sz / lanes_;
  c.fpPass = g * sz / fpLanes_;
  const uint32_t rest = todo & ~(1u << g);
  c.threads = groupThreads(g, sz);
  c.more = valid && multi && rest != 0;
  busy_ = c.more && !stop;
  left_ = busy_ ? rest : 0;
  size_ = sz;
  return c;
}

}  // namespace simt::model
