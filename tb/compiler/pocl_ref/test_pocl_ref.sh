#!/bin/sh
# One kernel of tb/compiler/kernels run twice with the same --arg specs: on PoCL (simt_pocl_ref)
# and on the ISA model (simt run --engine model); every output buffer must agree (integers
# exactly, floats to the ULP given per case). Exit 77 (ctest: skipped) when the machine has no
# OpenCL platform at run time.
# usage: test_pocl_ref.sh SIMT SIMT_POCL_REF CL_KERNEL_DIR CASE
#        test_pocl_ref.sh --list            the cases (for CMakeLists.txt)
#
# Not here, with the reason:
#   flag_poll       a work-item polls a flag that a later work-item of its group sets: PoCL
#                   runs a group's work-items one after another between barriers, so it hangs
#   atomics         `old` and the xchg/cmpxchg chain record the order atomics were served in,
#                   which differs between implementations
#   ordered_append, barrier_count, impatient, exclusive   simt built-ins (simt.h), no PoCL form
#   float_ops       checks flushed subnormals bit for bit; PoCL keeps subnormals
#   black_scholes, nbody   libclc's (simt) and PoCL's log/exp/erfc/rsqrt differ by more ulps
#                   than a fixed bound says anything about; test_float.cpp bounds them instead
set -u
CASES="vector_add reduce_local histogram divergent_if loops iv_divrem range2d range3d work_items
work_items_offset call switch structs
pressure private_array bytes constant_table matmul scan bitonic_sort stencil divmod divconst
spin_lock hash_table big_fill saxpy dot sgemm stencil5 float_literals vec4_copy vec4_arith
vload_unaligned vec4_spaces vec4_pressure detects_difference"
if [ "${1:-}" = "--list" ]; then
  echo $CASES | tr ' ' ';'
  exit 0
fi
SIMT=$1
POCL=$2
K=$3
CASE=$4
HERE=$(dirname "$0")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export SIMT_CACHE_DIR="$TMP/cache" POCL_CACHE_DIR="$TMP/pocl-cache"
ULP=0
SIMT_LAST=

list() { python3 -c "print(','.join(str($1) for i in range($2)))"; }

