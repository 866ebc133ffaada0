// Every float operation the lowering has an instruction or sequence for, one output each,
// so that a C++ reference under the same rules (round to nearest, flush to zero) can check
// them bit for bit: arithmetic, fma, division and sqrt, min/max/fabs/copysign, the rounding
// functions, every comparison (ordered and unordered), select, conversions both ways, bits.
#define N 40
// The operands come as bits (u32 buffers), so that any NaN, infinity or subnormal can be given.
__kernel void float_ops(__global const uint* a, __global const uint* b, __global const uint* c,
                        __global float* f, __global int* k) {
  int i = get_global_id(0);
  float x = as_float(a[i]), y = as_float(b[i]), z = as_float(c[i]);
  __global float* o = f + N * i;
  __global int* q = k + N * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fma(x, y, z);
  o[5] = sqrt(fabs(x));
  o[6] = fmin(x, y);
  o[7] = fmax(x, y);
  o[8] = -x;
  o[9] = fabs(y);
  o[10] = copysign(x, y);
  o[11] = floor(x);
  o[12] = ceil(x);
  o[13] = trunc(x);
  o[14] = rint(x);
  o[15] = round(x);
  o[16] = x < y ? x : z;
  o[17] = (float)(int)(x * 1000.0f);
  o[18] = (float)q[39];
  o[19] = (float)(uint)q[39];
  o[20] = x * 3.0f + 0.25f;
  o[21] = 2.0f - x;
  o[22] = 1.0f / y;
  o[23] = mad(x, 0.5f, y);
  q[0] = x == y;
  q[1] = x != y;
  q[2] = x < y;
  q[3] = x <= y;
  q[4] = x > y;
  q[5] = x >= y;
  q[6] = isnan(x);
  q[7] = isunordered(x, y);
  q[8] = isordered(x, y);
  q[9] = !(x < y);   // unordered >=
  q[10] = !(x >= y); // unordered <
  q[11] = !(x == y) ; // une
  q[12] = (int)x;
  q[13] = (uint)x;
  q[14] = as_int(x) ^ as_int(y);
  q[15] = isgreater(x, y);
  q[16] = islessgreater(x, y);
  q[17] = isequal(x, z);
  q[18] = isinf(y);
  q[19] = signbit(x);
  q[20] = isfinite(x);
  q[21] = (x > 0.0f) ? 1 : (x < 0.0f) ? -1 : 0;
}
