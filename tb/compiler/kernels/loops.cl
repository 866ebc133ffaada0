// A divergent loop with continue and break, nested in a divergent if (like sim/kernels/loops.s).
__kernel void loops(__global int* out, __global int* iters) {
  int t = get_global_id(0);
  int sum = 0, n = 0;
  for (int i = 0; i < t; ++i) {
    ++n;
    if (i % 3 == 0) continue;
    sum += i;
    if (sum > 40) break;
  }
  if (t & 1) sum *= 2;
  out[t] = sum;
  iters[t] = n;
}
