// A float4 load and store inside a subroutine (--subroutines): the callee saves every
// register of its tuples for its caller.
__attribute__((noinline)) void scale4(__global float4* p, __global const float4* q, float k) {
  *p = *q * k;
}

__kernel void vec4_helper(__global const float4* in, __global float4* out, float k) {
  int i = get_global_id(0);
  float4 keep = in[i] + (float4)(k);
  scale4(out + i, in + i, k);
  out[i + get_global_size(0)] = keep;
}
