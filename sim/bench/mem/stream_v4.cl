// Streaming with 16-byte accesses: c[i] = a[i] + b[i] over n/4 uint4 elements by one
// work-group of 256 work-items striding by the global size (stream_loop.cl with a quarter of
// the instructions per byte: ld.global.v4 and st.global.v4), so that the memory system, not
// the core's issue rate, sets the pace (docs/blocks/mem_port.md, "Measured").
__kernel void add_v4(__global const uint4* a, __global const uint4* b, __global uint4* c, uint n4) {
  for (uint i = get_global_id(0); i < n4; i += get_global_size(0)) c[i] = a[i] + b[i];
}
