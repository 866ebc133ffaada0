// Six int4 values and their sums live at once: with few registers the allocator must still
// find four consecutive ones for every ld/st.global.v4 tuple, spilling the rest.
__kernel void vec4_pressure(__global const int4* in, __global int4* out) {
  int i = get_global_id(0);
  int4 a = in[6 * i + 0], b = in[6 * i + 1], c = in[6 * i + 2];
  int4 d = in[6 * i + 3], e = in[6 * i + 4], f = in[6 * i + 5];
  int4 s = a * b + c;
  int4 t = d ^ e.yzwx;
  out[4 * i + 0] = s + f;
  out[4 * i + 1] = t - a;
  out[4 * i + 2] = (s * t) + (int4)(b.x, c.y, d.z, e.w);
  out[4 * i + 3] = f.wzyx + (a & b) + (c | d);
}
