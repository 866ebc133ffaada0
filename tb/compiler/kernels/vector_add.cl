// c[i] = a[i] + b[i] for i < n (the hello-world; the guard diverges in the last group)
__kernel void vector_add(__global const int* a, __global const int* b, __global int* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
