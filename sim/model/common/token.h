// Tokens of the double-ended queue (seed 002): the C++ mirror of simt_pkg's token layout.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace simt::model {

// Same encoding as simt_pkg::tok_type_e.
enum class TokenType : uint8_t {
  None = 0,
  Sync = 1,
  Div = 2,
  Call = 3,
  Brk = 4,
  Cont = 5,
  Yield = 6,
  Barrier = 7,
};
constexpr int kNumTokenTypes = 8;

// Type-summary bit positions (simt_pkg::Sum*): seed 002's bits 58..61, then BRK and CONT.
namespace summary {
constexpr uint8_t kSync = 1u << 0;
constexpr uint8_t kDiv = 1u << 1;
constexpr uint8_t kCall = 1u << 2;
constexpr uint8_t kYield = 1u << 3;
constexpr uint8_t kBrk = 1u << 4;
constexpr uint8_t kCont = 1u << 5;
constexpr int kWidth = 6;
}  // namespace summary

// The summary bit of a token type (0 for types without one, as simt_pkg::summary_bit).
uint8_t summaryBit(TokenType type);
const char* tokenTypeName(TokenType type);

struct Token {
  TokenType type = TokenType::None;
  uint64_t mask = 0;     // 32 bits in 64-bit tokens, 64 bits in 128-bit tokens
  uint32_t addr = 0;     // 22 bits in 64-bit tokens, 32 bits in 128-bit tokens
  uint8_t summary = 0;   // type-summary bits (computed by the queue on push)

  bool operator==(const Token& o) const {
    return type == o.type && mask == o.mask && addr == o.addr && summary == o.summary;
  }
  bool operator!=(const Token& o) const { return !(*this == o); }
  std::string str() const;
};

// Packed forms. Word 0 holds bits 63..0, word 1 bits 127..64.
using PackedToken = std::array<uint64_t, 2>;

// 64-bit layout: [3:0] type, [35:4] mask, [57:36] addr, [63:58] summary.
uint64_t pack64(const Token& t);
Token unpack64(uint64_t bits);
// 128-bit layout: [7:0] type, [71:8] mask, [103:72] addr, [109:104] summary.
PackedToken pack128(const Token& t);
Token unpack128(const PackedToken& bits);

// Layout by width (64 or 128).
PackedToken pack(const Token& t, int tokenBits);
Token unpack(const PackedToken& bits, int tokenBits);

}  // namespace simt::model
