// Fills and copies larger than 256 bytes: LLVM's loop-idiom pass turns these loops into
// memset/memcpy calls, which become word loops (issue 20: Rodinia's dwt2d zeroes 8.7 KB of
// local memory this way, and private tables like `hist` are common).
__kernel void big_fill(__global const int* in, __global int* out, __global int* copied) {
  __local int tile[96];
  int gid = get_global_id(0), lid = get_local_id(0);
  int hist[80];
  for (int k = 0; k < 80; ++k) hist[k] = 0;  // a private memset of 320 bytes
  int x = in[gid];
  for (int k = 0; k < 8; ++k) hist[(x >> (4 * k)) & 63] += k + 1;
  int sum = 0;
  for (int k = 0; k < 80; ++k) sum += hist[k] * (k + 1);
  out[gid] = sum;
  if (lid == 0) {
    for (int k = 0; k < 96; ++k) tile[k] = in[k];  // a global-to-local memcpy of 384 bytes
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  copied[gid] = tile[(gid * 7) % 96];
}
