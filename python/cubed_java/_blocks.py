"""Temporary folders of Python-side writes (``persist``), removed when Python exits, and
``map_blocks`` (a lazy op whose function runs in Python worker processes: ``_pyfunc``)."""
from __future__ import annotations

import atexit
import shutil

from ._pyfunc import blockwise, map_blocks  # noqa: F401

_TEMP_DIRS = []


def _cleanup():
    for d in _TEMP_DIRS:
        shutil.rmtree(d, ignore_errors=True)


atexit.register(_cleanup)
