// Bitonic sort of each work-group's slice (a power of two) in __local memory: divergent
// compare-and-swap steps separated by barriers.
__kernel void bitonic_sort(__global int* data, __local int* s) {
  int lid = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  s[lid] = data[base + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 2; k <= n; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      int p = lid ^ j;
      if (p > lid) {
        int a = s[lid], b = s[p];
        bool up = (lid & k) == 0;
        if ((a > b) == up) {
          s[lid] = b;
          s[p] = a;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  data[base + lid] = s[lid];
}
