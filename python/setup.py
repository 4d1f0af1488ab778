"""Builds the package with the engine inside: `pip install ./python` or `pip wheel ./python`.

The build (not the installed package) runs Maven in the clone this folder belongs to,
`mvn -q -B package -DskipTests -pl cubed-python -am` (CUBED_JAVA_MAVEN_ARGS adds arguments,
e.g. `-o` for offline), then puts cubed-python's runtime class path into cubed_java/_jars: the
module classes of cubed-python and cubed-core as jars, and every dependency jar, listed in class-path
order in _jars/classpath.txt. CUBED_JAVA_BUILD=prebuilt skips Maven and takes the clone's existing
build as it is (the test suite does that inside Maven's own run). An editable install carries no
jars: it uses the clone's build (development mode, see cubed_java/_engine.py).
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _clone_module():
    spec = importlib.util.spec_from_file_location(
        "_cubed_java_clone", os.path.join(HERE, "cubed_java", "_clone.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _build_engine(clone):
    """Runs Maven (unless CUBED_JAVA_BUILD=prebuilt) and returns the clone's class path."""
    if not clone.is_clone(REPO):
        sys.exit(f"cubed_java: {REPO} is not a clone of Cubed for Java (no cubed-python/pom.xml):"
                 " build the package from the python/ folder of a clone")
    mode = os.environ.get("CUBED_JAVA_BUILD", "maven")
    if mode not in ("maven", "prebuilt"):
        sys.exit(f"cubed_java: CUBED_JAVA_BUILD={mode}: expected maven or prebuilt")
    if mode == "maven":
        mvn = shutil.which("mvn")
        if mvn is None:
            sys.exit("cubed_java: building the package builds the engine with Maven, and mvn is"
                     " not on PATH (or set CUBED_JAVA_BUILD=prebuilt after building the clone)")
        cmd = [mvn, *clone.MAVEN_BUILD, *os.environ.get("CUBED_JAVA_MAVEN_ARGS", "").split()]
        print(f"cubed_java: building the engine: {' '.join(cmd)} (in {REPO})", file=sys.stderr,
              flush=True)
        r = subprocess.run(cmd, cwd=REPO)
        if r.returncode != 0:
            sys.exit(f"cubed_java: Maven failed (exit {r.returncode}): {' '.join(cmd)}")
    entries = clone.clone_entries(REPO)
    if entries is None:
        sys.exit(f"cubed_java: the engine in {REPO} is not built (no"
                 " cubed-python/target/classpath.txt): run `mvn -B package -DskipTests -pl"
                 " cubed-python -am` there, or build the package without CUBED_JAVA_BUILD")
    return entries


def _jar_dir(src, dest):
    """Zips a folder of classes into a jar (entries in a stable order, with folder entries)."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for root, dirs, files in os.walk(src):
            dirs.sort()
            rel = os.path.relpath(root, src)
            if rel != ".":
                z.write(root, rel.replace(os.sep, "/") + "/")
            for name in sorted(files):
                path = os.path.join(root, name)
                z.write(path, os.path.relpath(path, src).replace(os.sep, "/"))


def _module_of(classes_dir):
    """cubed-core for .../cubed-core/target/classes."""
    return os.path.basename(os.path.dirname(os.path.dirname(classes_dir)))


def copy_engine(entries, out):
    """Puts the class path ``entries`` into the folder ``out`` as jars; returns their names."""
    os.makedirs(out, exist_ok=True)
    names = []
    modules = set()
    seen = set()
    for e in entries:
        if os.path.realpath(e) in seen:
            continue
        seen.add(os.path.realpath(e))
        if os.path.isdir(e):
            module = _module_of(e)
            if module in modules:
                continue  # Maven lists core's classes folder too when run up to the tests
            modules.add(module)
            name = f"{module}.jar"
            _jar_dir(e, os.path.join(out, name))
        elif os.path.isfile(e):
            base = os.path.basename(e)
            if any(base.startswith(m + "-") for m in modules):
                continue  # a module's jar whose classes are already in (from its folder)
            name = base if base not in names else f"{len(names)}-{base}"
            shutil.copyfile(e, os.path.join(out, name))
        else:
            continue  # a folder Maven lists that does not exist (no resources): nothing to carry
        names.append(name)
    return names


class BuildPyWithEngine(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # the editable package uses the clone's build (development mode)
        clone = _clone_module()
        out = os.path.join(self.build_lib, "cubed_java", "_jars")
        shutil.rmtree(out, ignore_errors=True)
        names = copy_engine(_build_engine(clone), out)
        with open(os.path.join(out, clone.JARS_LIST), "w", encoding="utf-8") as f:
            f.write("\n".join(names) + "\n")


setup(cmdclass={"build_py": BuildPyWithEngine})
