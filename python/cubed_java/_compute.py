"""Computing lazy arrays with per-compute options (``Array.compute(**options)``,
``cubed_java.compute(*arrays, **options)`` and the xarray chunk manager's ``compute``), and the
live events of ``callbacks=[...]``."""
from __future__ import annotations

import re
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
_PID = re.compile(r"\bpid (\d+)")
#: Callbacks given to every compute of this process as well as its own (``Callback.register()``,
#: ``with ProgressBar():``), in the order registered.
GLOBAL_CALLBACKS = []


def event(values):
    """The event namespace of one event frame's value ``[kind, field, ...]``. A task end also has
    ``pid``: the process it ran in (a worker JVM or Python worker; None for a thread of the
    bridge's JVM)."""
    kind, *rest = values
    e = SimpleNamespace(kind=kind, **dict(zip(_FIELDS[kind], rest)))
    if kind == "task_end":
        m = _PID.search(e.worker or "")
        e.pid = int(m.group(1)) if m else None
    return e


def compute(arrays, options, where="compute"):
    """The NumPy values of ``arrays`` (cubed_java Arrays), computed in one plan.

    ``options``: ``executor`` (a name: "threads", "processes", ...), ``workers``, ``attempts``,
    ``executor_options`` (a dict, the spec's executor_option.KEY settings): this compute runs on
    the executor the arrays' spec names with those settings changed; ``resume=True`` resumes an
    interrupted run of the same plan; ``callbacks``: objects whose methods ``on_compute_start``,
    ``on_operation_start``, ``on_task_end``, ``on_operation_end``, ``on_compute_end`` (any of
    them) are called with each event (a namespace of the engine's event fields) WHILE the compute
    runs, as the JVM streams them, in the order the engine reports them (``cubed_java.diagnostics``
    has the built-in ones: progress bar, history, plots). A callback that raises does not stop the
    compute: the first such exception is raised when the compute has ended. Other options are a
    TypeError."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(f"{where}: unsupported option(s) {unknown} for cubed-java; supported:"
                        f" {', '.join(OPTIONS)}")
    arrays = list(arrays)
    if not arrays:
        return []
    options = {k: v for k, v in options.items() if v is not None}
    callbacks = list(options.pop("callbacks", None) or ())
    # the callbacks registered for every compute (``with ProgressBar():``, ``cb.register()``)
    callbacks += [cb for cb in GLOBAL_CALLBACKS if not any(cb is c for c in callbacks)]
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
    for cb in callbacks:  # the engine's own diagnostics (cubed_java.diagnostics) it writes itself
        kv += list(getattr(cb, "_java_options", lambda: [])())
    if not callbacks:
        return list(_bridge.session().call("computeWith", arrays, kv, False))
    failed = []

    def on_event(values):
        e = event(values)
        for cb in callbacks:
            method = getattr(cb, _METHODS[e.kind], None)
            if method is not None:
                try:
                    method(e)
                except Exception as ex:  # the reply is still to come: keep reading
                    failed.append(ex)

    bridge = _bridge.session()
    with bridge.events_to("computeWith", on_event):
        results = bridge.call("computeWith", arrays, kv, True)
    if failed:
        raise failed[0]
    return list(results)
