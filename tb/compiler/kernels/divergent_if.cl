// Nested divergent if/else and an early return.
__kernel void divergent_if(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int x = in[i];
  int r;
  if (x % 3 == 0) {
    if (x & 1) r = x * 5;
    else r = x - 7;
  } else if (x % 3 == 1) {
    r = -x;
  } else {
    if (x > 50) {
      out[i] = 1000;
      return;
    }
    r = x << 2;
  }
  out[i] = r + 1;
}
