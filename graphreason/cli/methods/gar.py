"""``graphreason run gar`` and ``eval gar``: GraphAgent-Reasoner's sub-commands.

    graphreason run gar --question "..." [--graph-file G.json]    one graph problem, steps streamed
    graphreason eval gar --dataset graphinstruct --limit 45       structural accuracy per task
    graphreason eval gar --mode agents --agent-model rules --max-nodes 20   node agents vs compiled

(``graphreason compare gar`` puts finished runs side by side: :mod:`graphreason.cli.commands`.)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from graphreason.cli.context_options import add_method_parser, context_from_args
from graphreason.cli.options import add_eval_run_options, add_json_option, eval_run_values, positive
from graphreason.cli.trace import EventPrinter, shorten


def add_run_parser(methods: argparse._SubParsersAction) -> None:
    """``run gar``: one graph problem, compiled or agents mode."""
    from graphreason.workflows.gar.context import GARContext

    gar = add_method_parser(
        methods,
        "gar",
        help="GraphAgent-Reasoner on one graph problem (compiled or agents mode)",
        context_cls=GARContext,
        handler=cmd_run,
    )
    gar.add_argument(
        "--question", required=True, help="the graph problem (graph text + question, or just the question)"
    )
    gar.add_argument(
        "--graph-file",
        default=None,
        help="JSON structured graph {'edges': [[u, v, w], ...], 'directed': bool}",
    )
    add_json_option(gar, "the full output (trace included)")


def add_eval_parser(methods: argparse._SubParsersAction) -> None:
    """``eval gar``: a question set, answers checked by structure."""
    from graphreason.workflows.gar.context import GARContext

    gar = add_method_parser(
        methods,
        "gar",
        help="GraphAgent-Reasoner, structural accuracy per task",
        context_cls=GARContext,
        handler=cmd_eval,
    )  # its --seed also seeds the generated set (default 0)
    gar.add_argument(
        "--dataset",
        choices=("graphinstruct", "generated"),
        default="graphinstruct",
        help="graphinstruct: the shared GraphInstruct split (default); generated: seeded random graphs, 5-200 nodes",
    )
    gar.add_argument("--path", default=None, help="GraphInstruct JSONL / NLGraph JSON file or folder of them")
    gar.add_argument("--split", default="dev", help="split of the GraphInstruct files (default dev)")
    gar.add_argument(
        "--tasks",
        nargs="+",
        default=None,
        metavar="TASK",
        # checked by the eval itself (one list of task names, in graphreason.evals.gar.graphinstruct)
        help="only these GraphInstruct tasks: cycle connectivity bipartite topology shortest triangle flow "
        "hamilton substructure (default: all; in agents mode the tasks agent mode covers)",
    )
    gar.add_argument(
        "--max-nodes",
        type=positive,
        default=None,
        help="only graphs of at most N nodes (e.g. to keep agents mode to small graphs)",
    )
    add_eval_run_options(
        gar,
        items="questions",
        verb="answered",
        out="runs/gar-<dataset>-<mode>...",
        limit="at most N questions, spread over tasks",
    )


# ------------------------------------------------------------------ handlers


def gar_context(args: argparse.Namespace) -> Any:
    """The GARContext the command line describes (see :mod:`graphreason.cli.context_options`)."""
    from graphreason.workflows.gar.context import GARContext

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


def cmd_run(args: argparse.Namespace) -> int:
    """``graphreason run gar``: stream the master's steps and the rounds, then print the answer."""
    from graphreason.workflows.gar import stream_solve
    from graphreason.workflows.gar.state import GAROutput

    graph = load_graph_file(args.graph_file) if args.graph_file else None
    context = gar_context(args)
    if context.engine == "spark":  # asked for by name: say what is missing before any work is done
        from graphreason.tools.gar.spark.session import require_pyspark

        require_pyspark()
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
        agree, detail = comparison.get("agree"), shorten(str(comparison.get("detail", "")), 300)
        if agree is None:  # the node agents did not produce the answer: the detail says what happened
            print(f"Agents vs compiled: {detail}")
        else:
            print(f"Agents vs compiled: {'agrees' if agree else 'DISAGREES'} ({detail})")
    usage = output.get("usage") or {}
    print(
        f"({usage.get('llm_calls', 0)} LLM call(s), {usage.get('tokens', 0)} tokens, "
        f"{output.get('rounds', 0)} round(s), fallback {'used' if output.get('fallback_used') else 'not used'}, "
        f"{float(usage.get('seconds', 0.0)):.2f} s)"
    )
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """``graphreason eval gar``: answer a question set, check by structure, write the report."""
    from graphreason.evals.gar.evaluate import gar_table, run_gar_eval

    result = run_gar_eval(
        dataset=args.dataset,
        path=args.path,
        tasks=args.tasks,
        **eval_run_values(args),
        context=gar_context(args),
        split=args.split,
        seed=args.seed if args.seed is not None else 0,
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
