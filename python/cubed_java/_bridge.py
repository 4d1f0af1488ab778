"""The pipe to the JVM: starts `java dev.cubed.bridge.BridgeMain` as a child process and talks to it
with length-prefixed little-endian binary frames over its stdin/stdout (see docs/python.md).

Only this process holds the pipe's ends, so nobody else on the machine can drive the JVM.
"""
from __future__ import annotations

import atexit
import contextlib
import mmap
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import threading

import numpy as np

from . import _respool, errors
from ._engine import classpath  # noqa: F401 (the class path; re-exported)

OP_PING = 0
OP_CALL = 1
#: first byte of a frame from the JVM: a reply's value, a reply's error, an event frame (sent
#: before the reply of a call that streams events, while the JVM works on it)
STATUS_OK, STATUS_ERROR, STATUS_EVENT = 0, 1, 2

T_NONE, T_BOOL, T_INT, T_FLOAT, T_COMPLEX, T_STR, T_HANDLE, T_INTS, T_LIST = range(9)
T_DTYPE, T_NDARRAY, T_SPEC, T_ARRAYINFO, T_INDEX, T_SHMARRAY = range(9, 15)
#: In a new array's chunks: the axis is regular, its block size follows (an int64).
REGULAR_AXIS = -1
#: The first bytes the JVM's bridge writes on its standard output, before any reply: what comes
#: before them (a JVM option that prints at start-up, e.g. -XX:StartFlightRecording's message)
#: is not the protocol's and is passed on to standard error.
SYNC = b"\x00\x00cubed-java-bridge\x00\x01"
#: At most this much start-up output is skipped before the sync marker (then the JVM is ended).
SYNC_LIMIT = 1 << 20


def _shm_dir():
    """Where large arrays cross as files (CUBED_JAVA_SHM_DIR; /dev/shm where it exists, else the
    temporary folder); "off" sends every array through the pipe."""
    d = os.environ.get("CUBED_JAVA_SHM_DIR")
    if d == "off":
        return None
    if d:
        return d
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        return "/dev/shm"
    return tempfile.gettempdir()


#: Each JVM's transfer files live in a folder of its own, ``cubed-java-<python pid>-<random>``
#: in the shared-file folder: removed with its JVM, and found by pid when the process died.
_SESSION_DIR = re.compile(r"cubed-java-(\d+)-")
#: The session folders of this process's live bridges.
_live_dirs = set()


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


#: Arrays of at least this many bytes cross through a shared file (CUBED_JAVA_SHM_MIN).
SHM_MIN_BYTES = int(os.environ.get("CUBED_JAVA_SHM_MIN", 1 << 20))

#: Frames smaller than this are joined and written in one call.
SMALL_FRAME = 1 << 16

_U8 = struct.Struct("<B")
_I32 = struct.Struct("<i")
_I64 = struct.Struct("<q")
_F64 = struct.Struct("<d")


class Ints(tuple):
    """A tuple sent as a list of int64 (shapes, axes, chunk sizes)."""


class Dtype(str):
    """A dtype name sent as a dtype."""


class IndexSpec(tuple):
    """A basic index (ints, slices, None, Ellipsis) sent as an index."""


class _Spec:
    """The session's spec (the Java side fills it in)."""


SPEC = _Spec()


class Handle:
    """The base class of the Python objects that stand for an object in the JVM's handle table
    (``cubed_java.Array``): sent as that handle, their ``_handle``. The bridge knows no more of
    them."""

    __slots__ = ()


class ArrayInfo:
    """A new lazy array in the JVM: handle id, dtype, shape, chunks."""

    __slots__ = ("handle", "dtype", "shape", "chunks")

    def __init__(self, handle, dtype, shape, chunks):
        self.handle = handle
        self.dtype = dtype
        self.shape = shape
        self.chunks = chunks


def _java():
    home = os.environ.get("JAVA_HOME")
    if home and os.path.isfile(os.path.join(home, "bin", "java")):
        return os.path.join(home, "bin", "java")
    java = shutil.which("java")
    if java is None:
        raise errors.BridgeError("cubed_java needs a Java 17+ runtime: put `java` on PATH or set"
                                 " JAVA_HOME")
    return java


