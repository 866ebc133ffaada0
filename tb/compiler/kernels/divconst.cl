// Division and remainder by constants: magic-number multiplications (no divide, no mulhi on
// the core), signed and unsigned, for divisors of every kind (odd, even, large, negative).
#define SIGNED(X) X(3) X(7) X(-3) X(10) X(-10) X(641) X(1000) X(65537) X(-2147483647) X(12) X(25) X(2147483647) X(8)
#define UNSIGNED(X) X(3u) X(7u) X(10u) X(641u) X(1000u) X(65537u) X(12u) X(25u) X(2147483649u) X(4294967295u) X(6u) X(14u) X(0x7fffffffu)
__kernel void divconst(__global const int* in, __global int* sq, __global int* sr, __global uint* uq,
                       __global uint* ur) {
  int i = get_global_id(0);
  int x = in[i];
  uint ux = (uint)x;
  int k = 0;
#define SD(v) sq[k * 64 + i] = x / (v); sr[k * 64 + i] = x % (v); ++k;
  SIGNED(SD)
  k = 0;
#define UD(v) uq[k * 64 + i] = ux / (v); ur[k * 64 + i] = ux % (v); ++k;
  UNSIGNED(UD)
  sq[13 * 64 + i] = mul_hi(x, in[63 - i]);
  uq[13 * 64 + i] = mul_hi(ux, (uint)in[63 - i]);
}
