"""Evaluate Graph Counselor and its baselines on one question set.

Modes compared on the same model: ``base`` (LLM only, no graph), ``graph_cot``
(thought/action baseline), ``no_reflection`` and ``counselor`` (full). Records
go to ``<out>/records.jsonl`` (resumable, see :mod:`graphreason.evals.runner`); the report,
plot and ``summary.json`` are written beside it. This module loads the
questions, scores the answers and heads the summary; the run itself goes
through :mod:`graphreason.evals.driver`, the report through :mod:`graphreason.evals.report`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from graphreason.evals import driver
from graphreason.evals.driver import EvalConfigError, EvalResult
from graphreason.evals.report import COUNSELOR_REPORT
from graphreason.evals.runner import default_scores, gold_of, item_field
from graphreason.tools.core.jsonl import read_jsonl
from graphreason.workflows.counselor.context import MODES, CounselorContext
from graphreason.workflows.counselor.operations import planner_in_use
from graphreason.workflows.run_context import with_settings

DATASETS = ("generated", "grbench", "programs")
SolveFn = Callable[[str, CounselorContext], dict[str, Any]]

__all__ = [
    "EvalConfigError",
    "EvalResult",
    "default_out_dir",
    "load_eval_items",
    "run_counselor_eval",
    "take_balanced",
]


# ------------------------------------------------------------------ questions


def _looks_like_qaitem_file(path: Path) -> bool:
    """True when the first record carries QAItem-only fields (level/template/graph)."""
    for _, first in read_jsonl(path, error=EvalConfigError):
        return isinstance(first, dict) and any(k in first for k in ("level", "template", "graph"))
    raise EvalConfigError(f"question file {path} is empty")


def _load_path(path: Path, graph: str | None) -> list[Any]:
    from graphreason.evals.datasets.grbench import load_grbench_questions
    from graphreason.evals.datasets.items import load_items

    if not path.exists():
        raise EvalConfigError(f"question file or folder {path} does not exist")
    if path.is_file() and _looks_like_qaitem_file(path):
        return list(load_items(path))
    return list(load_grbench_questions(path, graph=graph))


def _grbench_domain(graph: str) -> str:
    """The GRBench domain of a graph laid out as ``.../<domain>/graph.json`` (Graph-CoT's layout)."""
    from graphreason.evals.datasets.grbench import grbench_domains

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
    families: Sequence[str] | None = None,
    bare_names: bool = False,
    shapes: Sequence[str] | None = None,
) -> list[Any]:
    """The question items of a run, from a dataset name and/or a file or folder.

    ``families`` (programs only) asks only those wording families: a leave-one-wording-family-out
    validation of an adapter trained without one. ``bare_names`` (programs only) writes names without quotes.
    ``shapes`` (programs only) asks only those program shapes, ``n_per_template`` of each.
    """
    if dataset not in (None, *DATASETS):
        raise EvalConfigError(
            f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)} (or give --path)"
        )
    if families and (dataset != "programs" or path):
        raise EvalConfigError("wording families are chosen among question programs: use them with --dataset programs")
    if bare_names and (dataset != "programs" or path):
        raise EvalConfigError("bare names are a way to word question programs: use them with --dataset programs")
    if shapes and (dataset != "programs" or path):
        raise EvalConfigError("shapes are chosen among question programs: use them with --dataset programs")
    if dataset == "grbench":
        if not graph or not Path(graph).is_file():
            where = f" ({graph} is not a file)" if graph else ""
            raise EvalConfigError(
                "the GRBench graphs are not available offline, so --dataset grbench needs "
                f"--graph PATH/graph.json (a GRBench / Graph-CoT graph file){where}"
            )
        from graphreason.evals.datasets.grbench import load_grbench_questions

        return list(load_grbench_questions(str(path) if path else _grbench_domain(graph), graph=graph))
    if path:
        return _load_path(Path(path), graph)
    if dataset == "programs":  # programs over the graph's schema, n_per_template of each shape
        from graphreason.evals.datasets.program_questions import (
            ALL_SHAPES,
            SHAPES,
            program_questions,
            wording_families,
        )
        from graphreason.tools.core.loaders import load_graph

        unknown = [shape for shape in shapes or () if shape not in ALL_SHAPES]
        if unknown:
            raise EvalConfigError(f"unknown shape(s) {', '.join(unknown)}; choose from {', '.join(ALL_SHAPES)}")
        try:
            wording_families(families)  # before a graph loads
        except KeyError as error:
            raise EvalConfigError(error.args[0]) from None
        spec = graph or "cora"
        asked = tuple(shapes or SHAPES)
        return program_questions(
            load_graph(spec), n_per_template * len(asked), seed=seed, shapes=asked, families=families,
            graph_spec=spec, bare_names=bare_names,
        )
    from graphreason.evals.datasets.generated import generate_questions

    return list(generate_questions(graph=graph or "cora", n_per_template=n_per_template, seed=seed))


def _level_and_template(item: Any) -> tuple[str, str]:
    return str(item_field(item, "level") or ""), str(item_field(item, "template") or "")


def take_balanced(items: Sequence[Any], limit: int | None, seed: int = 0) -> list[Any]:
    """``limit`` items round-robin over (level, template), or a seeded sample of a plain file.

    See :func:`graphreason.evals.driver.take_round_robin`: a small limit still covers
    every template; items without those fields (a plain GRBench file) give a
    sample seeded by ``seed``, kept in file order.
    """
    return driver.take_round_robin(items, limit, key=_level_and_template, seed=seed)


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


