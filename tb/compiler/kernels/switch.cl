// A divergent switch with fall-through and a default.
__kernel void switch_kernel(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int v = in[i];
  int r = 0;
  switch (v & 7) {
    case 0: r = 10; break;
    case 1: r = 20;  // fall through
    case 2: r += 5; break;
    case 5: r = v * v; break;
    case 6: return;
    default: r = -1;
  }
  out[i] = r;
}
