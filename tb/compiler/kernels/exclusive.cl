// Exclusive critical sections (.ex) across work-groups: at most one work-item of the whole
// launch is inside at any time (the inside counter never exceeds 1), and non-blocking ends
// (.nb): a work-item leaves without waiting for its group. With -DSHARED the sections are
// not exclusive and several groups' work-items are inside at once.
__kernel void exclusive(__global int* inside, __global int* maxInside, __global int* order, __global int* n) {
#ifdef SHARED
  simt_ordered_begin(4);  // groups' sections may run at the same time
#else
  simt_ordered_begin_exclusive(4);
#endif
  int now = atomic_inc(inside) + 1;
  atomic_max(maxInside, now);
  order[atomic_inc(n)] = get_global_id(0);
  atomic_dec(inside);
  simt_ordered_end_nowait(4);
}
