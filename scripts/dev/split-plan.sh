#!/usr/bin/env bash
# Moves the classes of dev.cubed.plan into its sub-packages and rewrites every reference in the
# tree (the same rewriting as split-packages.sh): package lines, imports (adding the imports a
# move makes necessary, keeping the import blocks sorted as google-java-format wants), fully
# qualified names in code, docs, scripts and META-INF/services, and source paths in docs.
#   plan.node     the array node model: ArrayNode, ChunkGrid, digests, PlanConfig, PlanSummary
#   plan.eval     fused and tiled evaluation of a node's blocks (chains, tiles, folds, groups)
#   plan.durable  the durable-run machinery: compute dirs, commit journal, task markers,
#                 write locks, targets
#   plan          Plan, PlanRun and the plan-wide checks, on top of the three
# Idempotent: a class already in its new package is left alone, so it can be re-run on a tree
# where other changes were merged (then rebuild and run ArchitectureTest; a class added to
# dev.cubed.plan since stays in the base package unless listed below).
# Longer qualified names can push lines past 100 columns: the script ends with
# `mvn -o -q spotless:apply` (google-java-format) unless --no-format is given.
# Usage: scripts/dev/split-plan.sh [--no-format] [TREE]   (default: this tree; needs git,
#   python3, and Maven for the formatting)
set -euo pipefail
format=1
if [ "${1:-}" = "--no-format" ]; then format=0; shift; fi
root="$(cd "${1:-$(dirname "$0")/../..}" && pwd)"
cd "$root"
python3 - <<'PY'
import os, re, subprocess

MOVES = {
    "dev.cubed.plan": {
        "node": """ArrayNode ChunkGrid NodeDigest DataHash PlanSummary PlanConfig ByteCounts
            ChunkGridTest DataHashTest""",
        "eval": """ChainFunction ChainRereads ChainWalks PointwiseFunction HeldBlocks MultiOutput
            Evaluator Tiles TiledEvaluation TiledWrites TileReduction StreamFold FoldGroups
            ChainRereadsTest FoldGroupTest MultiOutputTest RandomGrid TileBuffersTest
            TiledReductionTest TiledWritesTest""",
        "durable": """CommitJournal ComputeDir TaskMarkers WorkDirs WriteLock TargetBusyException
            Targets StoreCopies
            WorkDirsTest WriteLockHolder WriteLockTest""",
    },
}
# simple name -> (old package, new package), per old package
new_pkg = {}  # (old_pkg, name) -> new package
for old, subs in MOVES.items():
    for sub, names in subs.items():
        for n in names.split():
            new_pkg[(old, n)] = old + "." + sub

OLD_PATHS = "|".join(re.escape(o.replace(".", "/")) for o in MOVES)
OLD_PKGS = "|".join(re.escape(o) for o in MOVES)

files = subprocess.run(["git", "ls-files", "-z"], capture_output=True, text=True,
                       check=True).stdout.split("\0")
files = [f for f in files if f and os.path.isfile(f)]

# 1. git mv the sources (main and test, every module) and META-INF/services files
moved = {}
for f in files:
    m = re.match(r"(.*/src/(?:main|test)/java/)(" + OLD_PATHS + r")/([A-Za-z0-9_]+)\.java$", f)
    if m:
        old = m.group(2).replace("/", ".")
        target = new_pkg.get((old, m.group(3)))
        if target:
            dst = m.group(1) + target.replace(".", "/") + "/" + m.group(3) + ".java"
            moved[f] = dst
    m = re.match(r"(.*/META-INF/services/)(" + OLD_PKGS + r")\.([A-Za-z0-9_]+)$", f)
    if m and (m.group(2), m.group(3)) in new_pkg:
        moved[f] = m.group(1) + new_pkg[(m.group(2), m.group(3))] + "." + m.group(3)
for src, dst in moved.items():
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    subprocess.run(["git", "mv", src, dst], check=True)
files = [moved.get(f, f) for f in files]

# class simple names per current package, to know what each old package still holds
def pkg_of_path(f):
    m = re.match(r".*/src/(?:main|test)/java/(.*)/[A-Za-z0-9_]+\.java$", f)
    return m.group(1).replace("/", ".") if m else None

fq_re = {}
for (old, n), new in new_pkg.items():
    fq_re.setdefault(old, []).append(n)
FQ = [(re.compile(r"\b" + re.escape(old) + r"\.(" + "|".join(sorted(ns, key=len, reverse=True))
                  + r")\b"), old) for old, ns in fq_re.items()]
PATHS = [(re.compile(r"\b" + re.escape(old.replace(".", "/")) + r"/("
                     + "|".join(sorted(ns, key=len, reverse=True)) + r")\b"), old)
         for old, ns in fq_re.items()]

