// Streaming as a loop: c[i] = a[i] + b[i] over n words by one work-group of 256 work-items (the
// core's 8 warp slots), each striding by the global size: one launch, no CTA turnover, so the
// figure is the core's and the memory system's, not the launch's (docs/blocks/mem_port.md).
__kernel void add_loop(__global const uint* a, __global const uint* b, __global uint* c, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) c[i] = a[i] + b[i];
}
