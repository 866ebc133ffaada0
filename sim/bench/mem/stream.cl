// Streaming: c[i] = a[i] + b[i], one word per work-item (the memory system's bandwidth figure).
__kernel void add(__global const uint* a, __global const uint* b, __global uint* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
