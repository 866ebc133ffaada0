// vload4/vstore4 on float pointers at offsets that are not 16-byte aligned: OpenCL asks
// only for the element's alignment, so these stay four word accesses each (no .v4).
__kernel void vload_unaligned(__global const float* in, __global float* out) {
  int i = get_global_id(0);
  float4 v = vload4(i, in + 1);
  float4 w = (float4)(v.y, v.x, v.w, v.z) * 2.0f - v;
  vstore4(w, i, out + 3);
}
