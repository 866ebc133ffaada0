#!/usr/bin/env python3
"""Compares the "memory" of two JSON results (`simt run FILE.cl --json`, `simt_pocl_ref
--json`): the same buffers, the same lengths, every element equal. Integers must be equal;
floats (f32 buffers) equal as values, or within --ulp units in the last place when given (two
OpenCL implementations may round a built-in differently or fuse a multiply-add differently).
Prints one line per buffer that differs with its first differences, then a summary; exit 0
when all match, 1 otherwise.

usage: compare_memory.py A.json B.json [--ulp N] [--only NAME,NAME] [--ignore NAME,NAME]
"""
import argparse
import json
import math
import struct
import sys


def ordered_bits(f):
    """The float32 as an integer that orders like the float (for ulp distances)."""
    (u,) = struct.unpack("<I", struct.pack("<f", f))
    return u if u < 0x80000000 else 0x80000000 - u


def ulps(a, b):
    if a is None or b is None:  # NaN prints as null in both
        return 0 if a is None and b is None else math.inf
    if isinstance(a, int) and isinstance(b, int):
        return abs(a - b)
    if math.isinf(a) or math.isinf(b):
        return 0 if a == b else math.inf
    return abs(ordered_bits(float(a)) - ordered_bits(float(b)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--ulp", type=int, default=0, help="float tolerance in ulp (default exact)")
    ap.add_argument("--only", default="", help="compare only these buffers")
    ap.add_argument("--ignore", default="", help="buffers not to compare")
    args = ap.parse_args()
    with open(args.a) as fa, open(args.b) as fb:
        ma, mb = json.load(fa)["memory"], json.load(fb)["memory"]
    only = [n for n in args.only.split(",") if n]
    ignore = {n for n in args.ignore.split(",") if n}
    names = only or sorted(set(ma) | set(mb))
    bad = 0
    elements = 0
    worst = 0
    for name in names:
        if name in ignore:
            continue
        if name not in ma or name not in mb:
            print(f"{name}: only in {'A' if name in ma else 'B'}")
            bad += 1
            continue
        xa, xb = ma[name], mb[name]
        if len(xa) != len(xb):
            print(f"{name}: {len(xa)} elements in A, {len(xb)} in B")
            bad += 1
            continue
        diffs = []
        for i, (x, y) in enumerate(zip(xa, xb)):
            floaty = isinstance(x, float) or isinstance(y, float)
            d = ulps(x, y) if floaty else (0 if x == y else math.inf)
            if floaty and d != math.inf:
                worst = max(worst, d)
            if d > (args.ulp if floaty else 0):
                diffs.append(f"[{i}] {x} != {y}")
        elements += len(xa)
        if diffs:
            bad += 1
            more = f" ... ({len(diffs)} in all)" if len(diffs) > 8 else ""
            print(f"{name}: " + ", ".join(diffs[:8]) + more)
    verdict = "match" if bad == 0 else "MISMATCH"
    print(f"{verdict}: {len(names) - len(ignore & set(names))} buffers, {elements} elements, "
          f"largest float difference {worst} ulp")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
