// simt_ordered_begin/end (seed 000): an ordered critical section appends every work-item's id
// to a shared log one at a time in ascending local id; all wait at the end for the others.
__kernel void ordered_append(__global int* log, __global int* count, __global int* seen) {
  int lid = get_local_id(0);
  // A divergent delay so that the work-items arrive in a scrambled order.
  for (int k = 0; k < (lid * 7) % 5; ++k) atomic_add(&seen[64], 1);
  simt_ordered_begin(1);
  int pos = *count;
  log[pos] = lid;
  *count = pos + 1;
  simt_ordered_end(1);
  seen[lid] = *count;  // every work-item has passed the section
}
