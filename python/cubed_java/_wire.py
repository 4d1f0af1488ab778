"""The bridge's wire format (docs/python.md, "The bridge"): the op bytes, reply statuses and value
tags (equal to the Java side's: ``test_bridge_names.py``), the types that choose how a Python value
is sent, and the encoding of a request's values and decoding of a reply. All little-endian.
"""
from __future__ import annotations

import struct

import numpy as np

from . import _transfer, errors

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

U8 = struct.Struct("<B")
I32 = struct.Struct("<i")
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


# ---- encoding ----
class Pieces(list):
    """A request's pieces and the shared files made for its large arrays (unlinked after the
    reply); ``shm_dir`` None sends every array inline."""

    def __init__(self, shm_dir):
        super().__init__()
        self.shm_dir = shm_dir
        self.files = []


def enc_str(p, s):
    """Appends the string ``s`` to the pieces ``p``: an int32 length and its UTF-8 bytes."""
    b = s.encode("utf-8")
    p.append(I32.pack(len(b)))
    p.append(b)


def _dtype_name(dt):
    dt = np.dtype(dt)
    return "bool" if dt == np.bool_ else dt.name


def enc(p, v):
    """Appends the tagged value ``v`` to the pieces ``p``. A NumPy array of at least
    ``_transfer.SHM_MIN_BYTES`` crosses as a shared file when ``p`` has a folder for them."""
    if v is None:
        p.append(U8.pack(T_NONE))
    elif isinstance(v, Handle):
        p.append(U8.pack(T_HANDLE) + _I64.pack(v._handle))
    elif isinstance(v, (bool, np.bool_)):
        p.append(U8.pack(T_BOOL) + U8.pack(1 if v else 0))
    elif isinstance(v, (int, np.integer)):
        iv = int(v)
        if not -(1 << 63) <= iv < (1 << 63):
            raise OverflowError(f"integer {iv} does not fit int64")
        p.append(U8.pack(T_INT) + _I64.pack(iv))
    elif isinstance(v, (float, np.floating)):
        p.append(U8.pack(T_FLOAT) + _F64.pack(float(v)))
    elif isinstance(v, (complex, np.complexfloating)):
        p.append(U8.pack(T_COMPLEX) + _F64.pack(v.real) + _F64.pack(v.imag))
    elif isinstance(v, Dtype):
        p.append(U8.pack(T_DTYPE))
        enc_str(p, str(v))
    elif isinstance(v, str):
        p.append(U8.pack(T_STR))
        enc_str(p, v)
    elif isinstance(v, np.dtype):
        p.append(U8.pack(T_DTYPE))
        enc_str(p, _dtype_name(v))
    elif isinstance(v, Ints):
        p.append(U8.pack(T_INTS) + I32.pack(len(v)))
        p.append(np.asarray(v, dtype="<i8").tobytes())
    elif isinstance(v, IndexSpec):
        _enc_index(p, v)
    elif isinstance(v, _Spec):
        p.append(U8.pack(T_SPEC))
    elif (isinstance(v, np.ndarray) and v.nbytes >= _transfer.SHM_MIN_BYTES and v.nbytes
          and getattr(p, "shm_dir", None)):
        p.append(U8.pack(T_SHMARRAY))
        enc_str(p, _dtype_name(v.dtype))
        p.append(U8.pack(v.ndim))
        p.append(np.asarray(v.shape, dtype="<i8").tobytes())
        p.append(_I64.pack(v.nbytes))
        enc_str(p, _transfer.write_shared(p, v))
    elif isinstance(v, np.ndarray):
        a = v
        if a.dtype.byteorder == ">":
            a = a.astype(a.dtype.newbyteorder("<"))
        if not a.flags.c_contiguous:
            a = a.copy(order="C")  # (ascontiguousarray would make 0-d arrays 1-d)
        p.append(U8.pack(T_NDARRAY))
        enc_str(p, _dtype_name(a.dtype))
        p.append(U8.pack(a.ndim))
        p.append(np.asarray(a.shape, dtype="<i8").tobytes())
        p.append(_I64.pack(a.nbytes))
        if a.nbytes:
            p.append(memoryview(a).cast("B"))
    elif isinstance(v, (list, tuple)):
        p.append(U8.pack(T_LIST) + I32.pack(len(v)))
        for e in v:
            enc(p, e)
    else:
        raise TypeError(f"cubed_java cannot send a {type(v).__name__} to the JVM: {v!r}")


