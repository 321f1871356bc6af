"""The import contracts of pyproject.toml hold, cover the whole package, and catch what they forbid.

``lint-imports`` (import-linter) runs over the installed layout that
tests/import_tree.py lays out with links. Each contract is also shown to bite:
a copy of one layer folder gets a small module that breaks it, and the run must
fail naming the offending import.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.import_tree import PACKAGE, REPO, build, layer_folders

PYPROJECT = REPO / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def contracts() -> dict[str, dict]:
    config = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]
    assert config["root_package"] == PACKAGE
    return {contract["id"]: contract for contract in config["contracts"]}


def lint(tree: Path, *only: str) -> subprocess.CompletedProcess[str]:
    """lint-imports inside ``tree`` (it puts its working folder first on sys.path), optionally some contracts."""
    assert LINT_IMPORTS.exists(), "lint-imports is missing: pip install -e '.[dev]' installs import-linter"
    argv = [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(PYPROJECT)]
    for contract in only:
        argv += ["--contract", contract]
    return subprocess.run(argv, cwd=tree, capture_output=True, text=True, timeout=300)


def test_the_contracts_hold(tmp_path: Path) -> None:
    result = lint(build(tmp_path / "tree"))
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert f"Contracts: {len(contracts())} kept, 0 broken." in report


def test_the_method_workflows_contract_lists_exactly_the_registered_methods() -> None:
    """The independence contract follows METHODS: a method added there must be added here (and nothing else)."""
    from graphreason.workflows.methods import METHODS

    assert sorted(contracts()["method-workflows"]["modules"]) == sorted(m.package for m in METHODS)


def test_every_part_of_the_package_sits_in_a_layer() -> None:
    """A new folder or module under graphreason/ must be placed in the layer rule, not slip past it."""
    layered = set(contracts()["layers"]["layers"])
    parts = {f"{PACKAGE}.{layer}" for layer in layer_folders()}
    for entry in (REPO / PACKAGE).iterdir():
        if entry.name in ("__init__.py", "__main__.py", "__pycache__"):
            continue
        if entry.suffix == ".py" or (entry / "__init__.py").is_file():
            parts.add(f"{PACKAGE}.{entry.stem}")
    assert parts == layered
    # settings is the bottom layer: every layer may import it, it imports none of them
    assert contracts()["layers"]["layers"][-1] == f"{PACKAGE}.settings"


def _copy_sources(source: Path, target: Path) -> None:
    """A real copy of one layer folder's Python files, in place of its link in the tree."""
    target.unlink()
    shutil.copytree(
        source, target,
        ignore=lambda folder, names: [n for n in names if n == "__pycache__" or (
            not n.endswith(".py") and not (Path(folder) / n).is_dir())],
    )


# (contract, folder replaced by a copy, probe module inside it, the probe's import, what the report says)
VIOLATIONS = [
    ("layers", "llm", "engine/_probe.py",
     "def later():\n    from graphreason.tools.core.store import GraphStore\n    return GraphStore\n",
     "graphreason.llm is not allowed to import graphreason.tools"),
    ("layers", "memory", "_probe.py", "import graphreason.workflows.kit\n",
     "graphreason.memory is not allowed to import graphreason.workflows"),
    ("method-tools", "tools", "counselor/_probe.py", "import graphreason.tools.gar.conversions\n",
     "graphreason.tools.counselor is not allowed to import graphreason.tools.gar"),
    ("tools-core", "tools", "core/_probe.py", "import graphreason.tools.toolformer.hub\n",
     "graphreason.tools.core is not allowed to import graphreason.tools.toolformer"),
    ("method-workflows", "workflows", "gar/_probe.py", "import graphreason.workflows.counselor\n",
     "graphreason.workflows.gar is not allowed to import graphreason.workflows.counselor"),
]


@pytest.mark.parametrize(("contract", "folder", "probe", "code", "message"), VIOLATIONS,
                         ids=[f"{v[0]}-{v[2]}" for v in VIOLATIONS])
def test_each_contract_catches_a_forbidden_import(
    tmp_path: Path, contract: str, folder: str, probe: str, code: str, message: str
) -> None:
    assert contract in contracts()
    tree = build(tmp_path / "tree")
    _copy_sources(REPO / folder, tree / PACKAGE / folder)
    (tree / PACKAGE / folder / probe).write_text(code)
    result = lint(tree, contract)
    report = " ".join((result.stdout + result.stderr).split())  # the report wraps long lines
    assert result.returncode == 1, report
    assert message in report
    assert f"{PACKAGE}.{folder}.{probe.removesuffix('.py').replace('/', '.')}" in report


def test_settings_may_import_no_layer(tmp_path: Path) -> None:
    tree = build(tmp_path / "tree")
    link = tree / PACKAGE / "settings.py"
    text = link.read_text()
    link.unlink()
    link.write_text(text + "\n\ndef _probe():\n    import graphreason.llm.engine.chatml\n")
    result = lint(tree, "layers")
    report = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 1 and "graphreason.settings is not allowed to import graphreason.llm" in report
