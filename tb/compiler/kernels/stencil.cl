// A 1-D three-point stencil with clamped borders (divergent at the ends).
__kernel void stencil(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int left = i > 0 ? in[i - 1] : in[i];
  int right = i + 1 < n ? in[i + 1] : in[i];
  out[i] = left - 2 * in[i] + right;
}
