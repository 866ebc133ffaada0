// Reuse: a naive integer matrix product; rows of a and columns of b are read by many
// work-items (the L1's hit rate).
__kernel void matmul(__global const uint* a, __global const uint* b, __global uint* c, uint n) {
  uint i = get_global_id(1), j = get_global_id(0);
  uint acc = 0;
  for (uint k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
  c[i * n + j] = acc;
}
