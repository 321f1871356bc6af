"""graphreason.settings: the one reader of GRAPHREASON_* variables, typed, read at call time, strict."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from graphreason import settings
from graphreason.settings import SETTINGS, Setting, SettingError
from tests.import_tree import REPO, layer_folders

NAMES = {setting.name for setting in SETTINGS}
NAME_PATTERN = re.compile(r"GRAPHREASON_[A-Z][A-Z0-9_]*[A-Z0-9]")
SOURCE_FOLDERS = [REPO / "graphreason", *(REPO / layer for layer in layer_folders()), REPO / "benchmarks"]
# each setting with one value it must refuse
BAD_VALUES = {
    "positive integer": ["lots", "0", "-3", "2.5", "1" * 19],
    "integer >= 0": ["-1", "1.5", "some"],
    "positive number of seconds": ["soon", "0", "-1", "inf", "nan"],
    "flag": ["maybe", "2", "enabled"],
}


def _sources() -> list[Path]:
    return [p for folder in SOURCE_FOLDERS for p in folder.rglob("*.py") if "__pycache__" not in p.parts]


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def test_every_setting_is_declared_once_with_a_description_and_documented() -> None:
    assert len(NAMES) == len(SETTINGS)
    for setting in SETTINGS:
        assert setting.name.startswith("GRAPHREASON_") and setting.type and setting.description
        assert f"``{setting.name}``" in (settings.__doc__ or ""), f"{setting.name} is missing from the docstring"
        assert setting.name in settings.describe()


def test_every_variable_the_code_names_is_declared() -> None:
    """A GRAPHREASON_* name in the code, the README or the docs that settings does not declare is a mistake."""
    texts = [p.read_text() for p in _sources()]
    texts += [(REPO / "README.md").read_text(), *(p.read_text() for p in (REPO / "docs").glob("*.md"))]
    named = {name for text in texts for name in NAME_PATTERN.findall(text)}
    assert named - NAMES - _context_variables() == set()


def _context_variables() -> set[str]:
    """``GRAPHREASON_<METHOD>_<FIELD>`` of every method's context field (the run context reads them)."""
    from dataclasses import fields

    from graphreason.workflows.methods import METHODS
    from graphreason.workflows.run_context import env_name

    return {env_name(method.context, item.name) for method in METHODS for item in fields(method.context)}


def _environment_key(node: ast.AST) -> ast.AST | None:
    """The key of an environment read (``os.environ.get(k)``, ``os.getenv(k)``, ``os.environ[k]``), else None."""
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "getenv":
            return node.args[0]
        if (isinstance(func, ast.Attribute) and func.attr == "get"
                and isinstance(func.value, ast.Attribute) and func.value.attr == "environ"):
            return node.args[0]
    if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Attribute) and node.value.attr == "environ"):
        return node.slice
    return None


def _reads_a_setting(key: ast.AST) -> bool:
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return key.value.startswith("GRAPHREASON_")
    # the project names its variables in *_ENV constants (LENIENT_ENV, MPNET_ENV, ...)
    name = key.id if isinstance(key, ast.Name) else key.attr if isinstance(key, ast.Attribute) else ""
    return name.endswith("_ENV")


def test_no_module_but_settings_reads_a_graphreason_variable() -> None:
    readers = []
    for path in _sources():
        if path == REPO / "graphreason" / "settings.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            key = _environment_key(node)
            if key is not None and _reads_a_setting(key):
                readers.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    assert readers == []


def test_the_scan_finds_the_reads_it_forbids() -> None:
    code = (
        "import os\nos.environ.get('GRAPHREASON_X')\nos.getenv('GRAPHREASON_Y', '1')\n"
        "os.environ['GRAPHREASON_Z']\nos.environ.get(LENIENT_ENV)\nos.environ['GRAPHREASON_W'] = '1'\n"
        "os.environ.get('OPENAI_BASE_URL')\n"
    )
    found = [n for n in ast.walk(ast.parse(code)) if (k := _environment_key(n)) is not None and _reads_a_setting(k)]
    assert len(found) == 4  # the write and the non-project variable are not reads of a setting


def test_unset_or_blank_means_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for setting in SETTINGS:
        assert setting.value() == setting.default
        monkeypatch.setenv(setting.name, "   ")
        assert setting.value() == setting.default
    assert settings.max_nodes() == settings.DEFAULT_MAX_NODES
    assert settings.cache_root() == Path("~/.cache/graphreason").expanduser()
    assert settings.data_root() == (REPO.parent / "shared" / "data").resolve()
    assert (settings.threads(), settings.request_timeout(), settings.max_retries()) == (None, None, None)
    assert settings.lite_encoder() and not settings.lenient_graph() and not settings.debug()
    assert not settings.server_mode() and not settings.trust_clients()
    assert settings.graph_dirs() == [] and settings.served_models() == []


