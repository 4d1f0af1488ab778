"""The user-path half of the side-by-side runner (scripts/perf/side-by-side.sh --user-path).

One run, pair by pair on the same stores (interleaved: for each expression the engine in every JVM
setting, then Dask, in the same minutes):

1. The user-path expressions (dev.cubed.bench.userpath.UserPath, public API only) on inputs
   zarr-python wrote with its defaults (scripts/perf/userpath_dask.py write), each started as a
   user starts their program: `java --add-modules jdk.incubator.vector [OPTIONS] -cp <cubed-bench
   jar and its runtime classpath> dev.cubed.bench.userpath.UserPath ...`, in two JVM settings:
   "defaults" (no other option: no -Xmx) and "documented" (--jvm-options, by default -Xmx of
   workers x allowedMem + reservedMem); beside them the same expression in Dask (threads, 2
   workers, `dask.array.from_zarr` on the same stores).
2. The five bench workloads (`./cubed bench`, its launcher and heap) on the engine-written inputs
   and on the zarr-python input set (`--inputs zarr-python --inputs-dir DIR`, written by
   scripts/perf/write_inputs_zarr_python.py; skipped with a note while ./cubed bench refuses the
   option or the writer is absent), beside Dask from the anchor scripts (--anchors).

Before each pair the stored inputs are read once (untimed), so every run finds them in the page
cache. With each pair, the expression's read-once floor: its inputs read and decoded once by this
engine (UserPath --floor, documented options) and by numcodecs' zstd on the chunk files
(userpath_dask.py floor, --workers threads). The table goes into docs/performance.md between <!-- side-by-side:user-path:SIZE:... -->
markers; the raw records into target/perf/userpath-SIZE.jsonl.
"""
import datetime
import glob
import json
import os
import platform
import subprocess
import sys

import side_by_side as sbs

ROOT = sbs.ROOT
EXPRESSIONS = ["quadratic_means", "where_chain", "std_time", "mean_argmax", "rechunk",
               "add_to_zarr", "broadcast_row", "slice_sum", "concat_sum", "cumsum_to_zarr",
               "slice_row_mean", "concat_mean", "where_mask_sum", "nanmean_time"]
INPUTS = {"quadratic_means": "UV", "where_chain": "UV", "std_time": "U", "mean_argmax": "A",
          "rechunk": "R", "add_to_zarr": "AB", "broadcast_row": "AB", "slice_sum": "A",
          "concat_sum": "AB", "cumsum_to_zarr": "R", "slice_row_mean": "AB", "concat_mean": "AB",
          "where_mask_sum": "MU", "nanmean_time": "N"}
ALLOWED = {"quadratic_means": "2GB", "where_chain": "2GB", "std_time": "2GB",
           "where_mask_sum": "2GB"}  # else 500MB
RESERVED = 100_000_000  # Spec.DEFAULT_RESERVED_MEM
UNITS = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12}
DEFAULT_JVM_OPTIONS = "env"
SETTINGS = ["defaults", "documented"]


_ENV_OPTIONS = {}


