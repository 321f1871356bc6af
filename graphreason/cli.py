"""The ``graphreason`` command line.

    graphreason run counselor --graph cora --question "..."     stream a trace, print the answer
    graphreason eval counselor --dataset generated --limit 20    compare modes, write a report
    graphreason run gar --question "..." [--graph-file G.json]    GraphAgent-Reasoner on one problem
    graphreason eval gar --dataset graphinstruct --limit 45      structural accuracy per task
    graphreason eval gar --mode agents --agent-model rules --max-nodes 20   node agents vs compiled
    graphreason compare gar compiled=runs/a agents=runs/b --out D  GAR runs side by side
    graphreason case-study pagerank [--top-k 10]                 most important Wikispeedia pages
    graphreason run toolformer --text "..."                       Graph-ToolFormer: calls written, run, substituted
    graphreason eval toolformer [--path P] [--model gold]        API-Gen Acc, Rouge, BLEU, execution accuracy
    graphreason train graph_bert|seg_bert|bpr|kmeans|transe|all  Graph-ToolFormer's graph models
    graphreason run graphagent --node 31336 [--no-graph-tool]     GraphAgent classifies one node, streaming
    graphreason eval graphagent [--variants main|ablations|all]  accuracy, ablations, tool-change analysis
    graphreason train graphagent [--limit N]                     experience episodes into a SQLite store
    graphreason serve [--port N]                                 langgraph dev on a free port
    graphreason demo                                             Cora questions + two graph problems, embedded model

Exit codes: 0 success, 1 run failure, 2 bad input (empty question, missing or
malformed graph, bad option or model spec), 3 model endpoint failed (unreachable,
timed out, HTTP error, unreadable reply), 130 interrupted.
Set ``GRAPHREASON_DEBUG=1`` to see tracebacks instead of one-line errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from graphreason import commands, graphagent_cli, toolformer_cli
from graphreason.case_study import add_case_study_parser
from graphreason.context_options import add_context_options
from graphreason.options import add_request_options, prepared_models
from graphreason.options import positive as _positive
from workflows.counselor.context import MODES, CounselorContext
from workflows.gar.context import GARContext

ENDPOINT_FAILED = 3  # exit code of a model endpoint failure (2 is bad input)


def _lenient_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lenient-graph",
        action="store_true",
        help="keep neighbour ids that a graph.json lists but never defines, as untyped nodes "
        "(default: refuse the file and name them)",
    )


def _context_options(parser: argparse.ArgumentParser, context_cls: type, skip: tuple[str, ...] = ()) -> None:
    """The run settings: one option per context field (defaults live in the context), plus request limits."""
    group = parser.add_argument_group("run settings (the method's runtime context)")
    add_context_options(group, context_cls, skip=skip)
    add_request_options(group)


def _run_gar_parser(methods: argparse._SubParsersAction) -> None:
    gar = methods.add_parser("gar", help="GraphAgent-Reasoner on one graph problem (compiled or agents mode)")
    gar.add_argument(
        "--question", required=True, help="the graph problem (graph text + question, or just the question)"
    )
    gar.add_argument(
        "--graph-file",
        default=None,
        help="JSON structured graph {'edges': [[u, v, w], ...], 'directed': bool}",
    )
    gar.add_argument(
        "--json", action="store_true", help="print the full output (trace included) as JSON instead"
    )
    _context_options(gar, GARContext)
    gar.set_defaults(handler=commands.cmd_run_gar)


def _eval_gar_parser(methods: argparse._SubParsersAction) -> None:
    gar = methods.add_parser("gar", help="GraphAgent-Reasoner, structural accuracy per task")
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
        # checked by the eval itself (one list of task names, in evals.datasets.graphinstruct)
        help="only these GraphInstruct tasks: cycle connectivity bipartite topology shortest triangle flow "
        "hamilton substructure (default: all; in agents mode the tasks agent mode covers)",
    )
    gar.add_argument("--limit", type=_positive, default=None, help="at most N questions, spread over tasks")
    gar.add_argument(
        "--max-nodes",
        type=_positive,
        default=None,
        help="only graphs of at most N nodes (e.g. to keep agents mode to small graphs)",
    )
    gar.add_argument(
        "--concurrency", type=_positive, default=1, help="questions answered in parallel (default 1)"
    )
    gar.add_argument(
        "--out", default=None, help="run folder (default: runs/gar-<dataset>-<mode>...); rerun to resume"
    )
    gar.add_argument("--no-progress", action="store_true", help="no progress bar")
    _context_options(gar, GARContext)  # its --seed also seeds the generated set (default 0)
    gar.set_defaults(handler=commands.cmd_eval_gar)


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree of every sub-command."""
    parser = argparse.ArgumentParser(
        prog="graphreason", description="LLM-on-graph reasoning methods as LangGraph workflows."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="{run,eval,train,compare,case-study,serve,demo}"
    )

    run = sub.add_parser("run", help="answer one question with a method, streaming its trace")
    run_methods = run.add_subparsers(dest="method", required=True, metavar="{counselor,gar,toolformer,graphagent}")
    counselor = run_methods.add_parser("counselor", help="Graph Counselor")
    counselor.add_argument("--question", required=True, help="the question to answer")
    counselor.add_argument(
        "--json", action="store_true", help="print the full output (trace included) as JSON instead"
    )
    _lenient_option(counselor)
    _context_options(counselor, CounselorContext)
    counselor.set_defaults(handler=commands.cmd_run_counselor)
    _run_gar_parser(run_methods)
    toolformer_cli.add_run_parser(run_methods, _context_options)
    graphagent_cli.add_run_parser(run_methods, _context_options)

    ev = sub.add_parser("eval", help="evaluate a method on a question set")
    ev_methods = ev.add_subparsers(dest="method", required=True, metavar="{counselor,gar,toolformer,graphagent}")
    ec = ev_methods.add_parser("counselor", help="Graph Counselor and its baselines")
    ec.add_argument(
        "--dataset",
        choices=("generated", "grbench"),
        default=None,
        help="generated: template questions over --graph (default cora); grbench: GRBench questions, needs --graph PATH/graph.json",
    )
    ec.add_argument(
        "--path", default=None, help="question file or folder (QAItem JSONL or GRBench JSONL / data folder)"
    )
    ec.add_argument(
        "--graph",
        default=None,
        help="graph name or graph.json path (overrides the graph named by each question; "
        "required with --path when the questions do not name their graph)",
    )
    ec.add_argument(
        "--modes", nargs="+", choices=MODES, default=list(MODES), help="modes to compare (default: all four)"
    )
    ec.add_argument(
        "--limit",
        type=_positive,
        default=None,
        help="at most N questions: round-robin over level/template groups, or a --seed-ed random sample "
        "(kept in file order) when the questions have no such fields",
    )
    ec.add_argument(
        "--concurrency", type=_positive, default=1, help="questions answered in parallel (default 1)"
    )
    ec.add_argument(
        "--out", default=None, help="run folder (default: runs/counselor-<dataset>...); rerun to resume"
    )
    ec.add_argument(
        "--metric-judge-model", default=None, help="model spec for the LLM-judge score (off by default)"
    )
    ec.add_argument(
        "--n-per-template", type=_positive, default=5, help="generated questions per template (default 5)"
    )
    ec.add_argument("--no-progress", action="store_true", help="no progress bars")
    _lenient_option(ec)
    _context_options(ec, CounselorContext, skip=("graph", "mode"))  # the eval's own --graph and --modes
    ec.set_defaults(handler=commands.cmd_eval_counselor)
    _eval_gar_parser(ev_methods)
    toolformer_cli.add_eval_parser(ev_methods, _context_options)
    graphagent_cli.add_eval_parser(ev_methods, _context_options)
    graphagent_cli.add_train_parser(toolformer_cli.add_train_parser(sub), _context_options)

    compare = sub.add_parser("compare", help="put finished eval runs side by side")
    compare_methods = compare.add_subparsers(dest="method", required=True, metavar="{gar}")
    cg = compare_methods.add_parser("gar", help="GAR runs (e.g. compiled vs agents): modes.md and modes.png")
    cg.add_argument("runs", nargs="+", metavar="LABEL=FOLDER", help="eval gar run folders, each with a label")
    cg.add_argument("--out", required=True, help="folder for modes.md and modes.png")
    cg.set_defaults(handler=commands.cmd_compare_gar)
    add_case_study_parser(sub)

    serve = sub.add_parser("serve", help="serve the workflows with `langgraph dev` on a loopback port")
    serve.add_argument("--port", type=_positive, default=None, help="port (default: a free one)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="interface to bind (default 127.0.0.1; anything else is reachable from other machines)",
    )
    serve.add_argument("--config", default=None, help="langgraph.json to serve (default: the repo's)")
    serve.add_argument("--no-reload", action="store_true", help="do not restart on code changes")
    serve.set_defaults(handler=commands.cmd_serve)

    demo = sub.add_parser(
        "demo",
        help="GAR on two graph problems, then Graph Counselor on Cora: reference plan and model attempt",
        description="A few minutes on a 2-core CPU with the embedded model. Defaults differ from `run`: "
        "--embedding hash (no encoder to load), --max-steps 3, --max-reflections 0. "
        "Plug in a capable endpoint with --model openai:MODEL --base-url URL.",
    )
    demo.add_argument(
        "--n", type=_positive, default=1, help="Counselor questions for the model (default 1)"
    )
    _context_options(demo, CounselorContext, skip=("mode",))
    # The embedded 135M model takes 1-4 s per call on 2 cores: a small budget keeps the demo to minutes.
    demo.set_defaults(handler=commands.cmd_demo, max_steps=3, max_reflections=0, embedding_model="hash")
    return parser


