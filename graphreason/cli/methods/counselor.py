"""``graphreason run counselor`` and ``eval counselor``: Graph Counselor's sub-commands.

graphreason run counselor --graph cora --question "..."      stream a trace, print the answer
graphreason eval counselor --dataset generated --limit 20     compare modes, write a report
graphreason train reasoner --threads 2                        LoRA fine-tuning of the embedded reasoner
graphreason train planner --out DIR                           fit the operation planner (seconds)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from graphreason.cli.context_options import add_method_parser, context_from_args
from graphreason.cli.options import add_eval_run_options, add_json_option, eval_run_values, positive
from graphreason.cli.trace import EventPrinter, usage_line


def _lenient_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lenient-graph",
        action="store_true",
        help="keep neighbour ids that a graph.json lists but never defines, as untyped nodes "
        "(default: refuse the file and name them)",
    )


def add_run_parser(methods: argparse._SubParsersAction) -> None:
    """``run counselor``: one question, the trace streamed."""
    from graphreason.workflows.counselor.context import CounselorContext

    counselor = add_method_parser(
        methods, "counselor", help="Graph Counselor", context_cls=CounselorContext, handler=cmd_run
    )
    counselor.add_argument("--question", required=True, help="the question to answer")
    add_json_option(counselor, "the full output (trace included)")
    _lenient_option(counselor)


def add_eval_parser(methods: argparse._SubParsersAction) -> None:
    """``eval counselor``: the modes compared on a question set."""
    from graphreason.evals.datasets.program_questions import (
        ALL_FAMILIES,
        ALL_SHAPES,
        EVAL_ONLY_FAMILIES,
        TIE_SHAPES,
    )
    from graphreason.workflows.counselor.context import MODES, CounselorContext

    ec = add_method_parser(
        methods,
        "counselor",
        help="Graph Counselor and its baselines",
        context_cls=CounselorContext,
        handler=cmd_eval,
        skip=("graph", "mode"),
    )  # the eval's own --graph and --modes
    ec.add_argument(
        "--dataset",
        choices=("generated", "grbench", "programs"),
        default=None,
        help="generated: template questions over --graph (default cora); programs: questions drawn as programs "
        "over --graph's schema (any graph, --n-per-template of each shape, many wordings); grbench: GRBench "
        "questions, needs --graph PATH/graph.json",
    )
    ec.add_argument(
        "--path", default=None, help="question file or folder (QAItem JSONL or GRBench JSONL / data folder)"
    )
    ec.add_argument(
        "--graph",
        default=None,
        help="graph name, graph.json path or renamed copy (last-fm-items: Last.fm as items, users and tags, for "
        "evaluation only; written once under the cache) (overrides the graph named by each question; "
        "required with --path when the questions do not name their graph)",
    )
    ec.add_argument(
        "--modes", nargs="+", choices=MODES, default=list(MODES), help="modes to compare (default: all four)"
    )
    add_eval_run_options(
        ec,
        items="questions",
        verb="answered",
        out="runs/counselor-<dataset>...",
        limit="at most N questions: round-robin over level/template groups, or a --seed-ed random sample ",
    )
    ec.add_argument(
        "--metric-judge-model", default=None, help="model spec for the LLM-judge score (off by default)"
    )
    ec.add_argument(
        "--n-per-template", type=positive, default=5, help="generated questions per template (default 5)"
    )
    ec.add_argument(
        "--families",
        nargs="+",
        choices=ALL_FAMILIES,
        default=None,
        help="with --dataset programs: ask only these wording families (a leave-one-wording-family-out "
        f"validation of a reasoner trained with --hold-out-family; {', '.join(EVAL_ONLY_FAMILIES)} are never "
        "trained on and asked only when named; default: all the trainable ones)",
    )
    ec.add_argument(
        "--shapes",
        nargs="+",
        choices=ALL_SHAPES,
        default=None,
        help="with --dataset programs: ask only these program shapes, --n-per-template of each (default: all but "
        f"the ties, {', '.join(TIE_SHAPES)}: a superlative no single node wins, answered by every tied node)",
    )
    ec.add_argument(
        "--bare-names",
        action="store_true",
        help="with --dataset programs: write the nodes' names without the double quotes around them",
    )
    _lenient_option(ec)


# ------------------------------------------------------------------ handlers


def add_train_parser(models: argparse._SubParsersAction) -> None:
    """``train reasoner``: LoRA fine-tuning of the embedded SmolLM2 as the Counselor's reasoning agents."""
    from graphreason.cli.finetune import add_training_target
    from graphreason.evals.counselor.trajectories import LINK_NAMES, TRAIN_GRAPHS, VALIDATION_FRACTION
    from graphreason.evals.datasets.program_questions import FAMILIES
    from graphreason.evals.datasets.renamed_graphs import RENAMINGS

    reasoner = add_training_target(
        models,
        "reasoner",
        summary="fine-tune the embedded SmolLM2 (LoRA) as Graph Counselor's reasoner, on a teacher's trajectories",
        description="LoRA fine-tuning of SmolLM2-135M-Instruct on every Plan, Thought and Action turn of a "
        "teacher's trajectories through the real Counselor workflow (the tuned reasoner's short prompt, "
        f"recorded as the workflow sends it), over generated questions on {', '.join(TRAIN_GRAPHS)} and the "
        "direction-free questions on undirected copies of Cora (one relation, renamed per copy). "
        f"{VALIDATION_FRACTION:.0%} of each template's questions are held out for the validation loss; CiteSeer "
        "(the unseen graph) is never used. Checkpoints go to --out; --resume continues the newest one exactly.",
        out="runs/reasoner", max_length=768, lr=2e-4, eval_every=50,
        max_length_help="longest example in tokens; longer ones are dropped, not cut (default 768)",
    )
    reasoner.add_argument(
        "--graphs", default=",".join(TRAIN_GRAPHS),
        help=f"comma-separated training graphs with question templates (default {','.join(TRAIN_GRAPHS)})",
    )  # fmt: skip
    reasoner.add_argument(
        "--links", default=",".join(LINK_NAMES),
        help="comma-separated relation names, one undirected copy of Cora each (default "
        f"{','.join(LINK_NAMES)}; empty: none)",
    )  # fmt: skip
    reasoner.add_argument(
        "--n-per-template", type=positive, default=20, help="generated questions per template (default 20)"
    )
    reasoner.add_argument(
        "--programs", default="",
        help="comma-separated graphs (names, graph.json paths, or renamed copies of a training graph: "
        f"{', '.join(RENAMINGS)}) to add question programs over their schema; never an unseen graph "
        "(default: none)",
    )  # fmt: skip
    reasoner.add_argument(
        "--programs-per-shape", type=positive, default=20, help="program questions per shape and graph (default 20)"
    )
    reasoner.add_argument(
        "--hold-out-graph", default=None,
        help="hold out every question on this graph (its name): a leave-one-graph-out validation",
    )  # fmt: skip
    reasoner.add_argument(
        "--hold-out-family", default=None, choices=FAMILIES,
        help="hold out every program question worded in this family: a leave-one-wording-family-out validation",
    )  # fmt: skip
    reasoner.add_argument("--examples", type=positive, default=None, help="at most N training examples (default: all)")
    reasoner.add_argument(
        "--val-examples", type=positive, default=48, help="validation examples per graph for the loss (default 48)"
    )
    reasoner.set_defaults(handler=cmd_train_reasoner)
    _add_planner_parser(models, FAMILIES)


