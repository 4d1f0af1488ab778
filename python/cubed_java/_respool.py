"""Result files kept for reuse: the pages of a compute's result cross once, and are allocated once.

A compute's result crosses from the JVM in a file of the session's shared-memory folder (tmpfs):
the JVM writes it, this process maps it (``_transfer.map_shared``). Allocating a fresh tmpfs page
costs more than writing it (of a 142 MB result: ~3x a plain copy, plus a page-table entry per page
when it is mapped), so a result file is not deleted when its array is: when the last NumPy array
over it is collected, the file is renamed ``cubed-java-free-<bytes>-<inode>`` and kept mapped here,
and the JVM writes the next result of exactly that size into it (renaming it to a fresh reply name,
``SharedMemory.newResultFile``); the reply then comes back as the mapping this process still has.

Only compute results (``*.res`` files) are kept, at most ``POOL_BYTES`` of them (the oldest
released are deleted first), and none idle longer than ``IDLE_SECONDS`` (checked when a result is
taken or released). A bridge that ends drops its folder's files (``drop``). Held and free files are
named ``cubed-java-*``, so the JVM's and the session's clean-ups remove them with the folder.

A process that forks shares its mappings with the child, which may still read an array after the
parent's copy is gone: a result mapped before an ``os.fork()`` is deleted when the parent releases
it, never reused, and a child releases nothing and deletes nothing of its parent's (the pool of a
child starts empty).
"""
from __future__ import annotations

import mmap
import os
import threading
import time
import weakref

import numpy as np

#: Bytes of released result files kept for reuse (CUBED_JAVA_RESULT_POOL; 0: none kept).
POOL_BYTES = int(os.environ.get("CUBED_JAVA_RESULT_POOL", 512 << 20))

#: A released file unused this many seconds is deleted at the next take or release.
IDLE_SECONDS = 60.0

_PREFIX = "cubed-java-"

_lock = threading.Lock()
#: (st_dev, st_ino) -> (path, nbytes, mapping, time released), oldest release first
_free = {}
#: Forks of this process so far: a result mapped under an older count may be mapped by a child.
_forks = 0
#: The process whose results the pool holds (a forked child's differs).
_owner = os.getpid()


def _forked_parent():
    global _forks
    _forks += 1


def _forked_child():
    """A child's pool starts empty: its parent's free files stay its parent's."""
    global _free, _owner, _lock
    _lock = threading.Lock()
    _free = {}
    _owner = os.getpid()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_parent=_forked_parent, after_in_child=_forked_child)


def _pop_old(now):
    """Under the lock: removes and returns the entries over the byte budget or idle too long."""
    out = []
    total = sum(e[1] for e in _free.values())
    for key in list(_free):
        path, n, mm, t = _free[key]
        if total <= POOL_BYTES and now - t <= IDLE_SECONDS:
            break
        out.append(_free.pop(key))
        total -= n
    return out


def _delete(entries):
    for path, _, mm, _ in entries:
        try:
            os.unlink(path)
        except OSError:
            pass  # taken by the JVM meanwhile (its reply maps it again) or its folder is gone
        mm.close()


def array(dtype, shape, nbytes, path):
    """The array the JVM wrote to ``path`` (a file of its session folder), mapped: the mapping of a
    released file when the JVM wrote into one (no new mapping), else a new one. A compute result
    (``*.res``) is kept under a held name and released when its arrays are gone; any other file is
    unlinked at once (the memory is freed when the array is)."""
    fd = os.open(path, os.O_RDWR)
    try:
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        with _lock:
            entry = _free.pop(key, None)
            stale = _pop_old(time.monotonic())
        _delete(stale)
        if entry is not None and entry[1] == nbytes:
            mm = entry[2]
        else:
            if entry is not None:
                entry[2].close()
            # MAP_POPULATE: the pages mapped in one call rather than one fault each
            mm = mmap.mmap(fd, nbytes, flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0))
        keep = path.endswith(".res") and 0 < nbytes <= POOL_BYTES
        held = os.path.join(os.path.dirname(path), f"{_PREFIX}held-{st.st_ino}")
        if keep:
            os.rename(path, held)  # out of the JVM's clean-up of reply files not taken
        else:
            os.unlink(path)
    finally:
        os.close(fd)
    a = np.frombuffer(mm, dtype=dtype, count=int(np.prod(shape, dtype=np.int64))).reshape(shape)
    if keep:
        owner = a
        while isinstance(owner, np.ndarray):  # the memoryview every view of `a` refers to
            owner = owner.base
        f = weakref.finalize(owner, _release, held, nbytes, mm, key, _forks, _owner)
        f.atexit = False
    return a


def _release(held, nbytes, mm, key, forks, owner):
    """The last array over a kept result is gone: its file becomes free for the next result of its
    size (or is deleted when its folder is gone or the pool is full). In a forked child nothing
    happens to the file (the parent owns it); a file mapped before a fork is deleted (a child may
    still read it)."""
    if owner != os.getpid():
        return
    if forks != _forks:
        try:
            os.unlink(held)
        except OSError:
            pass
        mm.close()
        return
    free = os.path.join(os.path.dirname(held), f"{_PREFIX}free-{nbytes}-{key[1]}")
    try:
        os.rename(held, free)
    except OSError:  # the bridge ended and its folder went
        mm.close()
        return
    with _lock:
        _free[key] = (free, nbytes, mm, time.monotonic())
        stale = _pop_old(time.monotonic())
    _delete(stale)


def drop(folder):
    """Deletes the free files of a bridge's folder and unmaps them (the bridge ends)."""
    with _lock:
        gone = [_free.pop(k) for k, e in list(_free.items()) if os.path.dirname(e[0]) == folder]
    _delete(gone)


def free_bytes():
    """Bytes of released result files kept now (tests, diagnostics)."""
    with _lock:
        return sum(e[1] for e in _free.values())
