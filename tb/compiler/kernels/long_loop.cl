// 64-bit loop-carried values (phis of two words), private and local memory of longs, and a
// divergent branch on a 64-bit compare (tb/compiler/test_long.cpp).
__kernel void long_loop(__global const ulong* in, __global ulong* out, int n) {
  __local ulong shared[64];
  ulong priv[4];
  const int i = get_global_id(0), l = get_local_id(0);
  ulong h = 0xcbf29ce484222325ul;   // FNV-1a, 64-bit
  ulong sum = 0;
  for (int k = 0; k < n; ++k) {
    const ulong v = in[(i + k) % 64];
    h = (h ^ (v & 0xff)) * 0x100000001b3ul;
    sum += v;
    priv[k & 3] = sum;
  }
  shared[l] = h;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong r = shared[(l + 1) % get_local_size(0)];
  if (r > h) r -= priv[1];           // divergent
  else r ^= priv[2] << 3;
  out[i] = r;
}