def _widen_pipes(*files):
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


#: The bridge calls that run a plan (or bring an array's values into Python).
COMPUTING_CALLS = frozenset({"compute", "computeWith", "toZarr", "writeDataset", "timeCompute",
                             "persistInMemory"})
#: Functions called with the call's name before each computing call (``cubed_java.testing``).
compute_observers = []


#: The JVM's options when CUBED_JAVA_OPTS is not set. Transparent huge pages for the heap (where
#: the system offers them on request, its "madvise" setting): the 13 MB blocks of a compute then
#: take one page fault per 2 MB instead of one per 4 KB page when the heap grows into new memory.
DEFAULT_JVM_OPTIONS = "-Xmx4g -XX:+UseParallelGC -XX:+UseTransparentHugePages"


class Bridge:
    """One JVM child process and its handle table. Thread-safe (one call at a time)."""

    def __init__(self, cp=None, jvm_options=None):
        opts = jvm_options if jvm_options is not None else os.environ.get(
            "CUBED_JAVA_OPTS", DEFAULT_JVM_OPTIONS).split()
        # the JVM's own log (unified logging, e.g. JFR's start message) writes to standard
        # output by default, which is the reply stream here: send it to standard error
        log = ["-Xlog:disable", "-Xlog:all=warning:stderr"]
        cmd = [_java(), *log, *opts, "-cp", cp or classpath(), "dev.cubed.bridge.BridgeMain"]
        base = _shm_dir()
        self.shm_dir = None
        if base:
            remove_stale_transfer_files(base)
            # owner-only (mkdtemp: mode 0700), named by this process's pid
            self.shm_dir = tempfile.mkdtemp(prefix=f"cubed-java-{os.getpid()}-", dir=base)
            _live_dirs.add(self.shm_dir)
        env = dict(os.environ)
        if self.shm_dir:
            env["CUBED_BRIDGE_SHM_DIR"] = self.shm_dir
            env["CUBED_BRIDGE_SHM_MIN"] = str(SHM_MIN_BYTES)
        else:
            env.pop("CUBED_BRIDGE_SHM_DIR", None)
        try:
            self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          bufsize=0, env=env)
        except BaseException:
            self._remove_transfer_dir()
            raise
        self._w = self._proc.stdin
        self._r = self._proc.stdout
        self._synced = False
        _widen_pipes(self._w, self._r)
        self._lock = threading.RLock()
        self._dead = None
        self._to_free = []
        self._streaming = None  # the thread reading a call's event frames, if any
        self._work_dir = None  # the spec's work directory, asked once per configure
        self._tls = threading.local()  # .on_event: see events_to

    # ---- frames ----
    def _send(self, *frames):
        """Writes the frames (each a list of pieces) back to back; small ones in one write call
        (one system call and one wake-up of the JVM's reader, not one per piece)."""
        out = []
        for pieces in frames:
            total = sum(len(p) for p in pieces)
            out.append(_I32.pack(total))
            out.extend(pieces)
            if total >= SMALL_FRAME:
                self._flush(out)
                out = []
        self._flush(out)

    def _flush(self, pieces):
        if len(pieces) == 1:
            self._write(pieces[0])
        elif sum(len(p) for p in pieces) < SMALL_FRAME:
            self._write(b"".join(pieces))
        else:
            for p in pieces:
                self._write(p)

    def _write(self, data):
        mv = memoryview(data).cast("B")
        while len(mv):
            n = self._w.write(mv)
            mv = mv[n:]

    def _read_exact(self, n):
        buf = bytearray(n)
        mv = memoryview(buf)
        got = 0
        while got < n:
            k = self._r.readinto(mv[got:])
            if not k:
                raise EOFError
            got += k
        return buf

    def _sync(self):
        """Reads up to the JVM's sync marker; what precedes it was printed by the JVM itself at
        start-up and goes to standard error. More than SYNC_LIMIT bytes of it ends the JVM."""
        seen = bytearray()
        while not seen.endswith(SYNC):
            if len(seen) > SYNC_LIMIT:
                raise errors.BridgeError(
                    f"the cubed_java JVM wrote more than {SYNC_LIMIT} bytes to its standard output"
                    " before the bridge started (a JVM option that logs to stdout? send its"
                    " output to stderr, e.g. -Xlog:...:stderr); it was ended")
            seen += self._read_exact(1)
        skipped = bytes(seen[:-len(SYNC)])
        if skipped:
            sys.stderr.write(skipped.decode("utf-8", "replace"))
            sys.stderr.flush()
        self._synced = True

    def _roundtrip(self, pieces, on_event=None, before=None):
        """Sends the frame ``pieces`` and returns its reply. ``before``: a frame sent first, in the
        same write, whose reply is read (and decoded: an error is raised) before this one's is."""
        if self._dead:
            raise errors.BridgeError(self._dead)
        try:
            if before is None:
                self._send(pieces)
            else:
                self._send(before, pieces)
            if not self._synced:
                self._sync()
            first = None
            if before is not None:
                (n,) = _I32.unpack(self._read_exact(4))
                first = self._read_exact(n)
            while True:
                (n,) = _I32.unpack(self._read_exact(4))
                buf = self._read_exact(n)
                if not buf or buf[0] != STATUS_EVENT:
                    break
                # an event frame: one plain value, handed over at once (the caller's handler
                # must not raise: the reply is still to come)
                value, _ = _dec(buf, 1, [])
                if on_event is not None:
                    on_event(value)
        except (EOFError, BrokenPipeError, OSError) as e:
            code = self._proc.poll()
            self._dead = (f"the cubed_java JVM (pid {self._proc.pid}) has stopped (exit status"
                          f" {code}; its messages are on standard error); start a new session"
                          f" with cubed_java.restart()")
            self._end()
            raise errors.BridgeError(self._dead) from e
        except BaseException:
            # interrupted between request and reply (Ctrl-C, a timeout): the stream is out of
            # step, so this JVM is ended; the next array starts a new one
            self._dead = ("a call to the cubed_java JVM was interrupted, which ended that JVM;"
                          " arrays made before are gone (new ones start a new JVM)")
            self._end()
            raise
        if first is not None:
            self._decode_reply(first)  # both replies are read: the stream is in step
        return buf

    def _end(self):
        """Ends the JVM, waits for it (so that it writes no more) and removes its transfer
        folder with any file in it (a result it was writing when interrupted). The JVM is asked
        first (SIGTERM: an interrupted compute writes the finished blocks of the results it holds
        in memory to its compute directory, for a resume) and killed after END_GRACE seconds."""
        try:
            if self._proc.poll() is None:
                self._proc.terminate()
                try:
                    self._proc.wait(timeout=END_GRACE)
                except subprocess.TimeoutExpired:
                    pass
            self._proc.kill()
            self._proc.wait()
        finally:
            self._remove_transfer_dir()

    def _remove_transfer_dir(self):
        if self.shm_dir:
            _respool.drop(self.shm_dir)
            shutil.rmtree(self.shm_dir, ignore_errors=True)
            _live_dirs.discard(self.shm_dir)

    def send_raw(self, payload):
        """Sends one frame with this payload as is and returns the decoded reply (tests)."""
        with self._lock:
            return self._decode_reply(self._roundtrip([payload]))

    def ping(self):
        with self._lock:
            return self._decode_reply(self._roundtrip([_U8.pack(OP_PING)]))

    @contextlib.contextmanager
    def events_to(self, name, on_event):
        """Within it, this thread's next ``call`` of function ``name`` hands each event frame the
        JVM sends before its reply (``computeWith`` with events) to ``on_event(value)``, called in
        this thread while the JVM goes on. ``on_event`` must not raise, and it cannot call the bridge (the JVM is
        busy with that call): such a call is a RuntimeError."""
        self._tls.on_event = (name, on_event)
        try:
            yield
        finally:
            self._tls.on_event = None

    def call(self, name, *args):
        if self._streaming == threading.get_ident():
            raise RuntimeError(f"{name}: a compute callback cannot call the engine while its"
                               " compute runs; do it after compute() returns")
        if compute_observers and name in COMPUTING_CALLS:
            for observe in list(compute_observers):
                observe(name)
        # encoded before taking the lock: encoding may itself call the JVM (int() of a 0-d array)
        if len(args) > 255:
            raise ValueError(f"{name}: at most 255 arguments per call, got {len(args)}")
        if self._dead:
            raise errors.BridgeError(self._dead)
        work_dir = self.work_dir() if name in COMPUTING_CALLS else None
        pieces = _Pieces(self.shm_dir)
        pieces.append(_U8.pack(OP_CALL))
        try:
            _enc_str(pieces, name)
            pieces.append(_U8.pack(len(args)))
            for a in args:
                _enc(pieces, a)
            with self._lock:
                free = None
                if self._to_free:
                    # the handles Python dropped are freed by a frame sent with this call's, in
                    # the same write: no round trip of their own
                    handles, self._to_free = self._to_free, []
                    free = [_U8.pack(OP_CALL)]
                    _enc_str(free, "free")
                    free.append(_U8.pack(1))
                    _enc(free, Ints(handles))
                on_event = None
                wanted = getattr(self._tls, "on_event", None)
                if wanted is not None and wanted[0] == name:
                    on_event, self._tls.on_event = wanted[1], None
                if on_event is None:
                    return self._decode_reply(self._roundtrip(pieces, before=free))
                self._streaming = threading.get_ident()
                try:
                    reply = self._roundtrip(pieces, on_event, before=free)
                finally:
                    self._streaming = None
                return self._decode_reply(reply)
        except KeyboardInterrupt:
            if work_dir is None:
                raise
            raise KeyboardInterrupt(interrupted_compute(work_dir)) from None
        finally:
            for f in pieces.files:
                try:
                    os.unlink(f)
                except OSError:
                    pass

    def work_dir(self):
        """The session spec's work directory (asked once, again after ``configure``); None if the
        JVM cannot say."""
        if self._work_dir is None:
            try:
                self._work_dir = dict(self.call("settings")).get("work_dir") or ""
            except errors.BridgeError:
                return None
        return self._work_dir or None

    def forget_settings(self):
        """Called after ``configure``: the work directory is asked again."""
        self._work_dir = None

    def release(self, handle):
        """Frees a handle with the next call (called when its ``Handle`` object is collected)."""
        if not self._dead:
            self._to_free.append(handle)

    def close(self):
        """Ends the JVM (closing its input; killed after 10 s) and removes its transfer folder."""
        try:
            if self._proc.poll() is None:
                try:
                    self._w.close()
                    self._proc.wait(timeout=10)
                except Exception:
                    self._proc.kill()
                    self._proc.wait()
        finally:
            self._dead = self._dead or "the cubed_java session was closed"
            self._remove_transfer_dir()

    def _decode_reply(self, buf):
        status = buf[0]
        if status == STATUS_ERROR:
            kind = buf[1]
            pos = 2
            cls, pos = _dec_str(buf, pos)
            msg, pos = _dec_str(buf, pos)
            raise errors.from_java(kind, cls, msg)
        arrays = []
        value, pos = _dec(buf, 1, arrays)
        top = [value]
        if isinstance(value, _Pending):
            arrays.append((top, 0) + value.args)
        for holder, key, dtype, shape, nbytes in arrays:
            a = np.frombuffer(buf, dtype=dtype, count=int(np.prod(shape, dtype=np.int64)),
                              offset=pos).reshape(shape)
            pos += nbytes
            holder[key] = a
        return top[0]


