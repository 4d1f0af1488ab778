"""The package's modules import in layers, as the Java side's packages do (docs/python.md, "The
package's layers"): the bridge at the bottom knows no ``Array``; ``Array`` above it; the namespaces
above ``Array``; the package's own ``__init__`` above them; the xarray chunk manager on top.

Read from the source, not from a running import: every ``import``/``from ... import`` of a module of
the package anywhere in a module (inside functions and methods too: an import deferred into a
function is still a dependency), except in an ``if TYPE_CHECKING:`` block (typing only, never run).
Three rules: every module has its layer; no import goes to a higher layer; and no cycle, which also
holds between the modules of one layer.
"""
import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "cubed_java"
INIT = "__init__"

#: Bottom to top. A module may import modules of its own layer (without a cycle) and of the layers
#: below it.
LAYERS = [
    ("base: no module of the package", {"errors", "_chunks", "_clone", "_worker"}),
    ("bridge: the JVM process, its wire and computing", {
        "_engine", "_respool", "_transfer", "_wire", "_jvm", "_bridge", "_compute", "testing",
        "diagnostics"}),
    ("Array: the lazy array object", {"_deferred", "_mixed", "_array"}),
    ("namespaces: the functions over Array", {
        "_info", "_core", "_rolling", "_reductions", "_nan", "_xops", "fft", "linalg", "random",
        "array_api"}),
    ("tools: Python functions as tasks, storage, datasets, the benchmark", {
        "_pyfunc", "_blocks", "_store", "dataset", "bench"}),
    ("the package: cubed_java.*", {INIT}),
    ("xarray: the chunk manager", {"_xhooks", "_xnan", "xarray_groupby", "xarray_chunkmanager"}),
]
LAYER_OF = {m: i for i, (_, mods) in enumerate(LAYERS) for m in mods}


def modules():
    return sorted(p.stem for p in PACKAGE.glob("*.py"))


def _is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _nodes(tree):
    """Every node of ``tree`` except those only in an ``if TYPE_CHECKING:`` body."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend([node.test, *node.orelse])
            continue
        todo.extend(ast.iter_child_nodes(node))


def _targets(node, known):
    """The package's modules an import node imports (a name that is no module is an attribute of
    the package: its ``__init__``)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            parts = alias.name.split(".")
            if parts[0] == "cubed_java":
                yield parts[1] if len(parts) > 1 else INIT
        return
    if node.level > 1:
        raise AssertionError(f"line {node.lineno}: an import from outside the package's folder")
    if node.level == 1:
        parts = node.module.split(".") if node.module else []
    elif node.module and node.module.split(".")[0] == "cubed_java":
        parts = node.module.split(".")[1:]
    else:
        return
    if parts:
        yield parts[0]
        return
    for alias in node.names:
        yield alias.name if alias.name in known else INIT


def module_imports(mod, source, known):
    """{imported module: [line, ...]} of module ``mod`` (its text ``source``) among ``known``."""
    out = {}
    for node in _nodes(ast.parse(source, f"{mod}.py")):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for t in _targets(node, known):
                if t != mod:
                    out.setdefault(t, []).append(node.lineno)
    return {t: sorted(lines) for t, lines in out.items()}


def imports():
    """module -> {imported module: [line, ...]} over the package's modules."""
    known = set(modules())
    return {mod: module_imports(mod, (PACKAGE / f"{mod}.py").read_text(encoding="utf-8"), known)
            for mod in known}


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _where(graph, a, b):
    return f"{a}.py:{','.join(map(str, graph[a][b]))} imports {b}"


def a_loop(graph, comp):
    """One shortest import loop from the first module of ``comp`` back to it, within ``comp``."""
    start = comp[0]
    paths = {start: [start]}
    todo = [start]
    while todo:
        a = todo.pop(0)
        for b in sorted(graph[a]):
            if b == start:
                return paths[a] + [start]
            if b in comp and b not in paths:
                paths[b] = paths[a] + [b]
                todo.append(b)
    return []


def test_the_reading_takes_every_form_but_typing_only_imports():
    source = """
from __future__ import annotations
import typing
from typing import TYPE_CHECKING
import numpy
from . import a, not_a_module
from .b import thing
import cubed_java.c as c
from cubed_java import d
if TYPE_CHECKING:
    from . import e
else:
    from . import f
if typing.TYPE_CHECKING:
    from . import e
def later():
    from .g import h
class K:
    def m(self):
        import cubed_java
"""
    found = module_imports("z", source, {"a", "b", "c", "d", "e", "f", "g", INIT})
    assert found == {"a": [6], INIT: [6, 20], "b": [7], "c": [8], "d": [9], "f": [13],
                     "g": [17]}


def test_the_reading_finds_the_imports():
    graph = imports()
    # a few imports the package is known to have, of each form the reading handles
    assert "_bridge" in graph[INIT]  # from ._bridge import ...
    assert "errors" in graph["_bridge"]  # from . import errors
    assert INIT in graph["xarray_chunkmanager"]  # import cubed_java (in a method)
    assert "_xhooks" in graph["xarray_chunkmanager"]  # from ._xhooks import ... (in a method)


def test_every_module_has_one_layer():
    found = set(modules())
    declared = [m for _, mods in LAYERS for m in mods]
    assert len(declared) == len(set(declared)), "a module is in two layers"
    assert not found - set(declared), (
        f"modules without a layer: {sorted(found - set(declared))}; add each to LAYERS here and"
        " to the layer table of docs/python.md")
    assert not set(declared) - found, f"LAYERS names missing modules: {sorted(set(declared) - found)}"


def test_no_import_goes_up_the_layers():
    graph = imports()
    up = []
    for a, targets in sorted(graph.items()):
        for b in sorted(targets):
            if a in LAYER_OF and b in LAYER_OF and LAYER_OF[b] > LAYER_OF[a]:
                up.append(f"{_where(graph, a, b)}: from layer '{LAYERS[LAYER_OF[a]][0]}' up to"
                          f" '{LAYERS[LAYER_OF[b]][0]}'")
    assert not up, "imports up the layers:\n" + "\n".join(up)


def test_no_import_cycle():
    graph = imports()
    found = cycles(graph)
    lines = []
    for comp in found:
        inside = [_where(graph, a, b) for a in comp for b in sorted(graph[a]) if b in comp]
        loop = a_loop(graph, comp)
        lines.append(f"cycle of {len(comp)} modules {comp}, e.g. {' -> '.join(loop)} ("
                     + "; ".join(_where(graph, a, b) for a, b in zip(loop, loop[1:]))
                     + "); all its imports: " + "; ".join(inside))
    assert not found, "import cycles:\n" + "\n".join(lines)


def test_the_cycle_check_finds_a_cycle():
    assert cycles({"a": {"b": [1]}, "b": {"c": [2]}, "c": {"a": [3]}, "d": {"a": [4]}}) == [
        ["a", "b", "c"]]
    assert cycles({"a": {"b": [1]}, "b": {}}) == []
