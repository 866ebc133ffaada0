#!/usr/bin/env python3
"""simtcore FPGA synthesis flow (make synth).

For each configuration below: Yosys synth_ice40 of the block inside a generated measurement
shell (scripts/gen_shell.py) and nextpnr-ice40 for the HX8K (CT256, constraints/hx8k_shell.pcf)
with three placement seeds, reporting the median Fmax; and Yosys synth_xilinx -family xc7 of
the bare block for LUT/FF/BRAM/DSP estimates. Writes build/synth/results.json and
docs/synthesis.md.

usage: synth_flow.py [--only NAME_SUBSTRING] [--seeds N]

Each configuration's figures are also kept in build/synth/<config>/result.json; with --only,
the other configurations come from those files (when present), and docs/synthesis.md is
rewritten once every configuration has figures.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "synth")
PCF = os.path.join(ROOT, "constraints", "hx8k_shell.pcf")
TARGET_MHZ = 50

# name, top, parameters, note. Defaults are the architecture's (8 warps, 32-deep queues, ...).
CONFIGS = [
    ("find_next_set_n32", "simt_find_next_set", {"N": 32, "Wrap": 0}, ""),
    ("rr_arbiter_n8", "simt_rr_arbiter", {"N": 8}, ""),
    ("fifo_32x8", "simt_fifo", {"Width": 32, "Depth": 8}, ""),
    ("token_deque_d16", "simt_token_deque", {"Depth": 16}, "queue depth sweep"),
    ("token_deque_d32", "simt_token_deque", {}, "default: 8 warps x 32 x 64-bit"),
    ("token_deque_d64", "simt_token_deque", {"Depth": 64}, "queue depth sweep"),
    ("token_deque_t128", "simt_token_deque", {"TokenW": 128}, "128-bit tokens (64-thread warps)"),
    ("divergence_unit_deque", "simt_divergence_unit", {}, "default: deque mode (8 warps x 32)"),
    ("divergence_unit_stack", "simt_divergence_unit", {"DequeMode": 0},
     "stack-only baseline, same RTL"),
    ("divergence_unit_w2_deque", "simt_divergence_unit", {"NumWarps": 2, "Depth": 16},
     "2 warps x 16"),
    ("divergence_unit_w2_stack", "simt_divergence_unit",
     {"NumWarps": 2, "Depth": 16, "DequeMode": 0}, "2 warps x 16, stack-only baseline"),
    ("divergence_unit_w1_deque", "simt_divergence_unit", {"NumWarps": 1, "Depth": 8},
     "1 warp x 8 tokens, full fast path: needs 121 % of the HX8K's logic cells"),
    ("divergence_unit_w1_small", "simt_divergence_unit",
     {"NumWarps": 1, "Depth": 8, "FastThreadTargets": 0},
     "fitting set for the HX8K: 1 warp x 8 tokens, fast path for label/pc+1 targets only"),
    ("barrier_slots_8", "simt_barrier_slots", {"NumSlots": 8}, "execution-slot sweep"),
    ("barrier_slots_16", "simt_barrier_slots", {}, "default: 16 execution slots, 8-entry FIFO"),
    # The unit at its defaults (2 CTAs x 8 warps) is left out: Yosys spends 22 minutes
    # writing the measurement shell's port list (a 460 MB JSON) and 40 more in synth_ice40 on
    # the table's per-thread state (31,897 LUT4, docs/blocks/barrier_unit.md).
    ("barrier_unit_1x4", "simt_barrier_unit",
     {"NumCtas": 1, "Warps": 4, "TagW": 12, "NumSlots": 8},
     "1 CTA x 4 warps, 8 slots, 12-bit tags"),
    ("barrier_unit_1x2", "simt_barrier_unit",
     {"NumCtas": 1, "Warps": 2, "TagW": 8, "TimeW": 10, "NumSlots": 4},
     "fitting attempt for the HX8K: 1 CTA x 2 warps, 4 slots, 8-bit tags"),
    ("barrier_unit_1x1", "simt_barrier_unit",
     {"NumCtas": 1, "Warps": 1, "TagW": 8, "TimeW": 10, "NumSlots": 2},
     "fitting attempt for the HX8K: 1 CTA x 1 warp (32 threads), 2 slots, 8-bit tags"),
    ("barrier_unit_1x1_narrow", "simt_barrier_unit",
     {"NumCtas": 1, "Warps": 1, "TagW": 6, "TimeW": 8, "NumSlots": 2, "CntW": 7},
     "fitting set for the HX8K: 1 CTA x 1 warp, 2 slots, 6-bit tags, 8-bit time, counts to 127"),
    ("thread_select_256", "simt_thread_select", {}, "default: 256 logical threads, 16 groups"),
    ("warp_scheduler_w4", "simt_warp_scheduler", {"NumWarps": 4}, "warp sweep"),
    ("warp_scheduler_w8", "simt_warp_scheduler", {}, "default: 8 warps, 6-bit priority"),
    ("warp_scheduler_w16", "simt_warp_scheduler", {"NumWarps": 16}, "warp sweep"),
    ("warp_scheduler_w32", "simt_warp_scheduler", {"NumWarps": 32, "PrioW": 10},
     "warp sweep, 10-bit priority"),
    ("warp_scheduler_w32_fit", "simt_warp_scheduler",
     {"NumWarps": 32, "PrioW": 10, "NumCtas": 2, "NumBarIds": 4, "TagW": 8},
     "fitting set for the HX8K: 2 CTAs x 4 barrier ids, 8-bit tags"),
    ("sm_lane_alu", "simt_sm_lane_alu", {},
     "one of the core's 32 lanes: ALU and setp compare (multiplier in LUTs)"),
    # The SM core in its FPGA top (host port, data memory), on its own pins: no shell.
    ("fpga_top_1x1", "simt_fpga_top",
     {"NumWarps": 1, "NumCtas": 1, "NumBarSlots": 4, "ImemDepth": 256, "SharedWords": 256,
      "ParamWords": 16, "DataWords": 1024},
     "the whole core, smallest: 1 CTA x 1 warp (32 lanes), 4 barrier slots"),
]

# Tops synthesized as they are, with their own pin file (no measurement shell).
OWN_PINS = {"simt_fpga_top": os.path.join(ROOT, "constraints", "hx8k_fpga_top.pcf")}
# synth_ice40 without `share` for these (scripts/yosys/ice40_coarse_noshare.ys).
NOSHARE = {"simt_fpga_top"}


def ice40_script(top):
    if top not in NOSHARE:
        return "synth_ice40 -top %s" % top
    return ("synth_ice40 -top %s -run begin:coarse; script %s; synth_ice40 -top %s -run map_ram:"
            % (top, os.path.join(ROOT, "scripts", "yosys", "ice40_coarse_noshare.ys"), top))


def run(cmd, log=None, check=True):
    res = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    if log:
        with open(log, "w") as f:
            f.write(res.stdout)
    if check and res.returncode != 0:
        sys.exit("synth_flow: command failed (%s): %s\n%s" % (
            log or "", " ".join(cmd), res.stdout[-2000:]))
    return res


def sources():
    out = subprocess.run([os.path.join(ROOT, "scripts", "rtl_files.sh"), "sources"],
                         cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True).stdout
    return [s for s in out.split() if s]


def chparam(top, params):
    if not params:
        return ""
    return "chparam %s %s; " % (" ".join("-set %s %s" % kv for kv in params.items()), top)


def last_stats(log_text):
    """Cell counts of the last 'Printing statistics' block of a Yosys log."""
    block = log_text.rsplit("Printing statistics", 1)[-1]
    cells = {}
    for m in re.finditer(r"^\s+(\$?[A-Za-z0-9_]+)\s+(\d+)$", block, re.M):
        cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    return cells


def logic_cells(work):
    """Logic cells nextpnr needed in its first placement (used, available), or None."""
    try:
        with open(os.path.join(work, "pnr1.log")) as f:
            found = re.findall(r"ICESTORM_LC:\s+(\d+)/\s*(\d+)", f.read())
    except OSError:
        return None
    return [int(found[-1][0]), int(found[-1][1])] if found else None


def tool_versions():
    def first_line(cmd):
        try:
            return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "unknown"
    return {"yosys": first_line(["yosys", "-V"]),
            "nextpnr-ice40": first_line(["nextpnr-ice40", "--version"]),
            "verilator": first_line(["verilator", "--version"])}


def measure(name, top, params, seeds):
    work = os.path.join(OUT, name)
    os.makedirs(work, exist_ok=True)
    srcs = " ".join(sources())
    cp = chparam(top, params)
    ice_json = os.path.join(work, "ice40.json")
    pcf = OWN_PINS.get(top, PCF)
    if top in OWN_PINS:
        # iCE40: the top as it is, at its parameters.
        run(["yosys", "-l", os.path.join(work, "ice40.log"), "-q", "-p",
             "read_verilog -defer -sv %s; %s%s; write_json %s" % (srcs, cp, ice40_script(top), ice_json)])
    else:
        # Ports of the parameterized block, then the shell around it.
        run(["yosys", "-q", "-p", "read_verilog -defer -sv %s; %shierarchy -top %s; proc; write_json %s"
             % (srcs, cp, top, os.path.join(work, "ports.json"))], os.path.join(work, "ports.log"))
        shell = run([sys.executable, os.path.join(ROOT, "scripts", "gen_shell.py"),
                     os.path.join(work, "ports.json"), top,
                     " ".join("%s=%s" % kv for kv in params.items())]).stdout
        shell_sv = os.path.join(work, "shell.sv")
        with open(shell_sv, "w") as f:
            f.write(shell)
        # iCE40: synthesis and place-and-route.
        run(["yosys", "-l", os.path.join(work, "ice40.log"), "-q", "-p",
             "read_verilog -defer -sv %s %s; synth_ice40 -top simt_shell -json %s"
             % (srcs, shell_sv, ice_json)])
    with open(os.path.join(work, "ice40.log")) as f:
        ice = last_stats(f.read())
    ffs = sum(v for k, v in ice.items() if k.startswith("SB_DFF"))
    mhz = []
    for seed in range(1, seeds + 1):
        log = os.path.join(work, "pnr%d.log" % seed)
        run(["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", ice_json, "--pcf", pcf,
             "--freq", str(TARGET_MHZ), "--seed", str(seed), "--quiet", "--log", log],
            check=False)
        with open(log) as f:
            found = re.findall(r"Max frequency for clock '[^']*': ([0-9.]+) MHz", f.read())
        mhz.append(float(found[-1]) if found else None)
    placed = [m for m in mhz if m is not None]
    # Xilinx 7-series estimate of the bare block.
    run(["yosys", "-l", os.path.join(work, "xc7.log"), "-q", "-p",
         "read_verilog -defer -sv %s; %ssynth_xilinx -flatten -family xc7 -top %s" % (srcs, cp, top)])
    with open(os.path.join(work, "xc7.log")) as f:
        xc7 = last_stats(f.read())
    return {
        "ice40_hx8k": {
            "lut4": ice.get("SB_LUT4", 0), "ff": ffs, "bram": ice.get("SB_RAM40_4K", 0),
            "carry": ice.get("SB_CARRY", 0),
            "lc": logic_cells(work),
            "fits": bool(placed),
            "fmax_mhz_median": statistics.median(placed) if placed else None,
            "fmax_mhz_seeds": mhz,
            "includes_shell": top not in OWN_PINS,
        },
        "xc7": {
            "lut": sum(v for k, v in xc7.items() if re.fullmatch(r"LUT[1-6]", k)),
            "ff": sum(v for k, v in xc7.items() if re.fullmatch(r"FD[A-Z]*", k)),
            "lutram": sum(v for k, v in xc7.items() if k.startswith("RAM")),
            "bram18": xc7.get("RAMB18E1", 0), "bram36": xc7.get("RAMB36E1", 0),
            "dsp": xc7.get("DSP48E1", 0), "carry4": xc7.get("CARRY4", 0),
        },
    }


def fmt_params(p):
    return ", ".join("%s=%s" % kv for kv in p.items()) or "defaults"


def write_markdown(data, path):
    rows = []
    for r in data["results"]:
        i, x = r["ice40_hx8k"], r["xc7"]
        if i["fits"]:
            seeds = ", ".join("%.1f" % m if m is not None else "-" for m in i["fmax_mhz_seeds"])
            fmax = "**%.1f** (%s)" % (i["fmax_mhz_median"], seeds)
        else:
            fmax = "does not fit (synthesis only)"
        bram = x["bram18"] + 2 * x["bram36"]
        lc = i.get("lc")
        cells = "{:,} ({:.0f} %)".format(lc[0], 100.0 * lc[0] / lc[1]) if lc else "-"
        rows.append("| %s | `%s` | %s | %s | %s | %d / %d / %d | %d / %d / %d / %d | %s |" % (
            r["name"], r["top"], fmt_params(r["params"]), fmax, cells, i["lut4"], i["ff"],
            i["bram"], x["lut"], x["ff"], x["lutram"], bram, r["note"]))
    t = data["tools"]
    text = """# Synthesis results

