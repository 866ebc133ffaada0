// Division and remainder of loop counters by constants (the compiler keeps them as
// recurrences of their own: docs/compiler.md, "Division of an induction variable"), next to
// ones it must leave to the magic-number sequence: a signed counter that may be negative,
// an unsigned counter that may wrap, a power of two.
__kernel void iv_divrem(__global const int* start, __global uint* out, uint n) {
  const int t = get_global_id(0);
  const int s = start[t];
  uint a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0;
  for (int i = 0; i < t + 3; ++i) {  // signed, non-negative: % and / by 7
    a += (uint)(i % 7) * 3u + (uint)(i / 7);
  }
  for (int i = 1; i < t + 50; i += 5) {  // a step larger than the divisor
    a = a * 3u + (uint)(i % 3) * 5u + (uint)(i / 3);
  }
  for (uint i = (uint)t; i < 200u; i += 5) {  // unsigned from the work-item, step 5 over 3
    b = b * 31u + i % 3u + (i / 3u) * 7u;
  }
  for (uint i = (uint)t; i < n; i += 5) {  // the same up to n, which may wrap: not rewritten
    g = g * 31u + i % 3u + (i / 3u) * 7u;
  }
  for (int i = s; i < s + 40; i += 3) {  // signed, start may be negative: not rewritten
    c += (uint)(i % 10) ^ (uint)(i / 10);
  }
  for (uint i = 4294967000u + (uint)t; i > 1000u; i += 97u) {  // wraps past 2^32
    d += i % 1000u;
  }
  for (int j = 0; j < 4; ++j) {  // nested: the inner counter starts at the outer's value
    for (int i = j * 11; i < j * 11 + t + 20; i += 2) {
      e += (uint)(i % 6) + (uint)((i + 1) % 9) * 16u + (uint)(i / 25) * 256u;
    }
  }
  for (int i = 0; i < t; ++i) f += (uint)(i % 16) + (uint)(i / 8);  // powers of two
  out[t * 7 + 0] = a;
  out[t * 7 + 1] = b;
  out[t * 7 + 2] = c;
  out[t * 7 + 3] = d;
  out[t * 7 + 4] = e;
  out[t * 7 + 5] = f;
  out[t * 7 + 6] = g;
}
