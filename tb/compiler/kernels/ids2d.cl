// The smallest 2-D kernel: its cost is the prologue's (the local and group ids of two
// dimensions, the global ids from them).
__kernel void ids2d(__global int* out) {
  const size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] = get_local_id(0) + 16 * get_local_id(1) + 256 * get_group_id(0) + 4096 * get_group_id(1);
}
