#include "model/sm/pass.h"

#include <bitset>
#include <stdexcept>
#include <string>

namespace simt::model {

SmPass::SmPass(int lanes) : lanes_(lanes) {
  if (lanes < 1 || lanes > 32 || 32 % lanes != 0) {
    throw std::invalid_argument("SmPass: " + std::to_string(lanes) + " lanes do not divide a warp of 32");
  }
}

uint32_t SmPass::groupThreads(int g) const {
  const uint32_t ones = lanes_ == 32 ? ~0u : ((1u << lanes_) - 1u);
  return ones << (g * lanes_);
}

uint32_t SmPass::groupsWithWork(uint32_t mask) const {
  uint32_t work = 0;
  for (int g = 0; g < groups(); ++g) {
    if (mask & groupThreads(g)) work |= 1u << g;
  }
  return work;
}

int SmPass::passes(uint32_t mask) const {
  const size_t n = std::bitset<32>(groupsWithWork(mask)).count();
  return n == 0 ? 1 : static_cast<int>(n);
}

SmPass::Cycle SmPass::step(bool valid, bool multi, bool stop, uint32_t mask) {
  const uint32_t todo = busy_ ? left_ : groupsWithWork(mask);
  Cycle c;
  for (int g = groups() - 1; g >= 0; --g) {
    if (todo & (1u << g)) c.pass = g;
  }
  const uint32_t rest = todo & ~(1u << c.pass);
  c.threads = groupThreads(c.pass);
  c.more = valid && multi && rest != 0;
  busy_ = c.more && !stop;
  left_ = busy_ ? rest : 0;
  return c;
}

}  // namespace simt::model