# ---- encoding ----
class _Pieces(list):
    """A request's pieces and the shared files made for its large arrays (unlinked after the
    reply)."""

    def __init__(self, shm_dir):
        super().__init__()
        self.shm_dir = shm_dir
        self.files = []


def _write_shared(p, a):
    """Writes ``a`` (any layout or byte order) as little-endian C-order bytes into a new file only
    this user can read (mkstemp: O_EXCL, mode 0600): one copy. Returns the path."""
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


def _enc_str(p, s):
    b = s.encode("utf-8")
    p.append(_I32.pack(len(b)))
    p.append(b)


def _dtype_name(dt):
    dt = np.dtype(dt)
    return "bool" if dt == np.bool_ else dt.name


def _enc(p, v):
    if v is None:
        p.append(_U8.pack(T_NONE))
    elif isinstance(v, Handle):
        p.append(_U8.pack(T_HANDLE) + _I64.pack(v._handle))
    elif isinstance(v, (bool, np.bool_)):
        p.append(_U8.pack(T_BOOL) + _U8.pack(1 if v else 0))
    elif isinstance(v, (int, np.integer)):
        iv = int(v)
        if not -(1 << 63) <= iv < (1 << 63):
            raise OverflowError(f"integer {iv} does not fit int64")
        p.append(_U8.pack(T_INT) + _I64.pack(iv))
    elif isinstance(v, (float, np.floating)):
        p.append(_U8.pack(T_FLOAT) + _F64.pack(float(v)))
    elif isinstance(v, (complex, np.complexfloating)):
        p.append(_U8.pack(T_COMPLEX) + _F64.pack(v.real) + _F64.pack(v.imag))
    elif isinstance(v, Dtype):
        p.append(_U8.pack(T_DTYPE))
        _enc_str(p, str(v))
    elif isinstance(v, str):
        p.append(_U8.pack(T_STR))
        _enc_str(p, v)
    elif isinstance(v, np.dtype):
        p.append(_U8.pack(T_DTYPE))
        _enc_str(p, _dtype_name(v))
    elif isinstance(v, Ints):
        p.append(_U8.pack(T_INTS) + _I32.pack(len(v)))
        p.append(np.asarray(v, dtype="<i8").tobytes())
    elif isinstance(v, IndexSpec):
        _enc_index(p, v)
    elif isinstance(v, _Spec):
        p.append(_U8.pack(T_SPEC))
    elif (isinstance(v, np.ndarray) and v.nbytes >= SHM_MIN_BYTES and v.nbytes
          and getattr(p, "shm_dir", None)):
        p.append(_U8.pack(T_SHMARRAY))
        _enc_str(p, _dtype_name(v.dtype))
        p.append(_U8.pack(v.ndim))
        p.append(np.asarray(v.shape, dtype="<i8").tobytes())
        p.append(_I64.pack(v.nbytes))
        _enc_str(p, _write_shared(p, v))
    elif isinstance(v, np.ndarray):
        a = v
        if a.dtype.byteorder == ">":
            a = a.astype(a.dtype.newbyteorder("<"))
        if not a.flags.c_contiguous:
            a = a.copy(order="C")  # (ascontiguousarray would make 0-d arrays 1-d)
        p.append(_U8.pack(T_NDARRAY))
        _enc_str(p, _dtype_name(a.dtype))
        p.append(_U8.pack(a.ndim))
        p.append(np.asarray(a.shape, dtype="<i8").tobytes())
        p.append(_I64.pack(a.nbytes))
        if a.nbytes:
            p.append(memoryview(a).cast("B"))
    elif isinstance(v, (list, tuple)):
        p.append(_U8.pack(T_LIST) + _I32.pack(len(v)))
        for e in v:
            _enc(p, e)
    else:
        raise TypeError(f"cubed_java cannot send a {type(v).__name__} to the JVM: {v!r}")


