// 16-bin histogram: per-group counts with __local atomics, merged with __global atomics.
#define BINS 16
__kernel void histogram(__global const uint* data, __global int* hist, int n) {
  __local int local_hist[BINS];
  int lid = get_local_id(0);
  if (lid < BINS) local_hist[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    atomic_inc(&local_hist[data[i] % BINS]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BINS) atomic_add(&hist[lid], local_hist[lid]);
}