def documented_options(a, allowed):
    """The JVM options docs/library.md gives for this spec: `./cubed env`'s 'jvm options:' line."""
    key = (allowed, a.workers)
    if key not in _ENV_OPTIONS:
        out = subprocess.run(["./cubed", "env", "--allowed-mem", allowed, "--workers",
                              str(a.workers)], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
        line = [x for x in out.splitlines() if x.startswith("jvm options:")]
        if not line:
            raise SystemExit("side-by-side: `./cubed env` printed no 'jvm options:' line")
        _ENV_OPTIONS[key] = line[0][len("jvm options:"):].split()
    return _ENV_OPTIONS[key]


def add_arguments(ap):
    g = ap.add_argument_group("user path (--user-path)")
    g.add_argument("--user-path", action="store_true",
                   help="run the user-path expressions and the bench workloads on both input "
                   "sets beside Dask instead of the default table (needs --anchors-python)")
    g.add_argument("--expressions", default=" ".join(EXPRESSIONS),
                   help="user-path expressions, space-separated (default: all fourteen)")
    g.add_argument("--jvm-options", default=DEFAULT_JVM_OPTIONS,
                   help="the engine's second setting: 'env' (default) takes the 'jvm options:' line that "
                   "`./cubed env --allowed-mem M --workers N` prints for each expression's spec "
                   "(docs/library.md); anything else is used as given, {xmx} standing for "
                   "workers x allowedMem + reservedMem in bytes")
    g.add_argument("--inputs-dir", default=None,
                   help="where the zarr-python inputs go (default target/perf/userpath-inputs-SIZE"
                   "; the bench's in target/perf/bench-inputs-SIZE)")
    g.add_argument("--no-cds", action="store_true",
                   help="documented setting without the class data sharing archive")
    g.add_argument("--no-bench", action="store_true",
                   help="user-path expressions only (no ./cubed bench rows)")


def bytes_of(text):
    t = text.strip().upper()
    for u, f in UNITS.items():
        if t.endswith(u):
            return int(float(t[:-len(u)]) * f)
    return int(t.rstrip("B"))


def user_classpath():
    jars = [j for j in glob.glob(os.path.join(ROOT, "cubed-bench", "target", "cubed-bench-*.jar"))
            if not j.endswith(("-sources.jar", "-javadoc.jar", "-tests.jar"))]
    cp_file = os.path.join(ROOT, "cubed-bench", "target", "classpath.txt")
    if not jars or not os.path.exists(cp_file):
        raise SystemExit("side-by-side: no cubed-bench jar or cubed-bench/target/classpath.txt; "
                         "run ./cubed once to build")
    with open(cp_file) as f:
        return jars[0] + ":" + f.read().strip()


def cds_archives(a, exprs, cp, perf, env):
    """A class data sharing archive per expression for the documented setting (untimed): the
    JDK 17 two-step docs/library.md gives a library user, one run of the program with
    -XX:ArchiveClassesAtExit (here on the small inputs: the same classes load at every size),
    then -XX:SharedArchiveFile. Returns {expression: archive path}; an expression whose dump
    fails runs without one (said on stderr)."""
    small = os.path.join(perf, "userpath-inputs-small")
    subprocess.run([a.anchors_python, "scripts/perf/userpath_dask.py", "write", "--size", "small",
                    "--dir", small], cwd=ROOT, check=True)
    d = os.path.join(perf, "userpath-cds")
    os.makedirs(d, exist_ok=True)
    out = {}
    for e in exprs:
        allowed = a.allowed_mem or ALLOWED.get(e, "500MB")
        opts = (documented_options(a, allowed) if a.jvm_options == "env"
                else a.jvm_options.format(xmx=a.workers * bytes_of(allowed) + RESERVED).split())
        jsa = os.path.join(d, e + ".jsa")
        if os.path.exists(jsa):
            os.remove(jsa)
        cmd = (["java", "--add-modules", "jdk.incubator.vector"] + opts
               + ["-XX:ArchiveClassesAtExit=" + jsa, "-cp", cp,
                  "dev.cubed.bench.userpath.UserPath", e, "--inputs", small, "--workers",
                  str(a.workers), "--allowed-mem", allowed, "--work-dir",
                  os.path.join(perf, "userpath-work"), "--out",
                  os.path.join(perf, "userpath-out", "cds")])
        print("== %s: class data sharing archive (untimed, small inputs)" % e, file=sys.stderr)
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        if p.returncode == 0 and os.path.exists(jsa):
            out[e] = os.path.relpath(jsa, ROOT)
        else:
            print("   no archive: exit %d %s" % (p.returncode, p.stderr.strip()[-200:]),
                  file=sys.stderr)
    return out


def warm(paths):
    """Reads every file under paths once (untimed): the inputs in the page cache for each run."""
    for p in paths:
        for d, _, files in os.walk(p):
            for n in files:
                with open(os.path.join(d, n), "rb") as f:
                    while f.read(1 << 24):
                        pass


def run(a):
    if a.render:
        with open(a.render) as f:
            records = [json.loads(l) for l in f if l.strip()]
        records = [r for r in records if r["size"] == a.size]
        t = min(r["time"] for r in records)
        emit(a, records, datetime.datetime.fromisoformat(t), records_path=a.render)
        return
    probe = subprocess.run([a.anchors_python, "-c", "import dask, zarr, psutil"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise SystemExit("side-by-side --user-path: %s cannot import dask, zarr, psutil (%s); "
                         "scripts/perf/make-anchors-env.sh builds that Python, pass it as "
                         "--anchors-python" % (a.anchors_python,
                                               (probe.stderr.strip().splitlines() or ["?"])[-1]))
    exprs = a.expressions.split()
    for e in exprs:
        if e not in EXPRESSIONS:
            raise SystemExit("side-by-side: unknown expression %r (known: %s)"
                             % (e, ", ".join(EXPRESSIONS)))
    env = dict(os.environ)
    env["CUBED_SKIP_BUILD"] = "1"
    subprocess.run([os.path.join(ROOT, "cubed"), "bench-user", "--help"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)  # builds once (also cubed-bench's classpath.txt)
    cp = user_classpath()
    perf = os.path.join(ROOT, "target", "perf")
    inputs = a.inputs_dir or os.path.join(perf, "userpath-inputs-" + a.size)
    print("== writing the zarr-python inputs into %s (untimed)" % inputs, file=sys.stderr)
    subprocess.run([a.anchors_python, "scripts/perf/userpath_dask.py", "write", "--size", a.size,
                    "--dir", inputs], cwd=ROOT, check=True)
    archives = {} if a.no_cds else cds_archives(a, exprs, cp, perf, env)
    raw = os.path.join(perf, "userpath-%s.jsonl" % a.size)
    open(raw, "w").close()
    records = []
    started = datetime.datetime.now(datetime.timezone.utc)

    def record(rec, cmd, j, peak, err):
        rec.update({"size": a.size, "command": " ".join(cmd), "sampled_peak_rss_bytes": peak,
                    "time": datetime.datetime.now(datetime.timezone.utc).isoformat()})
        if err:
            rec["error"] = err
            print("   failed: " + err, file=sys.stderr)
        else:
            rec["wall_s"] = j.get("wall_seconds", j.get("wall_s"))
            rec["peak_rss_bytes"] = max(peak, j.get("peak_rss_bytes") or 0,
                                        int(j.get("peak_rss_tree_mb", 0) * 1e6))
            rec["checksum"] = j.get("checksums", j.get("checksum"))
            print("   wall %.2f s, peak RSS %s" % (rec["wall_s"], sbs.fmt_bytes(
                rec["peak_rss_bytes"])), file=sys.stderr)
        records.append(rec)
        with open(raw, "a") as f:
            f.write(json.dumps(rec) + "\n")

    for r in range(a.repeat):
        for e in exprs:
            allowed = a.allowed_mem or ALLOWED.get(e, "500MB")
            xmx = a.workers * bytes_of(allowed) + RESERVED
            warm([os.path.join(inputs, n + ".zarr") for n in INPUTS[e]])
            for setting in SETTINGS:
                opts = ([] if setting == "defaults" else documented_options(a, allowed)
                        if a.jvm_options == "env" else a.jvm_options.format(xmx=xmx).split())
                if setting != "defaults" and e in archives:
                    opts = opts + ["-XX:SharedArchiveFile=" + archives[e]]
                cmd = (["java", "--add-modules", "jdk.incubator.vector"] + opts
                       + ["-cp", cp, "dev.cubed.bench.userpath.UserPath", e, "--inputs", inputs,
                          "--workers", str(a.workers), "--allowed-mem", allowed, "--size",
                          a.size, "--work-dir", os.path.join(perf, "userpath-work"),
                          "--out", os.path.join(perf, "userpath-out", "java")])
                print("== %s %s java (%s) round %d" % (e, a.size, setting, r + 1), file=sys.stderr)
                j, peak, err = sbs.run_sampled(cmd, env, a.timeout)
                record({"kind": "user", "name": e, "engine": "java", "setting": setting,
                        "jvm_options": " ".join(opts), "round": r + 1}, cmd, j, peak, err)
            cmd = [a.anchors_python, "scripts/perf/userpath_dask.py", "run", e, "--dir", inputs,
                   "--out", os.path.join(perf, "userpath-out", "dask"), "--workers",
                   str(a.workers), "--size", a.size]
            print("== %s %s dask round %d" % (e, a.size, r + 1), file=sys.stderr)
            j, peak, err = sbs.run_sampled(cmd, env, a.timeout)
            record({"kind": "user", "name": e, "engine": "dask", "round": r + 1}, cmd, j, peak,
                   err)
            if not a.no_floor:
                floor_runs(a, e, allowed, xmx, cp, inputs, perf, env, r, record, archives)
        if not a.no_bench:
            bench_rounds(a, env, perf, r, record)
    emit(a, records, started, records_path=raw)


def floor_runs(a, e, allowed, xmx, cp, inputs, perf, env, r, record, archives):
    """The read-once floor of expression e: this engine's reader, then numcodecs'."""
    opts = (documented_options(a, allowed) if a.jvm_options == "env"
            else a.jvm_options.format(xmx=xmx).split())
    if e in archives:
        opts = opts + ["-XX:SharedArchiveFile=" + archives[e]]
    cmd = (["java", "--add-modules", "jdk.incubator.vector"] + opts
           + ["-cp", cp, "dev.cubed.bench.userpath.UserPath", e, "--floor", "--inputs", inputs,
              "--workers", str(a.workers), "--allowed-mem", allowed, "--size", a.size,
              "--work-dir", os.path.join(perf, "userpath-work")])
    print("== %s %s floor java round %d" % (e, a.size, r + 1), file=sys.stderr)
    j, peak, err = sbs.run_sampled(cmd, env, a.timeout)
    record({"kind": "floor", "name": e, "engine": "java", "round": r + 1}, cmd, j, peak, err)
    cmd = [a.anchors_python, "scripts/perf/userpath_dask.py", "floor", e, "--dir", inputs,
           "--workers", str(a.workers), "--size", a.size]
    print("== %s %s floor numcodecs round %d" % (e, a.size, r + 1), file=sys.stderr)
    j, peak, err = sbs.run_sampled(cmd, env, a.timeout)
    record({"kind": "floor", "name": e, "engine": "numcodecs", "round": r + 1}, cmd, j, peak, err)


def bench_rounds(a, env, perf, r, record):
    """The five workloads: ./cubed bench on both input sets, Dask from the anchor scripts."""
    bdir = os.path.join(perf, "bench-inputs-" + a.size)
    writer = os.path.join(ROOT, "scripts", "perf", "write_inputs_zarr_python.py")
    zp_note = None
    if not os.path.exists(writer):
        zp_note = "scripts/perf/write_inputs_zarr_python.py is absent"
    else:
        w = subprocess.run([a.anchors_python, writer, "--size", a.size, "--out", bdir], cwd=ROOT,
                           capture_output=True, text=True)
        if w.returncode != 0:
            zp_note = "write_inputs_zarr_python.py failed: %s" % (
                (w.stderr.strip().splitlines() or ["?"])[-1])
    anchors_ok = bool(a.anchors) and all(os.path.isfile(os.path.join(a.anchors, w + ".py"))
                                         for w in sbs.WORKLOADS)
    for w in sbs.WORKLOADS:
        allowed = a.allowed_mem or sbs.PY_CUBED_ALLOWED.get(w, sbs.DEFAULT_ALLOWED)
        base = ["./cubed", "bench", w, "--size", a.size, "--executor", "threads", "--workers",
                str(a.workers), "--allowed-mem", allowed]
        for inputs in ("engine", "zarr-python"):
            if inputs == "zarr-python" and zp_note:
                record({"kind": "bench", "name": w, "engine": "java", "inputs": inputs,
                        "round": r + 1}, base, None, 0, "skipped: " + zp_note)
                continue
            cmd = base + (["--inputs", "zarr-python", "--inputs-dir", bdir]
                          if inputs == "zarr-python" else [])
            print("== bench %s %s java (%s inputs) round %d" % (w, a.size, inputs, r + 1),
                  file=sys.stderr)
            j, peak, err = sbs.run_sampled(cmd, env, a.timeout)
            if err and inputs == "zarr-python" and "exit 2" in err:
                err = "skipped: ./cubed bench refused --inputs zarr-python (%s)" % err[:120]
            record({"kind": "bench", "name": w, "engine": "java", "inputs": inputs,
                    "round": r + 1}, cmd, j, peak, err)
        if anchors_ok:
            cmd = [a.anchors_python, os.path.join(a.anchors, w + ".py"), "--engine",
                   "dask-threads", "--size", a.size, "--workers", str(a.workers)]
            print("== bench %s %s dask round %d" % (w, a.size, r + 1), file=sys.stderr)
            j, peak, err = sbs.run_sampled(cmd, env, a.timeout)
            record({"kind": "bench", "name": w, "engine": "dask", "round": r + 1}, cmd, j, peak,
                   err)


def median_ok(rs):
    ok = [x for x in rs if "wall_s" in x]
    if not ok:
        return None, None, (rs[0].get("error", "not run") if rs else "not run")
    walls = sorted(x["wall_s"] for x in ok)
    return walls[len(walls) // 2], max(x["peak_rss_bytes"] for x in ok), None


def emit(a, records, started, records_path):
    table = render(a, records, started)
    if a.no_doc:
        print(table)
        return
    sbs.write_section(a.doc, "user-path:" + a.size, table)
    print("side-by-side: wrote the user-path %s table into %s (raw records: %s)"
          % (a.size, os.path.relpath(a.doc, ROOT), os.path.relpath(records_path, ROOT)),
          file=sys.stderr)


def render(a, records, started):
    def gb(b):
        return "%.2f" % (b / 1e9)

    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    lines = ["### User path and both input sets beside Dask, size %s" % a.size, "",
             "Measured on %d cores, %.1f GB memory (%s); %s; %s, pairs "
             "interleaved; wall = median of the rounds (timed phase; of two rounds the "
             "slower), peak RSS = largest (process tree, sampled every 50 ms). "
             "Checksums: this engine against Dask within relative 1e-9 (bench rows without "
             "Dask: against docs/benchmarks.md)."
             % (os.cpu_count(),
                os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9,
                platform.machine(), (java.splitlines() or ["?"])[0], rounds_done(a, records)), "",
             "Commands (from the repository root; $ANCHORS_PYTHON is the Python of "
             "scripts/perf/make-anchors-env.sh, $ANCHORS the anchor scripts' directory):", "",
             "```"]
    lines.append("scripts/perf/side-by-side.sh --user-path --size %s%s --anchors-python "
                 "$ANCHORS_PYTHON%s%s" % (a.size, (" --repeat %d" % a.repeat if a.repeat != 1
                                                   else "") + (" --no-bench" if a.no_bench
                                                               else ""), " --anchors $ANCHORS" if a.anchors else "",
                                          "" if a.jvm_options == DEFAULT_JVM_OPTIONS else
                                          " --jvm-options '%s'" % a.jvm_options))
    seen = set()
    for r in records:
        key = (r["kind"], r["engine"], r.get("setting"), r.get("inputs"))
        if key in seen or "error" in r and r["error"].startswith("skipped"):
            continue
        seen.add(key)
        c = r["command"].replace(ROOT + "/", "")
        c = c.replace(a.anchors_python + " ", "$ANCHORS_PYTHON ", 1)
        if a.anchors:
            c = c.replace(os.path.join(a.anchors, ""), "$ANCHORS/")
        parts = c.split(" ")
        if "-cp" in parts:
            parts[parts.index("-cp") + 1] = "<cubed-bench jar>:$(cat cubed-bench/target/classpath.txt)"
        lines.append(" ".join(parts))
    cds = (", plus -XX:SharedArchiveFile= a class data sharing archive of the expression "
           "(target/perf/userpath-cds/EXPRESSION.jsa, dumped once beforehand, untimed, with "
           "-XX:ArchiveClassesAtExit on the small inputs: the JDK 17 two-step of docs/library.md)"
           if any("SharedArchiveFile" in r.get("jvm_options", "") for r in records) else "")
    lines += ["```", "(one line per kind of run, shown for the first expression or workload; "
              "the others differ only in the name and --allowed-mem: 2GB for the expressions on "
              "U, 500MB for the rest; documented = the `jvm options:` line of `./cubed env "
              "--allowed-mem M --workers %d` for that M%s)" % (a.workers, cds), ""]

    def group(pred):
        return [x for x in records if pred(x)]

    exprs = [x for x in EXPRESSIONS if any(r["name"] == x and r["kind"] == "user"
                                           for r in records)]
    if exprs:
        lines += ["| expression | inputs GB | this engine s, defaults / documented | Dask s "
                  "| time vs Dask, defaults / documented | read-once floor s, engine / numcodecs "
                  "| best vs floor | peak RSS GB, defaults / documented / Dask | checksums agree |",
                  "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for e in exprs:
        lines.append(user_row(e, group, gb))
    bench = []
    for w in sbs.WORKLOADS:
        dask = group(lambda x: x["kind"] == "bench" and x["name"] == w and x["engine"] == "dask")
        dw, dp, derr = median_ok(dask)
        for inputs in ("engine", "zarr-python"):
            js = group(lambda x: x["kind"] == "bench" and x["name"] == w and x["engine"] == "java"
                       and x.get("inputs") == inputs)
            if not js:
                continue
            label = ("engine-written (Blosc-LZ4)" if inputs == "engine"
                     else "zarr-python (v3, zstd)")
            ref = None if dask else sbs.REFERENCE.get(a.size, {}).get(w)
            bench.append(row("bench " + w, label, "./cubed launcher (plan heap)", js, dask, dw,
                             dp, derr, gb, ref))
    if bench:
        lines += ["", "| workload | input set | JVM setting | this engine s | Dask s | time vs Dask "
                  "| peak RSS this / Dask GB | checksums agree |",
                  "|---|---|---|---:|---:|---:|---|---|"] + bench
    return "\n".join(lines) + "\n"


def rounds_done(a, records):
    """'N round(s)', or how many rounds each expression got when a run stopped early."""
    per = {}
    for r in records:
        if r["kind"] == "user" and r["engine"] == "dask":
            per[r["name"]] = max(per.get(r["name"], 0), r["round"])
    counts = sorted(set(per.values())) or [0]
    if len(counts) == 1 and counts[0] == a.repeat:
        return "%d round(s)" % a.repeat
    done = ("%d" % counts[0] if counts[0] == counts[-1]
            else "%d-%d (by expression)" % (counts[0], counts[-1]))
    return "%s of %d rounds (the run was stopped early)" % (done, a.repeat)


def user_row(e, group, gb):
    """One expression: both JVM settings, Dask, both floors, RSS and the checksum check."""
    dask = group(lambda x: x["kind"] == "user" and x["name"] == e and x["engine"] == "dask")
    dw, dp, derr = median_ok(dask)
    walls, rss, chk = [], [], []
    want = [sbs.checksum_values(x["checksum"]) for x in dask if "checksum" in x]
    for s in SETTINGS:
        js = group(lambda x: x["kind"] == "user" and x["name"] == e and x["engine"] == "java"
                   and x.get("setting") == s)
        jw, jp, jerr = median_ok(js)
        walls.append(jw)
        rss.append(gb(jp) if jp is not None else "—")
        if jerr:
            chk.append("%s failed: %s" % (s, jerr[:80]))
        elif want:
            got = [sbs.checksum_values(x["checksum"]) for x in js if "checksum" in x]
            bad = [g for g in got if not sbs.agree(g, want[0])]
            if bad:
                chk.append("NO (%s): %s vs %s" % (s, bad[0], want[0]))
    floors, size = [], None
    for engine in ("java", "numcodecs"):
        fs = group(lambda x: x["kind"] == "floor" and x["name"] == e and x["engine"] == engine)
        fw, _, _ = median_ok(fs)
        floors.append(fw)
        if engine == "numcodecs" and fs and "checksum" in fs[0]:
            size = fs[0]["checksum"].get("decoded_bytes")

    def secs(v):
        return "%.2f" % v if v is not None else "—"

    def ratio(v, base):
        return "%.2fx" % (v / base) if v is not None and base else "—"

    ok = [w for w in walls if w is not None]
    fl = [f for f in floors if f is not None]
    return "| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s |" % (
        e, "%.2f" % (size / 1e9) if size else "—", " / ".join(secs(w) for w in walls),
        secs(dw) if dw is not None else ("failed: " + derr[:60] if derr else "—"),
        " / ".join(ratio(w, dw) for w in walls), " / ".join(secs(f) for f in floors),
        ratio(min(ok), min(fl)) if ok and fl else "—", " / ".join(rss),
        gb(dp) if dp is not None else "—",
        "; ".join(chk) if chk else ("yes" if want else "—"))


def row(name, inputs, setting, js, dask, dw, dp, derr, gb, ref=None):
    jw, jp, jerr = median_ok(js)
    if jerr:
        return "| %s | %s | %s | %s | | | | |" % (name, inputs, setting, jerr[:100])
    d_s = "%.2f" % dw if dw is not None else ("—" if not dask else "failed: " + derr[:60])
    ratio = "%.2fx" % (jw / dw) if dw else "—"
    rss = "%s / %s" % (gb(jp), gb(dp) if dp is not None else "—")
    want = None
    ok_d = [x for x in dask if "checksum" in x]
    if ok_d:
        want = sbs.checksum_values(ok_d[0]["checksum"])
    elif ref is not None:
        want = ref
    if want is None:
        chk = "—"
    else:
        got = [sbs.checksum_values(x["checksum"]) for x in js if "checksum" in x]
        chk = "yes" if all(sbs.agree(g, want) for g in got) else "NO: %s vs %s" % (got[0], want)
    return "| %s | %s | %s | %.2f | %s | %s | %s | %s |" % (name, inputs, setting, jw, d_s, ratio,
                                                        rss, chk)