def rewrite_fq(text):
    for rx, old in FQ:
        text = rx.sub(lambda m: new_pkg[(old, m.group(1))] + "." + m.group(1), text)
    for rx, old in PATHS:
        text = rx.sub(lambda m: new_pkg[(old, m.group(1))].replace(".", "/") + "/" + m.group(1),
                      text)
    return text

# every class of the two old packages (moved or staying): name -> package it is in now
now_in = {}
for f in files:
    p = pkg_of_path(f)
    if p and f.endswith(".java"):
        for old in MOVES:
            if p == old or p.startswith(old + "."):
                now_in.setdefault(old, {})[os.path.basename(f)[:-5]] = p

STRIP = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
LINK = re.compile(r"(\{@link(?:plain)?[\s*]+|@see[ \t]+|@throws[ \t]+|@exception[ \t]+)([A-Za-z_][A-Za-z0-9_]*)\b")

def used_names(text):
    """(names used in code, names used only in Javadoc links)"""
    links = set()
    for m in STRIP.finditer(text):
        if m.group(0).startswith("/*"):
            links.update(n for _, n in LINK.findall(m.group(0)))
    code = STRIP.sub(" ", text)
    code = re.sub(r"^\s*(package|import)\s[^;]*;", " ", code, flags=re.M)
    refs = set(re.findall(r"(?<![.\w])([A-Z][A-Za-z0-9_]*)\b", code))
    return refs, links - refs

def qualify_links(text, qualify):
    """Javadoc links to names only linked (not used in code) get their package written out."""
    if not qualify:
        return text
    def in_comment(m):
        c = m.group(0)
        if not c.startswith("/*"):
            return c
        return LINK.sub(lambda l: l.group(1) + qualify.get(l.group(2), "") + l.group(2), c)
    return STRIP.sub(in_comment, text)

def fix_imports(text, pkg):
    lines = text.split("\n")
    imports = [l for l in lines if re.match(r"import (static )?[\w.*]+;$", l)]
    have = {l.split()[-1].rstrip(";").split(".")[-1] for l in imports if not l.startswith("import static")}
    wild = {l.split()[-1].rstrip(";")[:-2] for l in imports if l.endswith(".*;") and not l.startswith("import static")}
    add = set()
    qualify = {}
    used, linked = used_names(text)
    for old, classes in now_in.items():
        was_here = pkg == old or pkg in {new_pkg[k] for k in new_pkg if k[0] == old}
        if not (was_here or old in wild):
            continue
        for n, p in classes.items():
            if p == pkg or n in have or p in wild:
                continue
            if n in used:
                add.add(p + "." + n)
            elif n in linked:
                qualify[n] = p + "."
    if qualify:
        text = qualify_links(text, qualify)
        lines = text.split("\n")
    # drop imports of the file's own package
    keep = [l for l in imports if not re.match(r"import " + re.escape(pkg) + r"\.[A-Z]\w*;$", l)]
    key = lambda l: l.split()[-1].rstrip(";")
    statics = sorted({l for l in keep if l.startswith("import static")}, key=key)
    plain = sorted({l for l in keep if not l.startswith("import static")}
                   | {f"import {a};" for a in add}, key=key)
    if imports == statics + plain:
        return text
    # rebuild: package line, blank, static block, blank, plain block, blank, rest
    first = next(i for i, l in enumerate(lines) if l.startswith("package "))
    body_start = first + 1
    rest = [l for l in lines[body_start:] if l not in imports]
    while rest and rest[0].strip() == "":
        rest.pop(0)
    out = lines[: first + 1] + [""]
    if statics:
        out += statics + [""]
    if plain:
        out += plain + [""]
    return "\n".join(out + rest)

for f in files:
    if f.startswith(("target/", ".git")) or "/target/" in f:
        continue
    try:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    new = rewrite_fq(text)
    if f.endswith(".java"):
        pkg = pkg_of_path(f)
        if pkg:
            new = re.sub(r"^package [\w.]+;", "package " + pkg + ";", new, count=1, flags=re.M)
            touched = new != text or any(
                pkg == old or pkg.startswith(old + ".") or ("import " + old + ".*;") in new
                for old in MOVES)
            if touched:
                new = fix_imports(new, pkg)
    if new != text:
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(new)
PY
# directories left empty by the moves
find . -path ./target -prune -o -type d -empty -path '*/src/*/java/dev/cubed/*' -print -delete \
  2>/dev/null || true
if [ "$format" = 1 ]; then
  mvn -o -B -q spotless:apply
fi
echo "split-plan: done; now build and run ArchitectureTest"
