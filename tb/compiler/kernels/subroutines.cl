// Subroutines (compiled with --subroutines): noinline functions become cal/ret, called from
// divergent code, calling each other, with a private array and a loop of their own.
__attribute__((noinline)) int g(int x) {
  int acc = 0;
  for (int k = 0; k < (x & 7); ++k) acc += k * x;
  return acc;
}
__attribute__((noinline)) int f(int x, int y) {
  int t[4];
  for (int k = 0; k < 4; ++k) t[k] = g(x + k) ^ y;
  return t[x & 3] + t[(y >> 1) & 3];
}
__attribute__((noinline)) void put(__global int* p, int i, int v) { p[i] = v; }
__kernel void subroutines(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int x = in[i];
  if (x & 1) put(out, i, f(x, i));
  else put(out, i, g(x) - 1);
}
