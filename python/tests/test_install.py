"""The installed package carries the engine; development mode builds a clone once.

``test_installed_package_runs_without_the_clone`` needs a package built with its jars (a wheel
or ``pip install ./python``): it is skipped when the tests run against a source checkout, and
fails instead where CUBED_JAVA_EXPECT_JARS=1 (PythonSuiteTest installs the wheel and sets it).
"""
import os
import subprocess
import sys
import textwrap

import pytest

import cubed_java

PACKAGE_DIR = os.path.dirname(os.path.abspath(cubed_java.__file__))


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUBED_JAVA_HOME", "CUBED_JAVA_CLASSPATH", "PYTHONPATH")}
    env.update(extra)
    return env


def test_installed_package_runs_without_the_clone(tmp_path):
    if not os.path.isfile(os.path.join(PACKAGE_DIR, "_jars", "classpath.txt")):
        if os.environ.get("CUBED_JAVA_EXPECT_JARS") == "1":
            pytest.fail(f"the installed cubed_java ({PACKAGE_DIR}) carries no engine jars")
        pytest.skip("cubed_java runs from a source checkout (no _jars): build a wheel to test")
    script = textwrap.dedent("""
        import cubed_java, cubed_java.array_api as xp
        from cubed_java import _bridge
        print("CP=" + _bridge.classpath())
        x = xp.reshape(xp.arange(24, dtype=xp.float64), (4, 6))
        print("SUM=" + str(float(xp.sum(x * 2.0))))
    """)
    # from a folder outside the clone, with no setting pointing at it
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=_clean_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
    entries = lines["CP"].split(os.pathsep)
    jars = os.path.join(PACKAGE_DIR, "_jars") + os.sep
    outside = [e for e in entries if not e.startswith(jars)]
    assert not outside, f"class path entries outside the package's jars: {outside}"
    assert any(os.path.basename(e) == "cubed-python.jar" for e in entries)
    assert float(lines["SUM"]) == 2.0 * sum(range(24))
    assert "mvn" not in r.stderr and "building the engine" not in r.stderr


def _fake_clone(tmp_path):
    """A folder that looks like a clone, and an `mvn` that builds it as Maven would (writing the
    class path file and the bridge's class) slowly, refusing to run twice at once (Maven's own
    clash shows as a FileAlreadyExistsException)."""
    repo = tmp_path / "clone"
    (repo / "cubed-python").mkdir(parents=True)
    (repo / "cubed-python" / "pom.xml").write_text("<project/>\n")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    mvn = bindir / "mvn"
    mvn.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import os, sys, time
        repo = os.getcwd()
        with open(os.path.join(repo, "calls.log"), "a") as f:
            f.write(" ".join(sys.argv[1:]) + "\\n")
        try:
            fd = os.open(os.path.join(repo, "building"), os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            sys.exit("FileAlreadyExistsException: another build is running")
        time.sleep(3)  # the build's duration: the other process starts meanwhile
        target = os.path.join(repo, "cubed-python", "target")
        cls = os.path.join(target, "classes", "dev", "cubed", "bridge")
        os.makedirs(cls, exist_ok=True)
        open(os.path.join(cls, "BridgeMain.class"), "wb").close()
        with open(os.path.join(target, "classpath.txt"), "w") as f:
            f.write("/deps/a.jar")
        os.close(fd)
        os.unlink(os.path.join(repo, "building"))
        """))
    mvn.chmod(0o755)
    return repo, bindir


def test_two_processes_starting_at_once_build_the_clone_once(tmp_path):
    repo, bindir = _fake_clone(tmp_path)
    gate = tmp_path / "gate"
    gate.mkdir()
    # each process waits for the other at a barrier, then asks for the class path at once
    script = textwrap.dedent(f"""
        import os, time
        from cubed_java import _bridge
        open(os.path.join({str(gate)!r}, str(os.getpid())), "w").close()
        deadline = time.monotonic() + 300
        while len(os.listdir({str(gate)!r})) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        print("CP=" + _bridge.classpath())
    """)
    env = _clean_env(CUBED_JAVA_HOME=str(repo),
                     PATH=str(bindir) + os.pathsep + os.environ.get("PATH", ""))
    procs = [subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err[-3000:]
        assert "CP=" in out and "/deps/a.jar" in out
    calls = (repo / "calls.log").read_text().splitlines()
    assert len(calls) == 1, f"Maven ran {len(calls)} times: {calls}"
    assert "-o" in calls[0].split() and "package" in calls[0].split()
    errs = "".join(err for _, err in outs)
    assert "cubed_java: building the engine in" in errs  # the first-use message
    assert "waiting for another process building the engine" in errs


def test_unbuilt_clone_without_maven_is_one_clear_message(tmp_path):
    repo, _ = _fake_clone(tmp_path)
    empty = tmp_path / "nobin"
    empty.mkdir()
    script = "from cubed_java import _bridge\n_bridge.classpath()\n"
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path,
                       env=_clean_env(CUBED_JAVA_HOME=str(repo), PATH=str(empty)),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert "not built" in last and "mvn is not on PATH" in last and str(repo) in last, r.stderr
