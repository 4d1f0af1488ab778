# Dask's side of scripts/perf/library/LibraryUser.java: the same two programs on the same stores.
# Usage: python dask_user.py add|rechunk DATA OUT   (threads scheduler, 2 workers)
import shutil, sys, time
import dask, dask.array as da

mode, data, out = sys.argv[1:4]
dask.config.set(scheduler="threads", num_workers=2)
t0 = time.time()
if mode == "add":
    shutil.rmtree(f"{out}/C_dask", ignore_errors=True)
    a = da.from_zarr(f"{data}/A")
    b = da.from_zarr(f"{data}/B")
    da.to_zarr(a + b, f"{out}/C_dask")
    t1 = time.time()
    s = float(da.from_zarr(f"{out}/C_dask").sum().compute())
    t2 = time.time()
    print(f"add: toZarr {t1 - t0:.2f} s, sum {t2 - t1:.2f} s, sum={s!r}")
elif mode == "rechunk":
    shutil.rmtree(f"{out}/R2_dask", ignore_errors=True)
    r = da.from_zarr(f"{data}/R")
    da.to_zarr(r.rechunk((500, 100, 100)), f"{out}/R2_dask")
    print(f"rechunk: {time.time() - t0:.2f} s")
else:
    raise SystemExit("mode add|rechunk")
