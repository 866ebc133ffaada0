// Signed and unsigned division and remainder (the ISA has no divide: a loop).
__kernel void divmod(__global const int* a, __global const int* b, __global int* q, __global int* r,
                     __global uint* uq, __global uint* ur) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  uq[i] = (uint)x / (uint)y;
  ur[i] = (uint)x % (uint)y;
}
