// simt_barrier_count (seed 000): only the first 40 work-items take part in barrier 2 with a
// count of 40; the others never wait. Readers see their neighbours' stores.
__kernel void barrier_count(__global int* buf, __global int* out) {
  int lid = get_local_id(0);
  if (lid < 40) {
    buf[lid] = lid * lid;
    simt_barrier_count(2, 40);
    out[lid] = buf[39 - lid];
  } else {
    out[lid] = -1;
  }
}