def _enc_index(p, idx):
    p.append(U8.pack(T_INDEX) + I32.pack(len(idx)))
    for k in idx:
        if k is None:
            p.append(U8.pack(2))
        elif k is Ellipsis:
            p.append(U8.pack(3))
        elif isinstance(k, slice):
            if k.step == 0:
                raise ValueError("slice step cannot be zero")
            mask = (0 if k.start is None else 1) | (0 if k.stop is None else 2)
            p.append(U8.pack(1) + U8.pack(mask)
                     + _I64.pack(0 if k.start is None else int(k.start))
                     + _I64.pack(0 if k.stop is None else int(k.stop))
                     + _I64.pack(1 if k.step is None else int(k.step)))
        else:
            p.append(U8.pack(0) + _I64.pack(int(k)))


# ---- decoding ----
def dec_str(buf, pos):
    """The string at ``pos`` of ``buf`` and the position after it."""
    (n,) = I32.unpack_from(buf, pos)
    pos += 4
    return bytes(buf[pos:pos + n]).decode("utf-8"), pos + n


def dec(buf, pos, arrays):
    """The tagged value at ``pos`` of ``buf`` and the position after it. An inline array's bytes
    follow the whole value: it is a ``_Pending`` here, recorded in ``arrays`` (with where it goes)
    when it sits in a list, and filled in by ``decode_reply``."""
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
        return dec_str(buf, pos)
    if tag == T_LIST:
        (n,) = I32.unpack_from(buf, pos)
        pos += 4
        out = [None] * n
        for i in range(n):
            v, pos = dec(buf, pos, arrays)
            if isinstance(v, _Pending):
                arrays.append((out, i) + v.args)
            out[i] = v
        return out, pos
    if tag in (T_NDARRAY, T_SHMARRAY):
        name, pos = dec_str(buf, pos)
        ndim = buf[pos]
        pos += 1
        shape = struct.unpack_from(f"<{ndim}q", buf, pos)
        pos += 8 * ndim
        (nbytes,) = _I64.unpack_from(buf, pos)
        dtype = np.dtype(name).newbyteorder("<")
        if tag == T_NDARRAY:
            return _Pending(dtype, shape, nbytes), pos + 8
        path, pos = dec_str(buf, pos + 8)
        return _transfer.map_shared(dtype, shape, nbytes, path), pos
    if tag == T_ARRAYINFO:
        (h,) = _I64.unpack_from(buf, pos)
        pos += 8
        name, pos = dec_str(buf, pos)
        ndim = buf[pos]
        pos += 1
        shape = struct.unpack_from(f"<{ndim}q", buf, pos)
        pos += 8 * ndim
        chunks = []  # per axis: a regular block size (int), or the block sizes (tuple)
        for _ in range(ndim):
            (n,) = I32.unpack_from(buf, pos)
            pos += 4
            if n == REGULAR_AXIS:
                chunks.append(_I64.unpack_from(buf, pos)[0])
                pos += 8
                continue
            chunks.append(struct.unpack_from(f"<{n}q", buf, pos))
            pos += 8 * n
        return ArrayInfo(h, np.dtype(name), tuple(shape), tuple(chunks)), pos
    raise errors.BridgeError(f"cubed_java: unknown tag {tag} in a reply at byte {pos - 1}")


class _Pending:
    """An NDArray whose bytes follow the value (filled in by decode_reply)."""

    __slots__ = ("args",)

    def __init__(self, dtype, shape, nbytes):
        self.args = (dtype, shape, nbytes)


def decode_reply(buf):
    """The value of the reply frame ``buf`` (its inline arrays viewing ``buf``, no copy); a reply
    of status error raises the Java exception as its ``errors`` kind."""
    status = buf[0]
    if status == STATUS_ERROR:
        kind = buf[1]
        pos = 2
        cls, pos = dec_str(buf, pos)
        msg, pos = dec_str(buf, pos)
        raise errors.from_java(kind, cls, msg)
    arrays = []
    value, pos = dec(buf, 1, arrays)
    top = [value]
    if isinstance(value, _Pending):
        arrays.append((top, 0) + value.args)
    for holder, key, dtype, shape, nbytes in arrays:
        a = np.frombuffer(buf, dtype=dtype, count=int(np.prod(shape, dtype=np.int64)),
                          offset=pos).reshape(shape)
        pos += nbytes
        holder[key] = a
    return top[0]
