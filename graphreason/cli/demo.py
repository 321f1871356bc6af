"""``graphreason demo``: what the workflows do, in a few minutes on a laptop CPU.

The demo is honest about the embedded model. SmolLM2-135M picks GAR's algorithm
under a grammar (the answer itself is computed exactly by the vertex engine). For
Graph Counselor the Counselor part shows the graph tools answering a question
exactly (the question's reference plan replayed through the real workflow, no
LLM), then the model's own attempt, printed beside the gold answer: with the
embedded model that is the tuned reasoner (the shipped LoRA adapter) on a CiteSeer
question, a graph it never saw in training, with its measured exact-match rate and
the flag that plugs in a capable endpoint. Graph-ToolFormer's part runs the annotated
call beside the model's; GraphAgent's runs a fixed reference policy through the real
command loop, then one attempt by the model (with the embedded model, the tuned agent).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from typing import Any

from graphreason.cli.methods.counselor import counselor_context
from graphreason.cli.trace import EventPrinter, shorten
from graphreason.workflows.counselor.context import PAPER_TEMPERATURE, CounselorContext
from graphreason.workflows.counselor.tuned import tuned_reasoner_data, tuned_reasoner_scores
from graphreason.workflows.run_context import shared_settings

# two problems in GraphInstruct's phrasing, with their answers worked out by hand
DEMO_GAR = (
    (
        "Determine whether two nodes are connected in an undirected graph. In an undirected graph, (i,j) means "
        "that node i and node j are connected with an undirected edge. Q: The nodes are numbered from 0 to 6, "
        "and the edges are: (0,1) (1,2) (2,3) (4,5) (5,6). Is there a path between node 0 and node 6?",
        "No (0-1-2-3 and 4-5-6 are separate)",
    ),
    (
        "Find the shortest path between two nodes in an undirected graph. In an undirected graph, (i,j,k) means "
        "that node i and node j are connected with an undirected edge with weight k. Q: The nodes are numbered "
        "from 0 to 4, and the edges are: (0,1,4) (0,2,1) (2,1,2) (1,3,1) (2,3,5) (3,4,3). "
        "Give the weight of the shortest path from node 0 to node 4.",
        "7 (0 -> 2 -> 1 -> 3 -> 4)",
    ),
)

# templates shown: a compound lookup replayed by its reference plan, and the easiest one for the model
REFERENCE_TEMPLATE = "most_cited_reference"
MODEL_TEMPLATE = "paper_label"
UNSEEN_GRAPH = "citeseer"  # the tuned reasoner's questions come from the graph it was never trained on
CAPABLE_FLAG = "--model openai:MODEL --base-url URL"


class _Clock:
    """Seconds since the demo started, for the ``[12.3 s]`` stamps on each part."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def __str__(self) -> str:
        return f"[{time.perf_counter() - self.start:.1f} s]"


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo: GAR on two problems, Graph Counselor, Graph-ToolFormer, then GraphAgent."""
    clock = _Clock()
    context = counselor_context(args)
    if context.seed is None:  # the same demo on every run: the models sample with seed 0 unless --seed says
        context = replace(context, seed=0)
    embedded = context.embedded_reasoner
    unseen = f" on {UNSEEN_GRAPH} (a graph the tuned reasoner never saw in training)" if context.tuned_spec else ""
    print(
        f"GraphReason demo with model {context.reasoner_model!r}"
        + (" (SmolLM2-135M, embedded, CPU)" if embedded else "")
        + ".\nPart 1: GraphAgent-Reasoner on two graph problems (exact answers from the vertex engine).\n"
        f"Part 2: Graph Counselor on a {context.graph} question answered by its reference plan through the real graph "
        f"tools, then {args.n} question(s) for the model{unseen}, each beside its gold answer.\n"
        "Part 3: Graph-ToolFormer: the model writes a graph API call into its answer; the call runs exactly.\n"
        "Part 4: GraphAgent classifies a Cora paper: a reference policy drives the real command loop, then one "
        "attempt by the model.",
        flush=True,
    )
    if embedded:
        print(
            "Each part is stamped with the seconds since the start; a first run also converts the embedded "
            "model and prepares its three adapters, once. Other heavy jobs running beside it make it slower.",
            flush=True,
        )
    # Counselor's unset temperature is greedy for its tuned reasoner; the other parts keep the usual default
    others = PAPER_TEMPERATURE if args.temperature is None else args.temperature
    _gar_part(context, clock)
    code = _counselor_part(context, args.n, clock)
    _toolformer_part(context, clock, others)
    _graphagent_part(context, clock, others)
    return code


# a Graph-ToolFormer question, its annotation in the prompts' own style, and the value worked out by hand
DEMO_TOOLFORMER = (
    "What is the diameter of the lollipop graph?",
    'The diameter of the lollipop graph is [GR(GL("gpr", {"lollipop_graph"}), "toolx:diameter")-->r].',
    "11 (the 4-clique plus a 10-node tail: from a clique node to the tail's end)",
)


def _toolformer_part(counselor: CounselorContext, clock: _Clock, temperature: float) -> None:
    """The model writes the call for one question; the annotated call is run beside it."""
    from graphreason.workflows.toolformer import solve as solve_toolformer
    from graphreason.workflows.toolformer.context import ToolformerContext

    question, annotated, expected = DEMO_TOOLFORMER
    shared = {**shared_settings(counselor), "temperature": temperature}
    context = ToolformerContext(**shared, generator_model=counselor.reasoner_model)
    print(f"\n=== {clock} Graph-ToolFormer: the model writes the graph API call ===\n{question}", flush=True)
    output = solve_toolformer(question, context)
    tuned = any(step.get("generator") == "tuned" for step in output.get("trace", []))
    print("Generator: " + ("tuned (local:smollm2-135m-toolformer, the shipped LoRA adapter)" if tuned
                           else f"{context.generator_model}, prompted with retrieved examples"))
    print(f"Generated: {output.get('annotated', '')}")
    print(f"Final    : {output.get('final', '')}")
    reference = solve_toolformer(annotated, context, has_calls=True)
    print(f"Annotated call run by the executor: {reference.get('final', '')}")
    print(f"Worked out by hand: {expected}")
    from graphreason.tools.toolformer.calls.normalize import same_calls

    if same_calls(output.get("annotated", ""), annotated):
        print("The model wrote the annotated call.", flush=True)
    elif tuned:
        print(
            "The tuned generator's call differs from the annotation here; it writes the annotated call for "
            "most validation prompts (docs/methods/toolformer.md), not all.",
            flush=True,
        )
    else:
        print(
            "The model's call differs from the annotation: the plain embedded model imitates the retrieved "
            f"examples and often copies the wrong graph or function. Plug in a capable endpoint with {CAPABLE_FLAG}.",
            flush=True,
        )


def reference_replies(data: Any, node: str) -> tuple[list[str], str]:
    """Replies of a simple reference policy for ``node`` and the label it ends with.

    The policy reads the node, lists its neighbours, and answers with the most common label among its
    labelled (training-part) neighbours, the first label when none is labelled. It is a fixed script,
    not a model: it shows what the loop, the commands and the observations do.
    """
    import json
    from collections import Counter

    known = [data.label(n) for n in data.neighbors(node) if data.part(n) == "train"]
    label = Counter(known).most_common(1)[0][0] if known else data.labels[0]
    why = f"{len(known)} labelled neighbour(s), most of them {label}" if known else "no labelled neighbour"

    def reply(name: str, args: dict[str, Any], text: str) -> str:
        return json.dumps({"thoughts": {"text": text}, "command": {"name": name, "args": args}})

    return [
        reply("get_features", {"node_id": node}, "Read the paper first."),
        reply("get_neighbors", {"node_id": node}, "Its neighbours' labels are the best evidence."),
        reply("answer", {"label": label, "reason": why}, "Answer with the neighbours' majority label."),
    ], label


def _graphagent_part(counselor: CounselorContext, clock: _Clock, temperature: float) -> None:
    """A reference policy through the real loop (no LLM), then one short attempt by the model."""
    from graphreason.workflows.graphagent import GraphAgentContext, resources, stream_solve
    from graphreason.workflows.models.scripted import ScriptedChatModel

    data = resources.node_data("cora", "public")
    node = next(n for n in data.ids_of("test") if any(data.part(m) == "train" for m in data.neighbors(n)))
    print(f"\n=== {clock} GraphAgent on Cora paper {node}: {shorten(data.title(node), 90)} ===", flush=True)
    print("Reference policy (scripted replies, no LLM) through the real loop, commands and observations:")
    replies, _ = reference_replies(data, node)
    base = dict(shared_settings(counselor), temperature=temperature, dataset="cora", graph_tool=False,
                long_term=False, summarise=False)
    scripted = GraphAgentContext(**base, agent_model=ScriptedChatModel(script=replies))
    printer = EventPrinter(sys.stdout)
    output = stream_solve(node, scripted, on_event=printer)
    printer.flush()
    print(f"Answer: {output.get('answer')}   gold: {output.get('gold')}", flush=True)
    # the tuned agent starts from its long-term memory, label recall; by word features here, which embed
    # nothing (a run's default, text embeddings, costs a minute or two once per graph)
    probe = GraphAgentContext(**{**base, "long_term": True, "recall_by": "words"}, agent_model=counselor.reasoner_model)
    if probe.tuned_spec is not None:  # the tuned agent, prompted exactly as in its training (T_max 6)
        print(f"The tuned agent's own attempt ({probe.tuned_spec}: SmolLM2-135M with GraphAgent's LoRA adapter, "
              "trained on a teacher's decisions over Cora's training and validation nodes, never test nodes; "
              f"faithful mode, no graph model; its memory starts with the labels of the {probe.recall_k} labelled "
              "papers most like this one, compared by word features):", flush=True)
        printer = EventPrinter(sys.stdout)
        tried = stream_solve(node, probe, on_event=printer)
        printer.flush()
    else:
        print(f"The model's own attempt ({counselor.reasoner_model}, the paper's faithful agent, 3 steps; the "
              "embedded model decodes under the reply format and must answer on its last step):", flush=True)
        attempt = GraphAgentContext(**base, agent_model=counselor.reasoner_model, max_steps=3, max_bad_replies=1)
        tried = stream_solve(node, attempt)
    answer = tried.get("answer")
    verdict = "" if not answer else ("   (right)" if answer == tried.get("gold") else "   (wrong)")
    print(f"Answer: {answer or '(none)'}   ended by: {tried.get('ended_by')}   "
          f"gold: {tried.get('gold')}{verdict}", flush=True)
    if tried.get("ended_by") == "errors" and probe.tuned_spec is None:
        print(
            "The model wrote no command the loop could run: GraphAgent's JSON replies are beyond the embedded "
            "SmolLM2-135M. In tool mode (the default of `graphreason run graphagent`) the trained graph model "
            f"still answers; for the agent itself plug in a capable endpoint with {CAPABLE_FLAG}.",
            flush=True,
        )


def _gar_part(counselor: CounselorContext, clock: _Clock) -> None:
    from graphreason.workflows.gar import stream_solve as solve_gar
    from graphreason.workflows.gar.context import GARContext

    shared = {**shared_settings(counselor), "temperature": 0.0, "max_tokens": 48}
    context = GARContext(**shared, master_model=counselor.reasoner_model)
    for number, (question, expected) in enumerate(DEMO_GAR, 1):
        print(f"\n=== {clock} Graph problem {number}/{len(DEMO_GAR)} ===\n{question}", flush=True)
        printer = EventPrinter(sys.stdout, 300)
        output = solve_gar(question, context, None, printer)
        printer.flush()
        print(f"Answer: {output.get('answer') or '(no answer)'}")
        print(f"Worked out by hand: {expected}", flush=True)


def _pick(items: list[Any], template: str) -> Any:
    return next((item for item in items if item.template == template), items[0])


def _counselor_part(context: CounselorContext, n_questions: int, clock: _Clock) -> int:
    from graphreason.evals.counselor.evaluate import load_eval_items
    from graphreason.evals.counselor.reference_agent import reference_script
    from graphreason.evals.metrics import exact_match
    from graphreason.evals.runner import gold_of
    from graphreason.workflows.counselor import stream_solve
    from graphreason.workflows.models.scripted import ScriptedChatModel

    print(f"\n=== {clock} Graph Counselor on {context.graph!r} ===", flush=True)
    print(f"Loading the graph and its Retrieve index (encoder {context.embedding_model!r})...", flush=True)
    items = load_eval_items("generated", graph=context.graph, n_per_template=1, seed=context.seed or 0)
    reference = _pick(items, REFERENCE_TEMPLATE)
    print(f"\n--- {clock} Reference plan, no LLM: the real workflow and graph tools, scripted replies ---")
    print(reference.question, flush=True)
    script = ScriptedChatModel(script=reference_script(reference))
    output = stream_solve(
        reference.question,
        replace(
            context,
            mode="no_reflection",
            reasoner_model=script,
            reflector_model=script,
            judge_model=script,
            max_steps=3,
        ),
        EventPrinter(sys.stdout, 200),
    )
    _print_against_gold(str(output.get("answer") or ""), reference, gold_of, exact_match)

    if context.tuned_spec is not None:  # the tuned reasoner is shown on the graph it never saw in training
        context = replace(context, graph=UNSEEN_GRAPH)
        print(f"\nLoading {UNSEEN_GRAPH} for the tuned reasoner (encoder {context.embedding_model!r})...", flush=True)
        items = load_eval_items("generated", graph=UNSEEN_GRAPH, n_per_template=1, seed=context.seed or 0)
        reference = None
    easy = [item for item in items if item.template == MODEL_TEMPLATE] + [
        item for item in items if item.template != MODEL_TEMPLATE and item is not reference
    ]
    rows = []
    chosen = easy[:n_questions]
    model = context.model_of("reasoner")
    for number, item in enumerate(chosen, 1):
        print(
            f"\n--- {clock} Model {model!r}, question {number}/{len(chosen)} on {context.graph!r} "
            f"[{item.level} / {item.template}] "
            f"(at most {context.max_steps} steps, {context.max_reflections} reflection(s)) ---"
        )
        print(item.question, flush=True)
        # a fresh copy per question: a scripted model's script starts over with each run
        output = stream_solve(item.question, context, EventPrinter(sys.stdout, 200))  # a fresh copy per run
        rows.append(_print_against_gold(str(output.get("answer") or ""), item, gold_of, exact_match))
    right = sum(rows)
    print(f"\n=== {clock} Done: the model answered {right}/{len(rows)} Counselor question(s) exactly ===")
    if context.tuned_spec is not None:
        print(
            f"The tuned reasoner ({context.tuned_spec}: SmolLM2-135M with Graph Counselor's LoRA adapter) plans,\n"
            "acts and finishes in the paper's format.\n"
            f"Its training data: {tuned_reasoner_data()}.\n"
            f"Measured: {tuned_reasoner_scores()}; so some of its answers are wrong.\n"
            "The reference plan shows the tools reach the gold.\n"
            f"Plug in a capable OpenAI-compatible endpoint with: graphreason demo {CAPABLE_FLAG}"
        )
    elif context.embedded_reasoner:
        print(
            "SmolLM2-135M is too small for multi-step graph reasoning: decoded under the call grammar, its\n"
            "Actions parse and run, but it rarely picks the calls or the answer a question needs, so wrong\n"
            "answers above are expected. The reference plan shows the tools reach the gold.\n"
            f"Plug in a capable OpenAI-compatible endpoint with: graphreason demo {CAPABLE_FLAG}"
        )
    return 0


def _print_against_gold(answer: str, item: Any, gold_of: Any, exact_match: Any) -> bool:
    gold, gold_items = gold_of(item)
    right = bool(answer) and exact_match(answer, gold_items or gold)
    print(f"Answer: {shorten(answer or '(no answer)', 200)}")
    print(f"Gold  : {shorten(gold, 200)}   [{'right' if right else 'wrong'}]", flush=True)
    return right