def _enc_index(p, idx):
    p.append(_U8.pack(T_INDEX) + _I32.pack(len(idx)))
    for k in idx:
        if k is None:
            p.append(_U8.pack(2))
        elif k is Ellipsis:
            p.append(_U8.pack(3))
        elif isinstance(k, slice):
            if k.step == 0:
                raise ValueError("slice step cannot be zero")
            mask = (0 if k.start is None else 1) | (0 if k.stop is None else 2)
            p.append(_U8.pack(1) + _U8.pack(mask)
                     + _I64.pack(0 if k.start is None else int(k.start))
                     + _I64.pack(0 if k.stop is None else int(k.stop))
                     + _I64.pack(1 if k.step is None else int(k.step)))
        else:
            p.append(_U8.pack(0) + _I64.pack(int(k)))


# ---- decoding ----
def _dec_str(buf, pos):
    (n,) = _I32.unpack_from(buf, pos)
    pos += 4
    return bytes(buf[pos:pos + n]).decode("utf-8"), pos + n


def _dec(buf, pos, arrays):
    tag = buf[pos]
    pos += 1
    if tag == T_NONE:
        return None, pos
    if tag == T_BOOL:
        return buf[pos] != 0, pos + 1
    if tag == T_INT:
        return _I64.unpack_from(buf, pos)[0], pos + 8
    if tag == T_FLOAT:
        return _F64.unpack_from(buf, pos)[0], pos + 8
    if tag == T_COMPLEX:
        re, im = struct.unpack_from("<dd", buf, pos)
        return complex(re, im), pos + 16
    if tag in (T_STR, T_DTYPE):
        return _dec_str(buf, pos)
    if tag == T_LIST:
        (n,) = _I32.unpack_from(buf, pos)
        pos += 4
        out = [None] * n
        for i in range(n):
            v, pos = _dec(buf, pos, arrays)
            if isinstance(v, _Pending):
                arrays.append((out, i) + v.args)
            out[i] = v
        return out, pos
    if tag in (T_NDARRAY, T_SHMARRAY):
        name, pos = _dec_str(buf, pos)
        ndim = buf[pos]
        pos += 1
        shape = struct.unpack_from(f"<{ndim}q", buf, pos)
        pos += 8 * ndim
        (nbytes,) = _I64.unpack_from(buf, pos)
        dtype = np.dtype(name).newbyteorder("<")
        if tag == T_NDARRAY:
            return _Pending(dtype, shape, nbytes), pos + 8
        path, pos = _dec_str(buf, pos + 8)
        return _map_shared(dtype, shape, nbytes, path), pos
    if tag == T_ARRAYINFO:
        (h,) = _I64.unpack_from(buf, pos)
        pos += 8
        name, pos = _dec_str(buf, pos)
        ndim = buf[pos]
        pos += 1
        shape = struct.unpack_from(f"<{ndim}q", buf, pos)
        pos += 8 * ndim
        chunks = []  # per axis: a regular block size (int), or the block sizes (tuple)
        for _ in range(ndim):
            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n == REGULAR_AXIS:
                chunks.append(_I64.unpack_from(buf, pos)[0])
                pos += 8
                continue
            chunks.append(struct.unpack_from(f"<{n}q", buf, pos))
            pos += 8 * n
        return ArrayInfo(h, np.dtype(name), tuple(shape), tuple(chunks)), pos
    raise errors.BridgeError(f"cubed_java: unknown tag {tag} in a reply at byte {pos - 1}")


