"""``graphreason run toolformer``, ``eval toolformer`` and ``train``: Graph-ToolFormer's sub-commands.

    graphreason run toolformer --text "What is the order of the bull graph?"
    graphreason run toolformer --has-calls --text 'The order is [GR(GL("gpr", "bull_graph"), "toolx:order")-->r].'
    graphreason eval toolformer --path ../shared/data/Graph_Toolformer/prompt --limit 160
    graphreason eval toolformer --model gold --split all      execute every annotated call (oracle)
    graphreason train graph_bert --dataset cora               train (or load) one graph model, print its scores
    graphreason train all                                     every model on every dataset the data root has
    graphreason train generator --threads 2                   LoRA fine-tuning of the embedded generator

``train generator`` (LoRA fine-tuning of the embedded SmolLM2 as the generator):

    graphreason train generator --threads 2 --out runs/generator     stage 1 of the shipped recipe (its time: the adapter's card)
    graphreason train generator --threads 2 --out runs/generator --resume   continue from the newest checkpoint
    graphreason train generator --init-adapter runs/generator/adapter --mix gpr=900,... --out runs/stage2
                                                                    a second stage, weighted to hard datasets
    make train-generator                                             both shipped stages and the export (time: the card)
    python -m graphreason.llm.finetune.export runs/generator llm/adapters/toolformer-generator   ship it (fp16 + card)

Its data: our training side of prompts_train (graphreason.tools.toolformer.loaders.split), a
balanced mix over datasets; the validation loss uses the held-out slice. CiteSeer and Last.fm
are unseen graphs: no record of theirs, nor any record naming them, is trained on.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from graphreason.cli.context_options import add_method_parser
from graphreason.cli.options import (
    add_eval_run_options,
    add_json_option,
    eval_run_values,
    non_negative,
    positive,
)

PROMPT_FORMS = ("workflow", "short")


def add_run_parser(methods: argparse._SubParsersAction) -> None:
    """``run toolformer``: calls written into one text, run and substituted."""
    from graphreason.workflows.toolformer.context import ToolformerContext

    run = add_method_parser(
        methods,
        "toolformer",
        help="Graph-ToolFormer: write graph API calls into a text, run them",
        context_cls=ToolformerContext,
        handler=cmd_run,
    )
    run.add_argument("--text", required=True, help="the statement or question (may hold [TBR])")
    run.add_argument(
        "--has-calls", action="store_true", help="the text already holds its calls: skip generation, run them"
    )
    add_json_option(run)


def add_eval_parser(methods: argparse._SubParsersAction) -> None:
    """``eval toolformer``: call writing and execution scored on the upstream prompt files."""
    from graphreason.evals.toolformer.evaluate import SPLITS
    from graphreason.workflows.toolformer.context import ToolformerContext

    ev = add_method_parser(
        methods,
        "toolformer",
        help="Graph-ToolFormer: API-Gen Acc, Rouge, BLEU, execution accuracy",
        description="Score a model's graph API calls against the annotated prompts. Besides the model specs "
        "below, --model gold scores the files' own annotated outputs (an oracle row: no model runs, every "
        "annotated call is executed).",
        context_cls=ToolformerContext,
        handler=cmd_eval,
    )
    ev.add_argument(
        "--path",
        default=None,
        help="a prompts file or folder in the upstream format (default: Graph_Toolformer/prompt in the data root)",
    )
    ev.add_argument(
        "--split",
        choices=SPLITS,
        default="val",
        help="for prompts_train files: val = our 160-per-dataset validation slice (default), train, or all",
    )
    add_eval_run_options(
        ev,
        items="records",
        verb="run",
        out="runs/toolformer-...",
        limit="at most N records, round-robin over datasets",
    )


def add_train_parser(models: argparse._SubParsersAction) -> None:
    """``train MODEL``: one target per graph model domain, ``all``, and ``generator`` (the LoRA fine-tuning)."""
    from graphreason.tools.graph_models.hub import MODELS

    for name in (*MODELS, "all"):
        model = models.add_parser(
            name, help="every graph model on every dataset" if name == "all" else f"the {name} graph model"
        )
        model.add_argument(
            "--dataset", default=None, help="one dataset (default: every dataset of the model)"
        )
        model.add_argument("--force", action="store_true", help="retrain even when a cached model exists")
        if name in ("seg_bert", "all"):  # the only model with a cross-validation protocol
            model.add_argument(
                "--cv", action="store_true", help="seg_bert: also run the 10-fold protocol of the GIN paper"
            )
        model.add_argument("--json", action="store_true", help="print the reports as JSON")
        model.add_argument("--no-progress", action="store_true", help="no progress bars")
        model.set_defaults(handler=cmd_train)
    _add_generator_parser(models)


# ------------------------------------------------------------------ handlers
def _context(args: argparse.Namespace) -> Any:
    from graphreason.cli.context_options import context_from_args
    from graphreason.workflows.toolformer.context import ToolformerContext

    return context_from_args(ToolformerContext, args)


def cmd_run(args: argparse.Namespace) -> int:
    from graphreason.cli.trace import EventPrinter
    from graphreason.workflows.toolformer import stream_solve

    if not args.text.strip():
        raise ValueError("--text must not be empty")
    context = _context(args)
    if args.json:
        output = stream_solve(args.text, context, has_calls=args.has_calls)
        print(
            json.dumps(
                {k: v for k, v in output.items() if k not in ("started", "llm_usage")},
                indent=2,
                ensure_ascii=False,
                default=str,
            )
        )
        return 0
    print(f"Input: {args.text}", flush=True)
    output = stream_solve(args.text, context, has_calls=args.has_calls, on_event=EventPrinter(sys.stdout))
    print(f"\nAnnotated: {output.get('annotated', '')}")
    print(f"Final    : {output.get('final', '')}")
    failed = [r for r in output.get("results") or [] if not r.get("ok")]
    if failed:  # each error was printed in full as it happened (call_error above)
        print(
            f"{len(failed)} of {len(output.get('results') or [])} calls failed; their brackets stay as written."
        )
    if not output.get("calls"):
        print(
            "No graph API call was generated: the text is unchanged."
            + (
                ""
                if args.has_calls
                else " A small embedded model often misses the call; try --model openai:MODEL --base-url URL."
            )
        )
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from graphreason.evals.report import markdown_table
    from graphreason.evals.toolformer.evaluate import run_toolformer_eval
    from graphreason.evals.toolformer.report import COLUMNS

    # --model gold builds a context like any other, so every run option still reaches the executor
    result = run_toolformer_eval(
        path=args.path,
        split=args.split,
        **eval_run_values(args),
        context=_context(args),
    )
    for mode, rows in result.summary["by_dataset"].items():
        print(f"\n{mode}")
        print(markdown_table({**rows, "all": result.summary["modes"][mode]}, "dataset", COLUMNS))
    print(f"\nRecords : {result.records_path}\nReport  : {result.report_path}\nPlot    : {result.plot_path}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from graphreason.tools.graph_models import hub

    pairs = [(d, s) for d, s in hub.available() if args.target in ("all", d)]
    if args.dataset:
        wanted = args.dataset.strip().lower().replace("_", "-")
        pairs = [(d, s) for d, s in pairs if s == wanted]
        if not pairs:
            raise ValueError(f"{args.target} has no dataset {args.dataset!r}; see `graphreason train --help`")
    reports = []
    for domain, dataset in pairs:
        report = hub.train(domain, dataset, force=args.force, progress=not args.no_progress).to_dict()
        if getattr(args, "cv", False) and domain == "seg_bert":
            from graphreason.tools.graph_models.molecule import cross_validate

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


# ------------------------------------------------------------------ train generator


def _add_generator_parser(models: argparse._SubParsersAction) -> None:
    """The ``generator`` target under ``train`` (``models`` is train's sub-parsers, dest ``target``)."""
    from graphreason.cli.finetune import add_training_target

    gen = add_training_target(
        models,
        "generator",
        summary="fine-tune the embedded SmolLM2 (LoRA) to write Graph-ToolFormer's API calls",
        description="LoRA fine-tuning of SmolLM2-135M-Instruct on Graph-ToolFormer's prompts_train "
        "(our training split; the validation loss uses the held-out 160-per-dataset slice). "
        "Checkpoints go to --out; --resume continues the newest one exactly.",
        out="runs/generator", max_length=320, lr=2e-4, eval_every=100,
        max_length_help="longest example in tokens; longer ones are dropped, not cut (default 320: above the p99 "
        "of both forms)",
    )
    gen.add_argument(
        "--path", default=None, help="prompt folder (default: Graph_Toolformer/prompt in the data root)"
    )
    gen.add_argument(
        "--examples",
        type=positive,
        default=None,
        help="training examples, spread evenly over the datasets (default 4200: 300 for each of the 14 that are "
        "not unseen graphs; one pass is the first stage of the shipped recipe, whose time the adapter's card records; with --mix, the mix's total)",
    )
    gen.add_argument(
        "--per-dataset", type=non_negative, default=None, help="cap per dataset instead of an even spread"
    )
    gen.add_argument(
        "--mix",
        default=None,
        help="weighted mix, e.g. gpr=900,twitter=200: records drawn from each named dataset; the others take "
        "--per-dataset (0 unless given)",
    )
    gen.add_argument(
        "--val-per-dataset", type=positive, default=4, help="validation records per dataset (default 4)"
    )
    gen.add_argument(
        "--prompt-form",
        choices=PROMPT_FORMS,
        default="short",
        help="short: only 'Input: ...\\nOutput:', what the workflow sends to the tuned generator (default; half "
        "the tokens, twice the speed); workflow: the few-shot workflow's instruction with no examples",
    )
    gen.set_defaults(handler=cmd_train_generator)


def prompt_function(form: str) -> Any:
    """The user-turn text for an input: the workflow's own zero-shot prompt, or the short form."""
    if form == "workflow":
        from graphreason.workflows.toolformer.prompts import generation_prompt

        return lambda text: generation_prompt(text, [])
    if form == "short":
        from graphreason.workflows.toolformer.prompts import tuned_prompt

        return tuned_prompt
    raise ValueError(f"prompt form must be one of {PROMPT_FORMS}, got {form!r}")


DEFAULT_EXAMPLES = 4200  # 300 for each of the 14 datasets left when the unseen graphs' are taken out


def cmd_train_generator(args: argparse.Namespace) -> int:
    from graphreason.cli.finetune import run_training
    from graphreason.llm.finetune.data import parse_mix
    from graphreason.tools.toolformer.training_data import training_data

    counts = parse_mix(args.mix) if args.mix else None
    examples = args.examples if args.examples is not None or counts else DEFAULT_EXAMPLES
    per_dataset = args.per_dataset if args.per_dataset is not None or not counts else 0

    def build(tokenizer: Any) -> Any:
        return training_data(
            tokenizer,
            prompt_function(args.prompt_form),
            root=args.path,
            examples=examples,
            per_dataset=per_dataset,
            val_per_dataset=args.val_per_dataset,
            max_length=args.max_length,
            seed=args.seed,
            counts=counts,
        )

    card = {
        "data": {
            "source": "Graph_Toolformer/prompt/**/prompts_train, less the unseen graphs' records",
            "prompt_form": args.prompt_form,
        },
        "split": "graphreason.tools.toolformer.loaders.split: 160 validation records per dataset (seed 0), never trained on",
    }
    return run_training(args, "generator", build, card)
