#!/usr/bin/env python3
"""Elaborates every RTL top with slang (pyslang), the strictest IEEE 1800 front end.

The file list and the tops are those of the Verilator lint (scripts/rtl_files.sh), each top at
its default parameters, plus the small configurations in CONFIGS. The design is elaborated once
per preprocessor view, because each tool sees different `ifdef code:

  verilator  VERILATOR defined: what Verilator lints and simulates (the assertions)
  synthesis  SYNTHESIS defined: what Yosys synthesizes, and what Vivado or Quartus would read
  formal     FORMAL defined (not SYNTHESIS): what `read_verilog -formal` reads (formal.sh)

Every top is a top of one compilation per view (slang elaborates each, at its defaults, beside
its instances elsewhere). Errors and warnings both fail. Warnings: slang's default set plus
-Wextra and -Wpedantic, less the two below (docs/portable-sv.md says why):

  case-redundant-default  the project's rule is `unique case` with a `default` (for Yosys
                          and the lowRISC guide); slang calls that default redundant
  useless-cast            W'(x) casts that Verilator -Wall WIDTH needs, or that matter at other
                          parameter values than the defaults

Usage: scripts/slang_lint.py [--view NAME]... [--top NAME]... [--std 1800-2017]
Run by scripts/lint.sh with the project virtualenv's Python (pyslang pinned there).
"""

import argparse
import ctypes
import os
import shutil
import subprocess
import sys
import time

import pyslang
from pyslang import driver

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

VIEWS = {
    "verilator": ["VERILATOR"],
    "synthesis": ["SYNTHESIS"],
    "formal": ["FORMAL"],
}

# Vendor primitives that the synthesis view instantiates (the ECP5 PLL of the board tops):
# Yosys's own black-box declarations, read as a library (a module is elaborated only where
# the RTL instantiates it).
PRIMITIVE_LIBS = {"synthesis": ["ecp5/cells_bb.v"]}

# Besides every top at its defaults, the smallest core, as scripts/synth_check.sh synthesizes
# it and a board top instantiates it: degenerate sizes (one CTA, one warp) meet shifts and
# ports that the defaults never do.
CONFIGS = [
    ("simt_fpga_top", {"NumWarps": 1, "NumCtas": 1, "DataWords": 1024}),
    # The board top's other build, as scripts/lint.sh lints it: the link without the core.
    ("simt_ulx3s_top", {"WithCore": 0}),
]

WARNINGS = ["-Wextra", "-Wpedantic", "-Wno-case-redundant-default", "-Wno-useless-cast"]


def rtl_files(kind):
    out = subprocess.run([os.path.join(ROOT, "scripts", "rtl_files.sh"), kind], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def yosys_share():
    yosys = shutil.which("yosys")
    if yosys:
        d = os.path.join(os.path.dirname(os.path.realpath(yosys)), "..", "share", "yosys")
        if os.path.isdir(d):
            return os.path.normpath(d)
    sys.exit("slang: Yosys's share directory not found (its primitive declarations)")


def elaborate(view, sources, tops, std, params=None):
    """Returns (errors, warnings) of one view; slang prints each as file:line:col."""
    d = driver.Driver()
    d.addStandardArgs()
    args = ["slang", "--std", std, "--error-limit", "0"] + WARNINGS
    args += ["-D" + m for m in VIEWS[view]]
    for lib in PRIMITIVE_LIBS.get(view, []):
        args += ["-v", os.path.join(yosys_share(), lib)]
    for t in tops:
        args += ["--top", t]
    for k, v in (params or {}).items():
        args += ["-G", f"{k}={v}"]
    args += sources
    # Paths and names have no spaces (rtl_files.sh lists them one per line).
    if not d.parseCommandLine(" ".join(args), driver.CommandLineOptions()):
        sys.exit("slang: bad command line")
    if not (d.processOptions() and d.parseAllSources()):
        return max(d.diagEngine.numErrors, 1), d.diagEngine.numWarnings
    comp = d.createCompilation()
    d.reportCompilation(comp, True)
    d.runAnalysis(comp)  # slang's driver and usage checks, as the slang command runs them
    d.reportDiagnostics(True)
    ctypes.CDLL(None).fflush(None)  # slang's messages (C stdio) before the summary line
    errs = d.diagEngine.numErrors
    # slang ignores an override that names no parameter of the top: make a typo fail here.
    for inst in comp.getRoot().topInstances:
        names = {p.name for p in inst.body.parameters}
        for k in params or {}:
            if k not in names:
                print(f"slang: {inst.name} has no parameter {k}", flush=True)
                errs += 1
    return errs, d.diagEngine.numWarnings


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--view", action="append", choices=sorted(VIEWS),
                    help="preprocessor view (default: all)")
    ap.add_argument("--top", action="append", help="top module (default: every block)")
    ap.add_argument("--std", default="1800-2017", help="language version (default 1800-2017)")
    a = ap.parse_args()
    os.chdir(ROOT)
    sources = rtl_files("sources")
    tops = a.top or rtl_files("tops")
    fail = 0
    runs = [(f"{len(tops)} tops", tops, None)]
    if not a.top:
        for top, params in CONFIGS:
            what = top + " " + " ".join(f"{k}={v}" for k, v in params.items())
            runs.append((what, [top], params))
    for view in a.view or list(VIEWS):
        for what, run_tops, params in runs:
            t0 = time.monotonic()
            errs, warns = elaborate(view, sources, run_tops, a.std, params)
            dt = time.monotonic() - t0
            state = "clean" if errs + warns == 0 else "FAILED"
            print(f"slang: {view}: {what}: {errs} errors, {warns} warnings, {dt:.1f} s: {state}",
                  flush=True)
            fail |= errs + warns != 0
    print(f"slang: pyslang {pyslang.__version__}", flush=True)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
