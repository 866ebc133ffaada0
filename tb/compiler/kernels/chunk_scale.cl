// A chunked stream: each work-item scales its own run of `chunk` elements. Launched with
// overlapping views (docs/compiler.md "Alias metadata") its result depends on the order of the
// loop's loads and stores, which the alias-optimised variant must keep where it matters.
__kernel void chunk_scale(__global const int* in, __global int* out, int chunk, int k) {
  int start = get_global_id(0) * chunk;
  for (int i = start; i < start + chunk; i++) out[i] = in[i] * k + 1;
}
