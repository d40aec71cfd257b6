"""The imports run one way: regulation ← pit ← count ← audit and reports (issue 10, "one home for each
concept"). Read from the source with `ast`, so an import inside a function counts too."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str | None = None) -> set[str]:
    """Every module `path` (module `module`) imports, by absolute name (relative imports resolved)."""
    package = (module or _module_of(path)).split(".")
    if path.name != "__init__.py":
        package.pop()
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def _sources(package: str) -> list[Path]:
    return sorted(path for path in (ROOT / package.replace(".", "/")).rglob("*.py") if "migrations" not in path.parts)


def _reached(start: str) -> dict[str, str]:
    """Each project module that `start`'s modules import, directly or through other project
    modules, with the module that first imports it."""
    seen: dict[str, str] = {}
    queue = _sources(start)
    done: set[Path] = set()
    while queue:
        path = queue.pop()
        if path in done:
            continue
        done.add(path)
        for name in _imports(path):
            if not name.startswith(("casino", "regulation")) or name in seen:
                continue
            seen[name] = _module_of(path)
            for candidate in (ROOT / (name.replace(".", "/") + ".py"), ROOT / name.replace(".", "/") / "__init__.py"):
                if candidate.exists():
                    queue.append(candidate)
    return seen


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_pit_imports_neither_the_audit_nor_the_reports():
    wrong = {name: by for name, by in _reached("casino.pit").items()
             if _within(name, "casino.reports") or _within(name, "casino.audit")}
    assert wrong == {}


def test_the_count_imports_neither_the_audit_nor_the_reports():
    """The daily report reads the count's reconciliation (reports -> count); the count prints its
    case file through casino.printing, never through the reports."""
    wrong = {name: by for name, by in _reached("casino.count").items()
             if _within(name, "casino.reports") or _within(name, "casino.audit")}
    assert wrong == {}


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