def _add_planner_parser(models: argparse._SubParsersAction, families: tuple[str, ...]) -> None:
    """``train planner``: the operation planner, from the reasoner's training questions (seconds on a CPU)."""
    from graphreason.evals.counselor.trajectories import LINK_NAMES, TRAIN_GRAPHS
    from graphreason.evals.datasets.renamed_graphs import RENAMINGS

    planner = models.add_parser(
        "planner",
        help="fit Graph Counselor's operation planner (which functions a question's Action needs)",
        description="Fit the operation planner (TF-IDF n-grams and a MiniLM sentence embedding, logistic "
        "regression) on the tuned "
        "reasoner's training questions, each labelled with the skeleton of its reference action, and measure it "
        "on a held-out wording family, on graphs it never saw (CiteSeer, Last.fm, Wikispeedia: evaluation only) "
        "and on CiteSeer's template questions. Writes planner.json and card.json to --out.",
    )
    planner.add_argument("--out", default="runs/planner", help="output folder (default runs/planner)")
    planner.add_argument("--graphs", default=",".join(TRAIN_GRAPHS), help="template graphs (as train reasoner)")
    planner.add_argument("--links", default=",".join(LINK_NAMES), help="undirected Cora copies (as train reasoner)")
    planner.add_argument("--n-per-template", type=positive, default=12, help="questions per template (default 12)")
    planner.add_argument(
        "--programs", default=",".join(["cora", "movielens", "wn18rr", "fb15k-237", *RENAMINGS]),
        help="graphs with question programs (default: the training graphs and their renamed copies)",
    )
    planner.add_argument("--programs-per-shape", type=positive, default=12, help="per shape and graph (default 12)")
    planner.add_argument(
        "--hold-out-family", default="terse", choices=families,
        help="wording family left out of training and measured apart (default terse)",
    )
    planner.add_argument("--seed", type=int, default=0, help="question seed (default 0)")
    planner.add_argument(
        "--measure-on", default="citeseer,last-fm,wikispeedia",
        help="graphs never trained on to measure it on (empty: none; default citeseer,last-fm,wikispeedia)",
    )
    planner.set_defaults(handler=cmd_train_planner)


