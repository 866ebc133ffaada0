// Helper functions with their own loops and branches, called from divergent code.
__attribute__((noinline)) int collatz_steps(int x) {
  int steps = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  }
  return steps;
}
int twice(int v) { return v + v; }
__kernel void call(__global int* out) {
  int i = get_global_id(0);
  out[i] = (i & 2) ? twice(collatz_steps(i + 1)) : collatz_steps(i + 7);
}
