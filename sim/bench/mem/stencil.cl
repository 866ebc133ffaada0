// Neighbours: a 3-point stencil; each word is read by three work-items.
__kernel void stencil(__global const uint* in, __global uint* out, uint n) {
  uint i = get_global_id(0);
  if (i > 0 && i + 1 < n) out[i] = in[i - 1] + 2 * in[i] + in[i + 1];
}
