// pow, erfc and tgamma from libclc (docs/compiler.md, "FP32", the accuracy table): the input
// x = lo + (hi - lo) * r[i] (one fused multiply-add), written to x for the host's reference,
// the result to y; a is pow's other operand. tb/compiler/test_float.cpp measures the error
// in ulp against the host's double-precision functions at the kernel's own x.
__kernel void pow_base(__global const float* r, __global float* x, __global float* y, float lo, float hi, float a) {
  const int i = get_global_id(0);
  const float v = lo + (hi - lo) * r[i];
  x[i] = v;
  y[i] = pow(a, v);
}

__kernel void pow_exponent(__global const float* r, __global float* x, __global float* y, float lo, float hi, float a) {
  const int i = get_global_id(0);
  const float v = lo + (hi - lo) * r[i];
  x[i] = v;
  y[i] = pow(v, a);
}

__kernel void erfc_of(__global const float* r, __global float* x, __global float* y, float lo, float hi, float a) {
  const int i = get_global_id(0);
  const float v = lo + (hi - lo) * r[i];
  x[i] = v;
  y[i] = erfc(v);
}

__kernel void tgamma_of(__global const float* r, __global float* x, __global float* y, float lo, float hi, float a) {
  const int i = get_global_id(0);
  const float v = lo + (hi - lo) * r[i];
  x[i] = v;
  y[i] = tgamma(v);
}
