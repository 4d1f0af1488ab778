"""A Python worker process: runs the tasks of Python ops (``map_blocks``, ``blockwise``,
``apply_gufunc`` with a Python function) for the engine.

Started by the JVM that runs the task (the bridge's, a processes-executor worker's, a Spark
executor's or a Flink TaskManager's: ``python -m cubed_java._worker``, the client's
``sys.executable`` with its ``sys.path`` as PYTHONPATH), one task at a time, on its stdin and stdout
(the frames are described in the JVM's ``dev.cubed.bridge.PythonWorker``). Functions arrive as
cloudpickle bytes from the JVM of the same user's client: this process unpickles them, so it must
never read frames from anyone else (a pipe only its parent holds).

Anything the function prints goes to stderr (which the JVM copies to its own, prefixed
``[cubed python worker PID]``): the channel is a private copy of the original stdout.
"""
from __future__ import annotations

import os
import pickle
import struct
import sys
import threading
import time
import traceback

import numpy as np

_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")


def _read_exact(f, n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        r = f.readinto(view[got:])
        if not r:
            raise EOFError
        got += r
    return buf


def _read_str(f):
    (n,) = _I32.unpack(_read_exact(f, 4))
    return bytes(_read_exact(f, n)).decode("utf-8")


def _write_str(out, s):
    b = s.encode("utf-8")
    out.write(_I32.pack(len(b)))
    out.write(b)


def _read_npy(f):
    """One array in .npy format, read into a new writable array (one copy: the pipe into it)."""
    fmt = np.lib.format
    version = fmt.read_magic(f)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(f)
    else:
        shape, fortran, dtype = fmt.read_array_header_2_0(f)
    a = np.empty(shape, dtype=dtype, order="F" if fortran else "C")
    if a.nbytes:
        view = memoryview(a.reshape(-1, order="A")).cast("B")
        got = 0
        while got < a.nbytes:
            r = f.readinto(view[got:])
            if not r:
                raise EOFError
            got += r
    return a


def _vm_hwm():
    try:
        with open("/proc/self/status") as s:
            for line in s:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return -1


def _reset_hwm():
    try:
        with open("/proc/self/clear_refs", "w") as c:
            c.write("5")  # resets VmHWM to the current resident set
    except OSError:
        pass


def _watch_parent(ppid):
    while True:
        time.sleep(1.0)
        if os.getppid() != ppid:
            os._exit(1)  # the JVM is gone: nobody will read the result


def main():
    inp = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
    out = os.fdopen(os.dup(1), "wb", buffering=1 << 16)
    os.dup2(2, 1)  # print() and C code writing to fd 1 go to stderr, not into the channel
    sys.stdout = sys.stderr
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    out.write(b"H" + _I64.pack(os.getpid()))
    out.flush()
    funcs = {}
    while True:
        t = inp.read(1)
        if not t or t == b"X":
            return
        if t == b"D":
            key = _read_str(inp)
            (n,) = _I32.unpack(_read_exact(inp, 4))
            # cloudpickle bytes from the JVM of this user's own client (see the module's doc)
            funcs[key] = pickle.loads(_read_exact(inp, n))
            continue
        if t != b"T":
            sys.stderr.write(f"cubed_java worker: unknown frame {t!r}; exiting\n")
            return
        _reset_hwm()
        key = _read_str(inp)
        dtype = np.dtype(_read_str(inp))
        (ndim,) = _I32.unpack(_read_exact(inp, 4))
        expect = struct.unpack(f">{ndim}q", _read_exact(inp, 8 * ndim))
        (n,) = _I32.unpack(_read_exact(inp, 4))
        blocks = [_read_npy(inp) for _ in range(n)]
        try:
            func, template, places, kwargs = funcs[key]
            call_args = list(template)
            for p, b in zip(places, blocks):
                call_args[p] = b
            del blocks
            result = np.asarray(func(*call_args, **kwargs))
            del call_args
            if result.shape != tuple(expect):
                _error(out, "shape", ValueError(
                    f"the function returned a block of shape {result.shape}; expected"
                    f" {tuple(expect)} (map_blocks: pass chunks= for other block sizes)"), "")
                continue
            result = np.ascontiguousarray(result.astype(dtype.newbyteorder("<"), copy=False))
        except Exception as e:  # the user's function failed: reported, the worker goes on
            _error(out, "error", e, traceback.format_exc())
            continue
        out.write(b"O" + _I64.pack(_vm_hwm()))
        fmt = np.lib.format
        fmt.write_array_header_1_0(out, fmt.header_data_from_array_1_0(result))
        if result.nbytes:
            out.write(memoryview(result.reshape(-1)).cast("B"))
        out.flush()
        del result


def _error(out, kind, e, trace):
    out.write(b"E" + _I64.pack(_vm_hwm()))
    _write_str(out, kind)
    _write_str(out, type(e).__name__)
    _write_str(out, str(e))
    _write_str(out, trace)
    out.flush()


if __name__ == "__main__":
    main()