def test_values_are_typed_and_read_at_call_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GRAPHREASON_MAX_NODES", "1_000")
    assert settings.max_nodes() == 1000
    monkeypatch.setenv("GRAPHREASON_MAX_NODES", "12")
    assert settings.max_nodes() == 12  # no caching: a server or a test may change it
    monkeypatch.setenv("GRAPHREASON_THREADS", " 3 ")
    monkeypatch.setenv("GRAPHREASON_TIMEOUT", "7.5")
    monkeypatch.setenv("GRAPHREASON_MAX_RETRIES", "0")
    assert (settings.threads(), settings.request_timeout(), settings.max_retries()) == (3, 7.5, 0)
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(tmp_path / "data" / ".." / "data"))
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    assert settings.data_root() == tmp_path / "data"
    made = settings.cache_dir("models", "x")
    assert made == tmp_path / "cache" / "models" / "x" and made.is_dir()
    monkeypatch.setenv("GRAPHREASON_GRAPH_DIRS", os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path / "b")]))
    assert settings.graph_dirs() == [tmp_path / "a", tmp_path / "b"]
    monkeypatch.setenv("GRAPHREASON_MODELS", "local, openai:gpt-4o-mini,,")
    assert settings.served_models() == ["local", "openai:gpt-4o-mini"]
    for word, expected in (("YES", True), ("on", True), ("1", True), ("False", False), ("off", False), ("0", False)):
        monkeypatch.setenv("GRAPHREASON_LITE_ENCODER", word)
        assert settings.lite_encoder() is expected


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.type in BAD_VALUES], ids=lambda s: s.name)
def test_bad_values_are_refused_naming_the_variable(monkeypatch: pytest.MonkeyPatch, setting: Setting) -> None:
    for bad in BAD_VALUES[setting.type]:
        monkeypatch.setenv(setting.name, bad)
        with pytest.raises(SettingError, match=f"^{setting.name} must be .*, got '{re.escape(bad)}'$"):
            setting.value()
    assert issubclass(SettingError, ValueError)  # callers that catch bad input as ValueError still do


def test_the_cli_reports_a_bad_debug_setting_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from graphreason.cli.main import main

    monkeypatch.chdir(tmp_path)  # no .env file of the checkout is read
    monkeypatch.setenv("GRAPHREASON_DEBUG", "perhaps")
    command = ["compare", "gar", "--out", str(tmp_path / "out"), f"a={tmp_path / 'run'}"]
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.strip() == "graphreason: error: GRAPHREASON_DEBUG must be a flag (1/true/yes/on or 0/false/no/off), got 'perhaps'"
    monkeypatch.setenv("GRAPHREASON_DEBUG", "0")  # off: the command runs and reports its own error
    assert main(command) == 2 and "has no summary.json" in capsys.readouterr().err


def test_set_to_holds_a_value_for_a_block_and_restores_the_previous_state(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with settings.CACHE.set_to(str(tmp_path)):
        assert settings.cache_root() == tmp_path
    assert "GRAPHREASON_CACHE" not in os.environ  # unset before, unset after
    monkeypatch.setenv("GRAPHREASON_MAX_NODES", "50")
    with settings.MAX_NODES.set_to(None):
        assert settings.max_nodes() == settings.DEFAULT_MAX_NODES
    assert settings.max_nodes() == 50
    with pytest.raises(SettingError, match="GRAPHREASON_MAX_NODES must be a positive integer"):
        with settings.MAX_NODES.set_to("many"):
            pass  # not reached: the value is checked before it is set
    assert settings.max_nodes() == 50


def test_a_missing_dataset_names_the_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(tmp_path))
    with pytest.raises(settings.DataMissingError, match="set GRAPHREASON_DATA_ROOT to the folder holding 'cora'"):
        settings.dataset_dir("cora")
    # installed from a wheel, run from a folder with no shared/data above it or above the package
    monkeypatch.delenv("GRAPHREASON_DATA_ROOT")
    monkeypatch.setattr(settings, "REPO_ROOT", tmp_path / "site-packages")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(settings.DataMissingError, match="no shared/data folder is above the package or the current"):
        settings.dataset_dir("cora")
    # ... and from a project folder below one: found there, as a checkout finds its own
    (tmp_path / "shared" / "data" / "cora").mkdir(parents=True)
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    assert settings.dataset_dir("cora") == tmp_path / "shared" / "data" / "cora"
