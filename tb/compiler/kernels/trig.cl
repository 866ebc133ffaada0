// sin, cos and tan from libclc (docs/compiler.md, "64-bit integers": libclc's argument
// reduction multiplies in 64 bits): x = lo + (hi - lo) * r[i], written to x for the host's
// reference (tb/compiler/test_long.cpp measures the error in ulp).
__kernel void trig(__global const float* r, __global float* x, __global float* s, __global float* c,
                   __global float* t, float lo, float hi) {
  const int i = get_global_id(0);
  const float v = lo + (hi - lo) * r[i];
  x[i] = v;
  s[i] = sin(v);
  c[i] = cos(v);
  t[i] = tan(v);
}
