"""Reading stored Zarr v3 arrays chunk file by chunk file with numcodecs, as zarr-python writes them.

Shared by read_floor.py and userpath_dask.py (its `floor` command): the layout of an array written
with zarr-python 3's defaults (codecs bytes + zstd), the list of its chunk files, and decoding a list
of chunk files once on a pool of threads with numcodecs' Zstd, into one reused output buffer per
thread (the read-once floor of the Python side).
"""
import concurrent.futures
import json
import os
import threading

import numpy as np
from numcodecs import Zstd

ITEM_TYPES = {"float64": "f8", "float32": "f4", "bool": "?"}


def layout(root):
    """The codec names of the array at directory `root` (its zarr.json) and the decoded size of one
    chunk in bytes."""
    with open(os.path.join(root, "zarr.json")) as f:
        meta = json.load(f)
    codecs = [c["name"] for c in meta["codecs"]]
    item = np.dtype(ITEM_TYPES[meta["data_type"]]).itemsize
    return codecs, int(np.prod(meta["chunk_grid"]["configuration"]["chunk_shape"])) * item


def chunk_files(root, size, ordered=False):
    """(path, decoded size) of every chunk file under `root`/c, directory by directory (each
    directory's files sorted by name if `ordered`)."""
    jobs = []
    for dirpath, _, files in os.walk(os.path.join(root, "c")):
        jobs += [(os.path.join(dirpath, n), size) for n in (sorted(files) if ordered else files)]
    return jobs


def decode_all(jobs, threads):
    """Reads and decodes every (path, size) of `jobs` once with numcodecs' Zstd on `threads`
    threads, each into its reused buffer; returns the bytes decoded."""
    local = threading.local()
    codec = Zstd()

    def decode(job):
        path, size = job
        buf = getattr(local, "buf", None)
        if buf is None or len(buf) < size:
            buf = local.buf = np.empty(size, dtype=np.uint8)
        with open(path, "rb") as f:
            data = f.read()
        codec.decode(data, out=buf[:size])
        return size

    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        return sum(pool.map(decode, jobs))
