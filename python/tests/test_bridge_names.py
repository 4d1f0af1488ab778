"""The two sides of the bridge agree: every Java function the package calls exists on the Java
side with the argument count the call passes, and the wire tags, error kinds and op bytes declared
in Java equal those declared in Python.

The Java functions come from the running bridge (``functions()``: the table the bridge resolves
names against, one entry per overload). The package's calls are found by reading its source: each
``_call(name, ...)`` or ``session().call(name, ...)``, with ``name`` worked out from literals,
from the arguments a helper's callers pass (``_reduce("Xp.sum", ...)``), from loops and
comprehensions over literal lists (``for _n in _UNARY: _make_unary(_n)``) and from module
functions applied to those (``_camel(name)``). A name this cannot work out fails the test: write
it so that it can.

The constants are read from their declarations: ``static final int NAME = <n>;`` in Wire.java (the
tags; ``MAX_COUNT = 1 << 24`` is no plain number and so no tag) and BridgeMain.java (``OP_*``,
``ERR_*``, ``STATUS_*``, ``REGULAR_AXIS``), against ``T_*``, ``OP_*`` and ``REGULAR_AXIS`` of ``_wire.py`` and
``ERR_*`` of ``errors.py``.
"""
import ast
import importlib
import itertools
import pathlib
import re

import pytest

import cubed_java
from cubed_java import _bridge, _wire, errors

PACKAGE = pathlib.Path(cubed_java.__file__).parent
JAVA = pathlib.Path(__file__).resolve().parents[2] / "cubed-python/src/main/java/dev/cubed/bridge"
CALLERS = {"_call", "call", "deferred_call"}


class Unresolved(Exception):
    pass


class Source:
    """The package's modules: their trees, parents and function definitions."""

    def __init__(self):
        self.modules = {}
        self.defs = {}  # function name -> [(module, FunctionDef)]
        for path in sorted(PACKAGE.glob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                for child in ast.iter_child_nodes(node):
                    child.parent = node
            tree.parent = None
            mod = path.stem
            self.modules[mod] = tree
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    self.defs.setdefault(node.name, []).append((mod, node))

    def calls(self):
        """(module, Call node) of every call to the bridge."""
        for mod, tree in self.modules.items():
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and node.args:
                    f = node.func
                    name = f.id if isinstance(f, ast.Name) else (
                        f.attr if isinstance(f, ast.Attribute) else None)
                    if name in CALLERS and not _is_definition_forward(node):
                        yield mod, node

    def values(self, mod, expr, depth=0):
        """Every string ``expr`` may be."""
        if depth > 8:
            raise Unresolved("too deep")
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return {expr.value}
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return {a + b for a in self.values(mod, expr.left, depth + 1)
                    for b in self.values(mod, expr.right, depth + 1)}
        if isinstance(expr, ast.JoinedStr):
            parts = []
            for v in expr.values:
                if isinstance(v, ast.FormattedValue):
                    parts.append(self.values(mod, v.value, depth + 1))
                else:
                    parts.append({v.value})
            return {"".join(p) for p in itertools.product(*parts)}
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and len(expr.args) == 1:
            fn = getattr(importlib.import_module(f"cubed_java.{mod}"), expr.func.id)
            return {fn(v) for v in self.values(mod, expr.args[0], depth + 1)}
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and all(
                isinstance(a, ast.Constant) for a in expr.args):  # jname.replace("nan", "")
            args = [a.value for a in expr.args]
            return {getattr(str, expr.func.attr)(v, *args)
                    for v in self.values(mod, expr.func.value, depth + 1)}
        if isinstance(expr, ast.Name):
            return self._name(mod, expr, depth)
        raise Unresolved(ast.dump(expr))

    def _name(self, mod, expr, depth):
        node = expr
        while node is not None:
            node = node.parent
            if isinstance(node, ast.FunctionDef):
                for stmt in ast.walk(node):  # a local: jname = "Xp." + _camel(name)
                    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                            stmt.targets[0], ast.Name) and stmt.targets[0].id == expr.id:
                        return self.values(mod, stmt.value, depth + 1)
                params = [a.arg for a in node.args.args]
                if expr.id in params:
                    return self._passed(node.name, params.index(expr.id), expr.id, depth)
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name) \
                    and node.target.id == expr.id:  # for _n in _UNARY: ... _make_unary(_n)
                return _literals(node.iter, self.modules[mod])
            if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
                for g in node.generators:
                    if isinstance(g.target, ast.Name) and g.target.id == expr.id:
                        return _literals(g.iter, self.modules[mod])
        raise Unresolved(f"name {expr.id}")

    def _passed(self, fname, index, pname, depth):
        """Every string the callers of function ``fname`` pass as its parameter ``index``."""
        out = set()
        for mod, tree in self.modules.items():
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                name = f.id if isinstance(f, ast.Name) else (
                    f.attr if isinstance(f, ast.Attribute) else None)
                if name != fname:
                    continue
                if index < len(node.args):
                    out |= self.values(mod, node.args[index], depth + 1)
                for kw in node.keywords:
                    if kw.arg == pname:
                        out |= self.values(mod, kw.value, depth + 1)
        if not out:
            raise Unresolved(f"no caller of {fname} passes {pname}")
        return out


