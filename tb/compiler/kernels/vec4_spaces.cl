// int4 in every address space: global (ld/st.global.v4), __local (four ld/st.shared each)
// and a private array indexed at run time (four word accesses in the frame each).
__kernel void vec4_spaces(__global const int4* in, __global int4* out, __local int4* tile) {
  int l = get_local_id(0);
  int i = get_global_id(0);
  int n = get_local_size(0);
  tile[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  int4 p[4];
  for (int k = 0; k < 4; ++k) p[k] = tile[(l + k) % n] * (k + 1);
  out[i] = p[0] + p[1] + p[2] + p[3] + p[l & 3];
}
