// Bit-field access to Verilated ports of any width: CData/SData/IData/QData integers and
// VlWide<N> (32-bit words). Flat RTL ports pack one field per warp or per barrier entry.
// Shared by the testbenches and the host side of the verilated core (sim/rtl).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <type_traits>

namespace simt {

template <class T>
void setBits(T& port, int lsb, int width, uint64_t value) {
  static_assert(std::is_integral_v<T>, "integral port");
  const uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  uint64_t p = static_cast<uint64_t>(port);
  p = (p & ~(mask << lsb)) | ((value & mask) << lsb);
  port = static_cast<T>(p);
}

template <std::size_t N>
void setBits(VlWide<N>& port, int lsb, int width, uint64_t value) {
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const uint32_t m = 1u << (bit % 32);
    if ((value >> i) & 1u) port[static_cast<size_t>(bit / 32)] |= m;
    else port[static_cast<size_t>(bit / 32)] &= ~m;
  }
}

template <class T>
uint64_t getBits(const T& port, int lsb, int width) {
  static_assert(std::is_integral_v<T>, "integral port");
  const uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  return (static_cast<uint64_t>(port) >> lsb) & mask;
}

template <std::size_t N>
uint64_t getBits(const VlWide<N>& port, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    v |= static_cast<uint64_t>((port[static_cast<size_t>(bit / 32)] >> (bit % 32)) & 1u) << i;
  }
  return v;
}

}  // namespace simt
