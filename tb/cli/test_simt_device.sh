#!/bin/sh
# `simt run --device PORT [--baud N]` checks that need no board (docs/isa-model.md): a port
# that does not exist, one that is not a terminal, a rate no port can be set to, options that
# do not go together, and a terminal with nothing behind it (a fresh pseudo-terminal master:
# the board does not answer, exit 5, within the client's bounded retries). The runs on a
# simulated board behind a pseudo-terminal are tb/fpga/test_device_pty.cpp.
# usage: test_simt_device.sh SIMT KERNEL_DIR CASE
set -u
SIMT=$1
K=$2
CASE=$3
TMP=$(mktemp -d)
. "$(dirname "$0")/cli_checks.sh"

case $CASE in
  missing_port)
    expect_rc "$(run "$K/vector_add.s" --device /dev/simt-no-such-port)" 1
    expect_err '/dev/simt-no-such-port: no such port' ;;
  not_a_tty)
    expect_rc "$(run "$K/vector_add.s" --device /dev/null)" 1
    expect_err '/dev/null: not a terminal'
    F=$TMP/file
    : >"$F"
    expect_rc "$(run "$K/vector_add.s" --device "$F")" 1
    expect_err 'not a terminal' ;;
  bad_baud)
    expect_rc "$(run "$K/vector_add.s" --device /dev/ptmx --baud 12345)" 1
    expect_err '--baud 12345: not a rate a serial port can be set to'
    expect_err '3000000' ;;
  bad_combination)
    expect_rc "$(run "$K/vector_add.s" --baud 9600)" 1
    expect_err '--baud applies only with --device'
    expect_rc "$(run "$K/vector_add.s" --engine device)" 1
    expect_err '--engine device needs --device PORT'
    expect_rc "$(run "$K/vector_add.s" --engine model --device /dev/null)" 1
    expect_err '--engine model does not apply'
    expect_rc "$(run "$K/vector_add.s" --device /dev/null --wave x.fst)" 1
    expect_err '--wave needs the rtl or cosim engine' ;;
  no_answer)
    start=$(date +%s)
    expect_rc "$(run "$K/vector_add.s" --device /dev/ptmx --baud 3000000 --json -)" 5
    expect_err 'device /dev/ptmx at 3000000 baud: the board does not answer'
    expect_err 'after 5 attempts'
    [ ! -s "$OUT" ] || fail "no result expected on stdout"
    [ $(($(date +%s) - start)) -lt 10 ] || fail "took 10 s or more" ;;
  help)
    expect_rc "$(run --help)" 0
    expect_out '--device'
    expect_out '--baud'
    expect_out '5 the board does not answer' ;;
  *) fail "unknown case" ;;
esac
echo "ok ($CASE)"
