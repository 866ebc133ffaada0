// A private array indexed at run time lives in the work-item's frame.
__kernel void private_array(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int buf[8];
  for (int k = 0; k < 8; ++k) buf[k] = in[i] + k;
  int idx = in[i] & 7;
  buf[idx] *= 3;
  int s = 0;
  for (int k = 0; k <= idx; ++k) s += buf[k];
  out[i] = s;
}
