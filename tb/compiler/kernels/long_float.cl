// Conversions between long/ulong and float (docs/compiler.md, "64-bit integers"): casts and
// OpenCL's convert_ functions (libclc's, built on the same casts). The float operands arrive
// as bit patterns; out gets OPS longs per work-item, a float result as its bits
// (tb/compiler/test_long.cpp).
#define OPS 10

__kernel void long_float(__global const long* a, __global const uint* fbits, __global long* out) {
  const int i = get_global_id(0);
  const long x = a[i];
  const ulong u = (ulong)x;
  const float g = as_float(fbits[i]);
  __global long* o = out + OPS * i;
  o[0] = as_uint((float)x);
  o[1] = as_uint((float)u);
  o[2] = as_uint(convert_float(x));
  o[3] = as_uint(convert_float_rte(u));
  o[4] = as_uint(convert_float_rtz(x));
  o[5] = (long)g;  // out of range and NaN: saturated, NaN gives 0 (docs)
  o[6] = (long)(ulong)g;
  o[7] = convert_long_sat(g);
  o[8] = (long)convert_ulong_sat(g);
  o[9] = convert_long_rte(g);
}
