"""Evaluate GraphAgent-Reasoner on graph-reasoning question sets, in compiled or agents mode.

Answers are checked *by structure* against the graph parsed from the question
(:func:`graphreason.tools.gar.vertex.reference.check_answer`): any valid topological order,
any optimal path, yes/no in any spelling. Hamiltonian path is judged by
validating the returned path (GraphInstruct's hamilton labels are mostly
wrong), and agreement with the label is reported beside it for every task.

``mode="agents"`` runs the paper's node agents (``agent_model``: ``rules``,
``local``, ``openai:MODEL``, ...) and records, per question, whether their
answer agrees with compiled mode, and the LLM calls and tokens of the master
and of the node agents separately (counted per call by the workflow node that
made it). Without ``tasks`` it keeps to the tasks agent mode covers;
``max_nodes`` keeps it to small graphs.

Records go to ``<out>/records.jsonl`` (resumable, see :mod:`graphreason.evals.runner`);
``summary.json``, ``report.md`` and ``accuracy_time.png`` are written beside it
(:mod:`graphreason.evals.gar.report`). The run itself goes through :mod:`graphreason.evals.driver`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphreason.evals import driver
from graphreason.evals.driver import EvalConfigError, EvalResult
from graphreason.evals.gar.graphinstruct import GRAPHINSTRUCT_TASKS, GraphTask, load_graph_tasks
from graphreason.evals.gar.report import (
    GAR_REPORT,
    RECORD_KEY,
    compare_gar_runs,
    execute_note,
    gar_table,
    modes_table,
    record_mode,
    summarize_gar,
    write_gar_report,
)
from graphreason.workflows.gar.context import MODES as EVAL_MODES
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.run_context import with_settings

DATASETS = ("graphinstruct", "generated")
MODE = RECORD_KEY  # the runner's record key of compiled mode (agents mode: "gar-agents")
SolveFn = Callable[..., dict[str, Any]]  # (question, context, **config) -> output

__all__ = [
    "EVAL_MODES",
    "GAREvalConfigError",
    "GAREvalResult",
    "agent_tasks",
    "compare_gar_runs",
    "gar_table",
    "keep_small",
    "load_gar_items",
    "modes_table",
    "run_gar_eval",
    "structural_scores",
    "summarize_gar",
    "take_per_task",
    "write_gar_report",
]


GAREvalConfigError = EvalConfigError  # the shared error (graphreason.evals.driver), under the name GAR callers know
GAREvalResult = EvalResult  # the shared result: records, summary, records_path, report/summary/plot paths


# ------------------------------------------------------------------ questions
def load_gar_items(
    dataset: str = "graphinstruct",
    path: str | Path | None = None,
    tasks: Sequence[str] | None = None,
    split: str = "dev",
    seed: int = 0,
    sizes: Sequence[int] | None = None,
) -> list[GraphTask]:
    """The questions of a run: a file/folder (``path``), the shared GraphInstruct split, or a generated set."""
    if dataset not in DATASETS:
        raise GAREvalConfigError(f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)}")
    if tasks is not None:
        unknown = [t for t in tasks if t not in GRAPHINSTRUCT_TASKS]
        if unknown:
            raise GAREvalConfigError(f"unknown task(s) {unknown}; tasks: {', '.join(GRAPHINSTRUCT_TASKS)}")
    if path is not None:
        source = Path(path).expanduser()
        if not source.exists():
            raise GAREvalConfigError(f"question file or folder {source} does not exist")
        if source.is_dir() and dataset == "generated" and not list(source.glob(f"*_{split}.jsonl")):
            split = "generated"  # a folder written by save_gar_tasks
        return load_graph_tasks(source, split=split, tasks=tasks)
    if dataset == "graphinstruct":
        return load_graph_tasks(None, split=split, tasks=tasks)
    from graphreason.evals.gar.generated import DEFAULT_SIZES, generate_gar_tasks

    return generate_gar_tasks(tasks=tasks, sizes=sizes or DEFAULT_SIZES, seed=seed)


def _task(item: GraphTask) -> str:
    return item.task


def take_per_task(items: Sequence[GraphTask], limit: int | None, seed: int = 0) -> list[GraphTask]:
    """``limit`` items taken round-robin over tasks (``--limit 45``: 5 per task).

    See :func:`graphreason.evals.driver.take_round_robin`; items of a single task give a
    sample seeded by ``seed``, kept in file order.
    """
    return driver.take_round_robin(items, limit, key=_task, seed=seed)


def _as_record_item(item: GraphTask) -> dict[str, Any]:
    """The dict the runner stores: the task as template, the phrasing (if known) as level."""
    gold = item.gold
    text = ("Yes" if gold else "No") if isinstance(gold, bool) else json.dumps(gold)
    return {
        "qid": item.qid,
        "question": item.question,
        "answer": text,
        "template": item.task,
        "level": item.meta.get("phrasing") or item.meta.get("file"),
        "graph": None,
        "task_item": item,
    }


# ------------------------------------------------------------------ structural check
def structural_scores(item: GraphTask, structured: dict[str, Any]) -> dict[str, float]:
    """``correct`` (structural), ``label_match`` (value equals the gold label) and the graph size.

    The graph is parsed again from the question, independent of the run. For
    hamilton "yes" answers, ``path_valid`` says whether the returned path really
    visits every node once along edges; ``correct`` is that (or a verified "no").
    """
    from graphreason.tools.gar.vertex.reference import check_answer, normalize_task
    from graphreason.workflows.gar.construct import build_problem
    from graphreason.workflows.gar.run_graphs import vertex_graph

    task = normalize_task(item.task)
    problem = build_problem(item.question)
    g = vertex_graph(problem, task)
    params = {k: v for k, v in problem.params.items() if k in ("source", "target")}
    if task == "substructure":
        params["pattern"] = problem.params["pattern"].to_networkx()
    if task == "bipartiteness":  # GraphInstruct writes arcs but means the undirected graph
        g = g.to_networkx().to_undirected()
    value = structured.get("value")
    scores: dict[str, float] = {"n_nodes": float(problem.n_nodes), "n_edges": float(len(problem.edges))}
    if structured.get("task") != task:
        scores.update(correct=0.0, label_match=0.0)  # the run answered another question
        return scores
    if task == "hamiltonian_path":
        path = structured.get("path")
        if value:  # a "yes" must come with a path that really is Hamiltonian
            correct = path is not None and check_answer(task, g, params, path)
            scores["path_valid"] = float(correct)
        else:
            correct = check_answer(task, g, params, value)
    else:
        correct = check_answer(task, g, params, value)
    scores["correct"] = float(bool(correct))
    gold = item.gold
    if isinstance(gold, bool) or isinstance(value, bool):
        scores["label_match"] = float(value is gold)
    elif isinstance(gold, int | float) and isinstance(value, int | float):
        scores["label_match"] = float(abs(float(value) - float(gold)) <= 1e-6 * max(1.0, abs(float(gold))))
    else:
        scores["label_match"] = float(value == gold)
    return scores


def _score(item: dict[str, Any], output: dict[str, Any]) -> dict[str, float]:
    """Structural scores, the right-algorithm and fallback flags, and agent mode's agreement."""
    from graphreason.tools.gar.vertex.reference import normalize_task

    structured = output.get("structured") or {}
    scores = structural_scores(item["task_item"], structured)
    scores["algorithm_right"] = float(structured.get("task") == normalize_task(item["task_item"].task))
    scores["fallback"] = float(bool(output.get("fallback_used")))
    if item.get("eval_engine") == "spark" and item.get("eval_mode") == "compiled":
        # the library's vertex programs run on Spark; the others fall back to one machine, with a trace note
        scores["spark_engine"] = float(execute_note(output).get("engine") == "spark")
    if item.get("eval_mode") == "agents":
        note = execute_note(output)
        scores["agent_engine"] = float(note.get("engine") == "agents")
        comparison = note.get("comparison")
        if isinstance(comparison, dict):
            # agreement is scored only where the node agents produced the answer
            agree = comparison.get("agree")
            scores["agents_answered"] = float(agree is not None)
            if agree is not None:
                scores["agree"] = float(bool(agree))
            scores["agent_complete"] = float(bool(structured.get("complete", True)))
            scores["agent_rounds"] = float(note.get("rounds") or 0)
    return scores


