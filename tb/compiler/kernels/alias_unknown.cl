// References whose ranges the compile-time analysis cannot give (docs/compiler.md "Alias
// metadata"): an index reduced modulo a scalar argument, a pointer chosen at run time.
__kernel void alias_unknown(__global int* a, __global int* b, __global const int* c, int m, int pick) {
  int i = get_global_id(0);
  a[i % m] = c[i];
  __global int* p = pick ? a : b;
  p[i] += 1;
}
