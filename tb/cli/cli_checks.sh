# Shared by the `simt` contract checks (test_simt_run.sh, test_simt_cl.sh), sourced after
# they set SIMT, CASE and TMP: runs `simt` with stdout and stderr captured, and the checks.
OUT=$TMP/out
ERR=$TMP/err
: >"$OUT"
: >"$ERR"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL ($CASE): $*"; echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"; exit 1; }
run() { "$SIMT" run "$@" >"$OUT" 2>"$ERR"; echo $?; }
cc() { "$SIMT" cc "$@" >"$OUT" 2>"$ERR"; echo $?; }
expect_rc() { [ "$1" = "$2" ] || fail "exit status $1, expected $2"; }
expect_out() { grep -q -- "$1" "$OUT" || fail "stdout lacks '$1'"; }
expect_err() { grep -q -- "$1" "$ERR" || fail "stderr lacks '$1'"; }
