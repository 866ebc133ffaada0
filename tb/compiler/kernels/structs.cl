// Structs: mixed-size members in __global memory, struct assignment (a word copy) and a
// zero-initialised private struct (a word fill).
typedef struct { int x; short y; char z; } Item;
typedef struct { int v[6]; } Block;
__kernel void structs(__global Item* items, __global int* sums, __global Block* dst,
                      __global const Block* src) {
  int i = get_global_id(0);
  sums[i] = items[i].x + items[i].y + items[i].z;
  items[i].z = (char)(i + 100);
  Block t = {{0}};
  t.v[i % 6] = src[i].v[(i + 1) % 6];
  dst[i] = src[i];
  if (i & 1) dst[i] = t;
}