def cmd_train_planner(args: argparse.Namespace) -> int:
    import datetime
    import platform
    import tempfile
    import time
    from collections import Counter

    from graphreason.evals.counselor.operation_planner import fit_planner, labelled, measure
    from graphreason.evals.counselor.trajectories import UNSEEN, held_out_whole, training_questions
    from graphreason.evals.datasets.generated import generate_questions
    from graphreason.evals.datasets.program_questions import (
        EVAL_ONLY_FAMILIES,
        SHAPES,
        check_trainable,
        program_questions,
    )
    from graphreason.tools.core.loaders import load_graph
    from graphreason.workflows.counselor.context import CounselorContext
    from graphreason.workflows.counselor.operations import PLANNER_FILE, OperationPlanner

    graphs = [g.strip().lower() for g in args.graphs.split(",") if g.strip()]
    programs = [g.strip() for g in args.programs.split(",") if g.strip()]
    for spec in [*graphs, *programs]:  # before anything is read
        if spec.lower() in UNSEEN:
            raise ValueError(f"{spec} is an unseen graph: the planner is never trained on it")
        check_trainable(spec)
    links = [name.strip() for name in args.links.split(",") if name.strip()]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="planner-graphs-") as work:  # Cora's copies and the renamed graphs
        items = training_questions(
            graphs, links=links, n_per_template=args.n_per_template, seed=args.seed, work_dir=work,
            program_graphs=programs, programs_per_shape=args.programs_per_shape,
        )  # fmt: skip
    held = [item for item in items if held_out_whole(item, None, args.hold_out_family)]
    pairs = labelled(item for item in items if not held_out_whole(item, None, args.hold_out_family))
    payload = fit_planner(pairs)
    seconds = round(time.perf_counter() - started, 1)
    (out / PLANNER_FILE).write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    planner = OperationPlanner(payload)
    confidence = CounselorContext.__dataclass_fields__["operation_confidence"].default
    validation: dict[str, Any] = {f"{args.hold_out_family} family (held out, training graphs)": measure(planner, held, confidence)}
    for name in [g.strip() for g in args.measure_on.split(",") if g.strip()]:
        store = load_graph(name)
        asked = program_questions(store, 3 * len(SHAPES), seed=args.seed)
        validation[f"{name} programs (never trained on)"] = measure(planner, asked, confidence, store)
        for family in EVAL_ONLY_FAMILIES:  # sentence frames no model here was fitted to
            worded = program_questions(store, 3 * len(SHAPES), seed=args.seed, families=[family])
            validation[f"{name} programs, {family} wordings (evaluation only)"] = measure(
                planner, worded, confidence, store
            )
    if "citeseer" in args.measure_on:
        template = generate_questions("citeseer", n_per_template=5, seed=args.seed)
        validation["citeseer templates (in-template: the reasoner's template family, an unseen graph)"] = measure(
            planner, template, confidence
        )
    card = {
        "model": "operation planner: TF-IDF word 1-2-grams and character 2-5-grams beside the question's "
        f"{payload.get('embedding', {}).get('model', 'no')} sentence embedding (scaled by "
        f"{payload.get('embedding', {}).get('weight', 0)}), multinomial logistic regression (scikit-learn), "
        "written as plain JSON",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": "graphreason train planner " + " ".join(sys.argv[3:]),
        "machine": {"platform": platform.platform(), "cpu_count": os.cpu_count()},
        "seconds": seconds,
        "data": {
            "graphs": graphs, "undirected_cora_relations": links, "program_graphs": programs,
            "n_per_template": args.n_per_template, "programs_per_shape": args.programs_per_shape, "seed": args.seed,
            "held_out_family": args.hold_out_family, "questions": len(items), "trained_on": len(pairs),
            "skeletons": dict(Counter(label for _, label in pairs).most_common()),
            "never": "CiteSeer or Last.fm (refused before anything is read)",
        },
        "confidence": confidence,
        "validation": validation,
    }  # fmt: skip
    (out / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    print(f"operation planner: {len(pairs)} questions, {len(payload['classes'])} skeletons, {seconds} s; wrote {out}")
    for name, row in validation.items():
        print(f"  {name}: n {row['n']}, top-1 {row.get('top1')}%, applied {row.get('applied')}%, "
              f"right when applied {row.get('applied_right')}%")  # fmt: skip
    return 0


HELD_OUT_FILE = "held_out.jsonl"  # the held-out questions of a reasoner run, beside its card


def cmd_train_reasoner(args: argparse.Namespace) -> int:
    from graphreason.cli.finetune import run_training
    from graphreason.evals.counselor.trajectories import UNSEEN, build_records
    from graphreason.evals.datasets.generated import TEMPLATES
    from graphreason.llm.finetune.data import training_data
    from graphreason.workflows.counselor.tuned import TRAINED_FORM

    graphs = [g.strip().lower() for g in args.graphs.split(",") if g.strip()]
    unseen = [g for g in graphs if g in UNSEEN]
    if unseen:
        raise ValueError(f"{unseen[0]} is the unseen graph: the tuned reasoner is never trained on it")
    programs = [g.strip() for g in args.programs.split(",") if g.strip()]
    for spec in programs:  # before any model is loaded
        from graphreason.evals.datasets.program_questions import check_trainable

        check_trainable(spec)
    unknown = [g for g in graphs if g not in TEMPLATES]
    if unknown or not (graphs or programs):
        known = ", ".join(g for g in TEMPLATES if g not in UNSEEN)
        raise ValueError(f"--graphs takes graphs with question templates ({known}); got {args.graphs!r}")
    links = [name.strip() for name in args.links.split(",") if name.strip()]
    bad = [name for name in links if not re.fullmatch(r"[a-z][a-z0-9_]{0,30}", name)]
    if bad:
        raise ValueError(f"--links takes relation names of lower-case letters, digits and _; got {bad[0]!r}")
    card: dict[str, Any] = {
        "data": {"source": "teacher trajectories through the Counselor workflow over generated questions on "
                 f"{', '.join(graphs) or 'no template graph'}"
                 + (f" and question programs over {', '.join(programs)}" if programs else "") + "; never CiteSeer or Last.fm"},
        "prompt": "graphreason.workflows.counselor.tuned.tuned_prompt",
        "prompt_form": TRAINED_FORM,  # the graph line the trajectories show; the workflow sends this adapter the same
    }  # fmt: skip

    def by_graph(records: list[Any]) -> dict[str, list[Any]]:
        grouped: dict[str, list[Any]] = {}
        for record in records:
            grouped.setdefault(record.graph, []).append(record)
        return grouped

    def build(tokenizer: Any) -> Any:  # after run_training has checked --out and --resume
        train, validation, info = build_records(
            graphs, links=links, n_per_template=args.n_per_template, seed=args.seed,
            work_dir=Path(args.out) / "graphs", held_out_file=Path(args.out) / HELD_OUT_FILE,
            program_graphs=programs, programs_per_shape=args.programs_per_shape,
            held_out_graph=args.hold_out_graph, held_out_family=args.hold_out_family,
        )  # fmt: skip
        card["data"].update(info)
        card["split"] = (
            f"{len(info['held_out_qids'])} of {info['questions']} questions held out of training (stratified by "
            f"template, seed {args.seed}), written to {HELD_OUT_FILE} beside this card for "
            f"`graphreason eval counselor --path`"
        )
        print(f"teacher trajectories: {info['questions']} questions, {len(train)} train and {len(validation)} "
              f"held-out turns; {len(info['skipped_qids'])} question(s) left out (observation cut short)",
              flush=True)  # fmt: skip
        return training_data(
            tokenizer, lambda prompt: prompt, by_graph(train), by_graph(validation),
            examples=args.examples, val_per_dataset=args.val_examples, max_length=args.max_length, seed=args.seed,
        )  # fmt: skip

    return run_training(args, "reasoner", build, card)


def counselor_context(args: argparse.Namespace, **overrides: Any) -> Any:
    """The CounselorContext the command line describes (see :mod:`graphreason.cli.context_options`)."""
    from graphreason.workflows.counselor.context import CounselorContext

    return context_from_args(CounselorContext, args, **overrides)


def _load_graph_first(context: Any) -> None:
    """Load the graph and its Retrieve index before the trace starts.

    A bad graph then fails with the loader's message before any output, and the
    index build (first use only) shows its own progress bar instead of stalling a run.
    """
    if context.mode == "base":
        return
    from graphreason.tools.counselor.resources import get_graph, get_graph_functions

    get_graph(context.graph)
    get_graph_functions(context.graph, context.embedding_model, context.retrieval)


def _renamed_graph(args: argparse.Namespace) -> None:
    """``--graph last-fm-items``: a renamed copy (``evals/datasets/renamed_graphs.py``) is written once under the
    cache and read from there; any other graph spec is kept."""
    if getattr(args, "graph", None):
        from graphreason.evals.datasets.renamed_graphs import renamed_graph_spec
        from graphreason.settings import cache_dir

        args.graph = renamed_graph_spec(args.graph, cache_dir("renamed-graphs"))


def _lenient_graph(args: argparse.Namespace) -> None:
    """``--lenient-graph``: the loader reads the setting from the environment, as a server would."""
    if getattr(args, "lenient_graph", False):
        from graphreason.tools.core.loaders.grbench import LENIENT_ENV

        os.environ[LENIENT_ENV] = "1"




def embedded_note(context: Any) -> str:
    """What the embedded model can do in Graph Counselor and this run's budget ("" otherwise)."""
    if not context.embedded_reasoner:
        return ""
    budget = (
        f"This run is bounded to {context.max_steps} step(s) and {context.max_reflections} reflection(s). For answers, "
        "use a capable endpoint (--model openai:MODEL --base-url URL), where the paper's T=10, N=2 apply."
    )
    if context.tuned_spec is not None:
        from graphreason.workflows.counselor.tuned import tuned_reasoner_scores

        return (
            f"graphreason: the reasoning agents run Graph Counselor's tuned reasoner ({context.tuned_spec}, the "
            "embedded SmolLM2-135M with the shipped LoRA adapter; --no-tuned-reasoner for the plain model), greedily "
            f"unless --temperature is given. It is a 135M model: {tuned_reasoner_scores()}, so expect wrong "
            f"answers too. {budget}"
        )
    return (
        "graphreason: the embedded SmolLM2-135M is not tuned for Graph Counselor. "
        + (
            "Its Actions are decoded under the call grammar (--no-grammar turns it off), so they parse and run, "
            "but it rarely picks the calls or the answer a question needs: expect a wrong answer. "
            if context.grammar
            else "Without the call grammar it rarely writes a usable graph call: expect no answer. "
        )
        + budget
    )


def cmd_run(args: argparse.Namespace) -> int:
    """``graphreason run counselor``: stream the trace, then print the answer."""
    from graphreason.workflows.counselor import stream_solve

    _renamed_graph(args)
    _lenient_graph(args)
    context = counselor_context(args)
    note = embedded_note(context)
    if note:
        print(note, file=sys.stderr, flush=True)
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


def cmd_eval(args: argparse.Namespace) -> int:
    """``graphreason eval counselor``: run the modes, write the report, print the table."""
    from graphreason.evals.counselor.evaluate import run_counselor_eval
    from graphreason.evals.report import markdown_table

    if args.dataset is None and args.path is None:
        args.dataset = "generated"
    _renamed_graph(args)
    _lenient_graph(args)
    context = counselor_context(args)
    note = embedded_note(context)
    if note:
        print(note.replace("This run is bounded", "Each question is bounded"), file=sys.stderr, flush=True)
    result = run_counselor_eval(
        dataset=None if args.path and not args.dataset else args.dataset or "generated",
        path=args.path,
        modes=args.modes,
        **eval_run_values(args),
        context=context,  # the eval's own --graph, when given, is the context's graph
        graph=args.graph,
        metric_judge_model=args.metric_judge_model,
        n_per_template=args.n_per_template,
        seed=args.seed if args.seed is not None else 0,
        families=args.families,
        bare_names=args.bare_names,
        shapes=args.shapes,
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
