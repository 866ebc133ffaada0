// KERNELS.md's lock: every work-item takes one global lock. In deque mode the spin loop's
// yield lets the winner's path run; in stack mode the losers starve it (seed 002).
__kernel void spin_lock(__global int* lock, __global int* counter) {
  while (atomic_cmpxchg(lock, 0, 1) != 0) {}
  *counter += 1;
  atomic_xchg(lock, 0);
}
