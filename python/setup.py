"""Records where the repository is, so the installed package finds the engine's classes.

`pip install ./python` builds in this folder; the build writes cubed_java/_location.py with the
repository's absolute path (CUBED_JAVA_HOME or CUBED_JAVA_CLASSPATH override it at run time).
"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BuildPyWithLocation(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "cubed_java", "_location.py")
        with open(target, "w", encoding="utf-8") as f:
            f.write("# written by setup.py at install time\n")
            f.write(f"REPO = {REPO!r}\n")


setup(cmdclass={"build_py": BuildPyWithLocation})