# ------------------------------------------------------------------ agents mode
def agent_tasks() -> list[str]:
    """The GraphInstruct tasks whose algorithm has an agent form (the rest run compiled in agents mode)."""
    from graphreason.tools.gar.vertex.reference import normalize_task
    from graphreason.workflows.gar.agents.graph import AGENT_ALGORITHMS

    return [task for task in GRAPHINSTRUCT_TASKS if normalize_task(task) in AGENT_ALGORITHMS]


def _node_count(item: GraphTask) -> int | None:
    """The item's node count: exact from generated metadata, else parsed from the question."""
    found = item.meta.get("node_range")
    if isinstance(found, list | tuple) and len(found) == 2 and found[0] == found[1]:
        return int(found[0])
    from graphreason.tools.gar.graph_text import parse_graph_problem

    try:
        return parse_graph_problem(item.question).n_nodes
    except Exception:  # an unreadable graph is kept: the run reports what it could not parse
        return None


def keep_small(items: Sequence[GraphTask], max_nodes: int | None) -> list[GraphTask]:
    """The items whose graph has at most ``max_nodes`` nodes (unparseable ones are kept and reported)."""
    if max_nodes is None:
        return list(items)
    if max_nodes < 1:
        raise GAREvalConfigError(f"--max-nodes must be at least 1, got {max_nodes}")
    return [item for item in items if (_node_count(item) or 0) <= max_nodes]


# ------------------------------------------------------------------ running
def _slug(spec: Any) -> str:
    """A short name of a model spec for a folder (``scripted:/x/y.json`` -> ``scripted-y``)."""
    if not isinstance(spec, str):
        return type(spec).__name__.lower()
    backend, _, name = spec.partition(":")
    name = Path(name).stem if backend == "scripted" else name
    return f"{backend}-{name}" if name else backend


