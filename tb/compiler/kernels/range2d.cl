// A 2-D range: transpose with every work-item function recorded.
__kernel void range2d(__global const int* in, __global int* out, __global int* ids) {
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_global_size(0), h = get_global_size(1);
  out[x * h + y] = in[y * w + x];
  int k = 8 * (y * w + x);
  ids[k + 0] = get_local_id(0);
  ids[k + 1] = get_local_id(1);
  ids[k + 2] = get_group_id(0);
  ids[k + 3] = get_group_id(1);
  ids[k + 4] = get_local_size(0);
  ids[k + 5] = get_local_size(1);
  ids[k + 6] = get_num_groups(0) * 100 + get_num_groups(1);
  ids[k + 7] = get_work_dim();
}
