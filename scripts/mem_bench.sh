#!/usr/bin/env bash
# The memory system's benchmarks (docs/blocks/mem_port.md, "Measured"): streaming, reuse and
# neighbour kernels and the latency-bound linked list on the verilated core, one line each with
# cycles, memory traffic, L1 counters and cycles per 64-byte line moved (1.0 is the limit).
# (stream_loop: the same 64 Ki words by one work-group of 256 striding over them; stream_v4:
# the same with uint4 elements, ld/st.global.v4.)
# Usage: scripts/mem_bench.sh [SIMT] [simt run options, e.g. --mem-latency 100 --mem-bandwidth 64]
set -euo pipefail
cd "$(dirname "$0")/.."
simt=${1:-build/bin/simt}
shift || true
dir=sim/bench/mem
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # NAME FILE ARGS...
  local name=$1
  shift
  "$simt" run "$@" --json "$out/$name.json" > /dev/null
  python3 - "$name" "$out/$name.json" <<'PY'
import json, sys
name, path = sys.argv[1:3]
j = json.load(open(path))
s = j["stats"]
m, l1 = s.get("mem", {}), s.get("l1", {})
# Why global accesses waited (docs/blocks/sm.md, counters 29, 24-28 and 22, each counted on
# its own): a request offered and not taken (the L1's or the port's back-pressure), every
# MSHR busy, a request id, an in-flight slot, the sender busy with the instruction before;
# no warp to issue while loads are in flight.
waits = (f"  waits: refused {s.get('memory_refused_cycles', 0)} mshr {l1.get('mshr_full_cycles', 0)} "
         f"id {s.get('memory_id_wait_cycles', 0)} slot {s.get('memory_slot_wait_cycles', 0)} "
         f"sender {s.get('memory_sender_wait_cycles', 0)} "
         f"idle {s.get('idle_memory_cycles', 0)}")
moved = m.get("read_bytes", 0) + m.get("write_bytes", 0)
lookups = l1.get("hits", 0) + l1.get("misses", 0) + l1.get("mshr_merges", 0)
print(f"{name:12s} {j['status']:6s} cycles {j['cycles']:>9}  requests {m.get('requests', 0):>7}  "
      f"bytes {moved:>8}  l1 hit rate {100 * l1.get('hits', 0) / lookups if lookups else 0:5.1f} %  "
      f"cycles per line {j['cycles'] / (moved / 64) if moved else 0:8.2f}{waits}")
PY
}
run stream "$dir/stream.cl" --global 65536 --local 256 --arg buf:a:65536=iota --arg buf:b:65536=const:2 \
  --arg buf:c:65536 "$@"
run stream_loop "$dir/stream_loop.cl" --global 256 --local 256 --arg buf:a:65536=iota \
  --arg buf:b:65536=const:2 --arg buf:c:65536 --arg u32:65536 "$@"
run stream_v4 "$dir/stream_v4.cl" --global 256 --local 256 --arg buf:a:65536=iota \
  --arg buf:b:65536=const:2 --arg buf:c:65536 --arg u32:16384 "$@"
run matmul "$dir/matmul.cl" --global 64,64 --local 16,16 --arg buf:a:4096=iota --arg buf:b:4096=const:3 \
  --arg buf:c:4096 --arg u32:64 "$@"
run stencil "$dir/stencil.cl" --global 65536 --local 256 --arg buf:in:65536=iota --arg buf:out:65536 \
  --arg u32:65536 "$@"
run linked_list sim/kernels/linked_list.s "$@"
