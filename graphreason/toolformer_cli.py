"""``graphreason run toolformer``, ``eval toolformer`` and ``train``: Graph-ToolFormer's sub-commands.

    graphreason run toolformer --text "What is the order of the bull graph?"
    graphreason run toolformer --has-calls --text 'The order is [GR(GL("gpr", "bull_graph"), "toolx:order")-->r].'
    graphreason eval toolformer --path ../shared/data/Graph_Toolformer/prompt --limit 160
    graphreason eval toolformer --model gold --split all      execute every annotated call (oracle)
    graphreason train graph_bert --dataset cora               train (or load) one graph model, print its scores
    graphreason train all                                     every model on every dataset the data root has
    graphreason train generator --threads 2                   LoRA fine-tuning of the embedded generator
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from graphreason.options import positive


def add_run_parser(methods: argparse._SubParsersAction, context_options: Any) -> None:
    from workflows.toolformer.context import ToolformerContext

    run = methods.add_parser("toolformer", help="Graph-ToolFormer: write graph API calls into a text, run them")
    run.add_argument("--text", required=True, help="the statement or question (may hold [TBR])")
    run.add_argument(
        "--has-calls", action="store_true", help="the text already holds its calls: skip generation, run them"
    )
    run.add_argument("--json", action="store_true", help="print the full output as JSON instead")
    context_options(run, ToolformerContext)
    run.set_defaults(handler=cmd_run)


def add_eval_parser(methods: argparse._SubParsersAction, context_options: Any) -> None:
    from evals.toolformer_eval import SPLITS
    from workflows.toolformer.context import ToolformerContext

    ev = methods.add_parser("toolformer", help="Graph-ToolFormer: API-Gen Acc, Rouge, BLEU, execution accuracy")
    ev.add_argument(
        "--path", default=None,
        help="a prompts file or folder in the upstream format (default: Graph_Toolformer/prompt in the data root)",
    )
    ev.add_argument(
        "--split", choices=SPLITS, default="val",
        help="for prompts_train files: val = our 160-per-dataset validation slice (default), train, or all",
    )
    ev.add_argument("--limit", type=positive, default=None, help="at most N records, round-robin over datasets")
    ev.add_argument("--concurrency", type=positive, default=1, help="records run in parallel (default 1)")
    ev.add_argument("--out", default=None, help="run folder (default: runs/toolformer-...); rerun to resume")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    # --model gold: score the files' own annotations (an oracle); any other spec generates
    context_options(ev, ToolformerContext)
    ev.set_defaults(handler=cmd_eval)


def add_train_parser(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """``train MODEL``: one sub-command per graph model domain (and ``all``); returns them for other methods."""
    from tools.graph_models.hub import MODELS

    train = sub.add_parser(
        "train", help="train (or load from the cache) the graph models and print their scores; "
        "train graphagent collects GraphAgent's experience"
    )
    # not dest="model": the CLI checks an args.model as a model spec before any handler runs
    models = train.add_subparsers(dest="target", required=True)
    for name in (*MODELS, "all"):
        model = models.add_parser(
            name, help="every graph model on every dataset" if name == "all" else f"the {name} graph model"
        )
        model.add_argument("--dataset", default=None, help="one dataset (default: every dataset of the model)")
        model.add_argument("--force", action="store_true", help="retrain even when a cached model exists")
        model.add_argument(
            "--cv", action="store_true", help="seg_bert: also run the 10-fold protocol of the GIN paper"
        )
        model.add_argument("--json", action="store_true", help="print the reports as JSON")
        model.add_argument("--no-progress", action="store_true", help="no progress bars")
        model.set_defaults(handler=cmd_train)
    from graphreason.finetune_cli import add_train_parser as add_generator_parser

    add_generator_parser(models)
    return models


# ------------------------------------------------------------------ handlers
def _context(args: argparse.Namespace) -> Any:
    from graphreason.context_options import context_from_args
    from workflows.toolformer.context import ToolformerContext

    return context_from_args(ToolformerContext, args)


def cmd_run(args: argparse.Namespace) -> int:
    from graphreason.trace import EventPrinter
    from workflows.toolformer import stream_solve

    if not args.text.strip():
        raise ValueError("--text must not be empty")
    context = _context(args)
    if args.json:
        output = stream_solve(args.text, context, has_calls=args.has_calls)
        print(json.dumps({k: v for k, v in output.items() if k not in ("started", "llm_usage")},
                         indent=2, ensure_ascii=False, default=str))
        return 0
    print(f"Input: {args.text}", flush=True)
    output = stream_solve(args.text, context, has_calls=args.has_calls, on_event=EventPrinter(sys.stdout))
    print(f"\nAnnotated: {output.get('annotated', '')}")
    print(f"Final    : {output.get('final', '')}")
    failed = [r for r in output.get("results") or [] if not r.get("ok")]
    if failed:  # each error was printed in full as it happened (call_error above)
        print(f"{len(failed)} of {len(output.get('results') or [])} calls failed; their brackets stay as written.")
    if not output.get("calls"):
        print("No graph API call was generated: the text is unchanged."
              + ("" if args.has_calls else " A small embedded model often misses the call; try "
                 "--model openai:MODEL --base-url URL."))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from evals.report import markdown_table
    from evals.toolformer_eval import run_toolformer_eval
    from evals.toolformer_report import COLUMNS

    # --model gold builds a context like any other, so every run option still reaches the executor
    result = run_toolformer_eval(
        path=args.path, split=args.split, limit=args.limit, concurrency=args.concurrency, out_dir=args.out,
        context=_context(args), progress=not args.no_progress,
    )
    for mode, rows in result.summary["by_dataset"].items():
        print(f"\n{mode}")
        print(markdown_table({**rows, "all": result.summary["modes"][mode]}, "dataset", COLUMNS))
    print(f"\nRecords : {result.records_path}\nReport  : {result.report_path}\nPlot    : {result.plot_path}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from tools.graph_models import hub

    pairs = [(d, s) for d, s in hub.available() if args.target in ("all", d)]
    if args.dataset:
        wanted = args.dataset.strip().lower().replace("_", "-")
        pairs = [(d, s) for d, s in pairs if s == wanted]
        if not pairs:
            raise ValueError(f"{args.target} has no dataset {args.dataset!r}; see `graphreason train --help`")
    reports = []
    for domain, dataset in pairs:
        report = hub.train(domain, dataset, force=args.force, progress=not args.no_progress).to_dict()
        if args.cv and domain == "seg_bert":
            from tools.graph_models.molecule import cross_validate

            report["cross_validation"] = cross_validate(dataset, progress=not args.no_progress)
        reports.append(report)
        if not args.json:
            metrics = ", ".join(f"{k} {v:.4g}" for k, v in report["metrics"].items())
            how = "cached" if report.get("cached") else f"trained in {report['seconds']:.1f} s"
            print(f"{domain}:{dataset}: {metrics} ({how}; {report.get('split', '')})", flush=True)
            if "cross_validation" in report:
                print(f"  10-fold: {report['cross_validation']}")
    if args.json:
        print(json.dumps(reports, indent=2, default=str))
    return 0
