// A producer and pollers in the same warp: work-items 0..30 poll a volatile flag that work-item
// 31 sets. The pollers' path runs first; without the back-edge yield (stack mode) it spins
// forever, with it (deque mode) the producer's path gets to run.
__kernel void flag_poll(__global volatile int* flag, __global int* data, __global int* out) {
  int lid = get_local_id(0);
  if (lid != 31) {
    while (*flag == 0) {}
    out[lid] = *data + lid;
  } else {
    *data = 500;
    *flag = 1;
    out[lid] = -1;
  }
}
