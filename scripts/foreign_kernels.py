#!/usr/bin/env python3
"""Kernels from other projects (issue 20, docs/compiler.md "Kernels from other projects").

Runs OpenCL kernels that this project did not write, from Rodinia (yuhc/gpu-rodinia) and
Vortex (vortexgpgpu/vortex tests/opencl), with small realistic inputs: `simt run` on the ISA
model and the verilated core, and `simt_pocl_ref` on PoCL with the same --arg specs; compares
the buffers (tb/compiler/pocl_ref/compare_memory.py) and prints a Markdown table: compiles,
runs, matches PoCL, warp-instructions and cycles on the core.

Nothing of theirs is committed here: the kernels are extracted at run time, at the pinned
commits below, into build/foreign/ (gitignored) from a copy of each repository:
  --src rodinia=PATH   a clone or bare git directory of yuhc/gpu-rodinia
  --src vortex=PATH    a clone of vortexgpgpu/vortex, or a directory laid out COMMIT/PATH
A git directory is read with `git show COMMIT:PATH`; a plain directory must hold COMMIT/PATH.
Defaults: /work/.mirror/OWNER+NAME/repo when present, then build/foreign/src/OWNER+NAME.
Not part of `make test` (the sources come from outside the repository).

usage: scripts/foreign_kernels.py [--only ID,ID] [--engines model,rtl] [--src NAME=PATH]...
                                  [--simt-option=OPTION]... [--simt PATH]
"""
import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "foreign")
SIMT = os.path.join(BUILD, "bin", "simt")
POCL = os.path.join(BUILD, "bin", "simt_pocl_ref")
COMPARE = os.path.join(ROOT, "tb", "compiler", "pocl_ref", "compare_memory.py")

REPOS = {
    "rodinia": "yuhc/gpu-rodinia",
    "vortex": "vortexgpgpu/vortex",
}
RODINIA = "9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4"
# Vortex: the commit of each file as the code index holds it (tests/opencl changes often).
V_VECADD = "0cabd24f08355dabe5696a4cdbf89e027161085f"
V_SGEMM2 = "0cabd24f08355dabe5696a4cdbf89e027161085f"
V_2020 = "20ad217d62b7e8cbe0057340acdac1010038af96"
V_SFILTER = "3b0b982ae27ed6c87919d87bbe40e2e845892407"
V_DOT = "d47cccc1572451f9946b19fb1e3bf307e22e0a4f"
V_PSUM = "560ebb3af51e0404c7bbaffadddd8728d0879201"
V_CONV3 = "7cfcbdc8f0a9c48d6c572ac099686798a30b5bce"
V_BFSPULL = "2afbdf0bcd12e7594a43e9b15036f7e7b72919f8"


# ---- inputs: small, deterministic, shaped like the suites' own data ----------------------

def words(xs):
    return "list:" + ",".join(str(x) for x in xs)


def floats(xs):
    return "list:" + ",".join(repr(float(x)) for x in xs)


def packed_bytes(bs):
    """Bytes (a __global char array) as u32 words, little-endian."""
    bs = list(bs) + [0] * (-len(bs) % 4)
    return [bs[i] | bs[i + 1] << 8 | bs[i + 2] << 16 | bs[i + 3] << 24 for i in range(0, len(bs),
                                                                                      4)]


def graph(n, seed, max_degree=4):
    """A random directed graph in CSR form: (row offsets, column indices)."""
    rng = random.Random(seed)
    offsets, cols = [0], []
    for v in range(n):
        for _ in range(rng.randint(0, max_degree)):
            cols.append(rng.randrange(n))
        offsets.append(len(cols))
    return offsets, cols


def bfs_levels(offsets, cols, src, depth):
    """BFS levels from src up to `depth` (-1: not reached)."""
    level = [-1] * (len(offsets) - 1)
    level[src] = 0
    frontier = [src]
    for d in range(1, depth + 1):
        nxt = []
        for v in frontier:
            for c in cols[offsets[v]:offsets[v + 1]]:
                if level[c] < 0:
                    level[c] = d
                    nxt.append(c)
        frontier = nxt
    return level


