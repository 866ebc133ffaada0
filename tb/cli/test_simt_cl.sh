#!/bin/sh
# `simt run FILE.cl` and `simt cc` contract checks (KERNELS.md section 2): exit statuses,
# JSON memory and compile fields, Clang and lowering diagnostics, --arg errors.
# usage: test_simt_cl.sh SIMT CL_KERNEL_DIR CASE
set -u
SIMT=$1
K=$2
CASE=$3
TMP=$(mktemp -d)
export SIMT_CACHE_DIR="$TMP/cache"
. "$(dirname "$0")/cli_checks.sh"
VA="$K/vector_add.cl --global 8 --local 4 --arg buf:a:8=iota --arg buf:b:8=const:10 --arg buf:c:8"

case $CASE in
  cc)
    expect_rc "$(cc "$K/spin_lock.cl")" 0
    expect_out '.kernel spin_lock'
    expect_out 'atom.global.cas'
    expect_out 'yield'
    expect_out 'ssy' ;;
  cc_output_assembles)
    expect_rc "$(cc "$K/loops.cl" -o "$TMP/loops.s")" 0
    "$SIMT" asm -q "$TMP/loops.s" >"$OUT" 2>"$ERR" || fail "the output does not assemble" ;;
  cc_defines)
    printf '__kernel void k(__global int* a) { a[0] = VALUE; }\n' > "$TMP/d.cl"
    expect_rc "$(cc "$TMP/d.cl")" 1
    expect_err "d.cl:1:[0-9]*: error: use of undeclared identifier 'VALUE'"
    expect_rc "$(cc "$TMP/d.cl" -DVALUE=1234)" 0
    expect_out 'mov r[0-9]*, 1234' ;;
  run_json)
    expect_rc "$(run $VA --arg i32:6 --engine model --json -)" 0
    expect_out '"status":"ok"'
    expect_out '"memory":{"a":\[0,1,2,3,4,5,6,7\],"b":\[10,10,10,10,10,10,10,10\],"c":\[10,11,12,13,14,15,0,0\]}'
    expect_out '"compile":{"kernel":"vector_add","variant":"linear"'
    expect_out '"work_groups":2,"work_group_size":4' ;;
  cache)
    expect_rc "$(run $VA --arg i32:8 --engine model --json -)" 0
    expect_out '"cached":false'
    expect_rc "$(run $VA --arg i32:8 --engine model --json -)" 0
    expect_out '"cached":true'
    expect_out '"c":\[10,11,12,13,14,15,16,17\]' ;;
  subroutines)
    expect_rc "$(cc "$K/call.cl" --subroutines)" 0
    expect_out 'cal F_collatz_steps'
    expect_out '^F_collatz_steps:'
    expect_out '        ret'
    expect_rc "$(run "$K/call.cl" --subroutines --global 8 --arg buf:out:8 --engine cosim --json -)" 0
    expect_out '"out":\[16,3,14,4,14,9,32,6\]' ;;
  run_summary)
    expect_rc "$(run $VA --arg i32:8 --engine model --dump c)" 0
    expect_out 'vector_add.cl (vector_add): ok'
    expect_out 'c: 10 11 12 13 14 15 16 17'
    grep -q ' a:' "$OUT" && fail "--dump c printed a"
    expect_rc "$(run $VA --arg i32:8 --engine model --dump c:3 --dump a:2)" 0
    expect_out '  a: 0 1$'
    expect_out '  c: 10 11 12$' ;;
  run_rtl)
    expect_rc "$(run $VA --arg i32:8 --engine rtl --json -)" 0
    expect_out '"engine":"rtl"'
    expect_out '"c":\[10,11,12,13,14,15,16,17\]' ;;
  run_cosim)
    expect_rc "$(run "$K/reduce_local.cl" --global 64 --local 32 --arg buf:in:64=iota --arg buf:partial:2 --arg buf:total:1 --arg local:128 --engine cosim --json -)" 0
    expect_out '"partial":\[496,1520\],"total":\[2016\]' ;;
  spin_stack_timeout)
    expect_rc "$(run "$K/spin_lock.cl" --global 64 --arg buf:lock:1 --arg buf:counter:1 --engine model --divergence stack --max-cycles 20000)" 3
    expect_err 'timeout after 20000 cycles'
    expect_rc "$(run "$K/spin_lock.cl" --global 64 --arg buf:lock:1 --arg buf:counter:1 --engine model)" 0
    expect_out 'counter: 64' ;;
  clang_error)
    printf '__kernel void k(__global int* a) {\n  a[0] = 1\n}\n' > "$TMP/bad.cl"
    expect_rc "$(run "$TMP/bad.cl" --global 1 --arg buf:a:1 --engine model)" 1
    expect_err 'bad.cl:2:11: error: expected'
    [ -s "$OUT" ] && fail "something ran"
    true ;;
  refused_float)  # FP32 compiles; a float built-in the lowering cannot take is refused
    printf '__kernel void k(__global float* a) {\n  int i = get_global_id(0);\n  a[i] = native_sin(a[i]) * 2.5f;\n}\n' > "$TMP/f.cl"
    expect_rc "$(cc "$TMP/f.cl")" 1
    expect_err "f.cl:3:[0-9]*: error: the LLVM intrinsic 'llvm.sin.f32' is not supported" ;;
  long_args)  # long and ulong arguments: two param words each (--arg i64:V, u64:V)
    printf '__kernel void k(__global long* a, long c, ulong d) {\n  int i = get_global_id(0);\n  a[i] = a[i] * c + (long)(d >> 3);\n}\n' > "$TMP/l.cl"
    expect_rc "$(run "$TMP/l.cl" --global 2 --local 2 --arg buf:a:4:u32=list:5,1,4294967295,4294967295 \
      --arg i64:-3 --arg u64:0x800000000 --engine model --json -)" 0
    # a[0] = (2^32 + 5) * -3 + 2^32 = -2^33 - 15, a[1] = -1 * -3 + 2^32: word pairs, low first
    expect_out '"a":\[4294967281,4294967293,3,1\]' ;;
  bad_long_arg)  # a 32-bit value for a long parameter; an out-of-range long
    printf '__kernel void k(__global long* a, long c) {\n  a[get_global_id(0)] += c;\n}\n' > "$TMP/l.cl"
    expect_rc "$(run "$TMP/l.cl" --global 1 --arg buf:a:2 --arg i32:1 --engine model)" 1
    expect_err "expected i64:V or u64:V"
    expect_rc "$(run "$TMP/l.cl" --global 1 --arg buf:a:2 --arg i64:9223372036854775808 --engine model)" 1
    expect_err "is not an i64 (long) value" ;;
  bad_arg_count)
    expect_rc "$(run $VA --engine model)" 1
    expect_err "kernel 'vector_add' takes 4 argument(s)" ;;
  bad_arg_type)
    expect_rc "$(run $VA --arg buf:n:1 --engine model)" 1
    expect_err "expected a scalar" ;;
  bad_view)
    expect_rc "$(run "$K/vector_add.cl" --global 8 --arg buf:a:8 --arg view:nope:0 --arg buf:c:8 --arg i32:8 --engine model)" 1
    expect_err "no earlier buffer named 'nope'" ;;
  bad_spec)
    expect_rc "$(run "$K/vector_add.cl" --global 8 --arg bogus:1 --engine model)" 1
    expect_err "unknown kind 'bogus'" ;;
  not_multiple)
    expect_rc "$(run "$K/vector_add.cl" --global 10 --local 4 --arg buf:a:8 --arg buf:b:8 --arg buf:c:8 --arg i32:8 --engine model)" 1
    expect_err 'not a multiple of --local 4' ;;
  missing_global)
    expect_rc "$(run "$K/vector_add.cl" --arg buf:a:8 --engine model)" 1
    expect_err '\-\-global' ;;
  too_large_group)
    expect_rc "$(run "$K/vector_add.cl" --global 512 --local 512 --arg buf:a:8 --arg buf:b:8 --arg buf:c:8 --arg i32:8 --engine rtl)" 1
    expect_err 'larger than the core holds (256)' ;;
  cl_options)
    expect_rc "$(run $VA --arg i32:8 --ctas 2)" 1
    expect_err 'use --global and --local'
    expect_rc "$(run "$K/../../../sim/kernels/vector_add.s" --global 4)" 1
    expect_err 'applies only to an OpenCL kernel' ;;
  alias_opt)
    # Seed 004: the check at launch, the relation per pair, the variant and its cache.
    HE="$K/histeq.cl --global 16 --arg buf:img:160=iota --arg buf:cdf:160=iota --arg view:img:66 --arg i32:4"
    expect_rc "$(run $HE --engine model --json -)" 0
    expect_out '"alias":{"enabled":true,"references_complete":true'
    expect_out '"a":"inputImage","b":"outputImage","relation":"disjoint","conflict":true,"gap_bytes":8'
    expect_out '"recompiled":true,"variant_cached":false'
    expect_rc "$(run $HE --engine model --json -)" 0
    expect_out '"recompiled":true,"variant_cached":true'
    expect_rc "$(run $HE --engine model)" 0
    expect_out 'alias check ([0-9]* us): inputImage/cdf disjoint inputImage/outputImage disjoint'
    expect_out 'ran the variant for {noalias 0 1 2; align'
    expect_rc "$(run $HE --engine model --alias-opt off --json -)" 0
    expect_out '"alias":{"enabled":false'
    expect_rc "$(run $HE --alias-opt maybe)" 1
    expect_err "alias-opt: expected on or off, not 'maybe'"
    expect_rc "$(run "$K/../../../sim/kernels/vector_add.s" --alias-opt off)" 1
    expect_err '\-\-alias-opt applies only to an OpenCL kernel'
    expect_rc "$(cc "$K/histeq.cl" --alias-opt)" 0
    expect_out 'inputImage read 4 bytes at +(rec (\* 4 a3 gid0) 4'
    expect_out 'cdf read 4 bytes at +unknown'
    expect_out 'variant default'
    expect_out 'alias-optimised variant (seed 004) for: noalias 0 1 2; align 0:16 1:16 2:16; 1 loop(s) unrolled by 4'
    expect_rc "$(cc "$K/chunk_scale.cl" --alias-opt --alias-facts 'noalias 0 1; align 0:16 1:16; lowzero 2:4')" 0
    expect_out 'ld.global.v4'
    expect_out 'st.global.v4'
    expect_out '2 vector access(es)'
    expect_rc "$(cc "$K/chunk_scale.cl" --alias-opt --alias-facts 'noalias 0 1; align 0:12')" 1
    expect_err 'an alignment is 4, 8 or 16 bytes'
    expect_rc "$(cc "$K/chunk_scale.cl" --alias-facts 'noalias 0 1')" 1
    expect_err 'alias-facts goes with' ;;
  global_offset)
    # --global-offset (clEnqueueNDRangeKernel's global_work_offset): the ids start there, and
    # a launch with an offset does not take the linear variant.
    VO="$K/vector_add.cl --global 4 --local 4 --arg buf:a:8=iota --arg buf:b:8=const:10 --arg buf:c:8 --arg i32:8"
    for e in model rtl; do
      expect_rc "$(run $VO --global-offset 2 --engine $e --json -)" 0
      expect_out '"c":\[0,0,12,13,14,15,0,0\]'
      expect_out '"variant":"default"'
    done
    expect_rc "$(run $VO --global-offset 2,1 --engine model)" 1
    expect_err 'global-offset needs as many values as --global has sizes (1)'
    expect_rc "$(run $VO --global-offset -3 --engine model)" 1
    expect_err "global-offset: '-3' is not an offset"
    expect_rc "$(run $VO --global-offset 4294967294 --engine model)" 1
    expect_err 'passes 2^32 in dimension 0'
    expect_rc "$(run "$K/../../../sim/kernels/vector_add.s" --global-offset 4)" 1
    expect_err 'global-offset applies only to an OpenCL kernel' ;;
  *) echo "unknown case $CASE"; exit 2 ;;
esac
exit 0