def package_version() -> str:
    """The installed distribution's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("graphreason")
    except PackageNotFoundError:
        from graphreason import __version__

        return __version__


def _validate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    question = getattr(args, "question", None)  # counselor and gar; toolformer and graphagent check their own
    if args.command == "run" and question is not None and not question.strip():
        parser.error("--question must not be empty")
    if args.command == "eval" and args.method == "counselor" and args.dataset is None and args.path is None:
        args.dataset = "generated"
    if getattr(args, "node", None) is not None and not args.node.strip():
        parser.error("--node must not be empty")


def _user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean bad input: reported in one line with exit code 2."""
    from tools.config import DataMissingError
    from tools.errors import GraphError

    return (GraphError, DataMissingError, FileNotFoundError, ValueError, OSError)


def load_dotenv_file(folder: Path | None = None) -> Path | None:
    """Read ``.env`` in ``folder`` (default: the working directory) into the environment.

    The server reads the same file through ``langgraph.json``; the CLI reads it
    too so endpoint, key and data root are configured once. Variables already
    set in the environment win over the file. Returns the file read, if any.
    """
    path = (folder or Path.cwd()) / ".env"
    if not path.is_file():
        return None
    from dotenv import load_dotenv

    load_dotenv(path, override=False)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``graphreason`` command; returns the exit code."""
    load_dotenv_file()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        _validate(parser, args)
    except SystemExit as exc:  # argparse reports usage errors itself (exit code 2)
        return int(exc.code or 0)
    try:
        code = _dispatch(args)
        sys.stdout.flush()  # a closed pipe shows up here when the output was still buffered
        return code
    except BrokenPipeError:
        # The reader went away (`graphreason ... | head`): that is not an error worth a traceback.
        # Point stdout at /dev/null so the interpreter's own flush at exit stays quiet too.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # stdout without a file descriptor (captured in tests)
            pass
        return 128 + 13  # what a shell reports for a process ended by SIGPIPE


def _dispatch(args: argparse.Namespace) -> int:
    """Run the sub-command's handler, turning the expected failures into one line and an exit code."""
    if os.environ.get("GRAPHREASON_DEBUG"):
        with prepared_models(args):
            return int(args.handler(args) or 0)

    from workflows.models.invoke import ModelUnavailableError

    try:
        with prepared_models(args):  # specs checked, endpoints probed: seconds, before any graph loads
            return int(args.handler(args) or 0)
    except KeyboardInterrupt as exc:
        print(f"\ngraphreason: interrupted{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 130
    except ModelUnavailableError as exc:
        print(f"graphreason: model unavailable: {exc}", file=sys.stderr)
        return ENDPOINT_FAILED
    except BrokenPipeError:
        raise  # an OSError, but not bad input: main() ends quietly
    except _user_errors() as exc:
        print(f"graphreason: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