def rodinia_bfs1_args():
    n = 64
    offsets, cols = graph(n, 1)
    level = bfs_levels(offsets, cols, 0, 2)
    nodes = []
    for v in range(n):
        nodes += [offsets[v], offsets[v + 1] - offsets[v]]
    mask = [1 if lv == 2 else 0 for lv in level]  # the frontier after two steps
    visited = [1 if lv >= 0 else 0 for lv in level]
    return ["buf:nodes:%d=%s" % (2 * n, words(nodes)), "buf:edges:%d=%s" % (len(cols), words(cols)),
            "buf:mask:%d:u32=%s" % (n // 4,
                                    words(packed_bytes(mask))), "buf:updating:%d:u32" % (n // 4),
            "buf:visited:%d:u32=%s" % (n // 4, words(packed_bytes(visited))),
            "buf:cost:%d=%s" % (n, words(level)), "i32:%d" % n]


def rodinia_bfs2_args():
    n = 64
    rng = random.Random(2)
    updating = [rng.randint(0, 1) for _ in range(n)]
    visited = [rng.randint(0, 1) for _ in range(n)]
    return ["buf:mask:%d:u32" % (n // 4),
            "buf:updating:%d:u32=%s" % (n // 4, words(packed_bytes(updating))),
            "buf:visited:%d:u32=%s" % (n // 4, words(packed_bytes(visited))), "buf:over:1:u32",
            "i32:%d" % n]


def vortex_bfs_pull_args():
    n = 64
    offsets, cols = graph(n, 3)
    level = bfs_levels(offsets, cols, 0, 2)
    mask = [0 if lv >= 0 else 1 for lv in level]  # not yet visited
    frontier = [1 if lv == 2 else 0 for lv in level]
    dist = [lv if lv >= 0 else 1000 for lv in level]
    return ["buf:mask:%d=%s" % (n, words(mask)), "buf:dist:%d=%s" % (n, words(dist)),
            "buf:mat:%d=%s" % (n + 1, words(offsets)), "buf:col_ind:%d=%s" % (len(cols),
                                                                              words(cols)),
            "buf:vec:%d=%s" % (n, words(frontier)), "buf:active:%d" % n, "i32:2"]


def pathfinder_args():
    rng = random.Random(4)
    cols, rows, block, pyramid = 56, 8, 32, 2
    halo = 1
    small = block - pyramid * halo * 2
    groups = cols // small + (0 if cols % small == 0 else 1)
    wall = [rng.randrange(10) for _ in range(rows * cols)]
    src = [rng.randrange(10) for _ in range(cols)]
    args = ["i32:%d" % pyramid, "buf:wall:%d=%s" % (len(wall), words(wall)),
            "buf:src:%d=%s" % (cols, words(src)), "buf:results:%d" % cols, "i32:%d" % cols,
            "i32:%d" % rows, "i32:0", "i32:%d" % (pyramid * halo), "i32:%d" % halo,
            "local:%d" % (4 * block), "local:%d" % (4 * block), "buf:debug:16"]
    return str(groups * block), str(block), args


def hotspot_args():
    # Rodinia's hotspot.c constants for a 16 x 16 grid of a 16 mm chip.
    rows = cols = 16
    t_chip, chip_h, chip_w = 0.0005, 0.016, 0.016
    factor, spec_heat, k_si, max_pd, precision = 0.5, 1.75e6, 100.0, 3.0e6, 0.001
    gh, gw = chip_h / rows, chip_w / cols
    cap = factor * spec_heat * t_chip * gw * gh
    rx = gw / (2.0 * k_si * t_chip * gh)
    ry = gh / (2.0 * k_si * t_chip * gw)
    rz = t_chip / (k_si * gh * gw)
    step = precision / (max_pd / (factor * t_chip * spec_heat))
    rng = random.Random(5)
    temp = [323.0 + 20.0 * rng.random() for _ in range(rows * cols)]
    power = [0.001 * rng.random() for _ in range(rows * cols)]
    block, pyramid = 8, 1
    small = block - pyramid * 2
    groups = cols // small + (0 if cols % small == 0 else 1)
    args = ["i32:%d" % pyramid, "buf:power:%d:f32=%s" % (len(power), floats(power)),
            "buf:temp_src:%d:f32=%s" % (len(temp), floats(temp)), "buf:temp_dst:%d:f32" % len(temp),
            "i32:%d" % cols, "i32:%d" % rows, "i32:1", "i32:1"] + \
        ["f32:%r" % v for v in (cap, rx, ry, rz, step)]
    g = str(groups * block)
    return g + "," + g, "%d,%d" % (block, block), args


def nw_args(kernel2):
    rng = random.Random(6)
    n, penalty, block = 33, 10, 16
    items = [0] * (n * n)
    for i in range(1, n):
        items[i * n] = -i * penalty
        items[i] = -i * penalty
    ref = [rng.randint(-4, 11) for _ in range(n * n)]
    return ["buf:reference:%d=%s" % (n * n, words(ref)), "buf:items:%d=%s" % (n * n, words(items)),
            "buf:output:%d" % (n * n), "local:%d" % (4 * (block + 1) ** 2),
            "local:%d" % (4 * block * block),
            "i32:%d" % n, "i32:%d" % penalty, "i32:1", "i32:2", "i32:32", "i32:0", "i32:0"]


def matrix(n, seed, dominant):
    rng = random.Random(seed)
    m = [rng.uniform(-1.0, 1.0) for _ in range(n * n)]
    if dominant:
        for i in range(n):
            m[i * n + i] += n
    return m


def gaussian_args(fan2):
    n = 16
    a = matrix(n, 7, True)
    b = [random.Random(8).uniform(-1, 1) for _ in range(n)]
    m = matrix(n, 9, False) if fan2 else [0.0] * (n * n)
    return ["buf:m:%d:f32=%s" % (n * n, floats(m)), "buf:a:%d:f32=%s" % (n * n, floats(a)),
            "buf:b:%d:f32=%s" % (n, floats(b)), "i32:%d" % n, "i32:0"]


def backprop_forward_args():
    n_in, hid = 64, 16
    return ["buf:input:%d:f32=rand:21" % (n_in + 1), "buf:output_hidden:%d:f32" % (hid + 1),
            "buf:input_hidden:%d:f32=rand:22" % ((n_in + 1) * (hid + 1)),
            "buf:partial:%d:f32" % (n_in // 16 * hid), "local:64", "local:1024",
            "i32:%d" % n_in, "i32:%d" % hid]


def backprop_adjust_args():
    n_in, hid = 64, 16
    size = (n_in + 1) * (hid + 1)
    return ["buf:delta:%d:f32=rand:23" % (hid + 1), "i32:%d" % hid,
            "buf:ly:%d:f32=rand:24" % (n_in + 1),
            "i32:%d" % n_in, "buf:w:%d:f32=rand:25" % size, "buf:oldw:%d:f32=rand:26" % size]


def lud_args(kernel):
    block = 16
    dim = 16 if kernel == "lud_diagonal" else 32
    m = "buf:m:%d:f32=%s" % (dim * dim, floats(matrix(dim, 10, True)))
    if kernel == "lud_diagonal":
        return str(block), str(block), [m, "local:%d" % (4 * block * block), "i32:%d" % dim,
                                        "i32:0"]
    if kernel == "lud_perimeter":
        groups = dim // block - 1
        return (str(groups * 2 * block), str(2 * block),
                [m] + ["local:%d" % (4 * block * block)] * 3 + ["i32:%d" % dim, "i32:0"])
    groups = dim // block - 1
    g = str(groups * block)
    return g + "," + g, "%d,%d" % (block, block), \
        [m] + ["local:%d" % (4 * block * block)] * 2 + ["i32:%d" % dim, "i32:0"]


# ---- the kernels ------------------------------------------------------------------------
# id, repo, commit, path (+ headers to extract beside it), kernel, -D, global, local, args,
# float tolerance in ulp (PoCL contracts and orders differently), the core too?
def cases():
    pf_g, pf_l, pf_args = pathfinder_args()
    hs_g, hs_l, hs_args = hotspot_args()
    c = []

    def add(id_, repo, commit, path, kernel, glob, loc, args, ulp=0, defines=(), headers=(),
            rtl=True, stub=False, offset=""):
        c.append(dict(id=id_, repo=repo, commit=commit, path=path, kernel=kernel, glob=glob,
                      loc=loc, offset=offset,
                      args=args, ulp=ulp, defines=list(defines), headers=list(headers), rtl=rtl,
                      stub=stub))

    v, r = "vortex", "rodinia"
    add("vortex/vecadd", v, V_VECADD, "tests/opencl/vecadd/kernel.cl", "vecadd", "64", "16",
        ["buf:A:64:f32=rand:1", "buf:B:64:f32=rand:2",
         "buf:C:64:f32"], defines=["TYPE=float"], stub=True)
    add("vortex/sgemm", v, V_2020, "tests/opencl/sgemm/kernel.cl", "sgemm", "16,16", "8,8",
        ["buf:A:256:f32=rand:3", "buf:B:256:f32=rand:4", "buf:C:256:f32", "i32:16"], ulp=16,
        defines=["TYPE=float"], stub=True)
    add("vortex/sgemm2", v, V_SGEMM2, "tests/opencl/sgemm2/kernel.cl", "sgemm2", "16,16", "8,8",
        ["buf:A:256:f32=rand:5", "buf:B:256:f32=rand:6", "buf:C:256:f32", "u32:16"], ulp=16,
        defines=["TYPE=float", "LOCAL_SIZE=8"], stub=True)
    # The 3x3 filter reads its neighbours: over the 16 x 16 image's interior, as Vortex's host
    # runs it (global ids 1..14 in x and y: --global-offset 1,1).
    add("vortex/sfilter", v, V_SFILTER, "tests/opencl/sfilter/kernel.cl", "sfilter", "14,14", "7,7",
        ["buf:src:256:f32=rand:7", "buf:dst:256:f32", "i64:16"] + ["f32:0.111"] * 9, ulp=4,
        offset="1,1")
    add("vortex/psort (int)", v, V_2020, "tests/opencl/psort/kernel.cl", "psorti", "64", "32",
        ["buf:in:64=rand:8", "buf:out:64"])
    add("vortex/psort (float)", v, V_2020, "tests/opencl/psort/kernel.cl", "psortf", "64", "32",
        ["buf:in:64:f32=rand:9", "buf:out:64:f32"])
    add("vortex/stencil", v, V_2020, "tests/opencl/stencil/kernel.cl", "naive_kernel", "8,6,4",
        "8,2,2",
        ["f32:0.1666667", "f32:0.0277778", "buf:A0:480:f32=rand:10", "buf:Anext:480:f32", "i32:10",
         "i32:8", "i32:6"], ulp=8)
    add("vortex/dotproduct", v, V_DOT, "tests/opencl/dotproduct/kernel.cl", "DotProduct", "64",
        "32",
        ["buf:a:256:f32=rand:11", "buf:b:256:f32=rand:12", "buf:c:64:f32", "i32:64"], ulp=4)
    add("vortex/psum", v, V_PSUM, "tests/opencl/psum/kernel.cl", "parallelSum", "256", "64",
        ["buf:input:200:f32=rand:13", "buf:output:4:f32", "i32:200", "local:256"])
    add("vortex/conv3", v, V_CONV3, "tests/opencl/conv3/kernel.cl", "conv3", "16,8", "8,4",
        ["buf:output:128:f32", "buf:input:180:f32=rand:14", "buf:weights:9:f32=rand:15", "i32:16",
         "i32:8"], ulp=8)
    add("vortex/bfs_pull", v, V_BFSPULL, "tests/opencl/bfs_pull/kernel.cl", "BFS", "64", "32",
        vortex_bfs_pull_args())
    add("rodinia/bfs BFS_1", r, RODINIA, "opencl/bfs/Kernels.cl", "BFS_1", "64", "32",
        rodinia_bfs1_args())
    add("rodinia/bfs BFS_2", r, RODINIA, "opencl/bfs/Kernels.cl", "BFS_2", "64", "32",
        rodinia_bfs2_args())
    add("rodinia/pathfinder", r, RODINIA, "opencl/pathfinder/kernels.cl", "dynproc_kernel", pf_g,
        pf_l,
        pf_args)
    add("rodinia/hotspot", r, RODINIA, "opencl/hotspot/hotspot_kernel.cl", "hotspot", hs_g, hs_l,
        hs_args, ulp=8, defines=["BLOCK_SIZE=8"])
    add("rodinia/nw kernel1", r, RODINIA, "opencl/nw/nw.cl", "nw_kernel1", "16", "16",
        nw_args(False),
        defines=["BLOCK_SIZE=16"])
    add("rodinia/nw kernel2", r, RODINIA, "opencl/nw/nw.cl", "nw_kernel2", "16", "16",
        nw_args(True),
        defines=["BLOCK_SIZE=16"])
    add("rodinia/gaussian Fan1", r, RODINIA, "opencl/gaussian/gaussianElim_kernels.cl", "Fan1",
        "16",
        "16", gaussian_args(False))
    add("rodinia/gaussian Fan2", r, RODINIA, "opencl/gaussian/gaussianElim_kernels.cl", "Fan2",
        "16,16", "4,4", gaussian_args(True), ulp=4)
    add("rodinia/backprop forward", r, RODINIA, "opencl/backprop/backprop_kernel.cl",
        "bpnn_layerforward_ocl", "16,64", "16,16", backprop_forward_args(), ulp=16)
    add("rodinia/backprop adjust", r, RODINIA, "opencl/backprop/backprop_kernel.cl",
        "bpnn_adjust_weights_ocl", "16,64", "16,16", backprop_adjust_args(), ulp=4)
    add("rodinia/kmeans", r, RODINIA, "opencl/kmeans/kmeans.cl", "kmeans_kernel_c", "128", "64",
        ["buf:feature:512:f32=rand:27", "buf:clusters:20:f32=rand:28", "buf:membership:128",
         "i32:128", "i32:5", "i32:4", "i32:0", "i32:0"])
    add("rodinia/kmeans swap", r, RODINIA, "opencl/kmeans/kmeans.cl", "kmeans_swap", "128", "64",
        ["buf:feature:512:f32=rand:29", "buf:swap:512:f32", "i32:128", "i32:4"])
    for k in ("lud_diagonal", "lud_perimeter", "lud_internal"):
        g, l, a = lud_args(k)
        add("rodinia/lud " + k[4:], r, RODINIA, "opencl/lud/lud_kernel.cl", k, g, l, a, ulp=64,
            defines=["BLOCK_SIZE=16"])
    add("rodinia/nn", r, RODINIA, "opencl/nn/nearestNeighbor_kernel.cl", "NearestNeighbor", "128",
        "64",
        ["buf:locations:256:f32=rand:30", "buf:distances:128:f32", "i32:100", "f32:0.3", "f32:0.7"],
        ulp=2)
    add("rodinia/srad extract", r, RODINIA, "opencl/srad/kernel/kernel_gpu_opencl.cl",
        "extract_kernel",
        "256", "256", ["i64:200", "buf:image:256:f32=rand:31"], headers=["opencl/srad/main.h"])
    # float4 loads and stores (ld/st.global.v4) and swizzles
    add("rodinia/hybridsort merge", r, RODINIA, "opencl/hybridsort/mergesort.cl", "mergeSortFirst",
        "64", "32", ["buf:input:256:f32=rand:40", "buf:result:256:f32", "i32:256"])
    # Compiled only (the row says why it cannot run here).
    for id_, path, kernel, defines in (
            ("rodinia/dwt2d", "opencl/dwt2d/com_dwt.cl", "cl_fdwt53Kernel", []),
            ("rodinia/lavaMD", "opencl/lavaMD/kernel/kernel_gpu_opencl.cl", "kernel_gpu_opencl",
             []),
            ("rodinia/streamcluster", "opencl/streamcluster/Kernels.cl", "pgain_kernel", []),
            ("rodinia/particlefilter", "opencl/particlefilter/particle_single.cl",
             "likelihood_kernel", []),
            ("rodinia/leukocyte IMGVF", "opencl/leukocyte/OpenCL/track_ellipse_kernel_opt.cl",
             "IMGVF_kernel", [])):
        add(id_, r, RODINIA, path, kernel, "", "", None, defines=defines)
    return c


# ---- sources ----------------------------------------------------------------------------

def source_roots(overrides):
    roots = {}
    for name, repo in REPOS.items():
        key = repo.replace("/", "+")
        cands = [overrides.get(name), "/work/.mirror/%s/repo" % key, os.path.join(OUT, "src", key)]
        roots[name] = [c for c in cands if c]
    return roots


def extract(roots, repo, commit, path, dest):
    """Writes COMMIT:PATH of the repository to dest; returns where it came from or None."""
    for root in roots[repo]:
        plain = os.path.join(root, commit, path)
        if os.path.isfile(plain):
            with open(plain, "rb") as f, open(dest, "wb") as g:
                g.write(f.read())
            return plain
        gitdir = root if os.path.isfile(os.path.join(root, "HEAD")) else os.path.join(root, ".git")
        if os.path.isdir(gitdir):
            git = subprocess.run(["git", "--git-dir", gitdir, "show", "%s:%s" % (commit, path)],
                                 capture_output=True)
            if git.returncode == 0:
                with open(dest, "wb") as g:
                    g.write(git.stdout)
                return "%s@%s" % (root, commit[:10])
    return None


# ---- running ----------------------------------------------------------------------------

def run(cmd, log):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + p.stdout + p.stderr)
    return p


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    return text.strip().splitlines()[-1] if text.strip() else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated substrings of case ids")
    ap.add_argument("--engines", default="model,rtl", help="simt engines (model first)")
    ap.add_argument("--src", action="append", default=[], help="NAME=PATH (rodinia, vortex)")
    ap.add_argument("--simt", default=SIMT,
                    help="the simt binary (a build tree of other parameters, e.g. "
                         "-DSIMT_SM_PARAMS=-GNumLanes=8: its bin/simt)")
    ap.add_argument("--simt-option", action="append", default=[],
                    help="an extra option of simt run, e.g. --simt-option=--structurize")
    args = ap.parse_args()
    overrides = dict(s.split("=", 1) for s in args.src)
    roots = source_roots(overrides)
    engines = args.engines.split(",")
    for tool in (args.simt, POCL):
        if not os.path.exists(tool):
            sys.exit("%s is missing: cmake --build build --target %s" % (tool,
                                                                         os.path.basename(tool)))
    env_cache = os.path.join(OUT, "cache")
    os.environ["SIMT_CACHE_DIR"] = os.path.join(env_cache, "simt")
    os.environ["POCL_CACHE_DIR"] = os.path.join(env_cache, "pocl")
    stub = os.path.join(OUT, "stub")
    os.makedirs(stub, exist_ok=True)
    open(os.path.join(stub, "common.h"), "w").close()  # Vortex's common.h: TYPE etc. come as -D

    rows = []
    only = [o for o in args.only.split(",") if o]
    for c in cases():
        if only and not any(o in c["id"] for o in only):
            continue
        slug = c["id"].replace("/", "_").replace(" ", "_").replace("(", "").replace(")", "")
        work = os.path.join(OUT, "kernels", slug)
        os.makedirs(work, exist_ok=True)
        dest = os.path.join(work, os.path.basename(c["path"]))
        origin = extract(roots, c["repo"], c["commit"], c["path"], dest)
        for h in c["headers"]:
            extract(roots, c["repo"], c["commit"], h, os.path.join(work, os.path.basename(h)))
        row = dict(id=c["id"], kernel=c["kernel"], commit=c["commit"][:10])
        if origin is None:
            row.update(compiles="source missing (--src %s=PATH)" % c["repo"])
            rows.append(row)
            print(row, flush=True)
            continue
        common = [dest, "--kernel", c["kernel"], "--global", c["glob"], "--local", c["loc"]]
        if c["offset"]:
            common += ["--global-offset", c["offset"]]
        for a in c["args"] or []:
            common += ["--arg", a]
        for d in c["defines"]:
            common += ["-D", d]
        if c["stub"]:
            common += ["-I", stub]
        cc = run([args.simt, "cc", dest, "--kernel", c["kernel"], "-o", os.path.join(work, "kernel.s")] +
                 sum((["-D", d] for d in c["defines"]), []) + (["-I", stub] if c["stub"] else []),
                 os.path.join(work, "cc.log"))
        row["compiles"] = "yes" if cc.returncode == 0 else "no: " + first_error(cc.stderr)
        if cc.returncode == 0:
            with open(os.path.join(work, "kernel.s")) as f:
                row["code"] = sum(1 for line in f if line.startswith("        ") and ";" in line)
        if c["args"] is None:  # compiled only
            rows.append(row)
            print(json.dumps(row), flush=True)
            continue
        pocl_json = os.path.join(work, "pocl.json")
        pr = run([POCL] + common + ["--json", pocl_json, "--timeout", "60"],
                 os.path.join(work, "pocl.log"))
        row["pocl"] = "ok" if pr.returncode == 0 else "exit %d: %s" % (pr.returncode,
                                                                       first_error(pr.stderr))
        if cc.returncode == 0:
            for eng in engines:
                if eng == "rtl" and not c["rtl"]:
                    continue
                js = os.path.join(work, eng + ".json")
                p = run([args.simt, "run"] + common + args.simt_option +
                        ["--engine", eng, "--json", js, "--max-cycles", "20000000"],
                        os.path.join(work, eng + ".log"))
                try:
                    with open(js) as f:
                        res = json.load(f)
                    row[eng] = dict(status=res["status"], cycles=res["cycles"],
                                    instructions=res["instructions"],
                                    code=res["compile"]["code_instructions"],
                                    spills=res["compile"]["spilled_registers"])
                except (OSError, ValueError, KeyError):
                    row[eng] = dict(status="exit %d: %s" % (p.returncode, first_error(p.stderr)))
                    continue
                if pr.returncode == 0:
                    cmp = subprocess.run([sys.executable, COMPARE, js, pocl_json, "--ulp",
                                          str(c["ulp"])],
                                         capture_output=True, text=True)
                    last = cmp.stdout.strip().splitlines()[-1]
                    row[eng]["match"] = "%s (%s)" % ("yes" if cmp.returncode == 0 else "NO",
                                                     last.split(", largest float difference ")[-1])
                    with open(os.path.join(work, eng + ".cmp"), "w") as f:
                        f.write(cmp.stdout)
        rows.append(row)
        print(json.dumps(row), flush=True)

    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("\n| kernel | compiles (code) | runs (%s) | matches PoCL (largest float difference) "
          "| warp-instr. (rtl) | cycles (rtl) |" % ", ".join(engines))
    print("|---|---|---|---|---|---|")
    for row in rows:
        res = [row[e] for e in engines if e in row]
        runs = ", ".join(x.get("status", "-") for x in res) or "-"
        matches = sorted({x["match"] for x in res if "match" in x})
        match = " / ".join(matches) or ("PoCL: " + row["pocl"] if "pocl" in row and res else "-")
        # Instructions of the variant that ran (1-D ranges: the linear one), else of simt cc's.
        code = res[0].get("code", row.get("code")) if res else row.get("code")
        compiles = row["compiles"] + (" (%d)" % code if code is not None else "")
        r = row.get("rtl", {})
        print("| %s `%s` | %s | %s | %s | %s | %s |" % (
            row["id"], row["kernel"], compiles, runs, match, r.get("instructions",
                                                                   "-"), r.get("cycles", "-")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
