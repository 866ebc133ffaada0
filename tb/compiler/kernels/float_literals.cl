// Unsuffixed floating literals on a device without doubles: 1.5 and 3.0 are floats (Clang
// demotes them when cl_khr_fp64 is off, as every OpenCL compiler for such a device does), so
// the arithmetic is single precision; kernels from other projects are full of them.
__kernel void float_literals(__global float* a, __global float* b) {
  int i = get_global_id(0);
  a[i] = a[i] * 1.5 + 0.25;
  b[i] = b[i] / 3.0 + 1.0e-3;
}
