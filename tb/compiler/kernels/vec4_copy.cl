// float4 through __global float4 pointers (16-byte aligned): each work-item copies one
// float4 and writes a scaled one; both become ld.global.v4 / st.global.v4
// (docs/compiler.md, "Vector types and vector memory").
__kernel void vec4_copy(__global const float4* in, __global float4* out, __global float4* scaled, float k) {
  int i = get_global_id(0);
  float4 v = in[i];
  out[i] = v;
  scaled[i] = v * k + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}
