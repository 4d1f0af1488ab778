"""The engine's built-in compute callbacks for Python (Python Cubed's names in
``cubed.diagnostics``): pass them in ``compute(callbacks=[...])`` (``cubed_java.compute``,
``Array.compute``, xarray's ``ds.compute``/``load``).

Or for every compute of a block (``.values``, ``.load()``, ``to_zarr`` too), as in Dask::

    with ProgressBar():
        ds.to_zarr("out.zarr")

(``ProgressBar().register()`` until ``unregister()``).

- ``ProgressBar()``: one bar per operation, advanced live as tasks end (tqdm when it is installed,
  else a plain bar on standard error);
- ``HistoryCallback(directory="history")``: the engine writes ``DIR/tasks.csv``, ``ops.csv`` and
  ``plan.txt`` (docs/diagnostics.md, "History"); the object also keeps the task records in Python:
  ``records`` (a list of dicts: op, key, times, attempts, worker, pid, projected_mem,
  measured_peak_mem, peak_rss, allocated_bytes, ...), ``events_df`` (the same as a pandas
  DataFrame, when pandas is installed) and ``compute_id``;
- ``TimelineVisualizationCallback(directory="history")`` and
  ``MemoryVisualizationCallback(directory="history")``: the engine draws ``DIR/timeline.svg`` and
  ``DIR/memory.svg`` (both, for either; docs/diagnostics.md, "Charts").

The files are (re)written when each compute ends, also when it failed. A user's own callback is
any object with some of ``on_compute_start(event)``, ``on_operation_start(event)``,
``on_task_end(event)``, ``on_operation_end(event)``, ``on_compute_end(event)``.
"""
from __future__ import annotations

import os
import sys
import time

__all__ = ["ProgressBar", "HistoryCallback", "TimelineVisualizationCallback",
           "MemoryVisualizationCallback", "Callback"]


class Callback:
    """A base class for compute callbacks (every method does nothing). A callback given to one
    compute (``callbacks=[cb]``) sees that compute; registered (``cb.register()``, or ``with cb:``
    for the block's duration, as in Dask and Python Cubed) it sees every compute of the process:
    ``.values``, ``.load()``, ``to_zarr`` included."""

    def register(self):
        """Gives this callback to every compute from now on (until ``unregister()``)."""
        from ._compute import GLOBAL_CALLBACKS

        if not any(cb is self for cb in GLOBAL_CALLBACKS):
            GLOBAL_CALLBACKS.append(self)
        return self

    def unregister(self):
        """Stops giving this callback to every compute (a no-op when it is not registered)."""
        from ._compute import GLOBAL_CALLBACKS

        GLOBAL_CALLBACKS[:] = [cb for cb in GLOBAL_CALLBACKS if cb is not self]

    def __enter__(self):
        return self.register()

    def __exit__(self, *exc):
        self.unregister()
        return False

    def on_compute_start(self, event):
        pass

    def on_compute_end(self, event):
        pass

    def on_operation_start(self, event):
        pass

    def on_operation_end(self, event):
        pass

    def on_task_end(self, event):
        pass


class _EngineFiles(Callback):
    """A diagnostic the engine writes itself into ``directory`` (the bridge option ``key``)."""

    _key = None

    def __init__(self, directory="history"):
        self.directory = os.path.abspath(os.fspath(directory))

    def _java_options(self):
        return [self._key, self.directory]


class HistoryCallback(_EngineFiles):
    """Task history: the engine's ``DIR/tasks.csv``, ``ops.csv``, ``plan.txt``, and the records
    here (``records``, ``events_df``) of the last compute it was given to."""

    _key = "history"

    def __init__(self, directory="history"):
        super().__init__(directory)
        self.records = []
        self.compute_id = None
        self.events_df = None

    def on_compute_start(self, event):
        self.records = []
        self.compute_id = event.compute_id
        self.events_df = None

    def on_task_end(self, event):
        r = dict(vars(event))
        r.pop("kind", None)
        r["op"] = r.pop("name")
        r["key"] = ".".join(str(k) for k in r["key"])
        r["duration_ms"] = r["end_millis"] - r["start_millis"]
        self.records.append(r)

    def on_compute_end(self, event):
        try:
            import pandas as pd
        except ImportError:
            return
        self.events_df = pd.DataFrame.from_records(self.records)


class TimelineVisualizationCallback(_EngineFiles):
    """The engine's task timeline chart, ``DIR/timeline.svg`` (with ``DIR/memory.svg``)."""

    _key = "plots"

    @property
    def path(self):
        return os.path.join(self.directory, "timeline.svg")


class MemoryVisualizationCallback(_EngineFiles):
    """The engine's projected-against-measured memory chart, ``DIR/memory.svg`` (with
    ``DIR/timeline.svg``)."""

    _key = "plots"

    @property
    def path(self):
        return os.path.join(self.directory, "memory.svg")


class ProgressBar(Callback):
    """One progress bar per operation, advanced as each task ends (live). With tqdm installed the
    bars are tqdm's (``tqdm_kwargs`` passed on); else a plain bar on ``file`` (standard error),
    one line per redraw on a terminal-less stream, at most every ``interval`` seconds."""

    def __init__(self, file=None, interval=1.0, **tqdm_kwargs):
        self.file = file
        self.interval = interval
        self.tqdm_kwargs = tqdm_kwargs
        self._bars = {}

    def on_compute_start(self, event):
        self._bars = {}

    def on_operation_start(self, event):
        try:
            from tqdm.auto import tqdm
        except ImportError:
            tqdm = None
        if tqdm is not None:
            bar = tqdm(total=event.num_tasks, desc=event.name, file=self.file or sys.stderr,
                       **self.tqdm_kwargs)
        else:
            bar = _PlainBar(event.name, event.num_tasks, self.file or sys.stderr, self.interval)
        self._bars[event.name] = bar

    def on_task_end(self, event):
        bar = self._bars.get(event.name)
        if bar is not None:
            bar.update(1)

    def on_operation_end(self, event):
        bar = self._bars.pop(event.name, None)
        if bar is not None:
            bar.close()

    def on_compute_end(self, event):
        for bar in self._bars.values():
            bar.close()
        self._bars = {}


class _PlainBar:
    """A text bar: ``name  40% [========            ] 2/5``, drawn when it starts, at most every
    ``interval`` seconds while it advances, and when it completes."""

    WIDTH = 40

    def __init__(self, name, total, file, interval):
        self.name, self.total, self.file, self.interval = name, total, file, interval
        self.n = 0
        self._last = 0.0
        self._draw()

    def update(self, k):
        self.n += k
        if time.monotonic() - self._last >= self.interval or self.n >= self.total:
            self._draw()

    def close(self):
        if self.n < self.total or self._last == 0.0:
            self._draw()

    def _draw(self):
        self._last = time.monotonic()
        frac = self.n / self.total if self.total else 1.0
        done = int(round(frac * self.WIDTH))
        print(f"{self.name} {int(frac * 100):3d}% [{'=' * done}{' ' * (self.WIDTH - done)}]"
              f" {self.n}/{self.total}", file=self.file, flush=True)
