"""The handlers of the sub-commands that belong to no single method's CLI module: ``serve``, ``demo``, ``compare``.

Each method's ``run`` / ``eval`` / ``train`` handlers live in :mod:`graphreason.cli.methods`.
"""

from __future__ import annotations

import argparse


def cmd_serve(args: argparse.Namespace) -> int:
    """``graphreason serve``: langgraph dev on a free loopback port."""
    from graphreason.cli.serve import serve

    return serve(port=args.port, config=args.config, reload=not args.no_reload, host=args.host)


def cmd_demo(args: argparse.Namespace) -> int:
    """``graphreason demo``: GAR on two problems, then Graph Counselor (see :mod:`graphreason.cli.demo`)."""
    from graphreason.cli.demo import cmd_demo as run_demo

    return run_demo(args)


def cmd_compare_gar(args: argparse.Namespace) -> int:
    """``graphreason compare gar LABEL=DIR ...``: GAR runs side by side (``modes.md``, ``modes.png``)."""
    from graphreason.evals.gar.report import compare_gar_runs

    runs = {}
    for spec in args.runs:
        label, sep, folder = spec.partition("=")
        if not sep or not label.strip() or not folder.strip():
            raise ValueError(f"runs are given as LABEL=FOLDER, got {spec!r}")
        runs[label.strip()] = folder.strip()
    table, plot = compare_gar_runs(runs, args.out)
    print(f"Table: {table}\nPlot : {plot}")
    return 0
