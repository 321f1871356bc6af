"""The project installs and imports as ``graphreason.*`` only.

``llm/``, ``tools/``, ``memory/``, ``workflows/`` and ``evals/`` install as
``graphreason.llm``, ... (setup.py). Three checks, each in a child process
started together (they share nothing), outside the repo folder so that its
layer folders are not importable by accident:

* every installed module imports, and none of them imports a layer folder as a
  top-level package (``import llm`` would find PyPI's ``llm`` once installed);
* the wheel built from the working tree holds ``graphreason/`` and its
  dist-info only, with every module in it;
* with packages called ``llm`` and ``evals`` first on ``sys.path`` (as PyPI's
  would be), those packages and graphreason's engine, evals and CLI all work in
  one process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import BackgroundChild, start_child
from tests.import_tree import PACKAGE, REPO, installed_modules, layer_folders

pytestmark = pytest.mark.heavy  # among the slowest files: scheduled first (tests/conftest.py)

LAYERS = layer_folders()
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
CHILD_LIMIT_S = 600  # a safety net for a hung child only
# modules that run a program when imported: checked by running them (test_fake_llm_and_evals_packages_...)
ENTRY_SCRIPTS = {f"{PACKAGE}.cli.__main__"}

IMPORT_ALL = """
import importlib, json, sys
names = json.loads(open(sys.argv[1]).read())
failed = {}
for name in names:
    try:
        importlib.import_module(name)
    except BaseException as exc:  # a module that exits or fails is reported, not skipped
        failed[name] = f"{type(exc).__name__}: {exc}"
layers = json.loads(sys.argv[2])
top_level = sorted(m for m in sys.modules if m.split(".")[0] in layers)
print(json.dumps({"failed": failed, "top_level": top_level, "imported": len(names)}))
"""

SIDE_BY_SIDE = """
import json, sys
import llm, evals
import graphreason.llm.engine.local_smollm as engine
import graphreason.llm.engine.constraint as constraint
import graphreason.evals.driver as driver
import graphreason.workflows.methods as methods

print(json.dumps({
    "llm": [llm.MARKER, llm.__file__], "evals": [evals.MARKER, evals.__file__],
    "graphreason": [engine.LocalChatModel.__name__, constraint.as_constraint(None), driver.__name__,
                    sorted(m.name for m in methods.METHODS)],
    "still_fake": sys.modules["llm"] is llm and sys.modules["evals"] is evals,
}))
"""


def _working_tree_files() -> list[str]:
    """Tracked and untracked-but-not-ignored files that exist: what a fresh clone plus local work holds."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    return [name for name in listed if name and (REPO / name).is_file()]


def _copy_tree(target: Path) -> Path:
    for name in _working_tree_files():
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes((REPO / name).read_bytes())
    return target


def _fake_packages(folder: Path) -> Path:
    for name in ("llm", "evals"):
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(f'MARKER = "fake {name}"\n')
    return folder


@dataclass
class Checks:
    """The three running children, and the folders their results are read from."""

    import_all: BackgroundChild
    wheel: BackgroundChild
    side_by_side: BackgroundChild
    dist: Path
    fake: Path

    def stop(self) -> None:
        for child in (self.import_all, self.wheel, self.side_by_side):
            child.stop()


@pytest.fixture(scope="module")
def children(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Checks]:
    tmp = tmp_path_factory.mktemp("namespace")
    outside = tmp / "elsewhere"  # no layer folder here: only the installed names resolve
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    names = [name for name in installed_modules() if name not in ENTRY_SCRIPTS]
    (tmp / "modules.json").write_text(json.dumps(names))
    source = _copy_tree(tmp / "source")
    fake = _fake_packages(tmp / "fake")
    shadowed = {**env, "PYTHONPATH": str(fake)}
    checks = Checks(
        import_all=start_child(
            [sys.executable, "-c", IMPORT_ALL, str(tmp / "modules.json"), json.dumps(LAYERS)],
            tmp / "import_all", env=env, cwd=outside, limit_s=CHILD_LIMIT_S,
        ),
        wheel=start_child(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
             "-w", str(tmp / "dist"), str(source)],
            tmp / "wheel", env=env, cwd=outside, limit_s=CHILD_LIMIT_S,
        ),
        side_by_side=start_child(
            [sys.executable, "-c", SIDE_BY_SIDE], tmp / "side_by_side", env=shadowed, cwd=outside,
            limit_s=CHILD_LIMIT_S,
        ),
        dist=tmp / "dist",
        fake=fake,
    )
    try:
        yield checks
    finally:
        checks.stop()


