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

``run``, ``eval`` and ``train`` are built from the method registry
(:data:`graphreason.workflows.methods.METHODS`): each method's parsers and
handlers live in its own module under :mod:`graphreason.cli.methods`.

Exit codes: 0 success, 1 run failure, 2 bad input (empty question, missing or
malformed graph, bad option or model spec), 3 model endpoint failed (unreachable,
timed out, HTTP error, unreadable reply), 130 interrupted.
Set ``GRAPHREASON_DEBUG=1`` to see tracebacks instead of one-line errors.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from graphreason.cli import commands
from graphreason.cli.case_study import add_case_study_parser
from graphreason.cli.context_options import add_run_settings
from graphreason.cli.options import positive as _positive
from graphreason.cli.options import prepared_models
from graphreason.cli.spark import add_spark_parser
from graphreason.cli.vertex import add_vertex_parser

ENDPOINT_FAILED = 3  # exit code of a model endpoint failure (2 is bad input)
COMMANDS = ("run", "eval", "train", "compare", "case-study", "vertex", "spark", "serve", "demo")
METHOD_COMMANDS = ("run", "eval", "train")  # built from the method registry


def _metavar(names: Sequence[str]) -> str:
    return "{" + ",".join(names) + "}"


def add_method_commands(
    run_methods: argparse._SubParsersAction,
    eval_methods: argparse._SubParsersAction,
    train_targets: argparse._SubParsersAction,
) -> None:
    """Every method's ``run`` / ``eval`` / ``train`` parsers, from the registry as it is now.

    For each method of :data:`graphreason.workflows.methods.METHODS`, the module
    named by ``Method.cli_module`` (``graphreason.cli.methods.NAME``) is imported, when there is one, and its hooks called (see
    :mod:`graphreason.cli.methods`); a method without a run hook gets the generic
    ``run`` built from its :class:`Method`. The registry is read here, not at
    import time, so a method added to it (one line) appears with no other edit.
    """
    from graphreason.cli.methods import generic
    from graphreason.workflows import methods as registry

    run_names, eval_names = [], []
    for method in registry.METHODS:
        hooks = importlib.import_module(method.cli_module) if importlib.util.find_spec(method.cli_module) else None
        add_run = getattr(hooks, "add_run_parser", None)
        if add_run is not None:
            add_run(run_methods)
        else:
            generic.add_run_parser(run_methods, method)
        run_names.append(method.name)
        add_eval = getattr(hooks, "add_eval_parser", None)
        if add_eval is not None:
            add_eval(eval_methods)
            eval_names.append(method.name)
        add_train = getattr(hooks, "add_train_parser", None)
        if add_train is not None:
            add_train(train_targets)
    run_methods.metavar = _metavar(run_names)
    eval_methods.metavar = _metavar(eval_names)


def build_parser(*, with_methods: bool = True, with_demo: bool = True) -> argparse.ArgumentParser:
    """The argparse tree of every sub-command.

    With ``with_methods=False`` the methods' parsers under ``run`` / ``eval`` /
    ``train`` are left out: :func:`main` does that when the command line names
    another sub-command (or none: ``--help``, ``--version``), which then never
    imports the method registry. With ``with_demo=False`` the demo's settings
    (Counselor's context fields, which import langgraph) are left out: :func:`main`
    does that unless the command line names ``demo``, so ``--version`` and
    ``--help`` answer at once.
    """
    parser = argparse.ArgumentParser(
        prog="graphreason", description="LLM-on-graph reasoning methods as LangGraph workflows."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar=_metavar(COMMANDS))

    run = sub.add_parser("run", help="answer one question with a method, streaming its trace")
    run_methods = run.add_subparsers(dest="method", required=True)
    ev = sub.add_parser("eval", help="evaluate a method on a question set")
    ev_methods = ev.add_subparsers(dest="method", required=True)
    train = sub.add_parser(
        "train", help="train (or load from the cache) the graph models and print their scores; "
        "train graphagent collects GraphAgent's experience"
    )
    # not dest="model": the CLI checks an args.model as a model spec before any handler runs
    train_targets = train.add_subparsers(dest="target", required=True)
    if with_methods:
        add_method_commands(run_methods, ev_methods, train_targets)

    compare = sub.add_parser("compare", help="put finished eval runs side by side")
    compare_methods = compare.add_subparsers(dest="method", required=True, metavar="{gar}")
    cg = compare_methods.add_parser("gar", help="GAR runs (e.g. compiled vs agents): modes.md and modes.png")
    cg.add_argument("runs", nargs="+", metavar="LABEL=FOLDER", help="eval gar run folders, each with a label")
    cg.add_argument("--out", required=True, help="folder for modes.md and modes.png")
    cg.set_defaults(handler=commands.cmd_compare_gar)
    add_case_study_parser(sub)
    add_vertex_parser(sub)
    add_spark_parser(sub)

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
        help="all four methods on small examples: GAR, Graph Counselor, Graph-ToolFormer, GraphAgent",
        description="Four parts: GraphAgent-Reasoner on two graph problems; Graph Counselor on a Cora "
        "question, by its reference plan and then by the model (with the embedded model: the tuned reasoner on a CiteSeer "
        "question, a graph it never saw in training); Graph-ToolFormer writing and running one "
        "graph API call; GraphAgent classifying one Cora paper (reference policy, then the model). Each part "
        "prints as it finishes, stamped with the seconds since the start; a first run also converts the "
        "embedded model and prepares its adapters, once (docs/benchmarks.md has measured times). "
        "The Counselor part's defaults differ from `run counselor` (see below): no encoder to load, "
        "3 steps, no reflection. Plug in a capable endpoint with --model openai:MODEL --base-url URL.",
    )
    demo.set_defaults(handler=commands.cmd_demo)
    if with_demo:
        from graphreason.workflows.counselor.context import CounselorContext

        demo.add_argument(
            "--n", type=_positive, default=1, help="Counselor questions for the model (default 1)"
        )
        # Each call of the embedded 135M model costs seconds on a CPU: a small budget keeps the demo short.
        add_run_settings(demo, CounselorContext, skip=("mode",),
                         defaults={"max_steps": 3, "max_reflections": 0, "embedding_model": "hash"})
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names (its first word that is not an option), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


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
    if getattr(args, "node", None) is not None and not args.node.strip():
        parser.error("--node must not be empty")


def _user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean bad input: reported in one line with exit code 2."""
    from graphreason.settings import DataMissingError
    from graphreason.tools.core.errors import GraphError

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
    words = list(sys.argv[1:] if argv is None else argv)
    command = command_of(words)
    parser = build_parser(with_methods=command in METHOD_COMMANDS, with_demo=command == "demo")
    try:
        args = parser.parse_args(words)
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
    from graphreason.settings import SettingError, debug

    try:
        show_tracebacks = debug()
    except SettingError as exc:
        print(f"graphreason: error: {exc}", file=sys.stderr)
        return 2
    if show_tracebacks:
        with prepared_models(args):
            return int(args.handler(args) or 0)

    from graphreason.workflows.models.invoke import ModelUnavailableError

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
