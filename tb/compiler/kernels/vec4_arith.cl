// int4 arithmetic, swizzles and component access: element-wise after LLVM's Scalarizer,
// with the loads and stores whole (ld/st.global.v4).
__kernel void vec4_arith(__global const int4* a, __global const int4* b, __global int4* out,
                         __global int* sums) {
  int i = get_global_id(0);
  int4 x = a[i];
  int4 y = b[i];
  int4 r = x * y + x.wzyx;          // element-wise, a reversing swizzle
  r.s0 ^= y.w;                      // one component
  r = (r >> 3) - (int4)(i, 2 * i, 3, -4);
  int4 m = x > y;                   // -1 or 0 per element
  r = select(r, r & 0xffff, m);
  out[2 * i] = r.s3120;             // a permutation
  out[2 * i + 1] = (int4)(r.xy, x.zw) ^ (int4)(y.y);
  sums[i] = r.x + r.y + r.z + r.w;
}
