// Seed 004's example (figure 3A, docs/compiler.md "Alias metadata"): histogram equalisation
// of each work-item's range of pixels through a look-up table. Whether inputImage and
// outputImage may overlap decides whether the loop may be unrolled, its loads grouped and
// vectorised (figures 4A-4C).
__kernel void histeq(__global const int* inputImage, __global const int* cdf,
                     __global int* outputImage, int chunk) {
  int start_offset = get_global_id(0) * chunk;
  int final_offset = start_offset + chunk;
  for (int i = start_offset; i < final_offset; i++)
    outputImage[i] = cdf[inputImage[i]];
}
