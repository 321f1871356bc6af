"""The method registry drives the CLI and the server config; a new method is its own package plus one line.

The echo method (tests/fixtures/echo_method) is added to
``graphreason.workflows.methods.METHODS`` the way its one registry line would add
it, and nothing else is edited: the CLI, the langgraph.json check and the
server-trust check must all pick it up.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphreason.cli.main import build_parser, main
from graphreason.cli.studio import (
    check_langgraph_json,
    graph_problems,
    graphs_in_config,
    langgraph_graphs,
)
from graphreason.tools.core.policy import PolicyError
from graphreason.workflows import methods as registry
from graphreason.workflows.methods import METHODS
from graphreason.workflows.run_context import setting
from tests.fixtures.echo_method import METHOD as ECHO
from tests.fixtures.echo_method import EchoContext
from tests.security_cases import assert_refuses_hostile_clients

REPO = Path(__file__).resolve().parents[2]
LANGGRAPH_JSON = REPO / "langgraph.json"
GAR_QUESTION = (
    "Determine whether two nodes are connected in an undirected graph. Q: The nodes are numbered from 0 "
    "to 3, and the edges are: (0,1) (2,3). Is there a path between node 0 and node 3?"
)


@pytest.fixture
def with_echo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with the echo method appended: what ``METHODS = (..., ECHO)`` would do."""
    monkeypatch.setattr(registry, "METHODS", (*METHODS, ECHO))


def _json_tail(text: str) -> dict:
    """The JSON object printed last (after the event lines)."""
    return json.loads(text[text.index("\n{") + 1 :] if not text.startswith("{") else text)


# ------------------------------------------------------------------ the repository's own methods


def test_langgraph_json_lists_exactly_the_registered_methods() -> None:
    graphs = graphs_in_config(LANGGRAPH_JSON)
    problems = graph_problems(graphs, METHODS)
    assert not problems, "\n".join(problems)
    assert graphs == langgraph_graphs(METHODS)


def _run_choices() -> list[str]:
    parser = build_parser()
    run = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices["run"]
    methods = next(a for a in run._subparsers._group_actions if a.dest == "method")
    assert methods.metavar == "{" + ",".join(methods.choices) + "}"
    return list(methods.choices)


def _check_cli_hooks(method) -> None:
    """A method's CLI module is optional; one that exists must define its run command."""
    assert method.cli_module == method.cli or method.cli_module == f"graphreason.cli.methods.{method.name}"
    if importlib.util.find_spec(method.cli_module) is not None:
        assert callable(getattr(importlib.import_module(method.cli_module), "add_run_parser", None))


def test_every_registered_method_has_a_run_command_and_its_cli_hooks_if_any() -> None:
    assert _run_choices() == [m.name for m in METHODS]
    for method in METHODS:
        _check_cli_hooks(method)


def test_a_new_method_without_a_cli_module_passes_the_cli_check(with_echo: None) -> None:
    assert _run_choices()[-1] == "echo"
    _check_cli_hooks(ECHO)
    assert importlib.util.find_spec(ECHO.cli_module) is None  # the generic run drives it


