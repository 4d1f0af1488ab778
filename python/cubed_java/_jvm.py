"""The JVM child process of a bridge: finding ``java``, starting ``dev.cubed.bridge.BridgeMain``
with the session's options and pipes, and ending it (asked first, killed after a grace period).
"""
from __future__ import annotations

import os
import shutil
import subprocess

from . import errors
from ._engine import classpath

#: The JVM's options when CUBED_JAVA_OPTS is not set. Transparent huge pages for the heap (where
#: the system offers them on request, its "madvise" setting): the 13 MB blocks of a compute then
#: take one page fault per 2 MB instead of one per 4 KB page when the heap grows into new memory.
DEFAULT_JVM_OPTIONS = "-Xmx4g -XX:+UseParallelGC -XX:+UseTransparentHugePages"

END_GRACE = 20.0
"""Seconds an interrupted JVM has to end on its own (writing what it holds) before it is killed."""


def java():
    """The ``java`` launcher: JAVA_HOME's, else the one on PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and os.path.isfile(os.path.join(home, "bin", "java")):
        return os.path.join(home, "bin", "java")
    found = shutil.which("java")
    if found is None:
        raise errors.BridgeError("cubed_java needs a Java 17+ runtime: put `java` on PATH or set"
                                 " JAVA_HOME")
    return found


def widen_pipes(*files):
    """1 MiB pipe buffers (Linux): fewer context switches per large array."""
    try:
        import fcntl

        size = 1 << 20
        try:
            with open("/proc/sys/fs/pipe-max-size", encoding="ascii") as f:
                size = min(size, int(f.read()))
        except OSError:
            pass
        for f in files:
            fcntl.fcntl(f.fileno(), fcntl.F_SETPIPE_SZ, size)
    except (ImportError, AttributeError, OSError):
        pass


def start(cp, jvm_options, env):
    """Starts the bridge's JVM with its stdin and stdout as unbuffered pipes (widened) and the
    environment ``env``. ``jvm_options``: a list, or None for CUBED_JAVA_OPTS (whitespace-split)
    or else DEFAULT_JVM_OPTIONS; ``cp``: the class path, or None for the package's."""
    opts = jvm_options if jvm_options is not None else os.environ.get(
        "CUBED_JAVA_OPTS", DEFAULT_JVM_OPTIONS).split()
    # the JVM's own log (unified logging, e.g. JFR's start message) writes to standard
    # output by default, which is the reply stream here: send it to standard error
    log = ["-Xlog:disable", "-Xlog:all=warning:stderr"]
    cmd = [java(), *log, *opts, "-cp", cp or classpath(), "dev.cubed.bridge.BridgeMain"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                            env=env)
    widen_pipes(proc.stdin, proc.stdout)
    return proc


def end(proc):
    """Ends the JVM and waits for it (so that it writes no more): asked first (SIGTERM: an
    interrupted compute writes the finished blocks of the results it holds in memory to its
    compute directory, for a resume), killed after END_GRACE seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=END_GRACE)
        except subprocess.TimeoutExpired:
            pass
    proc.kill()
    proc.wait()


def close(proc):
    """Ends the JVM as a session's end does: its input closed (the bridge then exits), killed if
    it has not ended 10 s later."""
    if proc.poll() is None:
        try:
            proc.stdin.close()
            proc.wait(timeout=10)
        except Exception:
            proc.kill()
            proc.wait()
