// Work-group sum in __local memory: a tree with a barrier per level, then one atomic per group.
__kernel void reduce_local(__global const int* in, __global int* partial, __global int* total,
                           __local int* scratch) {
  uint lid = get_local_id(0);
  uint n = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partial[get_group_id(0)] = scratch[0];
    atomic_add(total, scratch[0]);
  }
}