case $CASE in
  # The check itself: PoCL adds 100 elements, the model 99; the comparison must fail on c[99].
  detects_difference) SIMT_LAST=i32:99; set -- vector_add.cl --global 128 --local 32 \
      --arg buf:a:128=rand:1 --arg buf:b:128=rand:2 --arg buf:c:128=const:-1 --arg i32:100 ;;
  vector_add) set -- vector_add.cl --global 128 --local 32 --arg buf:a:128=rand:1 \
      --arg buf:b:128=rand:2 --arg buf:c:128=const:-1 --arg i32:100 ;;
  reduce_local) set -- reduce_local.cl --global 256 --local 64 --arg buf:in:256=rand:7 \
      --arg buf:partial:4 --arg buf:total:1 --arg local:256 ;;
  histogram) set -- histogram.cl --global 96 --local 32 --arg buf:data:500:u32=rand:3 \
      --arg buf:hist:16 --arg i32:500 ;;
  divergent_if) set -- divergent_if.cl --global 96 --local 32 --arg buf:in:96=rand:11 \
      --arg buf:out:96 ;;
  loops) set -- loops.cl --global 64 --local 32 --arg buf:out:64 --arg buf:iters:64 ;;
  range2d) set -- range2d.cl --global 12,6 --local 4,3 --arg buf:in:72=iota --arg buf:out:72 \
      --arg buf:ids:576 ;;
  range3d) set -- range3d.cl --global 4,3,2 --local 2,3,1 --arg buf:ids:144 ;;
  work_items) set -- work_items.cl --global 9,10,7 --local 3,5,7 --arg buf:ids:5670=const:-1 \
      --arg buf:sizes:13 ;;
  # clEnqueueNDRangeKernel's global_work_offset (simt run --global-offset).
  work_items_offset) set -- work_items.cl --global 9,10,7 --local 3,5,7 --global-offset 5,0,11 \
      --arg buf:ids:5670=const:-1 --arg buf:sizes:13 ;;
  iv_divrem) set -- iv_divrem.cl --global 64 --local 32 --arg buf:start:64=rand:61 \
      --arg buf:out:448:u32 --arg u32:300 ;;
  call) set -- call.cl --global 64 --arg buf:out:64 ;;
  switch) set -- switch.cl --global 64 --local 32 --arg buf:in:64=rand:5 \
      --arg buf:out:64=const:77 ;;
  structs) set -- structs.cl --global 8 --local 8 --arg buf:items:16=rand:51 --arg buf:sums:8 \
      --arg buf:dst:48 --arg buf:src:48=rand:52 ;;
  pressure) set -- pressure.cl --global 64 --local 32 --arg buf:in:64=rand:9 --arg buf:out:64 ;;
  private_array) set -- private_array.cl --global 64 --local 32 --arg buf:in:64=rand:4 \
      --arg buf:out:64 ;;
  bytes) set -- bytes.cl --global 64 --local 32 --arg buf:in:16=rand:8 --arg buf:out:16 \
      --arg buf:wide:32 ;;
  constant_table) set -- constant_table.cl --global 64 --local 32 --arg buf:in:64=rand:12 \
      --arg buf:out:512 ;;
  matmul) set -- matmul.cl --global 8,8 --local 8,4 --arg buf:A:64=rand:31 \
      --arg buf:B:64=rand:32 --arg buf:C:64 --arg i32:8 ;;
  scan) set -- scan.cl --global 128 --local 64 --arg buf:in:128=rand:33 --arg buf:out:128 \
      --arg local:256 ;;
  bitonic_sort) set -- bitonic_sort.cl --global 128 --local 64 --arg buf:data:128=rand:34 \
      --arg local:256 ;;
  stencil) set -- stencil.cl --global 128 --local 32 --arg buf:in:128=rand:35 \
      --arg buf:out:128=const:7 --arg i32:100 ;;
  divmod) set -- divmod.cl --global 64 --local 32 --arg buf:a:64=rand:21 \
      --arg "buf:b:64=list:$(list '([1,-1,3,-7,1000,65536,-2147483647,13][i%8]+i//8) or 5' 64)" \
      --arg buf:q:64 --arg buf:r:64 --arg buf:uq:64:u32 --arg buf:ur:64:u32 ;;
  divconst) EDGE='[0,1,-1,2147483647,-2147483648,3,-3,1000,-1000,65536,-65537,-1]'
    set -- divconst.cl --global 64 --local 32 \
      --arg "buf:in:64=list:$(list "$EDGE[i] if i < 12 else i*2654435761%2**32-2**31" 64)" \
      --arg buf:sq:896 --arg buf:sr:832 --arg buf:uq:896:u32 --arg buf:ur:832:u32 ;;
  # The locks finish on PoCL: its work-items run one after another, each finds the lock free.
  spin_lock) set -- spin_lock.cl --global 128 --local 64 --arg buf:lock:1 --arg buf:counter:1 ;;
  hash_table) set -- hash_table.cl --global 128 --local 64 --arg buf:locks:5 --arg buf:count:5 \
      --arg buf:sum:5 --arg i32:5 ;;
  big_fill) set -- big_fill.cl --global 128 --local 64 --arg buf:in:128=rand:71 --arg buf:out:128 \
      --arg buf:copied:128 ;;
  # Floats: one multiply-add rounding (simt's ffma, PoCL's fma or mul+add) and sums in the
  # same order; 1/x and sqrt correctly rounded on both.
  saxpy) ULP=1; set -- saxpy.cl --global 100 --local 20 --arg f32:1.5 \
      --arg buf:x:100:f32=rand:3 --arg buf:y:100:f32=rand:4 --arg i32:100 ;;
  dot) ULP=8; set -- dot.cl --global 256 --local 64 --arg buf:x:1000:f32=rand:13 \
      --arg buf:y:1000:f32=rand:14 --arg buf:partial:4:f32 --arg local:256 --arg i32:1000 ;;
  sgemm) ULP=8; set -- sgemm.cl --global 32,32 --local 8,8 --arg buf:A:1024:f32=rand:15 \
      --arg buf:B:1024:f32=rand:16 --arg buf:C:1024:f32=rand:17 --arg i32:32 --arg f32:1.5 \
      --arg f32:-0.5 ;;
  stencil5) ULP=4; set -- stencil5.cl --global 24,12 --local 8,4 --arg buf:in:240:f32=rand:18 \
      --arg buf:out:240:f32 --arg i32:20 --arg i32:12 --arg f32:0.5 --arg f32:0.125 ;;
  # PoCL has doubles: 1.5 and 3.0 are double there, float here (one rounding more or less).
  float_literals) ULP=1; set -- float_literals.cl --global 64 --local 32 \
      --arg buf:a:64:f32=rand:41 --arg buf:b:64:f32=rand:42 ;;
  # Vector types (docs/compiler.md, "Vector types and vector memory"); v * k + c is one
  # multiply-add rounding here and may be two on PoCL.
  vec4_copy) ULP=1; set -- vec4_copy.cl --global 64 --local 32 --arg buf:in:256:f32=rand:5 \
      --arg buf:out:256:f32 --arg buf:scaled:256:f32 --arg f32:1.5 ;;
  vec4_arith) set -- vec4_arith.cl --global 64 --local 32 --arg buf:a:256=rand:1 \
      --arg buf:b:256=rand:2 --arg buf:out:512 --arg buf:sums:64 ;;
  vload_unaligned) set -- vload_unaligned.cl --global 64 --local 32 \
      --arg buf:in:260:f32=rand:9 --arg buf:out:264:f32=const:7 ;;
  vec4_spaces) set -- vec4_spaces.cl --global 64 --local 32 --arg buf:in:256=rand:3 \
      --arg buf:out:256 --arg local:512 ;;
  vec4_pressure) set -- vec4_pressure.cl --global 64 --local 32 --arg buf:in:1536=rand:21 \
      --arg buf:out:1024 ;;
  *) echo "unknown case '$CASE'"; exit 1 ;;
