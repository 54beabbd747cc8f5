"""The import graph of a Python package, read with `ast` (nothing is imported or run), and its import cycles.

Every ``import`` and ``from ... import`` statement of every module counts, wherever it is written: at module level,
inside a function or method, under ``if TYPE_CHECKING:`` or in a ``try:``. Relative imports are resolved against
the importing module (``from . import x`` in ``pkg/a.py`` is ``pkg.x`` when ``pkg/x.py`` or ``pkg/x/`` exists, else
the name ``x`` of ``pkg/__init__.py``). An import of ``a.b.c`` is an edge to the module ``a.b.c`` only: the packages
above it (``a``, ``a.b``) are loaded before it anyway and are not edges of their own.

Run it to list a package's cycles and its imports of another top-level package::

    python tests/import_graph.py rookcore            # cycles in rookcore (exit status 1 if any)
    python tests/import_graph.py rookcore widgets    # ... and every rookcore module that imports widgets

`tests/test_structure.py` checks both for rookcore.
"""
from __future__ import annotations

import ast
import pathlib
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Import:
    """One import statement: the importing module, the module it names (resolved, dotted) and its line."""

    source: str
    target: str
    line: int


def module_files(root: pathlib.Path, package: str) -> dict[str, pathlib.Path]:
    """Every module of ``package`` (a folder with an ``__init__.py`` under ``root``): {dotted name: file}.
    ``pkg/__init__.py`` is the module ``pkg``. Raises FileNotFoundError when ``root/package/__init__.py`` is
    missing."""
    base = root / package
    if not (base / "__init__.py").is_file():
        raise FileNotFoundError(f"{base} is not a package (no __init__.py)")
    found = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module named by ``from <node.module> import ...`` written in ``module`` (relative levels
    resolved). Raises ValueError for a relative import that climbs above the top-level package."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    here = parts if is_package else parts[:-1]  # a package's own __init__ is "." itself
    if node.level - 1 > len(here) - 1:
        raise ValueError(f"{module}: relative import of level {node.level} climbs above the top-level package")
    base = here[:len(here) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: pathlib.Path, known: set[str]) -> list[Import]:
    """Every import written anywhere in the module ``module`` (file ``path``), resolved to dotted names; ``known``:
    the modules of the packages read, used to tell ``from pkg import submodule`` from ``from pkg import name``.
    Raises SyntaxError for a file Python cannot parse."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append(Import(module, sub if sub in known else target, node.lineno))
    return found


def import_graph(root: pathlib.Path, package: str) -> dict[str, list[Import]]:
    """{module: its imports} for every module of ``package`` under ``root``, imports of anything outside the
    package included (the graph's edges are those whose target is a module of the package)."""
    files = module_files(root, package)
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def cycles(graph: dict[str, list[Import]]) -> list[list[str]]:
    """The import cycles of ``graph`` (`import_graph`): one list of modules per strongly connected group of two or
    more modules that import each other, directly or through others (and a module that imports itself), each
    group sorted; the groups in sorted order. [] when the graph has no cycle. Tarjan's algorithm, iterative."""
    edges = {m: sorted({i.target for i in imps if i.target in graph}) for m, imps in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    group.append(top)
                    if top == node:
                        break
                if len(group) > 1 or node in edges[node]:
                    groups.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(groups)


def cycle_edges(graph: dict[str, list[Import]], group: list[str]) -> list[Import]:
    """The imports inside one cycle ``group`` (`cycles`): which line of which module imports which, to fix."""
    members = set(group)
    return list(dict.fromkeys(i for m in group for i in graph[m] if i.target in members))


def imports_of_package(graph: dict[str, list[Import]], other: str) -> list[Import]:
    """Every import in ``graph`` of the top-level package ``other`` (e.g. "widgets") or one of its modules."""
    return [i for imps in graph.values() for i in imps if i.target == other or i.target.startswith(other + ".")]


def main(argv: list[str]) -> int:
    """``python tests/import_graph.py PACKAGE [FORBIDDEN ...]``: print the cycles of PACKAGE (run from the project's
    root) with the lines that make them, and every import of a FORBIDDEN package; exit status 1 if there is any."""
    if not argv:
        print(__doc__)
        return 2
    root = pathlib.Path.cwd()
    graph = import_graph(root, argv[0])
    bad = 0
    for group in cycles(graph):
        bad += 1
        print("cycle: " + " <-> ".join(group))
        for i in cycle_edges(graph, group):
            print(f"    {i.source} (line {i.line}) imports {i.target}")
    for other in argv[1:]:
        for i in imports_of_package(graph, other):
            bad += 1
            print(f"{i.source} (line {i.line}) imports {i.target}")
    print(f"{len(graph)} modules of {argv[0]}, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
