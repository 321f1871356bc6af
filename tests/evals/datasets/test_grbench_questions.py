"""GRBench question files: any file in the format, and the shared copies by domain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.evals.datasets.grbench import grbench_domains, load_grbench_questions
from tests.conftest import require_data

ROWS = [
    {"qid": "0", "question": "Who wrote X? ", "answer": "Ann Lee, Bo Chen"},
    {"qid": "11", "question": "How many?", "answer": "4"},
]


def write_jsonl(path: Path, rows: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_any_file_in_the_format(tmp_path: Path) -> None:
    items = load_grbench_questions(write_jsonl(tmp_path / "mine" / "data.json", ROWS), graph="g.json")
    assert [i.qid for i in items] == ["0", "11"]
    assert items[0].question == "Who wrote X?" and items[0].answer == "Ann Lee, Bo Chen"
    assert items[1].meta["template_index"] == 1 and items[1].meta["domain"] == "mine"
    assert all(i.graph == "g.json" and i.level is None for i in items)


def test_folder_with_subfolders_prefixes_qids(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "maple" / "Biology" / "data.json", ROWS)
    write_jsonl(tmp_path / "maple" / "Physics" / "data.json", ROWS[:1])
    items = load_grbench_questions(tmp_path / "maple")
    assert [i.qid for i in items] == ["Biology/0", "Biology/11", "Physics/0"]


def test_list_answers_keep_their_items(tmp_path: Path) -> None:
    items = load_grbench_questions(
        write_jsonl(tmp_path / "d.json", [{"qid": 1, "question": "q", "answer": ["a", "b"]}])
    )
    assert items[0].answers == ["a", "b"] and items[0].answer == '["a", "b"]' and items[0].qid == "1"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"qid": "0", "question": "q", "answer": "a"}\nnot json\n', "line 2: not valid JSON"),
        ('{"qid": "0", "question": "q"}\n', "line 1: expected an object with question and answer"),
        (
            '{"qid": "0", "question": "q", "answer": "a"}\n{"qid": "0", "question": "r", "answer": "b"}\n',
            "repeats",
        ),
    ],
)
def test_bad_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "data.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_grbench_questions(path)


def test_unknown_domain_lists_the_domains() -> None:
    with pytest.raises(FileNotFoundError, match="domains: amazon, biomedical, dblp"):
        load_grbench_questions("webqsp")


def test_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no data.json"):
        load_grbench_questions(tmp_path)


@pytest.mark.data
def test_shared_copies_by_domain() -> None:
    require_data("Graph-CoT-GRBench")
    sizes = {d: len(load_grbench_questions(d)) for d in grbench_domains() if "/" not in d}
    assert sizes == {
        "amazon": 200,
        "biomedical": 270,
        "dblp": 150,
        "goodreads": 240,
        "legal": 180,
        "maple": 700,
    }
    assert sum(sizes.values()) == 1740
    biology = load_grbench_questions("Biology")
    assert biology == load_grbench_questions("maple/Biology") and len(biology) == 140
    assert biology[1].qid == "1" and biology[1].answer.startswith("Brett H. Graham")
    dblp = load_grbench_questions("dblp")
    assert dblp[0].question.startswith("Can you inform me who are the authors of")
    assert dblp[0].answers is None and dblp[-1].meta["template_index"] == 14
