"""``graphreason run graphagent``, ``eval graphagent``, ``train graphagent`` and ``train agent``: GraphAgent's sub-commands.

    graphreason run graphagent --node 31336                     classify one Cora node, streaming the trace
    graphreason run graphagent --node 31336 --no-graph-tool     the paper's faithful agent (no graph model)
    graphreason eval graphagent --limit 50                      tool, faithful, graph model, title zero-shot
    graphreason eval graphagent --variants ablations --limit 50 the paper's Table 4-5 ablations
    graphreason train graphagent --limit 100                    collect experience on training nodes (SQLite)
    graphreason train agent --threads 2                         LoRA fine-tuning of the embedded agent

Every run setting (``--model``, ``--dataset``, ``--path``, ``--split``,
``--max-steps``, the ablation switches, ...) is generated from
:class:`graphreason.workflows.graphagent.context.GraphAgentContext`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from graphreason.cli.context_options import add_method_parser
from graphreason.cli.options import add_eval_run_options, add_json_option, eval_run_values, positive
from graphreason.tools.graphagent.recall import RECALL_K


def add_run_parser(methods: argparse._SubParsersAction) -> None:
    """``run graphagent``: one node classified, the trace streamed."""
    from graphreason.workflows.graphagent.context import GraphAgentContext

    run = add_method_parser(
        methods,
        "graphagent",
        help="GraphAgent: classify one node, streaming thoughts and commands",
        context_cls=GraphAgentContext,
        handler=cmd_run,
    )
    run.add_argument("--node", required=True, help="id of the node to classify (Cora: a LINQS paper id)")
    add_json_option(run)


def add_eval_parser(methods: argparse._SubParsersAction) -> None:
    """``eval graphagent``: accuracy per variant on a node sample."""
    from graphreason.evals.graphagent.evaluate import GROUPS, PARTS
    from graphreason.workflows.graphagent.context import GraphAgentContext

    ev = add_method_parser(
        methods,
        "graphagent",
        help="GraphAgent: accuracy, macro-F1 and cost per variant; ablations; tool-change analysis",
        context_cls=GraphAgentContext,
        handler=cmd_eval,
    )
    ev.add_argument("--part", choices=PARTS, default="test", help="nodes to classify (default test)")
    ev.add_argument(
        "--variants",
        default=None,
        metavar="A,B,...",
        help=f"comma-separated variants or groups ({', '.join(GROUPS['all'])}; groups: {', '.join(GROUPS)}; "
        "tool+ABLATION applies an ablation to tool mode) (default: main)",
    )
    ev.add_argument("--sample-seed", type=int, default=0, help="seed of the node sample (default 0)")
    add_eval_run_options(
        ev,
        items="nodes",
        verb="classified",
        out="runs/graphagent-...",
        limit="at most N nodes: a seeded sample, the same for every variant (a larger N adds nodes)",
    )


def add_train_parser(models: argparse._SubParsersAction) -> None:
    """``train graphagent``: experience episodes collected into a SQLite store."""
    from graphreason.workflows.graphagent.context import GraphAgentContext

    train = add_method_parser(
        models,
        "graphagent",
        help="GraphAgent: collect experience (one episode per training node) into a SQLite store",
        description="Runs the agent on training nodes and stores each episode for long-term memory. "
        "The store is --experience-path, or a file under the cache folder; pass the same "
        "--experience-path to run/eval graphagent to replay its lessons.",
        context_cls=GraphAgentContext,
        handler=cmd_train,
    )
    train.add_argument("--limit", type=positive, default=None, help="at most the first N training nodes")
    train.add_argument("--json", action="store_true", help="print the statistics as JSON")
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_agent_parser(models)


def _add_agent_parser(models: argparse._SubParsersAction) -> None:
    """``train agent``: LoRA fine-tuning of the embedded SmolLM2 as GraphAgent's agent."""
    from graphreason.cli.finetune import add_training_target
    from graphreason.workflows.graphagent.trajectories import MODES, VALIDATION_NODES

    agent = add_training_target(
        models,
        "agent",
        summary="fine-tune the embedded SmolLM2 (LoRA) as GraphAgent's agent, on a teacher's decisions",
        description="LoRA fine-tuning of SmolLM2-135M-Instruct on the decisions of a teacher policy (read the "
        "node, read its neighbours, answer) over the training and validation nodes of Cora's public split, "
        f"prompted as the workflow prompts the tuned agent; {VALIDATION_NODES} validation nodes are held out "
        "for the validation loss. Test nodes and CiteSeer (the unseen graph) are never used. Checkpoints go "
        "to --out; --resume continues the newest one exactly.",
        out="runs/agent", max_length=1024, lr=2e-4, eval_every=50,
        max_length_help="longest example in tokens; longer ones are dropped, not cut (default 1024)",
    )
    agent.add_argument("--dataset", default="cora", help="node dataset to train on (default cora; never citeseer)")
    agent.add_argument(
        "--modes", default=",".join(MODES), help=f"comma-separated episode modes (default {','.join(MODES)})"
    )
    agent.add_argument(
        "--navigation-share",
        type=float,
        default=0.34,
        help="share of episodes whose two reading decisions are trained too; every answer is (default 0.34)",
    )
    agent.add_argument(
        "--recall-k",
        type=int,
        default=RECALL_K,
        help=f"labelled nodes each episode recalls, as the tuned agent's long-term memory does; the faithful "
        f"teacher then answers the label its memory supports most (0: no recall, the gold label) "
        f"(default {RECALL_K})",
    )
    agent.add_argument(
        "--rename-share",
        type=float,
        default=0.5,
        help="share of faithful episodes run under permuted label names, so answers come from the evidence "
        "(default 0.5)",
    )
    agent.add_argument(
        "--examples", type=positive, default=None, help="at most N training examples (default: all)"
    )
    agent.add_argument(
        "--val-examples", type=positive, default=48, help="validation examples for the loss (default 48)"
    )
    agent.set_defaults(handler=cmd_train_agent)


