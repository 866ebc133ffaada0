// Per-bucket spin locks (like sim/kernels/hash_table.s): every work-item adds its key to a
// bucket's count and sum under the bucket's lock; buckets collide within a warp.
__kernel void hash_table(__global int* locks, __global int* count, __global int* sum, int buckets) {
  // (uint): size_t is 32 bits here and 64 on PoCL's host device, where the product would not wrap.
  int key = (uint)get_global_id(0) * 2654435761u >> 7;
  int b = key % buckets;
  if (b < 0) b += buckets;
  while (atomic_cmpxchg(&locks[b], 0, 1) != 0) {}
  count[b] += 1;
  sum[b] += key & 0xff;
  atomic_xchg(&locks[b], 0);
}
