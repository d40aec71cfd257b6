"""The imports run one way. The apps stand in layers, lowest first:

    regulation ← terms ← pit ← count ← audit ← reports, calculator

An app imports only from the layers below its own, and never a sibling of its layer: the
reports and the calculator know nothing of each other. Why this order:

- `regulation` is the engine, pure Python; `terms` says its words in three languages;
- the `pit` records the ledger; the `count` counts the commission boxes the pit's jogos fill;
- the `audit` reads the ledger (and, for money kinds of exception, the count) and finds each
  day's exceptions (`casino.audit.exceptions`);
- the daily report (`reports`) prints the day's figures, its count and its exceptions as the
  audit finds them; the `calculator` scores a hand apart from any ledger.

What two apps share goes to the lower one, or to a project module that imports no app
(`casino/charts.py`, `casino/printing.py`). The server's entry points (`wsgi.py`, `asgi.py`)
import no app's code, and no module of the casino imports itself through others (a circle).
Read from the source with `ast`, so an import inside a function counts too.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS = [("regulation",), ("casino.terms",), ("casino.pit",), ("casino.count",), ("casino.audit",),
          ("casino.reports", "casino.calculator", "casino.floor", "casino.aml")]
LEVEL = {app: level for level, layer in enumerate(LAYERS) for app in layer}


def _module_of(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str | None = None, root: Path = ROOT, modules: set[str] | None = None) -> set[str]:
    """Every name `path` (module `module`) imports, by absolute name (relative imports resolved):
    `from a.b import c` gives both `a.b` and `a.b.c`, for `c` may be a module. Given the
    `modules` that exist, it gives `a.b.c` alone when that is one of them: a package's own
    `__init__` always runs before its modules, so importing a module from it is no edge to it."""
    package = (module or _module_of(path, root)).split(".")
    if path.name != "__init__.py":
        package.pop()
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                name = f"{module}.{alias.name}"
                names.update((name,) if modules is not None and name in modules else (module, name))
    return names


def _sources(package: str, root: Path = ROOT) -> list[Path]:
    return sorted(path for path in (root / package.replace(".", "/")).rglob("*.py") if "migrations" not in path.parts)


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _app_of(name: str) -> str | None:
    return next((app for app in LEVEL if _within(name, app)), None)


def _wrong_way(imports: Iterable[tuple[str, str]]) -> list[str]:
    """Each (module, name it imports) where the module's app imports an app of its own layer or
    of a layer above."""
    wrong = []
    for module, name in imports:
        importer, imported = _app_of(module), _app_of(name)
        if importer and imported and importer != imported and LEVEL[imported] >= LEVEL[importer]:
            wrong.append(f"{module} imports {name}")
    return sorted(wrong)


def _imports_of(app: str) -> list[tuple[str, str]]:
    return [(_module_of(path), name) for path in _sources(app) for name in _imports(path)]


@pytest.mark.parametrize("app", list(LEVEL))
def test_an_app_imports_only_the_layers_below_its_own(app):
    assert _wrong_way(_imports_of(app)) == []


def test_every_app_of_the_casino_has_its_layer():
    apps = {f"casino.{path.parent.name}" for path in ROOT.glob("casino/*/apps.py")}
    assert apps == set(LEVEL) - {"regulation"}


def test_the_layer_check_refuses_an_import_upwards_and_one_between_siblings():
    assert _wrong_way([("casino.audit.views", "casino.reports.charts"),
                       ("casino.reports.pdf", "casino.calculator.scoring"),
                       ("casino.pit.models", "casino.terms.vocabulary"),
                       ("casino.reports.selectors", "casino.reports.forms"),
                       ("casino.printing", "casino.reports.pdf")]) == [
        "casino.audit.views imports casino.reports.charts",
        "casino.reports.pdf imports casino.calculator.scoring"]


@pytest.mark.parametrize("entry", ["casino/wsgi.py", "casino/asgi.py"])
def test_the_servers_entry_points_import_no_apps_code(entry):
    """The URLconf, loaded by Django, reaches the apps; the entry point itself names none."""
    assert {name for name in _imports(ROOT / entry) if _app_of(name)} == set()


def test_regulation_imports_nothing_of_the_casino_nor_of_django():
    wrong = {}
    for path in _sources("regulation"):
        for name in _imports(path):
            if _within(name, "casino") or _within(name, "django") or _within(name, "rest_framework"):
                wrong[name] = _module_of(path)
    assert wrong == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    source = tmp_path / "module.py"
    source.write_text("def f():\n    from casino.reports.selectors import default_casino\n"
                      "from ..audit import recompute\n")
    assert {"casino.reports.selectors", "casino.audit.recompute"} <= _imports(source, "casino.pit.module")


# --- No circles -----------------------------------------------------------------------------------


def _graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of `package` and the modules of `package` it imports."""
    paths = {_module_of(path, root): path for path in _sources(package, root)}
    return {module: {name for name in _imports(path, module, root, set(paths)) if name in paths} - {module}
            for module, path in paths.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that reach themselves through others, each circle's modules together (the
    strongly connected components of more than one module, by Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def test_no_module_of_the_casino_imports_itself_through_others():
    assert _circles(_graph("casino")) == []


def test_the_circle_check_finds_a_circle_closed_inside_a_function(tmp_path):
    package = tmp_path / "shop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "selectors.py").write_text("def explain():\n    from .readings import decisions\n")
    (package / "readings.py").write_text("from shop.selectors import explain\ndecisions = None\n")
    (package / "ledger.py").write_text("from . import readings\n")

    assert _circles(_graph("shop", root=tmp_path)) == [["shop.readings", "shop.selectors"]]


def test_the_engine_modules_import_one_another_in_one_direction():
    """A circle hides which module rests on which: the register of readings once imported the
    scorer, which imported the grading, which imported the rule sets, which imported the register."""
    graph = _graph("regulation")

    assert "regulation.fan" in graph["regulation.jogo"]  # the graph is read at all
    assert _circles(graph) == []


def test_the_register_of_readings_and_the_items_sit_below_the_rule_sets():
    """rules.py checks a rule set against the register and builds its items at import: neither
    may import anything that scores."""
    graph = _graph("regulation")
    scoring = {"regulation.fan", "regulation.jogo", "regulation.decisions", "regulation.settlement"}

    for module in ("regulation.readings", "regulation.items"):
        assert module in graph["regulation.rules"]
        assert not graph[module] & scoring, module


def test_importing_the_whole_engine_loads_neither_django_nor_the_casino():
    """At run time, where an import by name (importlib) or through a third package would show;
    the layer check above reads the same from the source."""
    program = ("import sys, regulation, regulation.cli, regulation.decisions, regulation.books\n"
               "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'casino')))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT)

    assert loaded.stdout.strip() == "[]"


def test_the_circle_check_sees_imports_under_type_checking_and_in_subpackages(tmp_path):
    for name, text in {
        "engine/__init__.py": "from .scorer import score\n",
        "engine/scorer.py": "from .grading import grade\n",
        "engine/grading.py": "def grade():\n    from . import rules\n",
        "engine/rules.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.scorer import score\n",
        "engine/books/__init__.py": "from . import base\n",
        "engine/books/base.py": "from .. import tiles\n",
        "engine/tiles.py": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    graph = _graph("engine", root=tmp_path)

    assert _circles(graph) == [["engine.grading", "engine.rules", "engine.scorer"]]
    assert graph["engine.books.base"] == {"engine.tiles"}


# --- The API -------------------------------------------------------------------------------------


def test_the_api_leaves_every_refusal_to_the_one_exception_handler():
    """casino/api_errors.exception_handler answers a `Refused` (and every other error) in the
    one shape; no API view catches it on its own."""
    catching = []
    for path in sorted(ROOT.glob("casino/*/api.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ExceptHandler) and node.type is not None and "Refused" in ast.unparse(node.type):
                catching.append(f"{_module_of(path)}:{node.lineno}")
    assert catching == []
    assert len(list(ROOT.glob("casino/*/api.py"))) >= 2
