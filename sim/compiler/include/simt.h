// simt built-ins for OpenCL C kernels (docs/compiler.md, "simt built-ins"): the seed
// mechanisms OpenCL has no word for. The compiler includes this header automatically.
// Barrier ids are constants 0..15 per work-group; OpenCL's barrier() uses id 0.
#ifndef SIMT_OPENCL_BUILTINS_H
#define SIMT_OPENCL_BUILTINS_H
#define __SIMTCORE__ 1

// Seed 002: the calling work-items step aside (a YIELD token at the back of the warp's token
// queue) so that other paths of the warp run first.
void simt_yield(void);

// Seed 000, conditional barrier: the calling work-items wait until `count` of them have
// arrived at barrier `id` (bar.sync ID, COUNT). simt_barrier: all work-items of the group.
void simt_barrier(uint id);
void simt_barrier_count(uint id, uint count);

// Seed 000, impatient barrier: starts once `min` callers have arrived or `timeout` cycles
// after the first (0 disables either); late arrivals join (bar.sync.imp ID, COUNT, MIN, TIMEOUT).
void simt_barrier_impatient(uint id, uint count, uint min, uint timeout);

// Seed 000, critical sections: the code between begin and end runs one work-item at a time,
// in ascending local id (ordered) or in the barrier unit's order (unordered); every caller
// waits at end until all have passed (bar.top.ocs / bar.bot.ocs, .ucs).
void simt_ordered_begin(uint id);
void simt_ordered_end(uint id);
void simt_unordered_begin(uint id);
void simt_unordered_end(uint id);
// Variants: _exclusive begin (.ex: no other critical section of any work-group runs at the
// same time) and _nowait end (.nb: the caller goes on without waiting for the others).
void simt_ordered_begin_exclusive(uint id);
void simt_unordered_begin_exclusive(uint id);
void simt_ordered_end_nowait(uint id);
void simt_unordered_end_nowait(uint id);

#endif
