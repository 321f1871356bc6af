"""What each ``graphreason`` sub-command does (argument parsing lives in :mod:`graphreason.cli`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from graphreason.context_options import context_from_args
from graphreason.trace import EventPrinter, shorten, usage_line


def counselor_context(args: argparse.Namespace, **overrides: Any) -> Any:
    """The CounselorContext the command line describes (see :mod:`graphreason.context_options`)."""
    from workflows.counselor.context import CounselorContext

    return context_from_args(CounselorContext, args, **overrides)


def _load_graph_first(context: Any) -> None:
    """Load the graph and its Retrieve index before the trace starts.

    A bad graph then fails with the loader's message before any output, and the
    index build (first use only) shows its own progress bar instead of stalling a run.
    """
    if context.mode == "base":
        return
    from tools.resources import get_graph, get_graph_functions

    get_graph(context.graph)
    get_graph_functions(context.graph, context.embedding_model)


def _lenient_graph(args: argparse.Namespace) -> None:
    """``--lenient-graph``: the loader reads the setting from the environment, as a server would."""
    if getattr(args, "lenient_graph", False):
        from tools.loaders.grbench import LENIENT_ENV

        os.environ[LENIENT_ENV] = "1"


def cmd_run_counselor(args: argparse.Namespace) -> int:
    """``graphreason run counselor``: stream the trace, then print the answer."""
    from workflows.counselor import stream_solve

    _lenient_graph(args)
    context = counselor_context(args)
    _load_graph_first(context)
    if args.json:
        output = stream_solve(args.question, context)
        print(json.dumps(output, indent=2, ensure_ascii=False, default=str))
        return 0
    print(f"Question: {args.question}", flush=True)
    output = stream_solve(args.question, context, EventPrinter(sys.stdout))
    print(f"\nAnswer: {output.get('answer') or '(no answer)'}")
    if output.get("first_answer") and output.get("first_answer") != output.get("answer"):
        print(f"First-trial answer: {output['first_answer']}")
    if output.get("accepted") is not None:
        print(f"Judge accepted: {'yes' if output['accepted'] else 'no'}")
    print(usage_line(output.get("usage"), output.get("seconds"), len(output.get("trials") or []), "trial"))
    return 0


def cmd_eval_counselor(args: argparse.Namespace) -> int:
    """``graphreason eval counselor``: run the modes, write the report, print the table."""
    from evals.counselor_eval import run_counselor_eval
    from evals.report import markdown_table

    _lenient_graph(args)
    result = run_counselor_eval(
        dataset=None if args.path and not args.dataset else args.dataset or "generated",
        path=args.path,
        modes=args.modes,
        out_dir=args.out,
        limit=args.limit,
        concurrency=args.concurrency,
        context=counselor_context(args),  # the eval's own --graph, when given, is the context's graph
        graph=args.graph,
        metric_judge_model=args.metric_judge_model,
        n_per_template=args.n_per_template,
        seed=args.seed if args.seed is not None else 0,
        progress=not args.no_progress,
    )
    print()
    print(markdown_table(result.summary["modes"], "mode"))
    print()
    print(f"Records : {result.records_path}")
    print(f"Report  : {result.paths.report}")
    print(f"Summary : {result.paths.summary}")
    print(f"Plot    : {result.paths.plot}")
    errors = result.summary.get("errors") or []
    if errors:
        print(f"{len(errors)} question(s) failed; rerun the same command to retry them.")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """``graphreason serve``: langgraph dev on a free loopback port."""
    from graphreason.serve import serve

    return serve(port=args.port, config=args.config, reload=not args.no_reload, host=args.host)


def cmd_demo(args: argparse.Namespace) -> int:
    """``graphreason demo``: GAR on two problems, then Graph Counselor (see :mod:`graphreason.demo`)."""
    from graphreason.demo import cmd_demo as run_demo

    return run_demo(args)


# ------------------------------------------------------------------ GraphAgent-Reasoner


def gar_context(args: argparse.Namespace) -> Any:
    """The GARContext the command line describes (see :mod:`graphreason.context_options`)."""
    from workflows.gar.context import GARContext

    return context_from_args(GARContext, args)


def load_graph_file(path: str) -> dict[str, Any]:
    """A structured graph from a JSON file (``{"edges": [[u, v, w], ...], "directed": ...}``)."""
    from pathlib import Path

    source = Path(path).expanduser()
    if not source.is_file():
        raise FileNotFoundError(f"--graph-file {source} does not exist or is not a file")
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"--graph-file {source} is not JSON: {exc}") from exc
    if not isinstance(data, dict) or "edges" not in data:
        raise ValueError(f"--graph-file {source} must hold a JSON object with an 'edges' list")
    if not isinstance(data["edges"], list):
        # a string would otherwise be read letter by letter as a list of edges
        kinds = {str: "a string", dict: "an object", bool: "a boolean", type(None): "null"}
        found = kinds.get(type(data["edges"]), "a number")
        raise ValueError(
            f"--graph-file {source}: 'edges' must be a list like [[0, 1], [1, 2, 5]], found {found}"
        )
    return data


def cmd_run_gar(args: argparse.Namespace) -> int:
    """``graphreason run gar``: stream the master's steps and the rounds, then print the answer."""
    from workflows.gar import stream_solve
    from workflows.gar.state import GAROutput

    graph = load_graph_file(args.graph_file) if args.graph_file else None
    context = gar_context(args)
    keep = set(GAROutput.__annotations__)
    if args.json:
        output = stream_solve(args.question, context, graph, lambda event: None)
        output = {k: v for k, v in output.items() if k in keep}
        print(json.dumps(output, indent=2, ensure_ascii=False, default=str))
        return 0
    print(f"Question: {shorten(args.question, 400)}", flush=True)
    printer = EventPrinter(sys.stdout, 300)
    output = stream_solve(args.question, context, graph, printer)
    printer.flush()
    print(f"\nAlgorithm: {output.get('algorithm')}")
    print(f"Answer: {output.get('answer') or '(no answer)'}")
    print(f"Structured: {json.dumps(output.get('structured'), ensure_ascii=False, default=str)}")
    notes = output.get("trace") or []
    executed = next((n for n in notes if n.get("step") == "execute" and "engine" in n), {})
    comparison = executed.get("comparison")
    if isinstance(comparison, dict):
        verdict = "agrees" if comparison.get("agree") else "DISAGREES"
        print(f"Agents vs compiled: {verdict} ({shorten(str(comparison.get('detail', '')), 300)})")
    usage = output.get("usage") or {}
    print(
        f"({usage.get('llm_calls', 0)} LLM call(s), {usage.get('tokens', 0)} tokens, "
        f"{output.get('rounds', 0)} round(s), fallback {'used' if output.get('fallback_used') else 'not used'}, "
        f"{float(usage.get('seconds', 0.0)):.2f} s)"
    )
    return 0


