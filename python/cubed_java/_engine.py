"""Where the engine's classes come from: the class path of the JVM the package starts.

In order: ``CUBED_JAVA_CLASSPATH`` as given; ``CUBED_JAVA_HOME=<clone>`` (development: that
clone's Maven build, built on first use under a file lock); the jars the package carries
(``cubed_java/_jars``, put there when the package was built, see setup.py); a source checkout
this module runs from (development again). An installed package never runs Maven.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from . import errors
from ._clone import JARS_LIST, MAVEN_BUILD, clone_entries, is_clone

#: The folder of the jars a built package carries.
JARS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_jars")
#: Development mode builds offline (the clone was built online once, or its Maven cache is full).
DEV_BUILD = ["-o", *MAVEN_BUILD]


def packaged_jars():
    """The class path of the jars this package carries, or None when it carries none."""
    listing = os.path.join(JARS_DIR, JARS_LIST)
    if not os.path.isfile(listing):
        return None
    with open(listing, encoding="utf-8") as f:
        names = [n.strip() for n in f if n.strip()]
    missing = [n for n in names if not os.path.isfile(os.path.join(JARS_DIR, n))]
    if missing or not names:
        raise errors.BridgeError(
            f"cubed_java: the package's engine jars in {JARS_DIR} are incomplete (missing:"
            f" {', '.join(missing[:3]) or 'all'}); reinstall the package")
    return os.pathsep.join(os.path.join(JARS_DIR, n) for n in names)


def classpath():
    """The JVM class path (see the module's text)."""
    cp = os.environ.get("CUBED_JAVA_CLASSPATH")
    if cp:
        return cp
    home = os.environ.get("CUBED_JAVA_HOME")
    if home:
        if not is_clone(home):
            raise errors.BridgeError(
                f"cubed_java: CUBED_JAVA_HOME={home} is not a Cubed for Java clone (no"
                " cubed-python/pom.xml there); unset it to use the engine the package carries")
        return clone_classpath(home)
    jars = packaged_jars()
    if jars:
        return jars
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if is_clone(here):
        return clone_classpath(here)
    raise errors.BridgeError(
        "cubed_java carries no engine jars and runs from no clone: build the package from a"
        " clone of Cubed for Java (`pip install ./python`, which builds the engine with Maven),"
        " or set CUBED_JAVA_HOME to a clone, or CUBED_JAVA_CLASSPATH to a class path holding"
        " dev.cubed.bridge.BridgeMain")


def clone_classpath(repo):
    """A clone's build as a class path, built first (once, under a file lock, with a message on
    standard error) when missing."""
    entries = clone_entries(repo)
    if entries is None:
        _build_clone(repo)
        entries = clone_entries(repo)
        if entries is None:
            raise errors.BridgeError(
                f"cubed_java: building the engine in {repo} left no"
                " cubed-python/target/classpath.txt")
    return os.pathsep.join(entries)


def _build_clone(repo):
    mvn = shutil.which("mvn")
    cmd_text = "mvn " + " ".join(DEV_BUILD)
    if mvn is None:
        raise errors.BridgeError(
            f"cubed_java: the engine in {repo} (CUBED_JAVA_HOME) is not built and mvn is not on"
            f" PATH: run `{cmd_text}` there")
    target = os.path.join(repo, "cubed-python", "target")
    os.makedirs(target, exist_ok=True)
    with _BuildLock(os.path.join(target, ".cubed-java-build.lock"), repo):
        if clone_entries(repo) is not None:
            return  # another process built it while this one waited
        print(f"cubed_java: building the engine in {repo} with Maven ({cmd_text}); once, about"
              " two minutes...", file=sys.stderr, flush=True)
        r = subprocess.run([mvn, *DEV_BUILD], cwd=repo, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if r.returncode != 0:
            tail = r.stdout.decode(errors="replace")[-2000:]
            raise errors.BridgeError(f"cubed_java: building the engine failed ({cmd_text} in"
                                     f" {repo}, exit {r.returncode}):\n{tail}")


class _BuildLock:
    """An exclusive lock on a file (flock): processes starting at once build one at a time."""

    def __init__(self, path, repo):
        self.path = path
        self.repo = repo
        self.fd = None

    def __enter__(self):
        try:
            import fcntl
        except ImportError:  # no flock (Windows): unguarded
            return self
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"cubed_java: waiting for another process building the engine in {self.repo}",
                  file=sys.stderr, flush=True)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
        return False