def test_help_and_version_do_not_import_the_method_registry() -> None:
    """Nor langgraph: the demo's settings (Counselor's context) are only built for ``demo`` (2.7 s -> 0.2 s)."""
    probe = (
        "import sys\n"
        "from graphreason.cli.main import main\n"
        "for argv in (['--help'], ['--version']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('LOADED', 'graphreason.workflows.methods' in sys.modules, file=sys.stderr)\n"
        "print('LANGGRAPH', 'langgraph' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert "LOADED False" in done.stderr and "LANGGRAPH False" in done.stderr, done.stderr[-2000:]
    assert "usage: graphreason" in done.stdout and "graphreason " in done.stdout


def test_a_registered_method_without_hooks_gets_the_generic_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GAR as if it had no CLI module: its input fields and context settings still make `run gar`
    no_hooks = "graphreason.cli.methods.none_here"  # a CLI module that does not exist
    monkeypatch.setattr(registry, "METHODS", tuple(dataclasses.replace(m, cli=no_hooks) for m in METHODS))
    args = build_parser().parse_args(["run", "gar", "--question", "q", "--graph", '{"edges": [[0, 1]]}'])
    assert args.input__graph == {"edges": [[0, 1]]} and args.master_model is None
    args = build_parser().parse_args(["run", "graphagent", "--node", "7", "--labels", "a", "b", "--no-graph-tool"])
    assert (args.input__node, args.input__labels, args.graph_tool) == ("7", ["a", "b"], False)
    assert build_parser().parse_args(["run", "toolformer", "--text", "t", "--has-calls"]).input__has_calls

    master = tmp_path / "master.json"
    master.write_text(json.dumps(['{"algorithm": "connectivity"}']))
    code = main(["run", "gar", "--question", GAR_QUESTION, "--model", f"scripted:{master}", "--embedding", "hash"])
    out = capsys.readouterr().out
    assert code == 0
    output = _json_tail(out)
    assert output["algorithm"] == "connectivity"
    assert "started" not in output  # only the graph's declared output fields


# ------------------------------------------------------------------ a new method: one registry line


def test_a_new_method_gets_run_help_with_its_input_and_context_options(
    with_echo: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "echo", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--text TEXT" in text and "The text to echo back" in text
    assert "--repeat REPEAT" in text and "(default: 2)" in text  # its own context setting
    for shared in ("--temperature", "--embedding", "--timeout", "--max-retries"):  # RunContext's and the requests'
        assert shared in text
    assert main(["run", "--help"]) == 0
    assert "echo" in capsys.readouterr().out


def test_a_new_method_runs_from_the_cli(with_echo: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "echo", "--text", " hello ", "--repeat", "3", "--embedding", "hash"]) == 0
    out = capsys.readouterr().out
    assert "echo: repeating 'hello' 3 time(s)" in out  # its stream event, as it happened
    assert _json_tail(out) == {"echo": "hello hello hello", "count": 3}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "the following arguments are required: --text"),
        (["--text", "   "], "text must not be empty"),
        (["--text", "hi", "--repeat", "0"], "repeat must be in 1..10"),
        (["--text", "hi", "--repeat", "two"], "invalid int value"),
    ],
)
def test_a_new_method_refuses_bad_input_with_exit_code_2(
    with_echo: None, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(["run", "echo", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_new_method_is_derived_into_langgraph_json_and_missing_from_the_repo_file(with_echo: None) -> None:
    graphs = langgraph_graphs(registry.METHODS)
    assert graphs["echo"] == {
        "path": "./tests/fixtures/echo_method/graph.py:graph",
        "description": ECHO.description,
    }
    problems = graph_problems(graphs_in_config(LANGGRAPH_JSON), registry.METHODS)
    assert len(problems) == 1 and "lacks the graph 'echo'" in problems[0]
    assert '"echo": {"path": "./tests/fixtures/echo_method/graph.py:graph"' in problems[0]  # the line to add
    with pytest.raises(ValueError, match="does not match the method registry"):
        check_langgraph_json(LANGGRAPH_JSON, registry.METHODS)


def test_langgraph_json_check_names_stale_and_changed_graphs(tmp_path: Path) -> None:
    graphs = langgraph_graphs(METHODS)
    first = next(iter(graphs))
    graphs[first] = {**graphs[first], "path": "./elsewhere.py:graph"}
    graphs["gone"] = {"path": "./gone.py:graph", "description": "removed"}
    config = tmp_path / "langgraph.json"
    config.write_text(json.dumps({"graphs": graphs}))
    problems = graph_problems(graphs_in_config(config), METHODS)
    assert any(f"graph {first!r} differs" in p for p in problems)
    assert any("'gone', which no method" in p for p in problems)
    with pytest.raises(ValueError, match="two methods share the graph id"):
        langgraph_graphs((ECHO, ECHO))
    config.write_text("{not json")
    with pytest.raises(ValueError, match="is not JSON"):
        graphs_in_config(config)


def test_a_new_method_context_follows_the_server_trust_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHREASON_TRUST_CLIENTS", raising=False)
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")  # a server process: contexts come from clients
    assert EchoContext(repeat=3, embedding_model="hash").repeat == 3  # a plain request is accepted
    with pytest.raises(PolicyError, match="base_url"):
        EchoContext(base_url="http://attacker.example/v1")
    with pytest.raises(PolicyError, match="embedding_model"):
        EchoContext(embedding_model="/etc")
    monkeypatch.delenv("GRAPHREASON_SERVER")
    assert EchoContext(base_url="http://127.0.0.1:9/v1").base_url  # the CLI and Python are trusted


def test_the_server_trust_check_covers_every_registered_context(with_echo: None) -> None:
    contexts = [method.context for method in registry.METHODS]
    assert EchoContext in contexts
    assert_refuses_hostile_clients(EchoContext)  # the shared hostile-client cases accept it


def test_the_server_trust_check_refuses_a_context_field_that_names_a_file_undeclared() -> None:
    @dataclasses.dataclass(kw_only=True)
    class LeakyEchoContext(EchoContext):
        output_path: str = setting("echo.txt", "Where the echo is written.")  # a path, but typed plain str

    with pytest.raises(AssertionError, match="output_path"):
        assert_refuses_hostile_clients(LeakyEchoContext)
