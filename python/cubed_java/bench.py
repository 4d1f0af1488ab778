"""Bridge overhead: ``python -m cubed_java.bench``.

latency: a small elementwise op on a 1,000-element array, round trip (build the lazy op in the
JVM, compute it, bring the 8 KB result back); also a bare ping and a lazy op without compute.
throughput: a 100 MB float64 array into the JVM (from_array) and back (compute of that array).
"""
import argparse
import time

import numpy as np

from . import _bridge, _jvm
from . import array_api as xp


def _best(fn, n):
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[0], ts[len(ts) // 2]


def _cat(data):
    """The floor for a pipe bridge: the bytes through `cat` and back, both pipes at once."""
    import subprocess
    import threading

    p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    _jvm.widen_pipes(p.stdin, p.stdout)
    mv = memoryview(data).cast("B")

    def feed():
        rest = mv
        while len(rest):
            rest = rest[p.stdin.write(rest):]
        p.stdin.close()

    t = threading.Thread(target=feed)
    t.start()
    out = bytearray(len(mv))
    view = memoryview(out)
    got = 0
    while got < len(out):
        got += p.stdout.readinto(view[got:])
    t.join()
    p.wait()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeats", type=int, default=200)
    p.add_argument("--mb", type=int, default=100)
    a = p.parse_args(argv)
    s = _bridge.session()
    x = xp.asarray(np.arange(1000.0))
    for _ in range(300):  # warm the JIT on both sides
        (x + 1.0).compute()
    jvm = s.call("timeCompute", x + 1.0, a.repeats)
    ping = _best(s.ping, a.repeats)
    lazy = _best(lambda: x + 1.0, a.repeats)
    rt = _best(lambda: (x + 1.0).compute(), a.repeats)
    big = np.random.default_rng(0).random(a.mb * 1024 * 1024 // 8)
    holder = {}

    def to_jvm():
        holder["a"] = xp.from_array(big, chunks=-1)

    def from_jvm():
        holder["b"] = holder["a"].compute()

    to_jvm()
    from_jvm()
    up = _best(to_jvm, 5)
    down = _best(from_jvm, 5)
    assert np.array_equal(holder["b"], big)
    echo = _best(lambda: s.call("echo", big), 5)
    cat = _best(lambda: _cat(big), 5)
    print(f"ping round trip:                       min {ping[0] * 1e3:.3f} ms, median {ping[1] * 1e3:.3f} ms")
    print(f"lazy x + 1.0 (1,000 elements):        min {lazy[0] * 1e3:.3f} ms, median {lazy[1] * 1e3:.3f} ms")
    print(f"(x + 1.0).compute() round trip:       min {rt[0] * 1e3:.3f} ms, median {rt[1] * 1e3:.3f} ms")
    print(f"  same compute inside the JVM:         min {jvm[0] / 1e6:.3f} ms, median {jvm[1] / 1e6:.3f} ms")
    print(f"baseline: {a.mb} MB through `cat`:       min {cat[0]:.3f} s, median {cat[1]:.3f} s")
    print(f"{a.mb} MB there and back (echo):         min {echo[0]:.3f} s, median {echo[1]:.3f} s")
    print(f"{a.mb} MB into the JVM (from_array):     min {up[0]:.3f} s, median {up[1]:.3f} s"
          f" ({a.mb / up[0]:.0f} MB/s)")
    print(f"{a.mb} MB out of the JVM (compute):      min {down[0]:.3f} s, median {down[1]:.3f} s"
          f" ({a.mb / down[0]:.0f} MB/s)")


if __name__ == "__main__":
    main()