def test_every_module_imports_under_graphreason_only(children: Checks) -> None:
    entry_scripts = {name for name in installed_modules() if name.endswith(".__main__")}
    assert entry_scripts == ENTRY_SCRIPTS  # a new one must be added there, and run by a test
    child = children.import_all.result()
    assert child.returncode == 0, child.stderr
    report = json.loads(child.stdout.strip().splitlines()[-1])
    assert report["failed"] == {}
    assert report["top_level"] == []
    assert report["imported"] == len(installed_modules()) - len(ENTRY_SCRIPTS) > 200


def test_the_wheel_installs_graphreason_only(children: Checks) -> None:
    child = children.wheel.result()
    assert child.returncode == 0, child.stderr
    wheels = sorted(children.dist.glob("graphreason-*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
    top_level = {name.split("/")[0] for name in names}
    dist_info = {name for name in top_level if name.endswith(".dist-info")}
    assert len(dist_info) == 1 and top_level - dist_info == {PACKAGE}
    packed = set(names)
    for module, path in installed_modules().items():
        installed_path = f"{module.replace('.', '/')}{'/__init__' if path.name == '__init__.py' else ''}.py"
        assert installed_path in packed, f"{module} ({path}) is missing from the wheel"
    # the shipped adapters (Graph-ToolFormer's generator, GraphAgent's agent) travel with the package
    for adapter in ("toolformer-generator", "graphagent-agent"):
        assert f"{PACKAGE}/llm/adapters/{adapter}/adapter_model.safetensors" in packed, adapter
    (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    with zipfile.ZipFile(wheels[0]) as wheel:
        assert "graphreason = graphreason.cli:main" in wheel.read(entry_points).decode()


INSTALLED_PATHS = """
import json, sys
from pathlib import Path
import graphreason
from graphreason.settings import data_root
from graphreason.evals.driver import default_out_dir
print(json.dumps({"package": graphreason.__file__, "data_root": str(data_root()),
                  "runs": str(default_out_dir("gar", "generated"))}))
"""


def test_a_wheel_install_finds_the_data_from_where_it_runs_and_writes_runs_there(children: Checks, tmp_path) -> None:
    """The wheel unpacked as site-packages would hold it (no checkout around it), run from a project folder
    below a ``shared/data``: the data root and the eval run folders are found as in a checkout."""
    child = children.wheel.result()
    assert child.returncode == 0, child.stderr
    (wheel,) = children.dist.glob("graphreason-*.whl")
    site = tmp_path / "site-packages"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    data = tmp_path / "lab" / "shared" / "data"
    data.mkdir(parents=True)
    project = tmp_path / "lab" / "work" / "project"
    project.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GRAPHREASON_DATA_ROOT")}
    run = subprocess.run([sys.executable, "-c", INSTALLED_PATHS], cwd=project, capture_output=True, text=True,
                         env={**env, "PYTHONPATH": str(site)}, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["package"].startswith(str(site))  # the unpacked wheel, not the checkout
    assert found["data_root"] == str(data)
    assert found["runs"] == str(project / "runs" / "gar-generated")


def test_fake_llm_and_evals_packages_and_graphreason_work_side_by_side(children: Checks) -> None:
    child = children.side_by_side.result()
    assert child.returncode == 0, child.stderr
    report = json.loads(child.stdout.strip().splitlines()[-1])
    fake = children.fake
    assert report["llm"] == ["fake llm", str(fake / "llm" / "__init__.py")]
    assert report["evals"] == ["fake evals", str(fake / "evals" / "__init__.py")]
    assert report["still_fake"] is True
    engine_class, no_constraint, driver, methods = report["graphreason"]
    assert (engine_class, no_constraint, driver) == ("LocalChatModel", None, "graphreason.evals.driver")
    assert {"counselor", "gar", "toolformer", "graphagent"} <= set(methods)
    # the CLI, as a command and as `python -m graphreason.cli` (the entry script the import walk leaves out)
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "PYTHONPATH": str(fake)}
    for argv in ([str(Path(sys.executable).parent / "graphreason"), "--version"],
                 [sys.executable, "-m", "graphreason.cli", "--version"]):
        run = subprocess.run(argv, cwd=fake, env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and run.stdout.strip().endswith(VERSION), (argv, run.stdout, run.stderr)
