"""Large arrays between Python and the JVM through shared files: where the files go, writing a
request's array into one, mapping a result's file, and removing the files that dead processes left.

Each JVM's transfer files live in a folder of its own, ``cubed-java-<python pid>-<random>`` in the
shared-file folder (owner-only), removed with its JVM, and found by pid when the process died.
"""
from __future__ import annotations

import mmap
import os
import re
import shutil
import stat
import tempfile

import numpy as np

from . import _respool

#: Arrays of at least this many bytes cross through a shared file (CUBED_JAVA_SHM_MIN).
SHM_MIN_BYTES = int(os.environ.get("CUBED_JAVA_SHM_MIN", 1 << 20))

_SESSION_DIR = re.compile(r"cubed-java-(\d+)-")
#: The session folders of this process's live bridges.
_live_dirs = set()


def shm_dir():
    """Where large arrays cross as files (CUBED_JAVA_SHM_DIR; /dev/shm where it exists, else the
    temporary folder); None for "off", which sends every array through the pipe."""
    d = os.environ.get("CUBED_JAVA_SHM_DIR")
    if d == "off":
        return None
    if d:
        return d
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        return "/dev/shm"
    return tempfile.gettempdir()


def new_session_dir(base):
    """A new transfer folder for one JVM in ``base`` (owner-only: mkdtemp's mode 0700, named by
    this process's pid), after removing the stale ones there; counted live until
    ``remove_session_dir``."""
    remove_stale_transfer_files(base)
    d = tempfile.mkdtemp(prefix=f"cubed-java-{os.getpid()}-", dir=base)
    _live_dirs.add(d)
    return d


def remove_session_dir(d):
    """Removes the transfer folder ``d`` with any file in it (a result the JVM was writing when it
    was ended)."""
    shutil.rmtree(d, ignore_errors=True)
    _live_dirs.discard(d)


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def remove_stale_transfer_files(base):
    """Removes the transfer folders (and files) in ``base`` that this user owns and no live
    bridge uses: those of dead processes (a process killed, or Ctrl-C at a bad moment in an older
    version) and this process's folders of ended bridges. Another user's entries and those of
    live processes are left alone. Returns the paths removed."""
    removed = []
    me = os.getpid()
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    for e in entries:
        m = _SESSION_DIR.match(e.name)
        if not m:
            continue
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        pid = int(m.group(1))
        if st.st_uid != os.getuid() or e.path in _live_dirs:
            continue
        if pid != me and _pid_alive(pid):
            continue
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(e.path, ignore_errors=True)
        elif stat.S_ISREG(st.st_mode):
            try:
                os.unlink(e.path)
            except OSError:
                continue
        else:
            continue
        removed.append(e.path)
    return removed


def write_shared(p, a):
    """Writes ``a`` (any layout or byte order) as little-endian C-order bytes into a new file only
    this user can read (mkstemp: O_EXCL, mode 0600) in the request ``p``'s folder (``p.shm_dir``),
    adding it to ``p.files`` (unlinked after the reply): one copy. Returns the path."""
    fd, path = tempfile.mkstemp(prefix="cubed-java-", suffix=".in", dir=p.shm_dir)
    p.files.append(path)
    try:
        if a.flags.c_contiguous and a.dtype.byteorder != ">":
            # one write call: the kernel allocates the pages as it copies (no page faults)
            mv = memoryview(a).cast("B")
            while len(mv):
                mv = mv[os.write(fd, mv):]
        else:
            os.ftruncate(fd, a.nbytes)
            with mmap.mmap(fd, a.nbytes) as mm:
                view = np.frombuffer(mm, dtype=a.dtype.newbyteorder("<"), count=a.size)
                view.reshape(a.shape)[...] = a
                del view
    finally:
        os.close(fd)
    return path


def map_shared(dtype, shape, nbytes, path):
    """The array the JVM wrote to ``path``: mapped (no copy); a compute's result file is kept for
    the next result of its size once the array is gone, any other file unlinked at once
    (_respool)."""
    return _respool.array(dtype, shape, nbytes, path)