Generated by `make synth` (`scripts/synth_flow.py`), last written on %s; do not edit by hand.
The same figures are in `build/synth/results.json`. Each row is its configuration's latest
run (`--only NAME` reruns some and keeps the others' figures).

Tools: %s; %s; %s.

- **iCE40 HX8K** (CT256, `constraints/hx8k_shell.pcf`, target %d MHz): Yosys `synth_ice40`
  of the block inside a generated measurement shell (every input from a register of a serial
  shift chain, every output into a register, XOR-reduced to one pin), so the block's paths
  are register to register; nextpnr-ice40 with placement seeds 1, 2 and 3, median Fmax in
  bold. LUT4/FF/BRAM include the shell's registers (about one FF per block port bit).
- **Xilinx 7-series**: Yosys `synth_xilinx -family xc7` of the bare block: LUT / FF / LUTRAM
  cells / BRAM18 equivalents. Comparable in kind, not in absolute value, to Vivado figures.
- A configuration that does not fit the HX8K is reported with synthesis figures only; a
  fitting parameter set of the same block is listed next to it.

| config | top | parameters | iCE40 Fmax MHz, median (seeds) | HX8K logic cells (of 7,680) | iCE40 LUT4 / FF / BRAM | xc7 LUT / FF / LUTRAM / BRAM18 | note |
|---|---|---|---|---|---|---|---|
%s

Fitting sets. Blocks that do not fit the HX8K at their defaults are listed at their
defaults with synthesis figures only and at a set that fits (note "fitting set"):

- the divergence unit at 1 warp x 8 tokens with `FastThreadTargets=0` (the fast path keeps
  label and pc+1 targets; `brx`/`jmx` and uncovered `ret` take the sequence, 1.07x the
  cycles per request over the random programs, docs/blocks/divergence_unit.md); with the
  full fast path 1 warp needs 121 %% of the logic cells;
- the barrier unit at 1 CTA x 1 warp with 6-bit tags and counts to 127 (with 8-bit tags it
  needs 109 %%; its thread state table and per-thread section logic are registers). At its
  defaults (2 CTAs x 8 warps) Yosys spends 22 minutes writing the measurement shell's port
  list and 40 more in synth_ice40 (31,897 LUT4, 9,225 FF with the shell; run by hand,
  docs/blocks/barrier_unit.md), so that size is not in the table;
- the warp scheduler at 32 warps with 2 CTAs x 4 barrier ids and 8-bit tags.

The whole core (`fpga_top_*`: `simt_fpga_top`, the core with its host port and data memory,
on its own pins, `constraints/hx8k_fpga_top.pcf`, no shell) has no fitting set on the HX8K,
the largest iCE40: at its smallest (1 CTA x 1 warp) nextpnr counts the logic cells it needs
at more than fourteen devices and it needs more block RAMs than the device has (its register
file is 32 lane banks, twice for the second read port). Each of its 32 lanes
(`sm_lane_alu`: ALU and compare; before 2026-11-24 also the atomic update) is a third of an HX8K on its own; more than
half of it is the 32x32 multiplier the HX8K (no DSP blocks) builds from LUTs (about 1,360
LUT4; 1,060 remain without it, still 34,000 for 32 lanes), and the smallest fitting sets of
the divergence and barrier units already fill more than one device together. Its iCE40
synthesis skips Yosys's `share` pass (`scripts/yosys/ice40_coarse_noshare.ys`), which
otherwise runs for tens of minutes on those multipliers. By the xc7 estimate (LUTs, DSPs
for the multipliers) the core is a mid-size 7-series part's design (docs/blocks/fpga_top.md).
""" % (data["date"], t["yosys"], t["nextpnr-ice40"], t["verilator"], TARGET_MHZ,
       "\n".join(rows))
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run configurations whose name contains this")
    ap.add_argument("--seeds", type=int, default=3, help="nextpnr placement seeds")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    results = []
    for name, top, params, note in CONFIGS:
        cached = os.path.join(OUT, name, "result.json")
        if args.only and args.only not in name:
            if os.path.exists(cached):
                with open(cached) as f:
                    r = json.load(f)
                if "lc" not in r["ice40_hx8k"]:  # figures of an older flow
                    r["ice40_hx8k"]["lc"] = logic_cells(os.path.join(OUT, name))
                results.append(r)
            continue
        print("synth: %s ..." % name, flush=True)
        r = {"name": name, "top": top, "params": params, "note": note}
        r.update(measure(name, top, params, args.seeds))
        with open(cached, "w") as f:
            json.dump(r, f, indent=2)
        i = r["ice40_hx8k"]
        print("synth: %s: iCE40 %s, %d LUT4; xc7 %d LUT" % (
            name, "%.1f MHz" % i["fmax_mhz_median"] if i["fits"] else "does not fit", i["lut4"],
            r["xc7"]["lut"]), flush=True)
        results.append(r)
    data = {"date": datetime.date.today().isoformat(), "tools": tool_versions(),
            "target_mhz": TARGET_MHZ, "results": results}
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(data, f, indent=2)
    if len(results) == len(CONFIGS):
        write_markdown(data, os.path.join(ROOT, "docs", "synthesis.md"))
        print("synth: wrote docs/synthesis.md and build/synth/results.json")
    else:
        print("synth: wrote build/synth/results.json (%d of %d configurations; "
              "docs/synthesis.md needs all)" % (len(results), len(CONFIGS)))


if __name__ == "__main__":
    main()
