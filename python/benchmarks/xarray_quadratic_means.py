"""The xarray Quadratic Means (the blog post's form) on the inputs of `./cubed bench
quadratic_means --size SIZE`, read with xr.open_zarr and computed by the "cubed-java" chunk manager.

    python python/benchmarks/xarray_quadratic_means.py --inputs DIR [--allowed-mem 2GB --workers 2]

DIR holds the bench's Zarr arrays U and V (its work directory's inputs/quadratic_means-in-...
folder; run the bench once to create them). They have no dimension names and no group, which
xr.open_zarr needs, so a scratch group is made beside them in --scratch: a group zarr.json and
per array a zarr.json with dimension_names, its chunk files hard-linked to the originals (no data is
copied; same file system). Prints the wall time of open + means + compute and the checksums (sums of the results).
"""
import argparse
import json
import os
import time


def make_group(inputs, scratch):
    os.makedirs(scratch, exist_ok=True)
    with open(os.path.join(scratch, "zarr.json"), "w") as f:
        json.dump({"zarr_format": 3, "node_type": "group", "attributes": {}}, f)
    for name in ("U", "V"):
        src = os.path.join(inputs, name)
        dst = os.path.join(scratch, name)
        os.makedirs(dst, exist_ok=True)
        with open(os.path.join(src, "zarr.json")) as f:
            meta = json.load(f)
        meta["dimension_names"] = ["time", "level", "y", "x"]
        with open(os.path.join(dst, "zarr.json"), "w") as f:
            json.dump(meta, f)
        # chunk files hard-linked (the engine's store never follows symbolic links out of it)
        for d, _, files in os.walk(os.path.join(src, "c")):
            out = os.path.join(dst, os.path.relpath(d, src))
            os.makedirs(out, exist_ok=True)
            for fn in files:
                if not os.path.exists(os.path.join(out, fn)):
                    os.link(os.path.join(d, fn), os.path.join(out, fn))
    return scratch


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--inputs", required=True)
    p.add_argument("--scratch", default="/tmp/cubed-java-xarray-qm")
    p.add_argument("--allowed-mem", default="2GB")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args()
    group = make_group(a.inputs, a.scratch)

    import xarray as xr
    import cubed_java

    cubed_java.configure(allowed_mem=a.allowed_mem, workers=a.workers)
    t0 = time.perf_counter()
    ds = xr.open_zarr(group, chunked_array_type="cubed-java", chunks={}, consolidated=False)
    quad = xr.Dataset({"uu": ds.U ** 2, "vv": ds.V ** 2, "uv": ds.U * ds.V})
    result = quad.mean("time", skipna=False).compute()
    wall = time.perf_counter() - t0
    print(f"wall_seconds {wall:.2f}")
    for k in ("uu", "vv", "uv"):
        print(f"sum_{k} {float(result[k].values.sum())!r}")


if __name__ == "__main__":
    main()
