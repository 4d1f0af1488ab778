"""The bridge refuses malformed frames with an error reply and keeps serving."""
import os
import stat
import struct

import numpy as np
import pytest

import cubed_java
from cubed_java import _bridge, _transfer, _wire, errors


def call_payload(name, *raw_args):
    p = [struct.pack("<B", 1)]
    _wire.enc_str(p, name)
    p.append(struct.pack("<B", len(raw_args)))
    p.extend(raw_args)
    return b"".join(bytes(x) for x in p)


@pytest.mark.parametrize("payload, message", [
    (b"", "empty frame"),
    (b"\x07", "unknown op 7"),
    (b"\x01\xff\xff\xff\x7f", "out of range"),
    (call_payload("echo", b"\x63"), "unknown value tag 99"),
    (call_payload("echo", b"\x02\x01\x02"), "ends inside a value"),
    (call_payload("echo", b"\x09\x05\x00\x00\x00float"), "unknown dtype 'float'"),
    (call_payload("echo", b"\x0a\x07\x00\x00\x00float64\x01" + struct.pack("<qq", 4, 8)),
     "needs 32 bytes"),
    (call_payload("echo", b"\x0a\x07\x00\x00\x00float64\x01" + struct.pack("<qq", -4, 0)),
     "negative array dimension"),
    (call_payload("echo", b"\x00") + b"\x00", "bytes left after 1 arguments"),
    (call_payload("echo", b"\x0d\x01\x00\x00\x00\x09"), "unknown index kind 9"),
])
def test_malformed_frames_get_an_error_and_the_session_goes_on(payload, message):
    s = cubed_java.session()
    with pytest.raises(errors.MalformedFrameError, match=message):
        s.send_raw(payload)
    assert s.ping() is None
    assert s.call("echo", 41) == 41


def test_wrong_arguments_are_java_errors_not_crashes():
    s = cubed_java.session()
    with pytest.raises(ValueError, match="no array with handle 987654"):
        s.call("Xp.sin", _HandleOnly(987654))
    with pytest.raises(ValueError, match="no overload takes"):
        s.call("Xp.sin", "text")
    with pytest.raises(NotImplementedError, match="no bridge function 'java.lang.System.exit'"):
        s.call("java.lang.System.exit", 0)
    assert s.call("echo", "still here") == "still here"


class _HandleOnly:
    """A raw handle id (no Array object), to send ids the JVM never gave out."""

    def __init__(self, h):
        self.h = h


def _enc_handle(p, v, _orig=_wire.enc):
    if isinstance(v, _HandleOnly):
        p.append(struct.pack("<Bq", _wire.T_HANDLE, v.h))
    else:
        _orig(p, v)


@pytest.fixture(autouse=True)
def _fake_handles(monkeypatch):
    monkeypatch.setattr(_wire, "enc", _enc_handle)


def test_values_echo_exactly():
    s = cubed_java.session()
    for v in [None, True, -(1 << 63), 2.5, complex(1, -2), "naïve", [1, "a", [None]]]:
        assert s.call("echo", v) == v
    a = np.arange(24, dtype=">i4").reshape(2, 3, 4)
    back = s.call("echo", a)
    np.testing.assert_array_equal(back, a)
    assert back.dtype == np.dtype("<i4")


def test_a_negative_length_ends_the_session_with_an_error():
    b = _bridge.Bridge()
    try:
        b._write(struct.pack("<i", -5))
        b._sync()  # the JVM's sync marker precedes its replies
        (n,) = struct.unpack("<i", b._read_exact(4))
        with pytest.raises(errors.MalformedFrameError, match="negative"):
            b._decode_reply(b._read_exact(n))
        assert b._proc.wait(timeout=300) == 2
        with pytest.raises(errors.BridgeError, match="has stopped"):
            b.ping()
    finally:
        b.close()


def test_an_oversized_frame_is_skipped():
    b = _bridge.Bridge(jvm_options=["-Xmx256m", "-Dcubed.bridge.maxFrame=1024"])
    try:
        with pytest.raises(errors.MalformedFrameError, match="exceeds the limit of 1024"):
            b.send_raw(b"\x00" * 5000)
        assert b.ping() is None
    finally:
        b.close()


@pytest.mark.parametrize("dtype,shape", [("float64", (300, 700)), ("int16", (1 << 20,)),
                                         ("complex64", (512, 300)), ("bool", (2, 1 << 20))])
def test_large_arrays_cross_through_owner_only_shared_files(rng, dtype, shape):
    s = _bridge.session()
    if s.shm_dir is None:
        pytest.skip("shared files are off (CUBED_JAVA_SHM_DIR=off)")
    a = (rng.random(shape) * 100).astype(dtype)
    assert a.nbytes >= _transfer.SHM_MIN_BYTES
    before = set(os.listdir(s.shm_dir))
    seen = {}
    real = _transfer.write_shared

    def spy(p, arr):
        path = real(p, arr)
        seen["mode"] = stat.S_IMODE(os.stat(path).st_mode)
        return path

    _transfer.write_shared = spy
    try:
        back = s.call("echo", a[:, ::-1] if a.ndim == 2 else a)  # a strided view too
    finally:
        _transfer.write_shared = real
    assert seen["mode"] == 0o600
    np.testing.assert_array_equal(back, a[:, ::-1] if a.ndim == 2 else a)
    assert back.dtype == a.dtype
    leftover = {f for f in set(os.listdir(s.shm_dir)) - before if f.startswith("cubed-java-")}
    assert not leftover, leftover
    x = cubed_java.from_array(a, chunks=-1)
    np.testing.assert_array_equal(x.compute(), a)


def test_a_shared_file_of_the_wrong_size_is_refused():
    p = call_payload("echo", b"\x0e\x07\x00\x00\x00float64\x01" + struct.pack("<qq", 4, 32)
                     + struct.pack("<i", 9) + b"/dev/null")
    with pytest.raises(errors.MalformedFrameError, match="not a regular file"):
        _bridge.session().send_raw(p)
    assert _bridge.session().ping() is None


def test_jvm_output_before_the_bridge_starts_goes_to_stderr(tmp_path, capfd):
    """A JVM option that prints on standard output at start-up (JFR's "Started recording" message,
    which no -Xlog setting turns off) comes before the bridge's sync marker: the session skips it,
    passes it on to standard error, and serves calls (before, the message was read as a frame
    length and both sides waited for ever)."""
    import threading

    b = _bridge.Bridge(jvm_options=[f"-XX:StartFlightRecording=filename={tmp_path / 'x.jfr'}"])
    out = {}
    t = threading.Thread(target=lambda: out.update(r=b.call("echo", 41)), daemon=True)
    try:
        t.start()
        t.join(120)
        assert not t.is_alive(), "the first call did not return in 120 s"
        assert out["r"] == 41
    finally:
        b.close()
    err = capfd.readouterr().err
    assert "Started recording" in err, err[-2000:]