def _is_definition_forward(node):
    # _call's own body: ``_bridge.session().call(name, *args)`` forwards whatever it is given
    return any(isinstance(a, ast.Starred) for a in node.args)


def _literals(iter_expr, tree):
    """The strings of a literal tuple/list/dict, or of a module-level name bound to one."""
    if isinstance(iter_expr, ast.Name):
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == iter_expr.id for t in stmt.targets):
                return _literals(stmt.value, tree)
        raise Unresolved(f"module name {iter_expr.id}")
    value = ast.literal_eval(iter_expr)
    return {v for v in value if isinstance(v, str)}


def java_functions():
    """name -> [(parameter count, varargs)] from the running bridge."""
    out = {}
    for name, count, varargs in _bridge.session().call("functions"):
        out.setdefault(name, []).append((count, varargs))
    return out


def python_calls():
    """(name, argument count, where) of every bridge call of the package."""
    src = Source()
    found, unresolved = [], []
    for mod, node in src.calls():
        where = f"{mod}.py:{node.lineno}"
        try:
            names = src.values(mod, node.args[0])
        except Unresolved as e:
            unresolved.append(f"{where}: {e}")
            continue
        count = len(node.args) - 1
        f = node.func
        if isinstance(f, ast.Name) and f.id == "deferred_call":
            # deferred_call(name, (args...), dtypes): the Java call takes the tuple's items
            if not isinstance(node.args[1], ast.Tuple):
                unresolved.append(f"{where}: deferred_call's arguments are not a literal tuple")
                continue
            count = len(node.args[1].elts)
        for name in names:
            found.append((name, count, where))
    return found, unresolved


def accepts(overloads, count):
    return any(n < 0 or n == count or (varargs and count >= n - 1) for n, varargs in overloads)


def test_every_java_function_the_package_calls_exists_with_its_argument_count():
    java = java_functions()
    calls, unresolved = python_calls()
    assert not unresolved, ("bridge calls whose function name the test cannot work out (write"
                            f" it as a literal or a helper's literal argument): {unresolved}")
    assert len({c[0] for c in calls}) > 100  # the reading found the package's calls
    missing = sorted({f"{where}: {name}" for name, n, where in calls if name not in java})
    assert not missing, f"names the Java side does not have: {missing}"
    wrong = sorted({f"{where}: {name} with {n} arguments (Java: {java[name]})"
                    for name, n, where in calls if not accepts(java[name], n)})
    assert not wrong, f"calls no Java overload takes: {wrong}"


def test_the_bridge_resolves_facade_methods_only():
    java = java_functions()
    assert "Xp.add" in java and "XpLinalg.vectorNorm" in java and "XpFft.fft" in java
    assert {n.split(".")[0] for n in java if "." in n} == {"Xp", "XpLinalg", "XpFft",
                                                           "XpIndexing", "XpGroupby",
                                                           "XpWindow"}
    assert (2, False) in java["Xp.add"]


def _java_ints(path):
    text = path.read_text()
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r"static final int (\w+) = (-?\d+);", text)}


def test_wire_tags_equal_on_both_sides():
    java = _java_ints(JAVA / "Wire.java")
    python = {k[2:]: v for k, v in vars(_wire).items() if re.fullmatch(r"T_[A-Z]+", k)}
    assert len(java) >= 15
    assert java == python


def test_error_kinds_and_ops_equal_on_both_sides():
    main = _java_ints(JAVA / "BridgeMain.java")
    java_err = {k: v for k, v in main.items() if k.startswith("ERR_")}
    py_err = {k: v for k, v in vars(errors).items() if re.fullmatch(r"ERR_[A-Z]+", k)}
    assert java_err == py_err
    assert set(errors._BY_KIND) == set(py_err.values())  # a Python class for every kind
    for name in ("OP_PING", "OP_CALL", "REGULAR_AXIS", "STATUS_OK", "STATUS_ERROR", "STATUS_EVENT"):
        assert main[name] == getattr(_wire, name), name


@pytest.mark.parametrize("kind", ["ERR_IO", "ERR_ARGUMENT"])
def test_error_kind_maps_to_its_class(kind):
    cls = errors._BY_KIND[getattr(errors, kind)]
    assert issubclass(cls, errors.JavaError) and cls is not errors.JavaError
