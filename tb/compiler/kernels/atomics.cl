// Every OpenCL 1.2 integer atomic on __global and on __local memory.
__kernel void atomics(__global int* g, __global int* old, __global uint* u) {
  __local int l[12];
  int t = get_local_id(0);
  if (t < 12) l[t] = t == 6 ? 1000 : (t == 7 ? -1000 : (t == 8 ? -1 : 0));
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&g[0], t);
  atomic_sub(&g[1], t);
  old[t] = atomic_xchg(&g[2], t);
  atomic_inc(&g[3]);
  atomic_dec(&g[4]);
  atomic_min(&g[5], 50 - t);
  atomic_max(&g[6], t * 3 - 20);
  atomic_and(&g[7], ~(1 << (t & 31)));
  atomic_or(&g[8], 1 << (t & 31));
  atomic_xor(&g[9], t * 0x01010101);
  atom_cmpxchg(&g[10], t, t + 1);  // a chain: only the work-item whose t matches moves it on
  atomic_add(&l[0], t);
  atomic_sub(&l[1], t);
  atomic_inc(&l[3]);
  atomic_dec(&l[4]);
  atomic_min(&l[6], t - 40);
  atomic_max(&l[7], 100 - t);
  atomic_or(&l[8 - 8 + 9], 1 << (t & 7));
  atomic_xor(&l[10], t);
  atomic_cmpxchg(&l[11], t, t + 1);
  atomic_min(&u[0], 0x80000000u + (uint)t * 7u);  // uint: a compare-and-swap loop
  atomic_max(&u[1], (uint)t * 0x08000000u);
  __local uint lu[2];
  if (t == 0) { lu[0] = 0xffffffffu; lu[1] = 5u; }
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_min(&lu[0], 0xf0000000u - (uint)t);
  atom_max(&lu[1], (uint)t * 0x08000000u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t < 12) g[16 + t] = l[t];
  if (t < 2) u[2 + t] = lu[t];
}
