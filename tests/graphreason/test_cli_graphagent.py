"""``graphreason run graphagent``, ``eval graphagent`` and ``train graphagent`` through ``main([...])``.

The runs use the workflow tests' tiny provided dataset (``tests.workflows.graphagent.fixtures``:
test nodes 107 and 108, training nodes 101-103) and scripted models.
"""

from __future__ import annotations

import json

import pytest

from graphreason.cli.main import build_parser, main
from graphreason.memory.experience import episode_key
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.experience import episode_history, experience_memory
from graphreason.workflows.graphagent.resources import forget_stores
from tests.graphreason.conftest import write_script
from tests.workflows.graphagent.fixtures import install, reply

# get_features, its summary, then the answer: the same script replays for every node (a fresh context each)
SCRIPT = [
    reply("get_features", {"node_id": "107"}, text="read the paper first"),
    "The paper trains neural networks.",
    reply("answer", {"label": "Neural Networks", "reason": "it is about training networks"}),
]


@pytest.fixture(autouse=True)
def _tiny() -> None:
    install()


def _model(tmp_path) -> str:
    return write_script(tmp_path, SCRIPT)


def test_run_streams_commands_and_observations_then_the_answer(tmp_path, capsys) -> None:
    code = main(["run", "graphagent", "--dataset", "tiny", "--node", "107", "--embedding", "hash",
                 "--no-long-term", "--model", _model(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "Node 107 of tiny" in out and "read the paper first" in out
    assert "command: get_features" in out and "observation:" in out and "summary:" in out
    assert "Answer : Neural Networks" in out and "(gold: Neural Networks, right)" in out
    assert "Graph model: Neural Networks" in out and "Ended by: answer" in out


def test_run_json_prints_the_output(tmp_path, capsys) -> None:
    code = main(["run", "graphagent", "--dataset", "tiny", "--node", "paper#107", "--embedding", "hash",
                 "--no-long-term", "--no-graph-tool", "--json", "--model", _model(tmp_path)])
    assert code == 0
    output = json.loads(capsys.readouterr().out)
    assert output["answer"] == "Neural Networks" and output["tool_prediction"] is None
    assert output["usage"]["llm_calls"] == 3


def test_eval_writes_the_report_and_resumes(tmp_path, capsys) -> None:
    argv = ["eval", "graphagent", "--dataset", "tiny", "--variants", "tool,faithful,graph_model,no_features",
            "--embedding", "hash", "--no-long-term", "--model", _model(tmp_path), "--out", str(tmp_path / "run"),
            "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "| tool | 2 | 0 | 50.0 |" in out and "| graph_model | 2 | 0 | 50.0 |" in out
    assert "tool vs graph_model on the same 2 nodes: +0.00 points" in out
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["variants"]["no_features"]["reference"] == "faithful"
    assert summary["tool_changes"]["tool"]["nodes"] == 2
    assert (tmp_path / "run" / "report.md").exists() and (tmp_path / "run" / "accuracy.png").exists()
    lines = (tmp_path / "run" / "records.jsonl").read_text().splitlines()
    assert len(lines) == 8
    assert main(argv) == 0  # a rerun answers nothing again
    assert len((tmp_path / "run" / "records.jsonl").read_text().splitlines()) == 8


def test_train_collects_episodes_into_a_sqlite_store(tmp_path, capsys) -> None:
    store = tmp_path / "experience.sqlite"
    argv = ["train", "graphagent", "--dataset", "tiny", "--embedding", "hash", "--model", _model(tmp_path),
            "--no-progress", "--limit", "2", "--experience-path", str(store)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "2 episode(s) added" in out and f"Experience store: {store}" in out and store.exists()
    assert main(argv) == 0
    assert "0 episode(s) added, 2 already stored" in capsys.readouterr().out


def test_train_never_counts_the_fallback_as_the_agents_success(tmp_path, capsys) -> None:
    """Every reply unusable: the fallback labels both nodes, so the agent answered 0 and was right in 0."""
    store = tmp_path / "experience.sqlite"
    model = write_script(tmp_path, ["I think it is a nice paper."] * 20, name="garbage.json")
    argv = ["train", "graphagent", "--dataset", "tiny", "--embedding", "hash", "--model", model,
            "--no-progress", "--limit", "2", "--experience-path", str(store), "--max-bad-replies", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "The agent answered 0 of 2 and was right in 0 (0.0%)" in out and "100.0%" not in out
    assert "How the runs ended: errors 2" in out
    forget_stores()  # the episodes as a later run reads them back from the file
    memory = experience_memory(GraphAgentContext(dataset="tiny", embedding_model="hash"), "tiny", str(store))
    episodes = [memory.get(episode_key("tiny", node)) for node in ("101", "102")]
    assert all(episodes) and not any(e.success for e in episodes)
    assert all(e.ended_by == "errors" and "the fallback chose" in episode_history(e) for e in episodes)


def test_train_defaults_to_a_store_in_the_cache_folder(tmp_path, capsys) -> None:
    argv = ["train", "graphagent", "--dataset", "tiny", "--embedding", "hash", "--model", _model(tmp_path),
            "--no-progress", "--limit", "1", "--json"]
    assert main(argv) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["added"] == 1 and stats["store"].endswith("experience-tiny-public.sqlite")
    assert str(tmp_path / "cache") in stats["store"]  # GRAPHREASON_CACHE of the CLI tests


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["run", "graphagent", "--dataset", "tiny", "--node", "999"], "no node '999'"),
        (["run", "graphagent", "--dataset", "tiny", "--node", "  "], "--node must not be empty"),
        (["run", "graphagent", "--dataset", "nowhere", "--node", "1"], "nowhere"),
        (["run", "graphagent", "--dataset", "tiny", "--node", "107", "--max-steps", "0"], "max_steps"),
        (["eval", "graphagent", "--dataset", "tiny", "--variants", "tool,turbo"], "unknown variant part"),
        (["eval", "graphagent", "--dataset", "tiny", "--part", "dev"], "invalid choice"),
        (["eval", "graphagent", "--dataset", "tiny", "--limit", "0"], "must be at least 1"),
    ],
)
def test_bad_input_exits_2_with_a_message(argv, words, capsys) -> None:
    assert main([*argv, "--embedding", "hash"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_options_come_from_the_context() -> None:
    parser = build_parser()
    args = parser.parse_args(["eval", "graphagent", "--no-graph-tool", "--max-steps", "4", "--path", "/x",
                              "--variants", "ablations", "--limit", "5"])
    assert (args.graph_tool, args.max_steps, args.data_path, args.variants, args.limit) == (False, 4, "/x",
                                                                                           "ablations", 5)
    assert args.agent_model is None and args.part == "test"  # unset: the context's own defaults apply
    args = parser.parse_args(["train", "graphagent", "--limit", "3", "--model", "local"])
    assert (args.target, args.limit, args.agent_model) == ("graphagent", 3, "local")
