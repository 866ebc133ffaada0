// simt_barrier_impatient (seed 000) with every work-item arriving: a barrier between a store
// and a load of another warp's word; and simt_unordered_begin/end around a shared counter.
__kernel void impatient(__global int* buf, __global int* out, __global int* sum) {
  int lid = get_local_id(0);
  int n = get_local_size(0);
  buf[lid] = 3 * lid + 1;
  simt_barrier_impatient(3, 64, 64, 0);
  out[lid] = buf[(lid + 32) % n];
  simt_unordered_begin(4);
  *sum += lid;
  simt_unordered_end(4);
}
