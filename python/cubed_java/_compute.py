"""Computing lazy arrays with per-compute options (``Array.compute(**options)``,
``cubed_java.compute(*arrays, **options)`` and the xarray chunk manager's ``compute``)."""
from __future__ import annotations

from types import SimpleNamespace

from . import _bridge

#: The options a compute takes (anything else is a TypeError naming these).
OPTIONS = ("executor", "workers", "attempts", "executor_options", "resume", "callbacks")

_FIELDS = {
    "compute_start": ("compute_id", "num_ops", "num_tasks", "start_millis"),
    "compute_end": ("compute_id", "start_millis", "end_millis", "error"),
    "op_start": ("name", "num_tasks", "projected_mem", "start_millis"),
    "op_end": ("name", "num_tasks", "start_millis", "end_millis"),
    "task_end": ("name", "key", "start_millis", "end_millis", "attempts", "allocated_bytes",
                 "projected_mem", "backup", "worker", "measured_peak_mem", "peak_rss"),
}
_METHODS = {"compute_start": "on_compute_start", "compute_end": "on_compute_end",
            "op_start": "on_operation_start", "op_end": "on_operation_end",
            "task_end": "on_task_end"}


def compute(arrays, options, where="compute"):
    """The NumPy values of ``arrays`` (cubed_java Arrays), computed in one plan.

    ``options``: ``executor`` (a name: "threads", "processes", ...), ``workers``, ``attempts``,
    ``executor_options`` (a dict, the spec's executor_option.KEY settings): this compute runs on
    the executor the arrays' spec names with those settings changed; ``resume=True`` resumes an
    interrupted run of the same plan; ``callbacks``: objects whose methods ``on_compute_start``,
    ``on_operation_start``, ``on_task_end``, ``on_operation_end``, ``on_compute_end`` (any of
    them) are called with each event (a namespace of the engine's event fields) AFTER the
    compute has returned, in the order the events happened (the JVM cannot call Python while it
    computes): a history, not a live progress bar. Other options are a TypeError."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(f"{where}: unsupported option(s) {unknown} for cubed-java; supported:"
                        f" {', '.join(OPTIONS)}")
    arrays = list(arrays)
    if not arrays:
        return []
    options = {k: v for k, v in options.items() if v is not None}
    callbacks = list(options.pop("callbacks", None) or ())
    if not options and not callbacks:
        return list(_bridge.session().call("compute", arrays))
    kv = []
    for k in ("executor", "workers", "attempts"):
        if k in options:
            kv += [k, str(options[k])]
    for k, v in dict(options.get("executor_options") or {}).items():
        kv += [f"executor_option.{k}", str(v)]
    if "resume" in options:
        kv += ["resume", "true" if options["resume"] else "false"]
    reply = _bridge.session().call("computeWith", arrays, kv, bool(callbacks))
    if not callbacks:
        return list(reply)
    results, events = reply
    for kind, *values in events:
        event = SimpleNamespace(kind=kind, **dict(zip(_FIELDS[kind], values)))
        for cb in callbacks:
            method = getattr(cb, _METHODS[kind], None)
            if method is not None:
                method(event)
    return list(results)
