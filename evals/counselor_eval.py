"""Evaluate Graph Counselor and its baselines on one question set.

Modes compared on the same model: ``base`` (LLM only, no graph), ``graph_cot``
(thought/action baseline), ``no_reflection`` and ``counselor`` (full). Records
go to ``<out>/records.jsonl`` (resumable, see :mod:`evals.runner`); the report,
plot and ``summary.json`` are written beside it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from evals.report import ReportPaths, write_report
from evals.runner import default_scores, gold_of, item_field, load_records, run_items
from tools.config import REPO_ROOT
from tools.jsonl import read_jsonl
from workflows.counselor.context import MODES, CounselorContext
from workflows.run_context import with_settings

DATASETS = ("generated", "grbench")
SolveFn = Callable[[str, CounselorContext], dict[str, Any]]


class EvalConfigError(ValueError):
    """The dataset, graph or options of an eval run do not fit together."""


@dataclass
class EvalResult:
    """What an eval run produced."""

    records: list[dict[str, Any]]
    paths: ReportPaths
    summary: dict[str, Any]
    records_path: Path


# ------------------------------------------------------------------ questions


def _looks_like_qaitem_file(path: Path) -> bool:
    """True when the first record carries QAItem-only fields (level/template/graph)."""
    for _, first in read_jsonl(path, error=EvalConfigError):
        return isinstance(first, dict) and any(k in first for k in ("level", "template", "graph"))
    raise EvalConfigError(f"question file {path} is empty")


def _load_path(path: Path, graph: str | None) -> list[Any]:
    from evals.datasets.grbench import load_grbench_questions
    from evals.datasets.items import load_items

    if not path.exists():
        raise EvalConfigError(f"question file or folder {path} does not exist")
    if path.is_file() and _looks_like_qaitem_file(path):
        return list(load_items(path))
    return list(load_grbench_questions(path, graph=graph))


def _grbench_domain(graph: str) -> str:
    """The GRBench domain of a graph laid out as ``.../<domain>/graph.json`` (Graph-CoT's layout)."""
    from evals.datasets.grbench import grbench_domains

    name = Path(graph).resolve().parent.name
    if name.lower() not in {d.lower().split("/")[-1] for d in grbench_domains()}:
        raise EvalConfigError(
            f"cannot tell which GRBench questions go with {graph} (its folder {name!r} is not a domain); "
            f"pass --path DOMAIN_OR_FILE, domains: {', '.join(grbench_domains())}"
        )
    return name


def load_eval_items(
    dataset: str | None,
    path: str | Path | None = None,
    graph: str | None = None,
    n_per_template: int = 5,
    seed: int = 0,
) -> list[Any]:
    """The question items of a run, from a dataset name and/or a file or folder."""
    if dataset not in (None, *DATASETS):
        raise EvalConfigError(
            f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)} (or give --path)"
        )
    if dataset == "grbench":
        if not graph or not Path(graph).is_file():
            where = f" ({graph} is not a file)" if graph else ""
            raise EvalConfigError(
                "the GRBench graphs are not available offline, so --dataset grbench needs "
                f"--graph PATH/graph.json (a GRBench / Graph-CoT graph file){where}"
            )
        from evals.datasets.grbench import load_grbench_questions

        return list(load_grbench_questions(str(path) if path else _grbench_domain(graph), graph=graph))
    if path:
        return _load_path(Path(path), graph)
    from evals.datasets.generated import generate_questions

    return list(generate_questions(graph=graph or "cora", n_per_template=n_per_template, seed=seed))


def take_balanced(items: Sequence[Any], limit: int | None, seed: int = 0) -> list[Any]:
    """``limit`` items spread over the question set, the same ones on every run.

    Items with (level, template) fields are taken round-robin over those
    groups, so a small limit still covers every template. Items without them
    (e.g. a plain GRBench file) form one group, from which a random sample
    seeded by ``seed`` is taken and kept in file order: the first N lines of a
    file are often all of one kind.
    """
    if limit is None or limit >= len(items):
        return list(items)
    if limit < 1:
        raise EvalConfigError(f"--limit must be at least 1, got {limit}")
    groups: dict[tuple[str, str], list[Any]] = {}
    for item in items:
        key = (str(item_field(item, "level") or ""), str(item_field(item, "template") or ""))
        groups.setdefault(key, []).append(item)
    if len(groups) == 1:
        picked = sorted(random.Random(seed).sample(range(len(items)), limit))
        return [items[i] for i in picked]
    queues = list(groups.values())
    chosen: list[Any] = []
    depth = 0
    while len(chosen) < limit:
        for queue in queues:
            if depth < len(queue) and len(chosen) < limit:
                chosen.append(queue[depth])
        depth += 1
    return chosen


def _with_graph(items: list[Any], graph: str | None, path: str | Path | None) -> list[Any]:
    """Items carrying the graph each one is answered on, so records name it.

    Questions read from a file that do not name their graph need ``--graph``:
    falling back to Cora would score them against the wrong graph.
    """
    unnamed = [item for item in items if not item_field(item, "graph")]
    if unnamed and not graph:
        qid = item_field(unnamed[0], "qid")
        where = f" in {path}" if path else ""
        raise EvalConfigError(
            f"{len(unnamed)} question(s){where} do not name their graph (e.g. qid {qid}); pass --graph with "
            "a known name (cora, movielens, wikispeedia) or the path of the graph.json they are about"
        )
    if not graph:
        return items
    return [
        {**item, "graph": graph} if isinstance(item, dict) else replace(item, graph=graph) for item in items
    ]