esac
FILE=$K/$1
shift

"$POCL" "$FILE" "$@" --timeout 60 --json "$TMP/pocl.json" >"$TMP/pocl.out" 2>"$TMP/pocl.err"
rc=$?
if [ $rc -ne 0 ] && grep -q "no OpenCL platform" "$TMP/pocl.err"; then
  echo "SKIP ($CASE): $(cat "$TMP/pocl.err")"
  exit 77
fi
if [ $rc -ne 0 ]; then
  echo "FAIL ($CASE): simt_pocl_ref exit $rc"
  cat "$TMP/pocl.err"
  exit 1
fi
if [ -n "$SIMT_LAST" ]; then
  # Replace the last --arg for the model's run (detects_difference).
  n=$#
  i=0
  for a in "$@"; do
    i=$((i + 1))
    if [ $i -eq $n ]; then set -- "$@" "$SIMT_LAST"; else set -- "$@" "$a"; fi
  done
  shift $n
fi
"$SIMT" run "$FILE" "$@" --engine model --json "$TMP/simt.json" >"$TMP/simt.out" 2>"$TMP/simt.err"
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL ($CASE): simt run exit $rc"
  cat "$TMP/simt.err"
  exit 1
fi
python3 "$HERE/compare_memory.py" "$TMP/simt.json" "$TMP/pocl.json" --ulp $ULP >"$TMP/cmp" 2>&1
rc=$?
if [ "$CASE" = detects_difference ]; then
  if [ $rc -eq 1 ] && grep -q '^c: \[99\] -1 != ' "$TMP/cmp" && grep -q '^MISMATCH' "$TMP/cmp"; then
    echo "$CASE: the comparison caught c[99] ($(head -1 "$TMP/cmp"))"
    exit 0
  fi
  echo "FAIL ($CASE): a difference in c[99] went unreported (exit $rc)"
  cat "$TMP/cmp"
  exit 1
fi
if [ $rc -ne 0 ]; then
  echo "FAIL ($CASE): simt (A, model) and PoCL (B) differ"
  cat "$TMP/cmp"
  exit 1
fi
echo "$CASE: $(tail -1 "$TMP/cmp") (model vs PoCL)"
