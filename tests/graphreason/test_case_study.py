"""``graphreason case-study pagerank``: the parser and the handler, on a hand-made Wikispeedia folder.

The handler reads Wikispeedia from the data root, so the tests point
``GRAPHREASON_DATA_ROOT`` at a copy of ``tests/fixtures/wikispeedia_mini``
(URL-encoded names, like the real files); the master is a scripted model.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from graphreason.cli.case_study import add_case_study_parser, cmd_case_study_pagerank
from graphreason.evals.gar.case_study import CaseStudyError

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "wikispeedia_mini"


@pytest.fixture(autouse=True)
def _mini_data_root(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data" / "wikispeedia-web-graph")
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(tmp_path / "data"))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="graphreason")
    add_case_study_parser(top.add_subparsers(dest="command", required=True))
    return top


def scripted(tmp_path: Path, reply: str = "No idea, sorry.") -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps([reply]))
    return f"scripted:{path}"


def namespace(tmp_path: Path, *extra: str) -> argparse.Namespace:
    args = ["case-study", "pagerank", "--model", scripted(tmp_path), "--embedding", "hash", *extra]
    return parser().parse_args(args)


def test_parser_options_and_defaults():
    args = parser().parse_args(["case-study", "pagerank"])
    assert args.handler is cmd_case_study_pagerank
    assert (args.question, args.top_k, args.model, args.embedding) == (None, None, "local", "minilm")
    assert (args.base_url, args.json, args.out) == (None, False, None)
    args = parser().parse_args(
        ["case-study", "pagerank", "--question", "Top 3 pages?", "--top-k", "3", "--base-url", "http://x/v1"]
    )
    assert (args.question, args.top_k, args.base_url) == ("Top 3 pages?", 3, "http://x/v1")


def test_parser_rejects_bad_options(capsys):
    for argv in (["case-study"], ["case-study", "pagerank", "--top-k", "0"], ["case-study", "hits"]):
        with pytest.raises(SystemExit) as exc:
            parser().parse_args(argv)
        assert exc.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_handler_prints_question_answer_table_agreement_and_times(tmp_path, capsys):
    assert cmd_case_study_pagerank(namespace(tmp_path, "--top-k", "3")) == 0
    out = capsys.readouterr().out
    assert out.startswith("Question: Which are the 3 most important pages of this web graph?")
    for label in ("graph:", "candidates:", "choice:", "answer:"):  # the workflow's streamed steps
        assert label in out, label
    answer = next(line for line in out.splitlines() if line.startswith("Answer: "))
    assert answer.startswith("Answer: 1. Paris; 2. France; 3. Louvre.")
    rows = [line.split() for line in out.splitlines() if line.strip()[:2] in ("1 ", "2 ", "3 ")]
    assert [row[:2] for row in rows] == [["1", "Paris"], ["2", "France"], ["3", "Louvre"]]
    assert "agrees: 3/3 pages in common, 3/3 at the same rank" in out
    assert "max |score difference|" in out and "Time: workflow" in out and "1 LLM call(s)" in out


def test_handler_json_and_out_folder(tmp_path, capsys):
    out_dir = tmp_path / "study"
    question = "Which are the top 4 pages of this web graph by PageRank?"
    assert (
        cmd_case_study_pagerank(namespace(tmp_path, "--question", question, "--json", "--out", str(out_dir)))
        == 0
    )
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["question"] == question and result["top_k"] == 4
    assert [p["title"] for p in result["pages"]] == result["reference"]["titles"]
    assert result["agreement"]["same_order"] is True
    assert "case_study.md" in captured.err
    saved = json.loads((out_dir / "case_study.json").read_text(encoding="utf-8"))
    assert saved["reference"] == result["reference"]
    assert "| 4 |" in (out_dir / "case_study.md").read_text(encoding="utf-8")


def test_handler_decodes_titles_for_a_question_without_a_number(tmp_path, capsys):
    args = namespace(
        tmp_path, "--question", "Rank every page of this web graph by importance.", "--top-k", "10"
    )
    assert cmd_case_study_pagerank(args) == 0
    out = capsys.readouterr().out
    assert "Édouard Manet" in out and "Café" in out and "%C3" not in out
    assert "'top_k': 10" in out


def test_handler_bad_input_fails_before_running(tmp_path, capsys):
    with pytest.raises(CaseStudyError, match="asks for 10 pages but top_k is 5"):
        cmd_case_study_pagerank(
            namespace(tmp_path, "--question", "Which are the 10 most important pages?", "--top-k", "5")
        )
    with pytest.raises(CaseStudyError, match="must not be empty"):
        cmd_case_study_pagerank(namespace(tmp_path, "--question", "  "))
    assert capsys.readouterr().out == ""
