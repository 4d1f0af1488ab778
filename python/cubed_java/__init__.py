"""cubed_java: Cubed for Java (a bounded-memory chunked array engine on the JVM) from Python.

    import cubed_java.array_api as xp     # the Array API namespace
    x = xp.asarray(numpy_array, chunks=(1000, 1000))
    y = xp.mean(x ** 2, axis=0).compute()

xarray: ``ds.chunk(..., chunked_array_type="cubed-java")``; see docs/python.md.
"""
from . import _array, array_api, errors
from ._array import Array
from ._bridge import restart, session
from .array_api import asarray, from_array, from_zarr, to_zarr
from .errors import BridgeError, JavaError

# Array's operators and methods are the namespace's functions: bound here, above both, so that
# _array.py imports no namespace (docs/python.md, "The package's layers")
_array.bind_namespace(array_api)

__version__ = "0.1.0"


def compute(*arrays, **options):
    """Computes several lazy arrays in one plan (shared inputs are read once); NumPy arrays.

    Options for this compute: ``executor`` (a name), ``workers``, ``attempts``,
    ``executor_options`` (dict), ``resume`` (bool), ``callbacks`` (objects with any of
    ``on_compute_start on_operation_start on_task_end on_operation_end on_compute_end``, called
    with each event after the compute has returned). Others are a TypeError."""
    from ._compute import compute as _compute

    return tuple(_compute(arrays, options, "cubed_java.compute"))


def configure(**spec):
    """Sets the engine's spec for arrays made from now on. Keys are the engine's settings (one
    table in docs/engine.md, "Settings"), read by the engine's one parser of settings: allowed_mem
    ("2GB"), reserved_mem, work_dir (default: a private per-user directory,
    java.io.tmpdir/cubed-<user>), executor ("threads" or "processes"), workers, attempts, checksum
    (True: a crc32c checksum per chunk of the Zarr arrays written), fold_groups, tile_bytes,
    inline_max_bytes, rechunk_intermediate_compression, rechunk_consume_intermediates,
    intermediate_checksums, disk_check, processes_keep_alive, processes_gc_skip,
    worker_jvm_options, worker_post_task_gc, worker_stats, and executor_option.KEY (pass it as
    ``**{"executor_option.spark.master": "local[2]"}``). A bad key or value is a ValueError naming
    it and what it allows. Returns the spec's description."""
    args = []
    for k, v in spec.items():
        args += [k, str(v)]
    bridge = session()
    try:
        return bridge.call("configure", *args)
    finally:
        bridge.forget_settings()


def settings():
    """The session spec's every setting (the names ``configure`` takes) with its value as text:
    ``configure(**settings())`` sets them back."""
    return {k: v for k, v in session().call("settings")}


def visualize(*arrays, filename="cubed", format=None):
    """Draws the plan computing ``arrays`` together (nothing is computed): ``filename`` plus
    ".svg" (``format="svg"``, the default; rendered by Graphviz ``dot``, the DOT text kept beside
    it) or ".dot" (``format="dot"``, the DOT text). A filename that has one of those suffixes is
    used as it is. Without ``dot`` on the PATH an SVG cannot be made: the DOT text is written and
    a warning says how to render it. Returns the path of the file written."""
    import os
    import warnings

    name = os.fspath(filename)
    if format is None:
        ext = os.path.splitext(name)[1].lower()
        format = ext[1:] if ext in (".svg", ".dot") else "svg"
    if format not in ("svg", "dot"):
        raise ValueError(f"visualize: format {format!r} is not supported; use 'svg' or 'dot'")
    if not name.lower().endswith("." + format):
        name += "." + format
    if not arrays or not all(isinstance(a, Array) for a in arrays):
        raise TypeError("visualize: give one or more cubed_java arrays")
    written, _svg, note = session().call("visualize", list(arrays), os.path.abspath(name))
    if note:
        warnings.warn(f"visualize: {note}", stacklevel=2)
    return written


def __getattr__(name):
    # the Array API namespace's functions at the top level too (``cubed_java.ones``,
    # ``cubed_java.reshape``), as Python Cubed has them
    if name in array_api.__all__:
        return getattr(array_api, name)
    raise AttributeError(f"module 'cubed_java' has no attribute {name!r}")


from ._blocks import blockwise, map_blocks  # noqa: E402
from .dataset import open_dataset, to_zarr_dataset  # noqa: E402
from . import diagnostics  # noqa: E402,F401  (compute callbacks: cubed_java.diagnostics.ProgressBar())

__all__ = ["Array", "BridgeError", "JavaError", "asarray", "blockwise", "compute", "configure",
           "errors", "from_array", "from_zarr", "map_blocks", "open_dataset", "restart",
           "session", "settings", "to_zarr", "to_zarr_dataset", "visualize"]
