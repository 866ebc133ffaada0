// 64-bit division and remainder by values that are not powers of two (docs/compiler.md,
// "64-bit integers"): signed and unsigned, by a per-work-item operand, by a uniform argument,
// by constants, on one side of a divergent branch, and in a loop whose trip count differs
// between work-items. out gets OPS longs per work-item (tb/compiler/test_long.cpp).
#define OPS 12

__kernel void long_div(__global const long* a, __global const long* b, __global long* out, long c) {
  const int i = get_global_id(0);
  const long x = a[i];
  const long y = b[i];
  const ulong ux = (ulong)x, uy = (ulong)y;
  __global long* o = out + OPS * i;
  o[0] = x / y;
  o[1] = x % y;
  o[2] = (long)(ux / uy);
  o[3] = (long)(ux % uy);
  o[4] = x / c;
  o[5] = (long)(ux % (ulong)c);
  o[6] = x / 1000000007;
  o[7] = (long)(ux / 10ul);
  o[8] = (long)(ux % 0x100000003ul);
  long q;
  if ((x ^ y) & 1) q = x / (y | 1);  // division on one path of a divergent branch
  else q = y % (x ^ 0x5555);
  o[9] = q;
  // decimal digits of ux: the loop runs 1 to 20 times
  ulong v = ux;
  long sum = 0, digits = 0;
  do {
    sum += (long)(v % 10);
    v /= 10;
    ++digits;
  } while (v);
  o[10] = sum;
  o[11] = digits;
}