# ------------------------------------------------------------------ handlers


def _context(args: argparse.Namespace) -> Any:
    from graphreason.cli.context_options import context_from_args
    from graphreason.workflows.graphagent.context import GraphAgentContext

    return context_from_args(GraphAgentContext, args)


def cmd_run(args: argparse.Namespace) -> int:
    from graphreason.cli.trace import EventPrinter, usage_line
    from graphreason.workflows.graphagent import resources, stream_solve

    context = _context(args)
    # data (and the graph model in tool mode, trained with a progress bar on first use) before the trace
    env = resources.environment(context, progress=True)
    node = env.find(args.node)
    if node is None:  # the message names the dataset's id form
        raise resources.GraphAgentInputError(env.unknown(args.node))
    if args.json:
        output = stream_solve(node, context)
        print(json.dumps(output, indent=2, ensure_ascii=False, default=str))
        return 0
    title = env.title(node)
    print(f"Node {node} of {env.name} ({context.split} split): {title or '(no title)'}", flush=True)
    printer = EventPrinter(sys.stdout)
    output = stream_solve(node, context, on_event=printer)
    printer.flush()
    print()
    answer, gold = output.get("answer"), output.get("gold")
    verdict = "" if gold is None else f"   (gold: {gold}, {'right' if answer == gold else 'wrong'})"
    print(f"Answer : {answer or '(none)'}{verdict}")
    if output.get("reason"):
        print(f"Reason : {output['reason']}")
    tool = output.get("tool_prediction")
    if isinstance(tool, dict) and tool.get("label"):
        confidence = (tool.get("probabilities") or {}).get(tool["label"])
        shown = f" ({confidence:.2f})" if isinstance(confidence, (int, float)) else ""
        changed = "changed by the agent" if output.get("changed_tool_answer") else "kept"
        print(f"Graph model: {tool['label']}{shown}, {changed}")
    if output.get("agent_answer") and output.get("agent_answer") != answer:
        print(f"The agent answered {output['agent_answer']}; the tool guard kept the graph model's label.")
    usage = output.get("usage") or {}
    cost = usage_line(usage, usage.get("seconds"), len(output.get("steps") or []), "step")
    print(f"Ended by: {output.get('ended_by')} {cost}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from graphreason.evals.graphagent.evaluate import parse_variants, run_graphagent_eval
    from graphreason.evals.graphagent.report import COLUMNS, TOOL_COLUMNS
    from graphreason.evals.report import markdown_table

    context = _context(args)
    uses_model = any(v == "graph_model" or v.startswith("tool") for v in parse_variants(args.variants))
    if uses_model and not args.no_progress:  # a fresh machine trains the graph model first: show it
        from graphreason.workflows.graphagent import resources

        resources.classifier(context.source, context.split, progress=True)
    result = run_graphagent_eval(
        part=args.part,
        variants=args.variants,
        **eval_run_values(args),
        context=context,
        seed=args.sample_seed,
    )
    summary = result.summary
    print()
    print(markdown_table(summary["variants"], "variant", COLUMNS))
    if summary.get("tool_changes"):
        print()
        print(markdown_table(summary["tool_changes"], "variant", TOOL_COLUMNS))
    for value in (summary.get("versus") or {}).values():
        names = [k for k in value if k not in ("nodes", "points")]
        print(f"{names[0]} vs {names[1]} on the same {value['nodes']} nodes: {value['points']:+.2f} points")
    print(
        f"\nRecords : {result.records_path}\nReport  : {result.report_path}\n"
        f"Summary : {result.summary_path}\nPlot    : {result.plot_path}"
    )
    if summary.get("errors"):
        print(f"{len(summary['errors'])} node run(s) failed; rerun the same command to retry them.")
    return 0


def default_store_path(context: Any, dataset: str) -> Path:
    """Where ``train graphagent`` keeps episodes when no ``--experience-path`` is given (the cache folder)."""
    from graphreason.settings import cache_dir

    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in f"{dataset}-{context.split}")
    return cache_dir("graphagent") / f"experience-{name}.sqlite"


