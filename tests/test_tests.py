"""The tests' own house: a test module is read on its own, so no module of the tests imports a
test module (what two of them share lives in a conftest, in tests/builders/ or in
tests/strategies.py), and every folder of tests is a package, so that two parts may each have a
test_api.py."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def modules() -> list[Path]:
    return sorted(path for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts)


def imported(path: Path) -> set[str]:
    """The modules `path` imports, by their full dotted names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def is_test_module(name: str) -> bool:
    return name.split(".")[0] == "tests" and name.split(".")[-1].startswith("test_")


def test_no_module_of_the_tests_imports_a_test_module():
    offenders = {str(path.relative_to(TESTS)): sorted(filter(is_test_module, imported(path)))
                 for path in modules()}
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_check_sees_a_test_module_imported():
    assert is_test_module("tests.pit.test_ledger") and is_test_module("tests.test_chain")
    assert not is_test_module("tests.builders.pit") and not is_test_module("tests.strategies")


def test_every_folder_of_tests_is_a_package():
    folders = {path.parent for path in TESTS.rglob("test_*.py") if "__pycache__" not in path.parts}
    assert sorted(str(folder.relative_to(TESTS.parent)) for folder in folders
                  if not (folder / "__init__.py").exists()) == []
