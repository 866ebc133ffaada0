// Dot product: each work-item multiplies strided pairs, the group reduces its partial sums
// in __local memory (a tree with barriers), work-item 0 writes the group's sum.
__kernel void dot(__global const float* x, __global const float* y, __global float* partial,
                  __local float* scratch, int n) {
  uint lid = get_local_id(0);
  uint lsize = get_local_size(0);
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc = fma(x[i], y[i], acc);
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