def _check_graphs(specs: set[str], embedding_model: str, modes: Sequence[str], ranking: str = "hybrid") -> None:
    """Load every graph (and its index, for graph modes) before any worker starts.

    A missing or malformed graph then fails once with the loader's message instead
    of once per question, and index building is not raced by the workers.
    """
    from graphreason.tools.counselor.resources import get_graph, get_graph_functions

    for spec in sorted(specs):
        get_graph(spec)
        if any(m != "base" for m in modes):
            get_graph_functions(spec, embedding_model, ranking)


def _scorer(
    metric_judge_model: str | None, base_url: str | None
) -> Callable[[Any, dict[str, Any]], dict[str, float]]:
    if not metric_judge_model:
        return default_scores
    from graphreason.evals.metrics import llm_judge
    from graphreason.workflows.models.factory import make_chat_model

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
_NOT_SETTINGS = (
    "reasoner_model",
    "reflector_model",
    "judge_model",
    "embedding_model",
    "mode",
    "graph",
    "base_url",
)


def default_out_dir(dataset: str | None, path: str | Path | None, graph: str | None) -> Path:
    """A stable run folder (``runs/counselor-<dataset>-<file>-<graph>``), so rerunning resumes it."""
    graph_name = Path(graph).parent.name if graph and graph.endswith(".json") else graph
    return driver.default_out_dir(
        "counselor", dataset or "file", Path(path).stem if path else None, graph_name
    )


def _meta(
    template: CounselorContext,
    dataset: str | None,
    path: str | Path | None,
    graph: Any,
    metric_judge_model: str | None,
    run: dict[str, Any],
) -> dict[str, Any]:
    """The summary's head: the question source, the models per role and every run setting."""
    return {
        "title": "Graph Counselor evaluation",
        "dataset": dataset or "file",
        "path": str(path) if path else None,
        "graph": graph,
        "models": {
            "reasoner": driver.model_name(template.model_of("reasoner")),  # the tuned reasoner where it runs
            "reflector": driver.model_name(template.model_of("reflector")),
            "judge": driver.model_name(template.model_of("judge")),
            "metric_judge": metric_judge_model,
            "embedding": template.embedding_model,
            "operation_planner": planner_in_use(
                template.operation_confidence, template.grammar and template.embedded_reasoner
            ),  # the planner file's digest where it shapes the Actions
        },
        "settings": {
            **{f.name: getattr(template, f.name) for f in fields(template) if f.name not in _NOT_SETTINGS},
            **run,
        },
    }


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
    families: Sequence[str] | None = None,
    bare_names: bool = False,
    shapes: Sequence[str] | None = None,
    **settings: Any,
) -> EvalResult:
    """Run each mode over the question set, then write report.md, scores.png and summary.json.

    ``context`` holds every run setting (models per role, sampling, limits);
    ``settings`` override its fields by name (``max_steps=4``). Each question
    runs on a copy with its mode and graph filled in. ``graph``
    overrides the graph named by each item (required for GRBench).
    ``seed`` picks the generated questions and the ``--limit`` sample; ``families`` keeps question
    programs to those wording families; ``bare_names`` writes their names without quotes; ``shapes`` keeps them to
    those program shapes.
    ``metric_judge_model`` adds the LLM-judge score (QS/LS style). ``solve``
    replaces :func:`graphreason.workflows.counselor.solve` (tests). Finished questions in an
    existing ``records.jsonl`` are not run again.
    """
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise EvalConfigError(
            f"unknown mode(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(MODES)}"
        )
    driver.check_run_options(limit, concurrency)
    items = take_balanced(load_eval_items(dataset, path, graph, n_per_template, seed, families, bare_names, shapes), limit, seed)
    items = _with_graph(items, graph, path)
    template = with_settings(
        context if context is not None else CounselorContext(seed=seed), settings, EvalConfigError
    )
    graph_of = {str(item_field(it, "qid")): str(item_field(it, "graph")) for it in items}
    if solve is None:
        from graphreason.workflows.counselor import solve as counselor_solve

        solve = counselor_solve
        _check_graphs(set(graph_of.values()), template.embedding_model, modes, template.retrieval)

    def solver(mode: str) -> Callable[[Any], dict[str, Any]]:
        def solve_item(item: Any) -> dict[str, Any]:
            # A fresh context per question: scripted models are bound to one context each.
            context = replace(template, mode=mode, graph=graph_of[str(item_field(item, "qid"))])
            return solve(str(item_field(item, "question")), context)

        return solve_item

    run = {"limit": limit, "concurrency": concurrency, "question_seed": seed}
    if families:
        run["wording_families"] = list(families)
    if bare_names:
        run["bare_names"] = True
    if shapes:
        run["shapes"] = list(shapes)
    graphs = graph or sorted(set(graph_of.values()))
    meta = _meta(template, dataset, path, graphs, metric_judge_model, run)
    return driver.run_eval(
        items,
        {mode: solver(mode) for mode in modes},
        Path(out_dir) if out_dir else default_out_dir(dataset, path, graph),
        meta,
        COUNSELOR_REPORT,
        score_fn=_scorer(metric_judge_model, template.base_url),
        concurrency=concurrency,
        progress=progress,
        settings={mode: driver.answer_settings(meta, replace(template, mode=mode)) for mode in modes},
    )
