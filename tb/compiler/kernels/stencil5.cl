// One Jacobi step of a 5-point stencil on a w x h grid; the border keeps its value.
__kernel void stencil5(__global const float* in, __global float* out, int w, int h, float c0, float c1) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  int i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}
