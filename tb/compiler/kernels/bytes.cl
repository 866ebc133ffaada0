// char and short elements: neighbouring work-items store bytes of the same word.
__kernel void bytes(__global const char* in, __global uchar* out, __global short* wide) {
  int i = get_global_id(0);
  char c = in[i];
  out[i] = (uchar)(c + 3);
  wide[i] = (short)(c * -100);
}
