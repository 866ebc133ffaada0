// Every work-item function of every dimension (the prologue's id decomposition), nine words
// per work-item at its x-fastest index in the range (global id less the offset), and the
// range's sizes and offsets once.
__kernel void work_items(__global int* ids, __global int* sizes) {
  const size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const size_t rx = x - get_global_offset(0), ry = y - get_global_offset(1), rz = z - get_global_offset(2);
  const size_t k = 9 * ((rz * get_global_size(1) + ry) * get_global_size(0) + rx);
  ids[k + 0] = get_local_id(0);
  ids[k + 1] = get_local_id(1);
  ids[k + 2] = get_local_id(2);
  ids[k + 3] = get_group_id(0);
  ids[k + 4] = get_group_id(1);
  ids[k + 5] = get_group_id(2);
  ids[k + 6] = x;
  ids[k + 7] = y;
  ids[k + 8] = z;
  if (rx + ry + rz == 0) {
    sizes[0] = get_work_dim();
    sizes[1] = get_global_size(0);
    sizes[2] = get_global_size(1);
    sizes[3] = get_global_size(2);
    sizes[4] = get_local_size(0);
    sizes[5] = get_local_size(1);
    sizes[6] = get_local_size(2);
    sizes[7] = get_num_groups(0);
    sizes[8] = get_num_groups(1);
    sizes[9] = get_num_groups(2);
    sizes[10] = get_global_offset(0);
    sizes[11] = get_global_offset(1);
    sizes[12] = get_global_offset(2);
  }
}
