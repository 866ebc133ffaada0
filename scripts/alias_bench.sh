#!/usr/bin/env bash
# Seed 004's benchmarks (docs/compiler.md, "Alias metadata", "Measured"): each kernel run on
# the verilated core with --alias-opt off (the conservative compilation) and on (the check at
# launch and the variant recompiled for what it found), one line each with warp-instructions,
# memory requests and cycles and the on/off ratios; then the launch overhead (the check, the
# recompilation, a cached variant) and the cache hit rate over repeated launches.
# Usage: scripts/alias_bench.sh [SIMT] [simt run options, e.g. --mem-latency 100]
set -euo pipefail
cd "$(dirname "$0")/.."
simt=${1:-build/bin/simt}
shift || true
k=tb/compiler/kernels
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export SIMT_CACHE_DIR="$out/cache"

pair() {  # NAME FILE ARGS...: off, then on
  local name=$1
  shift
  "$simt" run "$@" --alias-opt off --json "$out/off.json" > /dev/null
  "$simt" run "$@" --alias-opt on --json "$out/on.json" > /dev/null
  python3 - "$name" "$out/off.json" "$out/on.json" <<'PY'
import json, sys
name, off, on = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
def row(j):
    return j["instructions"], j["stats"]["mem"]["requests"], j["cycles"]
a, b = row(off), row(on)
al = on["compile"]["alias"]
what = ("variant: " + al["facts"]) if al["recompiled"] else ("conservative: " + al.get("note", ""))
assert off["memory"] == on["memory"] or "overlap" in name, "results differ between off and on"
print(f"{name:22s} instr {a[0]:>7} -> {b[0]:>7} ({b[0] / a[0]:.2f})  requests {a[1]:>7} -> {b[1]:>7} "
      f"({b[1] / a[1]:.2f})  cycles {a[2]:>8} -> {b[2]:>8} ({b[2] / a[2]:.2f})  [{what}]")
PY
}

echo "# on the verilated core (rtl), ratios on/off from one run each"
pair "histeq disjoint" $k/histeq.cl --global 256 --arg buf:in:16384=iota --arg buf:cdf:16384=rand:3 \
  --arg buf:out:16384 --arg i32:64 "$@"
pair "histeq same region" $k/histeq.cl --global 256 --arg buf:img:16384=iota --arg buf:cdf:16384=iota \
  --arg view:img:0 --arg i32:64 "$@"
pair "chunk_scale disjoint" $k/chunk_scale.cl --global 1024 --arg buf:in:65536=iota --arg buf:out:65536 \
  --arg i32:64 --arg i32:3 "$@"
pair "chunk_scale same" $k/chunk_scale.cl --global 1024 --arg buf:x:65536=iota --arg view:x:0 \
  --arg i32:64 --arg i32:3 "$@"
pair "chunk_scale overlap +8" $k/chunk_scale.cl --global 1 --arg buf:x:4104=iota --arg view:x:8 \
  --arg i32:4096 --arg i32:3 "$@"

echo "# launch overhead (model engine; ${REPEAT:=10} launches of histeq, variant cache cold at first)"
rm -rf "$SIMT_CACHE_DIR"
for i in $(seq 1 "$REPEAT"); do
  "$simt" run $k/histeq.cl --engine model --global 256 --arg buf:in:16384=iota --arg buf:cdf:16384=rand:3 \
    --arg buf:out:16384 --arg i32:64 --json "$out/l$i.json" > /dev/null
done
python3 - "$out" "$REPEAT" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
runs = [json.load(open(f"{d}/l{i}.json"))["compile"] for i in range(1, n + 1)]
al = [r["alias"] for r in runs]
hits = sum(a["variant_cached"] for a in al)
cold, warm = al[0]["variant_ms"], [a["variant_ms"] for a in al[1:]]
checks = sorted(a["check_us"] for a in al)
print(f"check at launch: median {checks[len(checks) // 2]:.0f} us ({al[0]['evaluations']} range evaluations)")
print(f"recompilation (cold): {cold:.1f} ms; conservative compile (cold): {runs[0]['compile_ms']:.1f} ms; "
      f"cached variant: median {sorted(warm)[len(warm) // 2]:.2f} ms")
print(f"variant cache hit rate: {hits}/{n} launches")
PY