# ------------------------------------------------------------------ running


def _check_graphs(specs: set[str], embedding_model: str, modes: Sequence[str]) -> None:
    """Load every graph (and its index, for graph modes) before any worker starts.

    A missing or malformed graph then fails once with the loader's message instead
    of once per question, and index building is not raced by the workers.
    """
    from tools.resources import get_graph, get_graph_functions

    for spec in sorted(specs):
        get_graph(spec)
        if any(m != "base" for m in modes):
            get_graph_functions(spec, embedding_model)


def _scorer(
    metric_judge_model: str | None, base_url: str | None
) -> Callable[[Any, dict[str, Any]], dict[str, float]]:
    if not metric_judge_model:
        return default_scores
    from evals.metrics import llm_judge
    from workflows.models.factory import make_chat_model

    judge = make_chat_model(metric_judge_model, base_url=base_url, temperature=0.0, top_p=1.0, max_tokens=16)

    def score(item: Any, output: dict[str, Any]) -> dict[str, float]:
        scores = default_scores(item, output)
        gold, _ = gold_of(item)
        scores["judge"] = float(
            llm_judge(str(item_field(item, "question")), gold, str(output.get("answer") or ""), judge)
        )
        return scores

    return score


# context fields reported elsewhere (models) or set per question (mode, graph)
_NOT_SETTINGS = ("reasoner_model", "reflector_model", "judge_model", "embedding_model", "mode", "graph", "base_url")


def _name(model: Any) -> str:
    """A model for the report: its spec string, or the class name of a model object (tests)."""
    return model if isinstance(model, str) else type(model).__name__


def default_out_dir(dataset: str | None, path: str | Path | None, graph: str | None) -> Path:
    """A stable run folder, so rerunning the same command resumes the same run."""
    source = dataset or "file"
    if path:
        source += "-" + Path(path).stem
    if graph:
        source += "-" + (Path(graph).parent.name if graph.endswith(".json") else graph)
    return REPO_ROOT / "runs" / f"counselor-{source}"


def run_counselor_eval(
    dataset: str | None = "generated",
    path: str | Path | None = None,
    modes: Sequence[str] = MODES,
    out_dir: str | Path | None = None,
    limit: int | None = None,
    concurrency: int = 1,
    context: CounselorContext | None = None,
    graph: str | None = None,
    metric_judge_model: str | None = None,
    n_per_template: int = 5,
    seed: int = 0,
    progress: bool = True,
    solve: SolveFn | None = None,
    **settings: Any,
) -> EvalResult:
    """Run each mode over the question set, then write report.md, scores.png and summary.json.

    ``context`` holds every run setting (models per role, sampling, limits);
    ``settings`` override its fields by name (``max_steps=4``). Each question
    runs on a copy with its mode and graph filled in. ``graph``
    overrides the graph named by each item (required for GRBench).
    ``seed`` picks the generated questions and the ``--limit`` sample.
    ``metric_judge_model`` adds the LLM-judge score (QS/LS style). ``solve``
    replaces :func:`workflows.counselor.solve` (tests). Finished questions in an
    existing ``records.jsonl`` are not run again.
    """
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise EvalConfigError(
            f"unknown mode(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(MODES)}"
        )
    items = take_balanced(load_eval_items(dataset, path, graph, n_per_template, seed), limit, seed)
    if not items:
        raise EvalConfigError("the question set is empty")
    items = _with_graph(items, graph, path)
    out = Path(out_dir) if out_dir else default_out_dir(dataset, path, graph)
    records_path = out / "records.jsonl"

    template = with_settings(context if context is not None else CounselorContext(seed=seed), settings, EvalConfigError)
    graph_of = {str(item_field(it, "qid")): str(item_field(it, "graph")) for it in items}
    if solve is None:
        from workflows.counselor import solve as counselor_solve

        solve = counselor_solve
        _check_graphs(set(graph_of.values()), template.embedding_model, modes)
    scorer = _scorer(metric_judge_model, template.base_url)

    for mode in modes:

        def solve_item(item: Any, mode: str = mode) -> dict[str, Any]:
            # A fresh context per question: scripted models are bound to one context each.
            context = replace(template, mode=mode, graph=graph_of[str(item_field(item, "qid"))])
            return solve(str(item_field(item, "question")), context)

        run_items(
            items,
            solve_item,
            records_path,
            concurrency=concurrency,
            mode=mode,
            progress=progress,
            score_fn=scorer,
        )

    wanted = {(m, str(item_field(it, "qid"))) for m in modes for it in items}
    records = [r for r in load_records(records_path) if (r["mode"], str(r["qid"])) in wanted]
    meta = {
        "title": "Graph Counselor evaluation",
        "dataset": dataset or "file",
        "path": str(path) if path else None,
        "graph": graph or sorted(set(graph_of.values())),
        "models": {
            "reasoner": _name(template.reasoner_model),
            "reflector": _name(template.model_of("reflector")),
            "judge": _name(template.model_of("judge")),
            "metric_judge": metric_judge_model,
            "embedding": template.embedding_model,
        },
        "settings": {
            **{f.name: getattr(template, f.name) for f in fields(template) if f.name not in _NOT_SETTINGS},
            "limit": limit,
            "concurrency": concurrency,
            "question_seed": seed,
        },
        "records_file": str(records_path),
        "n_questions": len(items),
    }
    paths = write_report(records, out, meta)
    summary = json.loads(paths.summary.read_text(encoding="utf-8"))
    return EvalResult(records=records, paths=paths, summary=summary, records_path=records_path)
