#!/usr/bin/env python3
"""The read-once floor of stored Zarr arrays with numcodecs, in one process, round after round.

    read_floor.py ARRAY_DIR... [--threads 1] [--rounds 5]

Every chunk file of each array (zarr-python 3's defaults: bytes + zstd) is read and decoded once per
round with numcodecs' Zstd into a reused buffer per thread, on --threads threads; prints one line
per round (wall and process CPU seconds) and the median of the rounds after the first. The engine's
counterpart is dev.cubed.bench.codec.ReadFloor (docs/performance.md, "Reading zarr-python's zstd
chunks"); run the two in turn on the same arrays and compare medians.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zstd_chunks  # noqa: E402  (reading zarr-python's chunks with numcodecs: one copy of it)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    jobs = []
    for root in a.dirs:
        codecs, size = zstd_chunks.layout(root)
        if codecs != ["bytes", "zstd"]:
            raise SystemExit("read_floor.py: %s is not bytes + zstd" % root)
        jobs += zstd_chunks.chunk_files(root, size, ordered=True)

    secs, cpus = [], []
    for r in range(a.rounds):
        c0, t0 = time.process_time(), time.perf_counter()
        n = zstd_chunks.decode_all(jobs, a.threads)
        secs.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        print("round %d numcodecs threads %d %.3f s process cpu %.3f s %.0f MB/s"
              % (r + 1, a.threads, secs[-1], cpus[-1], n / 1e6 / secs[-1]))
    warm = sorted(secs[1:] or secs)
    warm_cpu = sorted(cpus[1:] or cpus)
    print("median cpu warm %.3f s" % warm_cpu[len(warm_cpu) // 2])
    print("median numcodecs threads %d first %.3f s warm %.3f s"
          % (a.threads, secs[0], warm[len(warm) // 2]))


if __name__ == "__main__":
    main()
