"""run_counselor_eval with a fake solve function: datasets, modes, resume, report files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.evals.counselor.evaluate import (
    EvalConfigError,
    load_eval_items,
    run_counselor_eval,
    take_balanced,
)
from graphreason.evals.datasets.items import QAItem, save_items

ITEMS = [
    QAItem(
        qid="c1",
        question="What is the label of paper A?",
        answer="Vision",
        level="easy",
        template="label",
        graph="g",
    ),
    QAItem(
        qid="c2",
        question="Which papers cite A?",
        answer="B, C",
        answers=["B", "C"],
        level="medium",
        template="citers",
        graph="g",
    ),
    QAItem(
        qid="c3", question="How many papers cite A?", answer="2", level="medium", template="count", graph="g"
    ),
]
GOLD = {it.question: it.answer for it in ITEMS}


def fake_solve(question: str, context) -> dict:
    """Counselor-like modes answer right (list reversed), base guesses wrong."""
    gold = GOLD[question]
    answer = "no idea" if context.mode == "base" else ", ".join(reversed(gold.split(", ")))
    calls = {"base": 1, "graph_cot": 4, "no_reflection": 6, "counselor": 7}[context.mode]
    return {
        "answer": answer,
        "first_answer": answer,
        "accepted": context.mode == "counselor",
        "usage": {"llm_calls": calls, "input_tokens": 50 * calls, "output_tokens": 5 * calls},
        "trials": [{"steps": [], "answer": answer, "verdict": None}],
        "reflections": [],
    }


@pytest.fixture()
def qa_file(tmp_path: Path) -> Path:
    return save_items(ITEMS, tmp_path / "questions.jsonl")


def test_eval_on_a_qaitem_file_compares_modes(tmp_path: Path, qa_file: Path):
    seen_contexts = []

    def solve(question, context):
        seen_contexts.append(context)
        return fake_solve(question, context)

    result = run_counselor_eval(
        dataset=None,
        path=qa_file,
        out_dir=tmp_path / "run",
        reasoner_model="scripted:x.json",
        graph="mini.json",
        solve=solve,
        progress=False,
        max_steps=4,
    )
    modes = result.summary["modes"]
    assert list(modes) == ["base", "graph_cot", "no_reflection", "counselor"]
    assert modes["counselor"]["exact_match"] == 100.0 and modes["base"]["exact_match"] == 0.0
    assert modes["graph_cot"]["llm_calls"] == 4.0 and modes["counselor"]["n"] == 3
    assert result.summary["by_level"]["counselor"]["medium"]["n"] == 2
    assert {c.mode for c in seen_contexts} == {"base", "graph_cot", "no_reflection", "counselor"}
    assert all(
        c.graph == "mini.json" and c.max_steps == 4 and c.model_of("judge") == "scripted:x.json"
        for c in seen_contexts
    )
    assert (
        len(seen_contexts) == 12 and len({id(c) for c in seen_contexts}) == 12
    )  # a fresh context per question
    for path in (result.paths.report, result.paths.summary, result.paths.plot, result.records_path):
        assert path.exists() and path.stat().st_size > 0
    assert len(result.records_path.read_text().splitlines()) == 12


def test_rerun_resumes_and_only_runs_missing_pairs(tmp_path: Path, qa_file: Path):
    out = tmp_path / "run"
    run_counselor_eval(
        dataset=None, path=qa_file, modes=["base"], out_dir=out, solve=fake_solve, progress=False
    )
    calls = []

    def counting(question, context):
        calls.append((context.mode, question))
        return fake_solve(question, context)

    result = run_counselor_eval(
        dataset=None, path=qa_file, modes=["base", "counselor"], out_dir=out, solve=counting, progress=False
    )
    assert {m for m, _ in calls} == {"counselor"} and len(calls) == 3
    assert result.summary["modes"]["base"]["n"] == 3 and result.summary["modes"]["counselor"]["n"] == 3


def test_items_keep_their_own_graph_without_override(tmp_path: Path, qa_file: Path):
    graphs = set()
    run_counselor_eval(
        dataset=None,
        path=qa_file,
        modes=["graph_cot"],
        out_dir=tmp_path / "r",
        solve=lambda q, c: graphs.add(c.graph) or fake_solve(q, c),
        progress=False,
    )
    assert graphs == {"g"}


def test_grbench_format_file_and_metric_judge(tmp_path: Path):
    questions = tmp_path / "amazon" / "data.json"
    questions.parent.mkdir()
    questions.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"qid": "0", "question": "What is the label of paper A?", "answer": "Vision"},
                {"qid": "1", "question": "How many papers cite A?", "answer": "2"},
            ]
        )
        + "\n"
    )
    judge_script = tmp_path / "judge.json"
    judge_script.write_text(json.dumps(["yes", "[no]"]))
    result = run_counselor_eval(
        dataset=None,
        path=questions,
        graph="g",
        modes=["counselor"],
        out_dir=tmp_path / "run",
        solve=fake_solve,
        metric_judge_model=f"scripted:{judge_script}",
        progress=False,
    )
    row = result.summary["modes"]["counselor"]
    assert row["n"] == 2 and row["exact_match"] == 100.0
    assert row["judge"] == 50.0 and row["judge_n"] == 2  # the metric judge's verdicts, not EM


def test_grbench_without_a_graph_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(EvalConfigError, match="not available offline.*--graph PATH/graph.json"):
        load_eval_items("grbench", path="amazon")
    with pytest.raises(EvalConfigError, match="is not a file"):
        load_eval_items("grbench", graph=str(tmp_path / "missing" / "graph.json"))
    graph = tmp_path / "mystery" / "graph.json"
    graph.parent.mkdir()
    graph.write_text("{}")
    with pytest.raises(EvalConfigError, match="pass --path DOMAIN_OR_FILE"):
        load_eval_items("grbench", graph=str(graph))


def test_bad_options_are_rejected(tmp_path: Path, qa_file: Path):
    with pytest.raises(EvalConfigError, match="unknown dataset"):
        load_eval_items("webqsp")
    with pytest.raises(EvalConfigError, match="does not exist"):
        load_eval_items(None, path=tmp_path / "nope.jsonl")
    with pytest.raises(EvalConfigError, match="unknown mode"):
        run_counselor_eval(
            dataset=None, path=qa_file, modes=["turbo"], out_dir=tmp_path, solve=fake_solve, progress=False
        )


def test_take_balanced_covers_every_template_first():
    items = [
        QAItem(qid=f"{t}{i}", question="q", answer="a", level="easy", template=t)
        for t in "xyz"
        for i in range(3)
    ]
    assert [it.qid for it in take_balanced(items, 4)] == ["x0", "y0", "z0", "x1"]
    assert len(take_balanced(items, None)) == 9 and len(take_balanced(items, 100)) == 9


def _plain_questions(tmp_path: Path, n: int) -> Path:
    """A GRBench-format file: no level, template or graph fields."""
    path = tmp_path / "held_out" / "questions.jsonl"
    path.parent.mkdir(exist_ok=True)
    rows = [{"qid": str(i), "question": f"Question {i}?", "answer": str(i)} for i in range(n)]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_a_question_file_without_graph_needs_graph(tmp_path: Path):
    path = _plain_questions(tmp_path, 3)
    with pytest.raises(EvalConfigError, match="do not name their graph.*--graph"):
        run_counselor_eval(dataset=None, path=path, modes=["base"], out_dir=tmp_path / "r", solve=fake_solve)
    graphs: set[str] = set()
    result = run_counselor_eval(
        dataset=None,
        path=path,
        graph="g.json",
        modes=["base"],
        out_dir=tmp_path / "run",
        solve=lambda q, c: graphs.add(c.graph) or fake_solve(q, c),
        progress=False,
    )
    assert graphs == {"g.json"} and {r["graph"] for r in result.records} == {"g.json"}


def test_limit_without_groups_is_a_seeded_sample_across_the_file(tmp_path: Path):
    items = [{"qid": str(i), "question": "q", "answer": "a"} for i in range(100)]
    first = [it["qid"] for it in take_balanced(items, 10, seed=0)]
    assert first == [it["qid"] for it in take_balanced(items, 10, seed=0)]  # deterministic
    assert first != [str(i) for i in range(10)] and max(map(int, first)) >= 50  # not just the head
    assert first == sorted(first, key=int)  # file order kept
    assert first != [it["qid"] for it in take_balanced(items, 10, seed=1)]


def test_program_questions_are_a_dataset_over_any_graph_file(tmp_path: Path):
    from graphreason.tools.core.loaders import save_graph_json
    from tests.evals.datasets.test_program_questions import _shop

    path = save_graph_json(_shop(), tmp_path / "shop.json")
    items = load_eval_items("programs", graph=str(path), n_per_template=2, seed=1)
    shapes = {item.template for item in items}
    assert len(shapes) >= 10 and all(shape.startswith("program:") for shape in shapes)
    assert {item.graph for item in items} == {str(path)}  # what the agent loads again
    assert items == load_eval_items("programs", graph=str(path), n_per_template=2, seed=1)  # seeded
    sample = take_balanced(items, 14, seed=0)
    assert len({item.template for item in sample}) == len(sample)  # a small limit spreads over the shapes


def test_program_questions_keep_to_the_chosen_wording_families(tmp_path: Path):
    from graphreason.tools.core.loaders import save_graph_json
    from tests.evals.datasets.test_program_questions import _shop

    path = save_graph_json(_shop(), tmp_path / "shop.json")
    terse = load_eval_items("programs", graph=str(path), n_per_template=2, seed=1, families=["terse"])
    assert terse and {item.meta["family"] for item in terse} == {"terse"}
    everything = load_eval_items("programs", graph=str(path), n_per_template=2, seed=1)
    assert len({item.meta["family"] for item in everything}) > 1
    with pytest.raises(EvalConfigError, match="unknown wording family 'shouty'"):
        load_eval_items("programs", graph=str(path), families=["shouty"])
    with pytest.raises(EvalConfigError, match="--dataset programs"):
        load_eval_items("generated", graph="cora", families=["terse"])


def test_program_questions_keep_to_the_chosen_shapes(tmp_path: Path):
    from graphreason.tools.core.loaders import save_graph_json
    from tests.evals.datasets.test_program_questions import _shop

    path = save_graph_json(_shop(), tmp_path / "shop.json")
    kept = load_eval_items("programs", graph=str(path), n_per_template=3, seed=1, shapes=["filter_names", "count"])
    assert len(kept) == 6 and {item.meta["shape"] for item in kept} == {"filter_names", "count"}
    everything = load_eval_items("programs", graph=str(path), n_per_template=3, seed=1)
    # a shape's questions are its own draws: the same whichever other shapes are asked
    assert [it.question for it in kept if it.meta["shape"] == "count"] == [
        it.question for it in everything if it.meta["shape"] == "count"]  # fmt: skip
    with pytest.raises(EvalConfigError, match="unknown shape"):
        load_eval_items("programs", graph=str(path), shapes=["triangles"])
    # the ties are asked only when named, each every tied node's answer
    tied = load_eval_items("programs", graph=str(path), n_per_template=2, seed=1, shapes=["most_tied", "fewest_tied"])
    assert tied and {item.meta["shape"] for item in tied} <= {"most_tied", "fewest_tied"}
    assert all(len(item.answers or ()) >= 2 for item in tied)
    assert not any(item.meta["shape"].endswith("_tied") for item in everything)
    with pytest.raises(EvalConfigError, match="--dataset programs"):
        load_eval_items("generated", graph="cora", shapes=["count"])


def test_bare_names_word_question_programs_only(tmp_path: Path):
    from graphreason.tools.core.loaders import save_graph_json
    from tests.evals.datasets.test_program_questions import _shop

    path = save_graph_json(_shop(), tmp_path / "shop.json")
    bare = load_eval_items("programs", graph=str(path), n_per_template=2, seed=1, bare_names=True)
    assert bare and not any('"' in item.question for item in bare)
    with pytest.raises(EvalConfigError, match="--dataset programs"):
        load_eval_items("generated", graph="cora", bare_names=True)
