#!/usr/bin/env python3
"""Side-by-side runner: the five workloads on NumPy, Dask, Python Cubed and this engine.

Run it through scripts/perf/side-by-side.sh (same arguments); --help lists them.

The engine is built once first, and one small untimed `./cubed bench` writes the command's class
data sharing archive (so no timed round is the archive-writing first run after a build).
Per workload, per repeat, the engines run one after another in the same minutes (interleaved):
NumPy, Dask (threads), Python Cubed (threads), then `./cubed bench WORKLOAD --size SIZE` (threads
executor), each in a fresh process with 2 workers. For quadratic_means the read-once floor
(`./cubed bench quadratic_means_read`) runs in the same round. Every process is sampled every
50 ms for the summed RSS of its process tree. The table (median wall of the repeats, ratio to
Dask, largest peak RSS, checksum agreement with NumPy within relative 1e-9) goes into
docs/performance.md between the markers of its size, with the machine and the commands; the raw
records go to target/perf/side-by-side-SIZE.jsonl.

Dask and Python Cubed come from the anchor scripts (a directory holding add.py, reduce.py, ...,
each printing one JSON line) run with a Python that has dask, xarray, zarr and cubed installed
(scripts/perf/make-anchors-env.sh builds one). Without them the runner says so and runs the
project's own NumPy baseline (scripts/perf/workloads_numpy.py) beside the engine.

With --user-path it runs instead the user-path expressions (public API, zarr-python inputs, JVM
defaults and documented options) and the five workloads on both input sets beside Dask
(userpath_runner.py beside this script says how).
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORKLOADS = ["quadratic_means", "add", "matmul", "rechunk", "reduce"]
DEFAULT_ENGINES = ["numpy", "dask-threads", "cubed-threads", "java"]
# Python Cubed's defaults in the anchor scripts; this engine gets the same --allowed-mem.
PY_CUBED_ALLOWED = {"quadratic_means": "2GB"}
DEFAULT_ALLOWED = "500MB"
# NumPy's checksums (docs/benchmarks.md), used when NumPy is not among the engines run.
REFERENCE = {
    "small": {"quadratic_means": [44459.952431602345, 44459.94364437888, 29782.59454779417],
              "add": [6249999.991371165], "matmul": [3906249989.307884],
              "rechunk": [6249991.822526063, 18749973.136350363],
              "reduce": [1750.000017051746, 875.0002355951227, 6126789, 2837471628]},
    "medium": {"quadratic_means": [710639.9915143054, 710639.9858629024, 473762.66941641964],
               "add": [196000000.44794595], "matmul": [432000002472.7894],
               "rechunk": [179999995.96112812, 539999985.0922848],
               "reduce": [10000.000012450215, 5000.000049053774, 199852365, 99875393231]},
}


def tree_rss(root):
    """Summed VmRSS (bytes) of root and all its descendants."""
    kids = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open("/proc/%s/stat" % p) as f:
                    st = f.read()
                ppid = int(st.rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(p))
            except (OSError, ValueError, IndexError):
                pass
    tot, stack = 0, [root]
    while stack:
        q = stack.pop()
        try:
            with open("/proc/%d/status" % q) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        tot += int(line.split()[1]) * 1024
        except OSError:
            pass
        stack += kids.get(q, [])
    return tot


def run_sampled(cmd, env, timeout):
    """Runs cmd, samples its tree's RSS every 50 ms; returns (last JSON line or None, peak, err)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(p.pid))
            time.sleep(0.05)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        done.set()
        return None, peak[0], "timed out after %d s" % timeout
    done.set()
    t.join()
    lines = [l for l in out.decode(errors="replace").splitlines() if l.startswith("{")]
    if p.returncode != 0 or not lines:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        return None, peak[0], "exit %d: %s" % (p.returncode, " | ".join(tail))
    return json.loads(lines[-1]), peak[0], None


def checksum_values(d):
    """The checksum values in order, numbers only (chunk shapes are checked by the engine)."""
    return [v for v in d.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]


def agree(a, b):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, int) and isinstance(y, int):
            if x != y:
                return False
        elif abs(x - y) > 1e-9 * max(abs(x), abs(y), 1e-300):
            return False
    return True


def fmt_bytes(b):
    return "%.2f GB" % (b / 1e9) if b >= 1e9 else "%.0f MB" % (b / 1e6)


