#include "model/common/token.h"

#include <cstdio>

namespace simt::model {

uint8_t summaryBit(TokenType type) {
  switch (type) {
    case TokenType::Sync: return summary::kSync;
    case TokenType::Div: return summary::kDiv;
    case TokenType::Call: return summary::kCall;
    case TokenType::Yield: return summary::kYield;
    case TokenType::Brk: return summary::kBrk;
    case TokenType::Cont: return summary::kCont;
    default: return 0;
  }
}

const char* tokenTypeName(TokenType type) {
  static const char* const kNames[kNumTokenTypes] = {"NONE", "SYNC", "DIV", "CALL",
                                                     "BRK", "CONT", "YIELD", "BARRIER"};
  auto i = static_cast<unsigned>(type);
  return i < kNumTokenTypes ? kNames[i] : "?";
}

std::string Token::str() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "{%s mask=%llx addr=%u sum=%02x}", tokenTypeName(type),
                static_cast<unsigned long long>(mask), addr, summary);
  return buf;
}

uint64_t pack64(const Token& t) {
  return (static_cast<uint64_t>(t.type) & 0xF) | ((t.mask & 0xFFFFFFFFull) << 4) |
         ((static_cast<uint64_t>(t.addr) & 0x3FFFFF) << 36) |
         ((static_cast<uint64_t>(t.summary) & 0x3F) << 58);
}

Token unpack64(uint64_t b) {
  Token t;
  t.type = static_cast<TokenType>(b & 0xF);
  t.mask = (b >> 4) & 0xFFFFFFFFull;
  t.addr = static_cast<uint32_t>((b >> 36) & 0x3FFFFF);
  t.summary = static_cast<uint8_t>((b >> 58) & 0x3F);
  return t;
}

PackedToken pack128(const Token& t) {
  // bits: type [7:0], mask [71:8], addr [103:72], summary [109:104]
  PackedToken w{0, 0};
  w[0] = (static_cast<uint64_t>(t.type) & 0xFF) | (t.mask << 8);
  w[1] = (t.mask >> 56) | (static_cast<uint64_t>(t.addr) << 8) |
         ((static_cast<uint64_t>(t.summary) & 0x3F) << 40);
  return w;
}

Token unpack128(const PackedToken& w) {
  Token t;
  t.type = static_cast<TokenType>(w[0] & 0xFF);
  t.mask = (w[0] >> 8) | (w[1] << 56);
  t.addr = static_cast<uint32_t>(w[1] >> 8);
  t.summary = static_cast<uint8_t>((w[1] >> 40) & 0x3F);
  return t;
}

PackedToken pack(const Token& t, int tokenBits) {
  return tokenBits == 128 ? pack128(t) : PackedToken{pack64(t), 0};
}

Token unpack(const PackedToken& bits, int tokenBits) {
  return tokenBits == 128 ? unpack128(bits) : unpack64(bits[0]);
}

}  // namespace simt::model
