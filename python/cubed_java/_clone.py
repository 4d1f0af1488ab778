"""A clone's build of the engine: what the package's build (setup.py, which loads this file on its
own) and the development mode (_engine.py) both read. Standard library only."""
import os

#: The Maven arguments that build a clone's engine for the package (run in the clone).
MAVEN_BUILD = ["-q", "-B", "package", "-DskipTests", "-pl", "cubed-python", "-am"]
#: In the package's jar folder, the file listing the jars in class-path order.
JARS_LIST = "classpath.txt"


def is_clone(path):
    """Whether ``path`` is a clone of Cubed for Java (it has cubed-python/pom.xml)."""
    return os.path.isfile(os.path.join(path, "cubed-python", "pom.xml"))


def clone_entries(repo):
    """The class path of a clone's build as a list (cubed-python's and cubed-core's classes, then
    cubed-python's runtime dependencies from Maven's classpath.txt), or None when not built."""
    target = os.path.join(repo, "cubed-python", "target")
    cp_file = os.path.join(target, "classpath.txt")
    classes = os.path.join(target, "classes")
    marker = os.path.join(classes, "dev", "cubed", "bridge", "BridgeMain.class")
    if not (os.path.isfile(cp_file) and os.path.isfile(marker)):
        return None
    with open(cp_file, encoding="utf-8") as f:
        deps = [e for e in f.read().strip().split(os.pathsep) if e]
    core = os.path.join(repo, "cubed-core", "target", "classes")
    # core's own classes first: with `-pl cubed-python` alone Maven lists core's jar from the
    # local repository, which may be older than the clone
    return [classes, core] + deps