def main():
    ap = argparse.ArgumentParser(
        prog="scripts/perf/side-by-side.sh",
        description="Runs the five workloads of docs/benchmarks.md on NumPy, Dask (threads), "
        "Python Cubed (threads) and this engine (./cubed bench, threads executor), interleaved, "
        "2 workers each, and writes one table (wall, ratio to Dask, peak RSS of the process tree, "
        "checksum agreement) into docs/performance.md.",
        epilog="Example: scripts/perf/side-by-side.sh --size medium --anchors DIR "
        "--anchors-python /work/pyenv-anchors/bin/python; add --user-path for the user-path "
        "table (public API, zarr-python inputs, JVM defaults and documented options). Without --anchors (or CUBED_ANCHORS_DIR) "
        "only NumPy runs beside the engine. Environment: CUBED_HEAP and CUBED_JAVA_OPTS reach "
        "./cubed as usual.")
    ap.add_argument("--size", choices=["small", "medium"], default="medium")
    ap.add_argument("--only", default=" ".join(WORKLOADS),
                    help="workloads to run, space-separated (default: all five)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds per workload (default 1)")
    ap.add_argument("--anchors", default=os.environ.get("CUBED_ANCHORS_DIR"),
                    help="directory of the anchor scripts (add.py, reduce.py, ...); "
                    "default $CUBED_ANCHORS_DIR")
    ap.add_argument("--anchors-python", default=os.environ.get("CUBED_ANCHORS_PYTHON", "python3"),
                    help="Python with dask, xarray, zarr and cubed (default "
                    "$CUBED_ANCHORS_PYTHON or python3)")
    ap.add_argument("--allowed-mem", default=None,
                    help="--allowed-mem of this engine and allowed_mem of Python Cubed (default: "
                    "Python Cubed's own defaults, 500MB and 2GB for quadratic_means)")
    ap.add_argument("--engines", default=" ".join(DEFAULT_ENGINES),
                    help="engines to run, space-separated, of: numpy dask-threads cubed-threads "
                    "java (default: all; NumPy's checksums are the reference)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900, help="seconds per run (default 900)")
    ap.add_argument("--no-floor", action="store_true",
                    help="skip the read-once floors (of quadratic_means; with --user-path, "
                    "of each expression)")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "performance.md"),
                    help="page to write the table into (default docs/performance.md)")
    ap.add_argument("--no-doc", action="store_true", help="print the table, do not write it")
    ap.add_argument("--render", metavar="JSONL",
                    help="run nothing: make the table from the raw records of an earlier run "
                    "(target/perf/side-by-side-SIZE.jsonl; pass the same --size, --only, "
                    "--engines) and write or print it as usual")
    import userpath_runner
    userpath_runner.add_arguments(ap)
    a = ap.parse_args()
    if a.user_path:
        userpath_runner.run(a)
        return
    only = a.only.split()
    for w in only:
        if w not in WORKLOADS:
            ap.error("unknown workload %r (known: %s)" % (w, ", ".join(WORKLOADS)))

    engines = ["numpy"]
    anchors_ok, why = False, ""
    if a.anchors:
        missing = [w for w in only if not os.path.isfile(os.path.join(a.anchors, w + ".py"))]
        probe = subprocess.run([a.anchors_python, "-c", "import dask, xarray, zarr, cubed, psutil"],
                               capture_output=True, text=True)
        if missing:
            why = "no %s in %s" % (", ".join(w + ".py" for w in missing), a.anchors)
        elif probe.returncode != 0:
            why = "%s cannot import dask, xarray, zarr, cubed, psutil: %s" % (
                a.anchors_python, (probe.stderr.strip().splitlines() or ["?"])[-1])
        else:
            anchors_ok = True
    else:
        why = "no --anchors directory (nor CUBED_ANCHORS_DIR)"
    if anchors_ok:
        engines += ["dask-threads", "cubed-threads"]
        print("side-by-side: anchors' environment found: NumPy, Dask, Python Cubed and this "
              "engine", file=sys.stderr)
    else:
        print("side-by-side: the anchors' environment is absent (%s): NumPy baseline only, "
              "beside this engine; scripts/perf/make-anchors-env.sh builds one" % why,
              file=sys.stderr)
    engines.append("java")
    wanted = a.engines.split()
    engines = [e for e in engines if e in wanted]

    if a.render:
        with open(a.render) as f:
            records = [json.loads(l) for l in f if l.strip()]
        records = [r for r in records if r["size"] == a.size and r["workload"] in only]
        ran = {r["engine"] for r in records}
        engines = [e for e in DEFAULT_ENGINES if e in ran]
        anchors_ok = bool(ran & {"dask-threads", "cubed-threads"})
        commands = {}
        for r in records:
            commands.setdefault(r["engine"], r["command"].split(" "))
        t = min((r["time"] for r in records if "time" in r), default=None)
        started = (datetime.datetime.fromisoformat(t) if t else
                   datetime.datetime.fromtimestamp(os.path.getmtime(a.render),
                                                   datetime.timezone.utc))
        table = render(records, a, engines, anchors_ok, why, started, commands, only)
        if a.no_doc:
            print(table)
        else:
            write_section(a.doc, a.size, table)
        return

    env = dict(os.environ)
    env["CUBED_SKIP_BUILD"] = "1"  # built once below; no rebuild between runs if sources change
    # build once, outside any timing (./cubed rebuilds itself only when sources changed)
    subprocess.run([os.path.join(ROOT, "cubed"), "bench", "--list-executors"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    if "java" in engines:
        # the first `./cubed bench` after a build writes the command's class data sharing archive
        # (its run is slower: 2.9 s against 1.9 s for quadratic_means medium); one small untimed
        # run makes it, so every timed round maps it, as every run after a user's first does
        subprocess.run([os.path.join(ROOT, "cubed"), "bench", "reduce", "--size", "small",
                        "--workers", str(a.workers)], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out_dir = os.path.join(ROOT, "target", "perf")
    os.makedirs(out_dir, exist_ok=True)
    raw = os.path.join(out_dir, "side-by-side-%s.jsonl" % a.size)
    records = []
    commands = {}

    def cmd_for(engine, w):
        allowed = a.allowed_mem or PY_CUBED_ALLOWED.get(w, DEFAULT_ALLOWED)
        if engine == "numpy" and not anchors_ok:
            return [sys.executable, "scripts/perf/workloads_numpy.py", w, "--size", a.size]
        if engine in ("numpy", "dask-threads", "cubed-threads"):
            c = [a.anchors_python, os.path.join(a.anchors, w + ".py"), "--engine", engine,
                 "--size", a.size, "--workers", str(a.workers)]
            if engine == "cubed-threads":
                c += ["--allowed-mem", allowed]
            return c
        name = w if engine == "java" else "quadratic_means_read"
        return ["./cubed", "bench", name, "--size", a.size, "--executor", "threads",
                "--workers", str(a.workers), "--allowed-mem", allowed]

    started = datetime.datetime.now(datetime.timezone.utc)
    for w in only:
        row_engines = list(engines)
        if w == "quadratic_means" and not a.no_floor and "java" in engines:
            row_engines.append("java-floor")
        for r in range(a.repeat):
            for e in row_engines:
                cmd = cmd_for(e, w)
                commands.setdefault(e, cmd)
                print("== %s %s %s round %d: %s" % (w, a.size, e, r + 1, " ".join(cmd)),
                      file=sys.stderr)
                j, peak, err = run_sampled(cmd, env, a.timeout)
                rec = {"workload": w, "size": a.size, "engine": e, "round": r + 1,
                       "command": " ".join(cmd), "sampled_peak_rss_bytes": peak,
                       "time": datetime.datetime.now(datetime.timezone.utc).isoformat()}
                if err:
                    rec["error"] = err
                    print("   failed: " + err, file=sys.stderr)
                else:
                    if "wall_s" in j:  # anchor scripts
                        rec["wall_s"] = j["wall_s"]
                        rec["peak_rss_bytes"] = max(peak, int(j.get("peak_rss_tree_mb", 0) * 1e6))
                        rec["checksum"] = j["checksum"]
                    else:  # ./cubed bench and workloads_numpy.py
                        rec["wall_s"] = j.get("wall_seconds", j.get("wall_s"))
                        rec["peak_rss_bytes"] = max(peak, j.get("peak_rss_bytes", 0))
                        rec["checksum"] = j.get("checksums", j.get("checksum"))
                        for k in ("tasks", "max_projected_mem", "intermediate_bytes"):
                            if k in j:
                                rec[k] = j[k]
                    print("   wall %.2f s, peak RSS %s" % (rec["wall_s"],
                                                          fmt_bytes(rec["peak_rss_bytes"])),
                          file=sys.stderr)
                records.append(rec)
                with open(raw, "a") as f:
                    f.write(json.dumps(rec) + "\n")

    table = render(records, a, engines, anchors_ok, why, started, commands, only)
    if a.no_doc:
        print(table)
        return
    write_section(a.doc, a.size, table)
    print("side-by-side: wrote the %s table into %s (raw records: %s)"
          % (a.size, os.path.relpath(a.doc, ROOT), os.path.relpath(raw, ROOT)), file=sys.stderr)


LABEL = {"numpy": "NumPy", "dask-threads": "Dask threads", "cubed-threads": "Python Cubed threads",
         "java": "this engine (threads)", "java-floor": "floor: read+decode U, V once (this engine)"}


def render(records, a, engines, anchors_ok, why, started, commands, only):
    def java_version():
        try:
            return subprocess.run(["java", "-version"], capture_output=True,
                                  text=True).stderr.splitlines()[0]
        except (OSError, IndexError):
            return "?"

    ncpu = os.cpu_count()
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9
    except (ValueError, OSError):
        mem = 0
    lines = ["### Side by side, size %s" % a.size, ""]
    lines.append("Measured on %d cores, %.1f GB memory (%s); %s. %d round(s), engines "
                 "interleaved per workload; wall = median of the rounds (timed phases only), "
                 "peak RSS = largest of the rounds (process tree, sampled every 50 ms). "
                 "Checksums compared with NumPy's within relative 1e-9."
                 % (ncpu, mem, platform.machine(),
                    java_version(), a.repeat))
    if not anchors_ok:
        lines.append("")
        lines.append("The anchors' environment was absent (%s): NumPy only beside the engine."
                     % why)
    lines += ["", "Commands:", "", "```",
              "scripts/perf/side-by-side.sh --size %s%s%s%s --anchors $ANCHORS --anchors-python "
              "$ANCHORS_PYTHON" % (
                  a.size, " --repeat %d" % a.repeat if a.repeat != 1 else "",
                  "" if only == WORKLOADS else ' --only "%s"' % " ".join(only),
                  "" if a.engines.split() == DEFAULT_ENGINES else ' --engines "%s"' % a.engines)]
    for e, c in commands.items():
        line = " ".join(c).replace(ROOT + "/", "")
        if a.anchors:
            line = line.replace(os.path.join(a.anchors, ""), "$ANCHORS/")
            line = line.replace(a.anchors_python + " ", "$ANCHORS_PYTHON ", 1)
        lines.append(line)
    lines += ["```", "(each with the workload of its row in place of the name shown; $ANCHORS is "
              "the anchor scripts' directory, $ANCHORS_PYTHON the Python of "
              "scripts/perf/make-anchors-env.sh)", ""]
    lines.append("| workload | engine | wall s | ratio to Dask | peak RSS | checksums = NumPy |")
    lines.append("|---|---|---:|---:|---:|---|")
    for w in only:
        by = {}
        for r in records:
            if r["workload"] == w:
                by.setdefault(r["engine"], []).append(r)
        ref = next((x for x in by.get("numpy", []) if "checksum" in x), None)
        if a.size not in REFERENCE:
            ref = ref  # custom sizes: NumPy's run is the only reference
        dask = [x["wall_s"] for x in by.get("dask-threads", []) if "wall_s" in x]
        dask_med = statistics.median(dask) if dask else None
        for e in list(engines) + (["java-floor"] if "java-floor" in by else []):
            rs = by.get(e, [])
            ok = [x for x in rs if "wall_s" in x]
            if not ok:
                err = rs[0].get("error", "not run") if rs else "not run"
                lines.append("| %s | %s | failed: %s | | | |" % (w, LABEL[e], err[:80]))
                continue
            wall = statistics.median(x["wall_s"] for x in ok)
            peak = max(x["peak_rss_bytes"] for x in ok)
            ratio = "%.2f" % (wall / dask_med) if dask_med else "—"
            if e == "numpy":
                chk = "reference" if agree(checksum_values(ok[0]["checksum"]),
                                           REFERENCE[a.size][w]) else "reference (differs from docs/benchmarks.md)"
            elif e == "java-floor":
                chk = "(sum U, sum V)"
            else:
                want = checksum_values(ref["checksum"]) if ref else REFERENCE[a.size][w]
                chk = "yes" if all(agree(checksum_values(x["checksum"]), want) for x in ok) \
                    else "NO: %s" % checksum_values(ok[0]["checksum"])
            lines.append("| %s | %s | %.2f | %s | %s | %s |" % (w, LABEL[e], wall, ratio,
                                                              fmt_bytes(peak), chk))
    return "\n".join(lines) + "\n"


def write_section(doc, size, table):
    begin, end = "<!-- side-by-side:%s:begin -->" % size, "<!-- side-by-side:%s:end -->" % size
    with open(doc) as f:
        text = f.read()
    block = begin + "\n" + table + end
    if begin in text and end in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda m: block, text,
                      flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(doc, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