def default_out_dir(
    dataset: str, path: str | Path | None, mode: str = "compiled", agent_model: Any = None, engine: str = "auto"
) -> Path:
    """A stable run folder named by dataset, file, mode (and agent model, or the Spark engine), so a rerun resumes it."""
    agents = _slug(agent_model) if mode == "agents" and agent_model is not None else None
    spark = "spark" if mode == "compiled" and engine == "spark" else None
    return driver.default_out_dir("gar", dataset, Path(path).stem if path else None, mode, agents, spark)


def _meta(
    context: GARContext, master_model: Any, agent_model: Any, tasks: Sequence[str] | None, **run: Any
) -> dict[str, Any]:
    """The summary's head: the question source, the models and the run settings."""
    mode = context.mode
    meta = {
        "title": f"GraphAgent-Reasoner ({mode} mode) evaluation",
        "mode": mode,
        **run,
        "tasks": list(tasks) if tasks else None,
        "master_model": driver.model_name(master_model or context.master_model),
        "embedding_model": context.embedding_model,
        "max_tokens": context.max_tokens,
    }
    if mode == "compiled":
        meta["engine"] = context.engine
        if context.engine == "spark":
            meta["spark_master"] = context.spark_master or "local[*]"  # the default the engine uses
    if mode == "agents":
        agents = agent_model or context.agent_model or master_model or context.master_model
        meta.update(
            agent_model=driver.model_name(agents),
            agent_batch_size=context.agent_batch_size,
            agent_max_tokens=context.agent_max_tokens,
            max_agent_calls=context.max_agent_calls,
        )
    return meta


def run_gar_eval(
    dataset: str = "graphinstruct",
    path: str | Path | None = None,
    tasks: Sequence[str] | None = None,
    limit: int | None = None,
    concurrency: int = 1,
    out_dir: str | Path | None = None,
    context: GARContext | None = None,
    split: str = "dev",
    seed: int = 0,
    sizes: Sequence[int] | None = None,
    progress: bool = True,
    solve: SolveFn | None = None,
    max_nodes: int | None = None,
    **settings: Any,
) -> GAREvalResult:
    """Answer every question with GAR, check each answer by structure, write the report.

    ``context`` holds every run setting (master and agent models, mode,
    sampling, limits); ``settings`` override its fields by name
    (``mode="agents"``). Each question runs on its own copy, so a
    ``scripted:FILE.json`` spec starts over per question; ``master_model`` /
    ``agent_model`` may also be zero-argument callables returning a fresh chat
    model per question (tests). In agents mode
    ``tasks`` defaults to the tasks with an agent form. ``max_nodes`` keeps
    graphs of at most that many nodes (applied before ``limit``). ``solve``
    replaces :func:`graphreason.workflows.gar.solve` (tests). Finished questions in an
    existing ``records.jsonl`` are not run again.
    """
    factories = {k: settings.pop(k) for k in ("master_model", "agent_model") if callable(settings.get(k))}
    master_model, agent_model = factories.get("master_model"), factories.get("agent_model")
    context = with_settings(context if context is not None else GARContext(), settings, GAREvalConfigError)
    mode = context.mode
    driver.check_run_options(limit, concurrency)
    if mode == "agents" and tasks is None:
        tasks = agent_tasks()
    items = keep_small(load_gar_items(dataset, path, tasks, split, seed, sizes), max_nodes)
    items = take_per_task(items, limit, seed)
    agents_name = driver.model_name(agent_model) if agent_model is not None else context.agent_model
    out = Path(out_dir) if out_dir else default_out_dir(dataset, path, mode, agents_name, context.engine)

    if solve is None:
        from graphreason.workflows.gar import solve as gar_solve

        solve = gar_solve

    def solve_item(item: dict[str, Any]) -> dict[str, Any]:
        # A fresh context per question: scripted models are bound to one context each.
        models = {}
        if master_model is not None:
            models["master_model"] = master_model()
        if agent_model is not None:
            models["agent_model"] = agent_model()
        # the workflow's usage already tells the master's calls from the node agents'
        output = dict(solve(item["question"], replace(context, **models)))
        executed = execute_note(output)
        output["details"] = {
            "algorithm": output.get("algorithm"),
            "structured": output.get("structured"),
            "fallback_used": output.get("fallback_used"),
            **({"comparison": executed["comparison"]} if "comparison" in executed else {}),
        }
        return output

    rows = [{**_as_record_item(item), "eval_mode": mode, "eval_engine": context.engine} for item in items]
    meta = _meta(
        context,
        master_model,
        agent_model,
        tasks,
        dataset=dataset,
        path=str(path) if path else None,
        split=split,
        limit=limit,
        max_nodes=max_nodes,
        concurrency=concurrency,
    )
    return driver.run_eval(
        rows,
        {record_mode(mode): solve_item},
        out,
        meta,
        GAR_REPORT,
        score_fn=_score,
        concurrency=concurrency,
        progress=progress,
        empty_note=f" (no graph has at most {max_nodes} nodes)" if max_nodes else "",
        settings={record_mode(mode): driver.answer_settings(meta, context)},
    )
