// C = alpha * A * B + beta * C for row-major n x n matrices, tiled: each work-group loads a
// TILE x TILE block of A and of B into __local memory per step (n a multiple of TILE).
#ifndef TILE
#define TILE 8
#endif
__kernel void sgemm(__global const float* A, __global const float* B, __global float* C, int n,
                    float alpha, float beta) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) acc = mad(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = alpha * acc + beta * C[row * n + col];
}
