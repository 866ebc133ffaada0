// A 3-D range: every work-item records its ids.
__kernel void range3d(__global int* ids) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int k = 6 * ((z * get_global_size(1) + y) * get_global_size(0) + x);
  ids[k + 0] = x;
  ids[k + 1] = y;
  ids[k + 2] = z;
  ids[k + 3] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
  ids[k + 4] = get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2);
  ids[k + 5] = get_local_size(2) * 100 + get_num_groups(2) * 10 + get_work_dim();
}
