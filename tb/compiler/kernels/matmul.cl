// C = A * B for N x N int matrices on a 2-D range, one element per work-item.
__kernel void matmul(__global const int* A, __global const int* B, __global int* C, int N) {
  int col = get_global_id(0), row = get_global_id(1);
  int acc = 0;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}
