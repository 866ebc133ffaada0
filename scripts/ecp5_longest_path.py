#!/usr/bin/env python3
"""The longest register-to-register path of a mapped ECP5 netlist, in logic levels, and the
units it crosses.

nextpnr names the critical path only after routing; this reads the Yosys JSON netlist the
flow places (build/synth/CONFIG/ecp5.json) and finds the deepest combinational chain
between sequential cells, so a design that does not route yet still says where its time
goes. Levels are weighted by cell type (a LUT4 1, a carry cell 0.25 as the fast carry
chain, a wide-LUT mux 0.3, a multiplier 6); flip-flops, block RAM (registered read), the PLL
and I/O start and end paths, LUT RAM is combinational from its read address.

  python3 scripts/ecp5_longest_path.py build/synth/ecp5_ulx3s_core_1x1_l8/ecp5.json
"""
import argparse
import collections
import json
import re

WEIGHT = {"LUT4": 1.0, "PFUMX": 0.3, "L6MUX21": 0.3, "CCU2C": 0.25, "MULT18X18D": 6.0,
          "TRELLIS_DPR16X4": 1.0}
SEQUENTIAL = {"TRELLIS_FF", "DP16KD", "EHXPLLL", "TRELLIS_IO", "IB", "OB", "BB"}


def load_top(path):
    with open(path) as f:
        modules = json.load(f)["modules"]
    return next(m for m in modules.values() if m.get("attributes", {}).get("top"))


def fanin_graph(cells):
    """Combinational cell -> the combinational cells driving its inputs; and the
    combinational cells that drive a sequential cell (where paths end)."""
    driver = {}
    for name, c in cells.items():
        dirs = c.get("port_directions", {})
        for port, bits in c["connections"].items():
            if dirs.get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = name
    fanin = collections.defaultdict(set)
    ends = set()
    for name, c in cells.items():
        dirs = c.get("port_directions", {})
        if c["type"] in SEQUENTIAL:
            for port, bits in c["connections"].items():
                if dirs.get(port) == "input":
                    ends.update(driver[b] for b in bits if isinstance(b, int) and b in driver)
            continue
        for port, bits in c["connections"].items():
            if dirs.get(port) != "input":
                continue
            if c["type"] == "TRELLIS_DPR16X4" and not port.startswith("RAD"):
                # LUT RAM: the write side is clocked (a path ends there).
                ends.update(driver[b] for b in bits if isinstance(b, int) and b in driver)
                continue
            for b in bits:
                d = driver.get(b) if isinstance(b, int) else None
                if d and cells[d]["type"] not in SEQUENTIAL:
                    fanin[name].add(d)
    return fanin, {e for e in ends if cells[e]["type"] not in SEQUENTIAL}


def longest_path(cells, fanin):
    """The deepest chain (iterative depth-first search; a combinational loop is cut)."""
    depth, prev, state = {}, {}, {}
    for root in cells:
        if cells[root]["type"] in SEQUENTIAL or root in depth:
            continue
        stack = [(root, False)]
        while stack:
            n, expanded = stack.pop()
            if expanded:
                best, via = 0.0, None
                for f in sorted(fanin[n]):  # ties go to the first name: the same path each run
                    if depth.get(f, 0.0) > best:
                        best, via = depth[f], f
                depth[n] = best + WEIGHT.get(cells[n]["type"], 1.0)
                prev[n] = via
                state[n] = "done"
            elif n not in state:
                state[n] = "open"
                stack.append((n, True))
                stack.extend((f, False) for f in fanin[n] if f not in state)
    return depth, prev


def path_to(end, prev):
    path = []
    while end:
        path.append(end)
        end = prev[end]
    return list(reversed(path))


def unit_of(cell_name):
    """The instance path of a flattened cell (u_sm.u_sync.u_du), without the board wrapper."""
    insts = re.findall(r"\b(u_[a-z0-9_]+)", cell_name.replace("\\", " "))
    while insts and insts[0] == "u_top":
        insts.pop(0)
    return ".".join(insts) or "(top)"


def segments_of(path, cells):
    """The path as runs of cells in one unit: [unit, levels, cells]."""
    segments = []
    for n in path:
        u, w = unit_of(n), WEIGHT.get(cells[n]["type"], 1.0)
        if segments and segments[-1][0] == u:
            segments[-1][1] += w
            segments[-1][2] += 1
        else:
            segments.append([u, w, 1])
    return segments


def signal_names(top):
    """Net bit -> the shortest name the design gave it (Yosys's own $-names only when the
    bit has no other): the signal a cell of the path drives, in the RTL's words."""
    names = {}
    for name, net in top["netnames"].items():
        generated = name.startswith("$")
        for b in net["bits"]:
            if not isinstance(b, int):
                continue
            old = names.get(b)
            if (old is None or (old.startswith("$") and not generated)
                    or (old.startswith("$") == generated and len(name) < len(old))):
                names[b] = name
    return names


def ranked_paths(cells):
    """The deepest path to each path end, deepest first, as (levels, cells, segments); and
    every combinational cell's depth."""
    fanin, ends = fanin_graph(cells)
    depth, prev = longest_path(cells, fanin)

    def paths():
        for end in sorted(ends & depth.keys(), key=lambda e: (-depth[e], e)):
            path = path_to(end, prev)
            yield depth[end], path, segments_of(path, cells)
    return paths(), depth


def deepest(netlist):
    """The deepest path of a netlist file: (levels, [[unit, levels, cells], ...])."""
    paths, _ = ranked_paths(load_top(netlist)["cells"])
    levels, _, segments = next(paths)
    return levels, segments


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist", help="a mapped ECP5 Yosys JSON netlist (ecp5.json)")
    ap.add_argument("--cells", action="store_true",
                    help="list every cell of the path: its type, the depth after it and the "
                         "signal it drives (the RTL's name where the netlist kept one)")
    ap.add_argument("--top", type=int, default=1, metavar="N",
                    help="the N deepest paths that start or end in different units")
    args = ap.parse_args()
    top = load_top(args.netlist)
    cells = top["cells"]
    names = signal_names(top) if args.cells else {}
    paths, depth = ranked_paths(cells)
    shown = set()
    for levels, path, segments in paths:
        if len(shown) == args.top:
            break
        route = (segments[0][0], segments[-1][0])
        if route in shown:
            continue
        shown.add(route)
        print("%s path: %.1f levels, %d cells" % ("longest" if len(shown) == 1 else "next",
                                                   levels, len(path)))
        for u, w, k in segments:
            print("  %-40s %5.1f levels  %3d cells" % (u, w, k))
        if args.cells:
            for n in path:
                c = cells[n]
                dirs = c.get("port_directions", {})
                out = [b for p, bits in c["connections"].items() if dirs.get(p) == "output"
                       for b in bits if isinstance(b, int)]
                sig = next((names[b] for b in out if b in names), "?")
                print("    %5.1f  %-8s %s" % (depth[n], c["type"], sig))


if __name__ == "__main__":
    main()