def _map_shared(dtype, shape, nbytes, path):
    """The array the JVM wrote to ``path``: mapped (no copy); a compute's result file is kept for
    the next result of its size once the array is gone, any other file unlinked at once
    (_respool)."""
    return _respool.array(dtype, shape, nbytes, path)


class _Pending:
    """An NDArray whose bytes follow the value (filled in by _decode_reply)."""

    __slots__ = ("args",)

    def __init__(self, dtype, shape, nbytes):
        self.args = (dtype, shape, nbytes)


_session = None
_session_lock = threading.Lock()


END_GRACE = 20.0
"""Seconds an interrupted JVM has to end on its own (writing what it holds) before it is killed."""


def interrupted_compute(work_dir):
    """The message of the KeyboardInterrupt a compute interrupted by Ctrl-C raises: what is left
    behind and how to finish it or remove it."""
    where = f"the work directory {work_dir}" if work_dir else "the work directory"
    return (
        "cubed_java: the compute was interrupted, which ended the engine's JVM (arrays made before"
        f" are gone). Its finished tasks are kept in a compute-<id> directory of {where}: make the"
        " same arrays again (after the same cubed_java.configure(...), if you called it) and"
        " compute them with resume=True (for example arr.compute(resume=True)) to run only the"
        " tasks that did not finish; or remove what it left with `cubed clean --work-dir"
        f" {work_dir or '<work_dir>'}` (./cubed clean in a clone of Cubed for Java). A plain"
        " compute of the same arrays also starts afresh and removes it."
    )


def session():
    """The process's bridge (started on first use)."""
    global _session
    with _session_lock:
        if _session is None or _session._dead:
            _session = Bridge()
            atexit.register(_session.close)
        return _session


def restart():
    """Stops the JVM (every lazy array of the old session becomes unusable) and starts anew."""
    global _session
    with _session_lock:
        if _session is not None:
            _session.close()
        _session = None
    return session()
