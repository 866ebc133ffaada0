#!/bin/sh
# `simt run` contract checks (ISA.md section 5): exit statuses, JSON fields, messages.
# usage: test_simt_run.sh SIMT KERNEL_DIR CASE
set -u
SIMT=$1
K=$2
CASE=$3
TMP=$(mktemp -d)
. "$(dirname "$0")/cli_checks.sh"

case $CASE in
  ok_json)
    expect_rc "$(run "$K/vector_add.s" --engine model --dump c:4 --dump a --json -)" 0
    expect_out '"status":"ok"'
    expect_out '"engine":"model"'
    expect_out '"memory":{"c":\[101,105,109,113\],"a":\[1,2,3'
    expect_out '"cycles":[0-9]'
    expect_out '"instructions":[0-9]'
    expect_out '"stats":{' ;;
  json_file)
    J=$(mktemp)
    expect_rc "$(run "$K/vector_add.s" --engine model --json "$J")" 0
    expect_out 'ok (engine model'
    grep -q '"status":"ok"' "$J" || fail "json file lacks status"
    rm -f "$J" ;;
  launch_override)
    expect_rc "$(run "$K/vector_add.s" --engine model --ctas 1 --threads 8 --dump c:10)" 0
    expect_out 'c: 101 105 109 113 117 121 125 129 0 0' ;;
  deadlock)
    expect_rc "$(run "$K/bar_tag_deadlock.s" --engine model --json -)" 2
    expect_out '"status":"deadlock"'
    expect_err 'deadlock: nothing can issue'
    expect_err 'asleep waiting: 32,33'
    expect_err 'bar_tag_deadlock.s:21' ;;
  timeout)
    expect_rc "$(run "$K/spin_lock.s" --engine model --divergence stack --max-cycles 5000)" 3
    expect_out 'timeout'
    expect_err 'timeout after 5000 cycles' ;;
  deque_vs_stack)
    expect_rc "$(run "$K/spin_lock.s" --engine model --divergence deque --dump counter)" 0
    expect_out 'counter: 128' ;;
  fault)
    F=$(mktemp --suffix=.s)
    printf 'mov r1, 2\nld.global r2, [r1]\nexit\n' >"$F"
    expect_rc "$(run "$F" --engine model)" 1
    expect_err 'fault: misaligned global access'
    expect_err 'thread 0'
    rm -f "$F" ;;
  bad_option)
    expect_rc "$(run "$K/vector_add.s" --engine model --bogus)" 1
    expect_err 'simt run:' ;;
  bad_divergence)
    expect_rc "$(run "$K/vector_add.s" --engine model --divergence tree)" 1
    expect_err 'divergence must be deque or stack' ;;
  bad_dump)
    expect_rc "$(run "$K/vector_add.s" --engine model --dump nosuch)" 1
    expect_err "no data label 'nosuch'" ;;
  missing_file)
    expect_rc "$(run /nonexistent.s --engine model)" 1
    expect_err 'nonexistent.s' ;;
  rtl_engine)
    expect_rc "$(run "$K/vector_add.s" --dump c:4)" 0
    expect_out 'engine rtl'
    expect_out 'c: 101 105 109 113'
    expect_rc "$(run "$K/vector_add.s" --wave /tmp/simt_cli_test.fst)" 1
    expect_err 'no waveform tracing'
    expect_rc "$(run "$K/vector_add.s" --engine cosim --dump c:4 --json -)" 0
    expect_out '"engine":"cosim"'
    expect_out '"cosim_instructions_compared":24' ;;
  rtl_deadlock)
    expect_rc "$(run "$K/bar_tag_deadlock.s" --json -)" 2
    expect_out '"status":"deadlock"'
    expect_out '"engine":"rtl"'
    expect_err 'deadlock: nothing can issue'
    expect_err 'bar_tag_deadlock.s:' ;;
  rtl_fault)
    expect_rc "$(run "$K/fault_misaligned.s")" 1
    expect_err 'fault: misaligned global access at 22'
    expect_err 'fault_misaligned.s:17' ;;
  mem_options)
    # The harness memory's options: one request held at a time still runs right; bad values
    # are refused with the range.
    expect_rc "$(run "$K/vector_add.s" --mem-outstanding 1 --mem-latency 7 --dump c:4)" 0
    expect_out 'c: 101 105 109 113'
    # ... and the requests the memory refuses meanwhile are counted (counter 29).
    expect_rc "$(run "$K/vector_add.s" --mem-outstanding 1 --mem-latency 7 --json -)" 0
    expect_out '"memory_refused_cycles":[1-9]'
    expect_rc "$(run "$K/vector_add.s" --mem-outstanding 0)" 1
    expect_err 'mem-outstanding takes 1 to 65536 requests'
    expect_rc "$(run "$K/vector_add.s" --mem-latency 0)" 1
    expect_err 'mem-latency takes 1 to 100000 cycles' ;;
  rtl_timeout)
    expect_rc "$(run "$K/spin_lock.s" --divergence stack --max-cycles 5000)" 3
    expect_err 'timeout after 5000 cycles' ;;
  policy)
    expect_rc "$(run "$K/spin_lock.s" --engine model --policy gto --dump counter)" 0
    expect_out 'counter: 128'
    expect_rc "$(run "$K/spin_lock.s" --engine model --policy fifo)" 1
    expect_err 'policy must be' ;;
  timeout_origin)
    expect_rc "$(run "$K/bar_impatient_timeout.s" --engine cosim --timeout-origin last-any)" 0
    expect_rc "$(run "$K/bar_impatient_timeout.s" --timeout-origin latest)" 1
    expect_err 'timeout-origin must be first, first-any, last or last-any' ;;
  barrier_priority)
    expect_rc "$(run "$K/bar_priority.s" --engine cosim --barrier-priority 1=3 --dump order)" 0
    expect_out 'order: 0 1 2'
    expect_rc "$(run "$K/bar_priority.s" --barrier-priority 2=7)" 1
    expect_err 'barrier-priority takes ID=P with ID 0..15 and P 0..3' ;;
  # --device without a board (the runs on a simulated board: tb/fpga/test_device_pty.cpp):
  # a port that does not exist, is not a terminal, a rate no port takes, options that clash,
  # a terminal with nothing behind it (a fresh pty master: no answer, exit 5, bounded).
  device_missing_port)
    expect_rc "$(run "$K/vector_add.s" --device /dev/simt-no-such-port)" 1
    expect_err '/dev/simt-no-such-port: no such port' ;;
  device_not_a_tty)
    expect_rc "$(run "$K/vector_add.s" --device /dev/null)" 1
    expect_err '/dev/null: not a terminal'
    F=$TMP/file
    : >"$F"
    expect_rc "$(run "$K/vector_add.s" --device "$F")" 1
    expect_err 'not a terminal' ;;
  device_bad_baud)
    expect_rc "$(run "$K/vector_add.s" --device /dev/ptmx --baud 12345)" 1
    expect_err '--baud 12345: not a rate a serial port can be set to'
    expect_err '3000000' ;;
  device_bad_combination)
    expect_rc "$(run "$K/vector_add.s" --baud 9600)" 1
    expect_err '--baud applies only with --device'
    expect_rc "$(run "$K/vector_add.s" --engine device)" 1
    expect_err '--engine device needs --device PORT'
    expect_rc "$(run "$K/vector_add.s" --engine model --device /dev/null)" 1
    expect_err '--engine model does not apply'
    expect_rc "$(run "$K/vector_add.s" --device /dev/null --wave x.fst)" 1
    expect_err '--wave needs the rtl or cosim engine' ;;
  device_no_answer)
    start=$(date +%s)
    expect_rc "$(run "$K/vector_add.s" --device /dev/ptmx --baud 3000000 --json -)" 5
    expect_err 'device /dev/ptmx at 3000000 baud: the board does not answer'
    expect_err 'after 5 attempts'
    [ ! -s "$OUT" ] || fail "no result expected on stdout"
    [ $(($(date +%s) - start)) -lt 10 ] || fail "took 10 s or more" ;;
  device_wrong_board)
    # A bridge in front of a RAM (tb/cli/ram_bridge.py, the ULX3S link test's design): it
    # answers, but its geometry words read 0: exit 5 naming what was read, nothing loaded.
    python3 "$(dirname "$0")/ram_bridge.py" >"$TMP/pty" &
    bridge=$!
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$TMP/pty" ] && break; sleep 0.2; done
    rc=$(run "$K/vector_add.s" --device "$(cat "$TMP/pty")" --baud 3000000 --json -)
    kill "$bridge"
    expect_rc "$rc" 5
    expect_err 'not an FPGA top this host knows'
    expect_err 'reads 0x00000000 at 0x0030'
    expect_err 'program the board with a simt_fpga_uart_top'
    [ ! -s "$OUT" ] || fail "no result expected on stdout" ;;
  help)
    expect_rc "$(run --help)" 0
    expect_out '--max-cycles'
    expect_out '--device'
    expect_out '--baud'
    expect_out '5 the board does not answer' ;;
  *) fail "unknown case" ;;
esac
echo "ok ($CASE)"