def cmd_compare_gar(args: argparse.Namespace) -> int:
    """``graphreason compare gar LABEL=DIR ...``: GAR runs side by side (``modes.md``, ``modes.png``)."""
    from evals.gar_report import compare_gar_runs

    runs = {}
    for spec in args.runs:
        label, sep, folder = spec.partition("=")
        if not sep or not label.strip() or not folder.strip():
            raise ValueError(f"runs are given as LABEL=FOLDER, got {spec!r}")
        runs[label.strip()] = folder.strip()
    table, plot = compare_gar_runs(runs, args.out)
    print(f"Table: {table}\nPlot : {plot}")
    return 0


def cmd_eval_gar(args: argparse.Namespace) -> int:
    """``graphreason eval gar``: answer a question set, check by structure, write the report."""
    from evals.gar_eval import gar_table, run_gar_eval

    result = run_gar_eval(
        dataset=args.dataset,
        path=args.path,
        tasks=args.tasks,
        limit=args.limit,
        concurrency=args.concurrency,
        out_dir=args.out,
        context=gar_context(args),
        split=args.split,
        seed=args.seed if args.seed is not None else 0,
        progress=not args.no_progress,
        max_nodes=args.max_nodes,
    )
    print()
    print(gar_table(result.summary))
    print()
    print(f"Records : {result.records_path}")
    print(f"Report  : {result.report_path}")
    print(f"Summary : {result.summary_path}")
    print(f"Plot    : {result.plot_path}")
    disagreements = result.summary.get("disagreements") or []
    if disagreements:
        shown = ", ".join(disagreements[:10])
        print(f"{len(disagreements)} agent answer(s) differ from compiled mode: {shown}")
    errors = result.summary.get("errors") or []
    if errors:
        print(f"{len(errors)} question(s) failed; rerun the same command to retry them.")
    return 0
