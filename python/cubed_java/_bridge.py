"""The pipe to the JVM: a ``Bridge`` starts `java dev.cubed.bridge.BridgeMain` as a child process
(``_jvm``) and talks to it with length-prefixed little-endian binary frames over its stdin/stdout
(values encoded by ``_wire``, large arrays through shared files: ``_transfer``; see docs/python.md).
It owns the JVM's handle table from the Python side (handles freed with the next call), streams a
call's event frames, and ends the JVM when a call is interrupted. ``session()`` is the process's
bridge.

Only this process holds the pipe's ends, so nobody else on the machine can drive the JVM.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading

from . import _jvm, _respool, _transfer, _wire, errors
from ._engine import classpath  # noqa: F401 (the class path; re-exported)
from ._wire import SPEC, ArrayInfo, Dtype, Handle, IndexSpec, Ints  # noqa: F401 (re-exported)

#: Frames smaller than this are joined and written in one call.
SMALL_FRAME = 1 << 16

#: The bridge calls that run a plan (or bring an array's values into Python).
COMPUTING_CALLS = frozenset({"compute", "computeWith", "toZarr", "writeDataset", "timeCompute",
                             "persistInMemory"})
#: Functions called with the call's name before each computing call (``cubed_java.testing``).
compute_observers = []


class Bridge:
    """One JVM child process and its handle table. Thread-safe (one call at a time)."""

    def __init__(self, cp=None, jvm_options=None):
        base = _transfer.shm_dir()
        # owner-only, named by this process's pid (stale ones of dead processes removed first)
        self.shm_dir = _transfer.new_session_dir(base) if base else None
        env = dict(os.environ)
        if self.shm_dir:
            env["CUBED_BRIDGE_SHM_DIR"] = self.shm_dir
            env["CUBED_BRIDGE_SHM_MIN"] = str(_transfer.SHM_MIN_BYTES)
        else:
            env.pop("CUBED_BRIDGE_SHM_DIR", None)
        try:
            self._proc = _jvm.start(cp, jvm_options, env)
        except BaseException:
            self._remove_transfer_dir()
            raise
        self._w = self._proc.stdin
        self._r = self._proc.stdout
        self._synced = False
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
            out.append(_wire.I32.pack(total))
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
        while not seen.endswith(_wire.SYNC):
            if len(seen) > _wire.SYNC_LIMIT:
                raise errors.BridgeError(
                    f"the cubed_java JVM wrote more than {_wire.SYNC_LIMIT} bytes to its standard"
                    " output before the bridge started (a JVM option that logs to stdout? send its"
                    " output to stderr, e.g. -Xlog:...:stderr); it was ended")
            seen += self._read_exact(1)
        skipped = bytes(seen[:-len(_wire.SYNC)])
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
                (n,) = _wire.I32.unpack(self._read_exact(4))
                first = self._read_exact(n)
            while True:
                (n,) = _wire.I32.unpack(self._read_exact(4))
                buf = self._read_exact(n)
                if not buf or buf[0] != _wire.STATUS_EVENT:
                    break
                # an event frame: one plain value, handed over at once (the caller's handler
                # must not raise: the reply is still to come)
                value, _ = _wire.dec(buf, 1, [])
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
        """Ends the JVM (``_jvm.end``: asked first, killed after a grace period), waits for it
        and removes its transfer folder with any file in it (a result it was writing when
        interrupted)."""
        try:
            _jvm.end(self._proc)
        finally:
            self._remove_transfer_dir()

    def _remove_transfer_dir(self):
        if self.shm_dir:
            _respool.drop(self.shm_dir)
            _transfer.remove_session_dir(self.shm_dir)

    def send_raw(self, payload):
        """Sends one frame with this payload as is and returns the decoded reply (tests)."""
        with self._lock:
            return self._decode_reply(self._roundtrip([payload]))

    def ping(self):
        with self._lock:
            return self._decode_reply(self._roundtrip([_wire.U8.pack(_wire.OP_PING)]))

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
        pieces = _wire.Pieces(self.shm_dir)
        pieces.append(_wire.U8.pack(_wire.OP_CALL))
        try:
            _wire.enc_str(pieces, name)
            pieces.append(_wire.U8.pack(len(args)))
            for a in args:
                _wire.enc(pieces, a)
            with self._lock:
                free = None
                if self._to_free:
                    # the handles Python dropped are freed by a frame sent with this call's, in
                    # the same write: no round trip of their own
                    handles, self._to_free = self._to_free, []
                    free = [_wire.U8.pack(_wire.OP_CALL)]
                    _wire.enc_str(free, "free")
                    free.append(_wire.U8.pack(1))
                    _wire.enc(free, Ints(handles))
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
            _jvm.close(self._proc)
        finally:
            self._dead = self._dead or "the cubed_java session was closed"
            self._remove_transfer_dir()

    @staticmethod
    def _decode_reply(buf):
        return _wire.decode_reply(buf)


_session = None
_session_lock = threading.Lock()


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
