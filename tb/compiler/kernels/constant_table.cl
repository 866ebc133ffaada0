// A __constant table and integer built-ins.
__constant int squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};
__kernel void constant_table(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int x = in[i];
  int k = 8 * i;
  out[k + 0] = squares[x & 7];
  out[k + 1] = clamp(x, -5, 20);
  out[k + 2] = abs(x);
  out[k + 3] = popcount(x);
  out[k + 4] = clz(x);
  out[k + 5] = rotate(x, i);
  out[k + 6] = add_sat(x, 0x7ffffff0);
  out[k + 7] = mad24(x & 0xfff, 3, i) + max(x, i) + min((uint)x, 7u);
}
