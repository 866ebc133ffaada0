// simt built-ins for OpenCL C kernels (docs/compiler.md, "simt built-ins"). The compiler
// includes this header automatically; kernels need not include it.
#ifndef SIMT_OPENCL_BUILTINS_H
#define SIMT_OPENCL_BUILTINS_H
#define __SIMTCORE__ 1

// Leave the loop for now: the calling work-items step aside (a YIELD token at the back of the
// warp's token queue, seed 002) so that other paths of the warp run first.
void simt_yield(void);

#endif
