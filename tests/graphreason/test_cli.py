"""The graphreason CLI through ``main([...])``: validation, graph errors, run, eval, serve, demo."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest

from graphreason.cli.main import build_parser, main
from graphreason.cli.serve import free_port, serve_command
from graphreason.evals.datasets.items import QAItem, save_items
from tests.conftest import require_data
from tests.graphreason.conftest import write_script

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mini_academic.json"
QUESTION = "What is the label of the paper Sparse coding of natural images?"




def test_empty_question_is_a_usage_error(capsys):
    assert main(["run", "counselor", "--graph", str(FIXTURE), "--question", "   "]) == 2
    err = capsys.readouterr().err
    assert "--question must not be empty" in err and "Traceback" not in err


def test_bad_option_values_exit_2(capsys):
    assert main(["eval", "counselor", "--concurrency", "0"]) == 2
    assert "must be at least 1" in capsys.readouterr().err
    assert main(["run", "counselor", "--question", "q", "--mode", "turbo"]) == 2


def test_missing_graph_file_reports_the_loader_message(tmp_path: Path, capsys):
    missing = tmp_path / "nowhere" / "graph.json"
    code = main(
        ["run", "counselor", "--graph", str(missing), "--question", "Q?", "--model", "scripted:unused.json"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "graphreason: error:" in err and str(missing) in err and "Traceback" not in err


def test_malformed_graph_file_reports_the_loader_message(tmp_path: Path, capsys):
    broken = tmp_path / "graph.json"
    broken.write_text('{"paper_nodes": {"p1": ')
    code = main(
        ["run", "counselor", "--graph", str(broken), "--question", "Q?", "--model", "scripted:unused.json"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "graph.json" in err and "Traceback" not in err


def test_run_streams_the_trace_then_prints_the_answer(tmp_path: Path, capsys):
    model = write_script(
        tmp_path,
        [
            "Plan 1: find the paper and read its label",
            "Thought 1: I need the label feature",
            "Action 1: Feature[Retrieve[Sparse coding of natural images], label]",
            "Plan 2: answer",
            "Thought 2: the label is Vision",
            "Action 2: Finish[Vision]",
            "The observation shows the label Vision. [yes]",
        ],
    )
    code = main(
        [
            "run",
            "counselor",
            "--graph",
            str(FIXTURE),
            "--question",
            QUESTION,
            "--model",
            model,
            "--embedding",
            "hash",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    order = [
        next(i for i, line in enumerate(lines) if label in line)
        for label in (
            "Plan       :",
            "Thought    :",
            "Action     :",
            "Observation:",
            "Verdict    :",
            "Answer: Vision",
        )
    ]
    assert order == sorted(order)  # plan, thought, action, observation, verdict, then the answer
    assert "The label feature of p2 are: Vision." in out
    assert "7 LLM calls" in out and "Judge accepted: yes" in out


def test_run_json_prints_the_full_output(tmp_path: Path, capsys):
    model = write_script(tmp_path, ["Thought 1: it is Vision", "Action 1: Finish[Vision]"])
    code = main(
        [
            "run",
            "counselor",
            "--graph",
            str(FIXTURE),
            "--question",
            QUESTION,
            "--model",
            model,
            "--embedding",
            "hash",
            "--mode",
            "graph_cot",
            "--json",
        ]
    )
    assert code == 0
    output = json.loads(capsys.readouterr().out)
    assert output["answer"] == "Vision" and output["usage"]["llm_calls"] == 2
    assert output["trials"][0]["steps"][0]["action"] == "Finish[Vision]"


def test_eval_prints_table_and_writes_report(tmp_path: Path, capsys, monkeypatch):
    items = [
        QAItem(
            qid="a", question=QUESTION, answer="Vision", level="easy", template="label", graph=str(FIXTURE)
        ),
        QAItem(
            qid="b",
            question="Who wrote Attention over graph structure?",
            answer="Ada Lovelace, Alan Turing",
            answers=["Ada Lovelace", "Alan Turing"],
            level="medium",
            template="authors",
            graph=str(FIXTURE),
        ),
    ]
    questions = save_items(items, tmp_path / "q.jsonl")
    gold = {it.question: it.answer for it in items}

    def fake_solve(question, context):
        answer = gold[question] if context.mode == "counselor" else "unknown"
        return {
            "answer": answer,
            "first_answer": answer,
            "accepted": True,
            "usage": {"llm_calls": 3},
            "trials": [],
        }

    import graphreason.workflows.counselor

    monkeypatch.setattr(graphreason.workflows.counselor, "solve", fake_solve)
    out_dir = tmp_path / "run"
    code = main(
        [
            "eval",
            "counselor",
            "--path",
            str(questions),
            "--modes",
            "base",
            "counselor",
            "--embedding",
            "hash",
            "--out",
            str(out_dir),
            "--no-progress",
            "--model",
            "scripted:unused.json",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert f"Report  : {out_dir / 'report.md'}" in out and f"Summary : {out_dir / 'summary.json'}" in out
    assert "| counselor | 2 | 0 | 100.0 |" in out and "| base | 2 | 0 |" in out
    summary = json.loads((out_dir / "summary.json").read_text())
    assert (
        summary["modes"]["counselor"]["exact_match"] == 100.0
        and summary["modes"]["base"]["exact_match"] == 0.0
    )


def test_eval_stops_cleanly_when_the_endpoint_is_down(tmp_path: Path, capsys, monkeypatch):
    from graphreason.workflows.models.invoke import ModelUnavailableError

    items = [
        QAItem(qid=q, question=f"{q}?", answer="x", level="easy", template="t", graph=str(FIXTURE))
        for q in "abc"
    ]
    questions = save_items(items, tmp_path / "q.jsonl")

    def solve(question, context):
        if question != "a?":
            raise ModelUnavailableError("model endpoint http://127.0.0.1:9/v1 unreachable after 3 attempts")
        return {"answer": "x", "usage": {"llm_calls": 1}}

    import graphreason.workflows.counselor

    monkeypatch.setattr(graphreason.workflows.counselor, "solve", solve)
    out_dir = tmp_path / "run"
    code = main(
        [
            "eval",
            "counselor",
            "--path",
            str(questions),
            "--modes",
            "base",
            "--out",
            str(out_dir),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 3  # a model endpoint failure, not bad input (2)
    assert "model unavailable" in err and "unreachable" in err and "Rerun the same command" in err
    records = [json.loads(line) for line in (out_dir / "records.jsonl").read_text().splitlines()]
    assert [(r["qid"], r["status"]) for r in records] == [("a", "ok")]


def test_eval_grbench_without_graph_is_a_clear_error(capsys):
    assert main(["eval", "counselor", "--dataset", "grbench", "--path", "amazon"]) == 2
    err = capsys.readouterr().err
    assert "not available offline" in err and "--graph PATH/graph.json" in err


def test_serve_refuses_a_busy_port(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"port {port}" in capsys.readouterr().err


def test_serve_command_line(tmp_path: Path):
    port = free_port()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))  # really free
    cmd = serve_command(port, tmp_path / "langgraph.json", reload=False)
    assert Path(cmd[0]).name == "langgraph"
    assert cmd[1:] == [
        "dev",
        "--no-browser",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--config",
        str(tmp_path / "langgraph.json"),
        "--no-reload",
    ]


@pytest.mark.data
def test_demo_shows_gar_the_reference_plan_and_a_model_attempt_beside_gold(tmp_path: Path, capsys):
    require_data("cora-citeseer-text")
    # the model question gets a one-step scripted answer; GAR's master finds no usable choice in it
    model = write_script(
        tmp_path, ["Plan 1: answer now", "Thought 1: guess", "Action 1: Finish[Neural_Networks]"]
    )
    assert main(["demo", "--model", model]) == 0
    out = capsys.readouterr().out
    # GAR first: both problems answered exactly by the vertex engine
    assert out.count("=== [") >= 3 and out.count("Graph problem") == 2
    assert "Answer: No." in out and "Answer: 7." in out
    assert out.index("Graph problem 1/2") < out.index("Graph Counselor on 'cora'")
    # the reference plan reaches its gold through the real tools; the model's answer is shown beside its gold
    assert "Reference plan, no LLM" in out
    verdicts = [line.rsplit("[", 1)[-1] for line in out.splitlines() if line.startswith("Gold  : ")]
    assert verdicts == ["right]", "wrong]"]
    assert "Answer: Neural_Networks" in out
    # the small-model notice is for the embedded model only
    assert "too small" not in out
    # GraphAgent last: the reference policy runs the real loop and answers beside the gold; the model tries once
    part = out[out.index("GraphAgent on Cora paper") :]
    assert part.count("command: ") >= 2 and "The model's own attempt" in part
    answers = [line for line in part.splitlines() if line.startswith("Answer: ")]
    assert len(answers) == 2 and "ended by: " in answers[1]


def test_demo_help_shows_the_defaults_the_demo_really_uses(capsys):
    assert main(["demo", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for option, default in (("--max-steps MAX_STEPS", "3"), ("--max-reflections MAX_REFLECTIONS", "0"),
                            ("--embedding EMBEDDING", "hash")):
        assert re.search(re.escape(option) + r" (?:(?! --).)*?\(default: " + default + r"\)", text), option
    assert all(part in text for part in ("GraphAgent-Reasoner", "Graph Counselor", "Graph-ToolFormer", "GraphAgent"))
    assert "a few minutes" not in text
    args = build_parser().parse_args(["demo"])
    assert (args.max_steps, args.max_reflections, args.embedding_model) == (3, 0, "hash")


def test_the_embedded_counselor_says_what_to_expect_and_its_budget() -> None:
    from graphreason.cli.methods.counselor import embedded_note
    from graphreason.workflows.counselor.context import CounselorContext

    tuned = embedded_note(CounselorContext())  # the tuned reasoner by default
    assert "tuned reasoner (local:smollm2-135m-counselor" in tuned and "--no-tuned-reasoner" in tuned
    assert "expect wrong answers too" in tuned and "--model openai:MODEL" in tuned
    assert "bounded to 3 step(s) and 0 reflection(s)." in tuned and " s on 2 CPU cores" not in tuned  # no stale figure
    note = embedded_note(CounselorContext(tuned_reasoner=False))
    assert "not tuned for Graph Counselor" in note and "under the call grammar" in note
    assert "expect a wrong answer" in note and "--no-grammar" in note
    assert "bounded to 3 step(s) and 0 reflection(s)." in note and "--model openai:MODEL" in note
    assert "bounded to 5 step(s) and 1 reflection(s)" in embedded_note(CounselorContext(max_steps=5, max_reflections=1, tuned_reasoner=False))
    free = embedded_note(CounselorContext(grammar=False, tuned_reasoner=False))
    assert "Without the call grammar" in free and "expect no answer" in free
    assert embedded_note(CounselorContext(reasoner_model="openai:gpt-4o-mini")) == ""



def test_eval_reads_a_renamed_copy_by_name_written_under_the_cache(tmp_path: Path, capsys, monkeypatch):
    """``--graph last-fm-items``: the evaluation copy is written under the cache and its questions asked over it."""
    from graphreason.evals.datasets import renamed_graphs
    from tests.evals.datasets.test_renamed_graphs import _tiny_lastfm

    real = renamed_graphs.renamed_store
    monkeypatch.setattr(renamed_graphs, "renamed_store", lambda name: real(name, _tiny_lastfm()))
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    asked = []

    def fake_solve(question, context):
        asked.append((question, context.graph))
        return {"answer": "0", "first_answer": "0", "accepted": True, "usage": {"llm_calls": 1}, "trials": []}

    import graphreason.workflows.counselor

    monkeypatch.setattr(graphreason.workflows.counselor, "solve", fake_solve)
    args = ["eval", "counselor", "--dataset", "programs", "--graph", "last-fm-items", "--n-per-template", "1",
            "--modes", "counselor", "--embedding", "hash", "--out", str(tmp_path / "run"), "--no-progress",
            "--model", "scripted:unused.json"]  # fmt: skip
    assert main(args) == 0
    copy = tmp_path / "cache" / "renamed-graphs" / "last-fm" / "last-fm-items" / "graph.json"
    assert copy.is_file() and asked and {graph for _, graph in asked} == {str(copy)}
    assert any(word in question for question, _ in asked for word in ("liked by", "follow", "tagged"))  # its relations
