#!/usr/bin/env bash
# Draws the package import graph of the main classes of every module (jdeps -verbose:package on
# each module's target/classes) as DOT and SVG, and prints one summary line:
#   packages N, arrows N, up-arrows N, cycles N
# An arrow points up when its target's layer is above its source's (the layers of
# docs/architecture.md, listed in LAYERS below); an arrow inside a cycle (two packages that reach
# each other) is drawn red too. Packages of one layer share a row.
# Usage: scripts/dev/imports.sh [--out DIR] [--root TREE]   (default: docs/architecture-imports.svg
#   and target/imports.dot of this tree; build first: mvn -q -DskipTests package or ./cubed)
# Exit status 0 even with up-arrows or cycles (the ArchUnit and module tests enforce the rules).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "imports.sh: unknown option $1 (use --out DIR, --root TREE)" >&2; exit 2 ;;
  esac
done
svg="${out:-$root/docs}/architecture-imports.svg"
dot_file="${out:-$root/target}/imports.dot"
mkdir -p "$(dirname "$svg")" "$(dirname "$dot_file")"
command -v jdeps >/dev/null || { echo "imports.sh: jdeps (a JDK) is needed" >&2; exit 1; }
edges="$(mktemp)"; trap 'rm -f "$edges"' EXIT
found=0
for classes in "$root"/cubed-*/target/classes; do
  [ -d "$classes/dev" ] || continue
  found=1
  module="$(basename "$(dirname "$(dirname "$classes")")")"
  # every class's package (also those with no arrow), then the arrows between dev.cubed packages
  (cd "$classes" && find dev -name '*.class' ! -path '*jmh_generated*' -printf '%h\n' | sort -u | tr / . | sed "s/^/node $module /") >>"$edges"
  jdeps -verbose:package -filter:none -e 'dev\.cubed(\..*)?' "$classes" 2>/dev/null \
    | awk -v m="$module" '$2 == "->" && $1 !~ /jmh_generated/ && $1 ~ /^dev\.cubed/ && $3 ~ /^dev\.cubed/ && $1 != $3 { print "edge", m, $1, $3 }' >>"$edges"
done
[ "$found" = 1 ] || { echo "imports.sh: no built classes under $root/cubed-*/target/classes; build first" >&2; exit 1; }
python3 - "$edges" "$dot_file" <<'PY'
import sys
from collections import defaultdict
edges_file, dot_file = sys.argv[1], sys.argv[2]
# Layers, bottom to top: (row name, package prefixes). The most specific prefix wins; nd's
# subpackages sit one row above nd's base package; the sub-layers of zarr, runtime
# and plan (ArchitectureTest) have rows of their own.
LAYERS = [
    ("nd", ["dev.cubed.nd"]),
    ("nd.*", ["dev.cubed.nd.*"]),
    ("zarr.store", ["dev.cubed.zarr.store"]),
    ("zarr.codec", ["dev.cubed.zarr.codec"]),
    ("zarr.metadata", ["dev.cubed.zarr.metadata"]),
    ("zarr", ["dev.cubed.zarr"]),
    ("runtime", ["dev.cubed.runtime"]),
    ("runtime.processes", ["dev.cubed.runtime.processes"]),
    ("primitive", ["dev.cubed.primitive"]),
    ("plan.node", ["dev.cubed.plan.node"]),
    ("plan.eval, plan.durable", ["dev.cubed.plan.eval", "dev.cubed.plan.durable"]),
    ("plan", ["dev.cubed.plan"]),
    ("core, diagnostics", ["dev.cubed.core", "dev.cubed.diagnostics"]),
    ("api", ["dev.cubed="]),
    ("stores, executors", ["dev.cubed.s3", "dev.cubed.gcs", "dev.cubed.azure", "dev.cubed.spark", "dev.cubed.beam"]),
    ("cli, bridge", ["dev.cubed.cli", "dev.cubed.bridge"]),
    ("bench", ["dev.cubed.bench"]),
]
def layer(p):
    best, rank = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for pre in prefixes:
            if pre.endswith("="):
                ok, n = p == pre[:-1], 1000
            elif pre.endswith(".*"):
                ok, n = p.startswith(pre[:-1]), len(pre)
            else:
                ok, n = p == pre or p.startswith(pre + "."), len(pre)
            if ok and n > best:
                best, rank = n, i
    return rank if rank is not None else len(LAYERS)
nodes, module_of, edges = set(), {}, set()
for line in open(edges_file):
    f = line.split()
    if f[0] == "node":
        nodes.add(f[2]); module_of.setdefault(f[2], f[1])
    else:
        edges.add((f[2], f[3])); nodes.update((f[2], f[3]))
graph = defaultdict(set)
for a, b in edges:
    graph[a].add(b)
# strongly connected components (Tarjan, iterative)
index, low, on, stack, comp, n = {}, {}, set(), [], {}, [0]
def tarjan(v0):
    work = [(v0, iter(sorted(graph[v0])))]
    index[v0] = low[v0] = n[0]; n[0] += 1; stack.append(v0); on.add(v0)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = n[0]; n[0] += 1; stack.append(w); on.add(w)
                work.append((w, iter(sorted(graph[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop(); on.discard(w); comp[w] = v
                    if w == v:
                        break
for v in sorted(nodes):
    if v not in index:
        tarjan(v)
size = defaultdict(int)
for v in nodes:
    size[comp[v]] += 1
cycles = sum(1 for c, s in size.items() if s > 1)
in_cycle = {(a, b) for a, b in edges if comp[a] == comp[b]}
up = {(a, b) for a, b in edges if layer(b) > layer(a)}
def short(p):
    return p[len("dev.cubed."):] if p.startswith("dev.cubed.") else p
with open(dot_file, "w") as o:
    o.write('digraph imports {\n  rankdir=TB; newrank=true; node [shape=box, fontname="Helvetica", fontsize=10];\n')
    o.write('  edge [color="#777777", arrowsize=0.6];\n')
    o.write('  label="package imports of the main classes (arrows point from user to used; red: up or in a cycle)"; fontsize=11;\n')
    rows = defaultdict(list)
    for p in sorted(nodes):
        rows[layer(p)].append(p)
    for r in sorted(rows):
        name = LAYERS[r][0] if r < len(LAYERS) else "other"
        o.write('  subgraph "cluster_%d" { label="%s"; style=dashed; color="#bbbbbb"; fontsize=9; rank=same;\n' % (r, name))
        for p in rows[r]:
            o.write('    "%s" [label="%s\\n(%s)"];\n' % (p, short(p), module_of.get(p, "?")))
        o.write("  }\n")
    for a, b in sorted(edges):
        bad = (a, b) in up or (a, b) in in_cycle
        o.write('  "%s" -> "%s"%s;\n' % (a, b, ' [color=red, penwidth=2, constraint=false]' if bad else ""))
    o.write("}\n")
print("packages %d, arrows %d, up-arrows %d, cycles %d" % (len(nodes), len(edges), len(up), cycles))
for a, b in sorted(up | in_cycle):
    print("  %s -> %s%s%s" % (a, b, " (up)" if (a, b) in up else "", " (cycle)" if (a, b) in in_cycle else ""), file=sys.stderr)
PY
if command -v dot >/dev/null; then
  dot -Tsvg "$dot_file" -o "$svg"
  echo "drawn: $svg (DOT: $dot_file)" >&2
else
  echo "imports.sh: graphviz dot not found; DOT only: $dot_file" >&2
fi