def cmd_train(args: argparse.Namespace) -> int:
    from graphreason.workflows.graphagent import collect_experience, resources

    context = _context(args)
    data = resources.node_data(context.source, context.split)
    path = (
        Path(context.experience_path) if context.experience_path else default_store_path(context, data.name)
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    stats = collect_experience(context, limit=args.limit, store_path=path, progress=not args.no_progress)
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False, default=str))
        return 0
    added = stats.get("added", 0)
    print(
        f"{added} episode(s) added, {stats.get('already_stored', 0)} already stored, "
        f"{len(stats.get('errors') or [])} refused; {stats.get('episodes_in_store', '?')} episode(s) in the store"
    )
    if added:
        answered, right = stats.get("agent_answered", 0), stats.get("successes", 0)
        print(
            f"The agent answered {answered} of {added} and was right in {right} ({100 * right / added:.1f}%); "
            f"{added - answered} ended without its answer (the fallback gave the label); "
            f"final labels right: {stats.get('final_right', 0)} of {added}"
        )
        print("How the runs ended: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.get("ended_by", {}).items())))
    for error in (stats.get("errors") or [])[:5]:
        print(f"  {error.get('node')}: {error.get('error')}")
    print(f"Experience store: {path}")
    print(f"Replay it with: --experience-path {path}")
    return 0


def cmd_train_agent(args: argparse.Namespace) -> int:
    from graphreason.cli.finetune import run_training
    from graphreason.llm.finetune.data import training_data
    from graphreason.workflows.graphagent import resources
    from graphreason.workflows.graphagent.context import GraphAgentContext
    from graphreason.workflows.graphagent.trajectories import MODES, UNSEEN, build_records

    if args.dataset.strip().lower() in UNSEEN:
        raise ValueError(f"{args.dataset} is the unseen graph: the tuned agent is never trained on it")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = sorted(set(modes) - set(MODES))
    if unknown or not modes:
        raise ValueError(f"--modes takes {', '.join(MODES)}; got {args.modes!r}")
    if not 0.0 <= args.navigation_share <= 1.0:
        raise ValueError(f"--navigation-share must be in [0, 1], got {args.navigation_share}")
    if args.recall_k < 0:
        raise ValueError(f"--recall-k must be 0 or more, got {args.recall_k}")
    if not 0.0 <= args.rename_share <= 1.0:
        raise ValueError(f"--rename-share must be in [0, 1], got {args.rename_share}")
    context = GraphAgentContext(dataset=args.dataset, graph_tool="tool" in modes, recall_k=args.recall_k)
    env = resources.recall_environment(context) if args.recall_k else resources.environment(context)
    train, validation, info = build_records(
        env, modes=modes, seed=args.seed, navigation_share=args.navigation_share,
        rename_share=args.rename_share if args.recall_k else 0.0, recall_k=args.recall_k,
    )

    def build(tokenizer: Any) -> Any:
        return training_data(
            tokenizer, lambda prompt: prompt, {env.name: train}, {env.name: validation},
            examples=args.examples, val_per_dataset=args.val_examples, max_length=args.max_length, seed=args.seed,
        )

    card = {
        "data": {"source": f"teacher decisions on {env.name} ({context.split} split): training and validation "
                 "nodes, never test nodes", **info,
                 **({"recall_by": context.recall_by, "embedding_model": context.embedding_model}
                    if args.recall_k else {})},
        "split": f"{len(info['held_out_nodes'])} validation nodes held out of training (seed {args.seed})",
        "prompt": "graphreason.workflows.graphagent.tuned.tuned_prompt",
    }
    return run_training(args, "agent", build, card)
