// 64-bit integers (docs/compiler.md, "64-bit integers"): every operation the lowering splits
// into 32-bit words, on operands read from memory as pairs of words (low word first) and on
// a long and a ulong argument (two param words each). out gets 2 words per result:
// out[2 * (OPS * i + k) + 0/1] is result k of work-item i (tb/compiler/test_long.cpp).
#define OPS 40

__kernel void long_ops(__global const long* a, __global const ulong* b, __global const int* s,
                       __global long* out, long c, ulong d) {
  const int i = get_global_id(0);
  const long x = a[i];
  const ulong y = b[i];
  const int n = s[i];                 // a shift amount 0..63
  __global long* o = out + OPS * i;
  o[0] = x + (long)y;
  o[1] = x - (long)y;
  o[2] = x * (long)y;
  o[3] = (long)((ulong)(uint)x * (ulong)(uint)y);  // 32 x 32 -> 64
  o[4] = (long)((long)(int)x * (long)(int)y);      // signed 32 x 32 -> 64
  o[5] = x & (long)y;
  o[6] = x | (long)y;
  o[7] = x ^ (long)y;
  o[8] = x << n;
  o[9] = (long)(y >> n);
  o[10] = x >> n;
  o[11] = x << 7;
  o[12] = x << 32;
  o[13] = x << 45;
  o[14] = (long)(y >> 5);
  o[15] = (long)(y >> 32);
  o[16] = (long)(y >> 50);
  o[17] = x >> 9;
  o[18] = x >> 32;
  o[19] = x >> 63;
  o[20] = (x == (long)y) | (x != c) << 1 | (x < (long)y) << 2 | (x <= (long)y) << 3 |
          (x > (long)y) << 4 | (x >= (long)y) << 5 | ((ulong)x < y) << 6 | ((ulong)x <= y) << 7 |
          ((ulong)x > y) << 8 | ((ulong)x >= y) << 9 | (x < c) << 10 | ((ulong)x > d) << 11;
  o[21] = x < (long)y ? x : (long)y;                // select, min
  o[22] = (long)(y > d ? y : d);                    // unsigned max
  o[23] = (long)(int)x;                             // sext from 32
  o[24] = (long)(uint)y;                            // zext from 32
  o[25] = (long)(short)x;                           // sext from 16
  o[26] = (long)(uchar)y;                           // zext from 8
  o[27] = (int)(x >> 13);                           // trunc
  o[28] = x * c + (long)d;
  o[29] = x * 3 - (long)(y * 0x100000001ul);        // constants
  o[30] = -x;
  o[31] = ~x;
  o[32] = x >= 0 ? x : -x;                          // abs
  o[33] = (long)popcount(y);
  o[34] = (long)clz(y);
  o[35] = x / 8 + (long)(y % 16);                    // powers of two
  o[36] = (long)(x == 0x123456789abcdefl);
  o[37] = (long)((ulong)n << 40 | (ulong)(n + 1));
  o[38] = c;
  o[39] = (long)d;
}
