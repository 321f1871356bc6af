"""GraphAgent eval: classify the nodes of a dataset part with each variant, score them, write the report.

Items are the node ids of one part (``test`` by default, or ``val`` /
``train``) of :func:`graphreason.tools.core.loaders.node_data.load_node_data`; ``limit`` takes
a seeded sample that is *nested*: the first N nodes of a seeded shuffle, kept
in node order, so every variant sees the same nodes and a larger limit only
adds nodes (finished records are reused).

Variants (one record key each, see :func:`parse_variants`):

* ``tool`` - the workflow with the graph model offered as ``predict_label``;
* ``faithful`` - the paper's agent (no graph-model tool);
* ablations of the paper's Tables 4-5, applied to ``faithful`` unless written
  ``tool+<ablation>`` (several may be chained with ``+``): ``no_features``,
  ``no_neighbors``, ``no_actions`` (neither; in tool mode ``predict_label``
  stays), ``analyze_label``, ``no_reasoning``, ``no_plan``,
  ``no_reasoning_plan``, ``no_long_term``;
* ``graph_model`` - the node classifier alone (no LLM);
* ``title_zero_shot`` - one LLM call: the node's title and the label set in,
  a label out (read tolerantly: a label name anywhere in the reply, else a
  label number).

Groups: ``main`` (default: tool, faithful, graph_model, title_zero_shot),
``ablations`` (the eight faithful ablations) and ``all``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphreason.evals import driver
from graphreason.evals.graphagent.metrics import change_outcome, label_key, same_label
from graphreason.evals.graphagent.report import GRAPHAGENT_REPORT
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.run_context import with_settings

PARTS = ("test", "val", "train")
BASES: dict[str, dict[str, Any]] = {"tool": {"graph_tool": True}, "faithful": {"graph_tool": False}}
ABLATIONS: dict[str, dict[str, Any]] = {
    "no_features": {"features_action": False},
    "no_neighbors": {"neighbors_action": False},
    "no_actions": {"features_action": False, "neighbors_action": False},
    "analyze_label": {"analyze_label": True},
    "no_reasoning": {"reasoning_field": False},
    "no_plan": {"plan_field": False},
    "no_reasoning_plan": {"reasoning_field": False, "plan_field": False},
    "no_long_term": {"long_term": False},
}
BASELINES = ("graph_model", "title_zero_shot")
GROUPS: dict[str, tuple[str, ...]] = {
    "main": ("tool", "faithful", *BASELINES),
    "ablations": tuple(ABLATIONS),
}
GROUPS["all"] = (*GROUPS["main"], *GROUPS["ablations"])
DEFAULT_VARIANTS = GROUPS["main"]

SolveFn = Callable[..., dict[str, Any]]  # (node id, context) -> GraphAgent output


class GraphAgentEvalConfigError(driver.EvalConfigError):
    """The dataset, part, variants or options of a GraphAgent eval do not fit together."""


# ------------------------------------------------------------------ variants


def variant_settings(name: str) -> dict[str, Any] | None:
    """The context fields a variant sets (``None`` for a baseline that runs no agent)."""
    if name in BASELINES:
        return None
    parts = name.split("+")
    base, ablations = (parts[0], parts[1:]) if parts[0] in BASES else ("faithful", parts)
    settings = dict(BASES[base])
    for ablation in ablations:
        settings.update(ABLATIONS[ablation])
    return settings


def variant_base(name: str) -> str | None:
    """The full agent a variant is compared with: its base for an ablation, else ``faithful``."""
    if name == "faithful":
        return None
    head = name.split("+")[0]
    return "tool" if head == "tool" and "+" in name else "faithful"


def _canonical(name: str) -> str:
    parts = [p.strip().lower().replace("-", "_") for p in name.split("+") if p.strip()]
    if not parts:
        raise GraphAgentEvalConfigError(f"empty variant name in {name!r}")
    if len(parts) == 1 and (parts[0] in BASES or parts[0] in BASELINES):
        return parts[0]
    base = parts[0] if parts[0] in BASES else "faithful"
    ablations = parts[1:] if parts[0] in BASES else parts
    unknown = [p for p in ablations if p not in ABLATIONS]
    if unknown:
        raise GraphAgentEvalConfigError(
            f"unknown variant part(s) {', '.join(map(repr, unknown))} in {name!r}; variants are "
            f"{', '.join(GROUPS['all'])} (groups: {', '.join(GROUPS)}; an ablation applies to faithful "
            "unless written tool+ABLATION)"
        )
    ordered = [a for a in ABLATIONS if a in ablations]  # one spelling per combination
    return "+".join([*(["tool"] if base == "tool" else []), *ordered])


def parse_variants(spec: str | Sequence[str] | None) -> list[str]:
    """Variant names from ``"tool,faithful"`` / a list / a group name (``main``, ``ablations``, ``all``).

    Names are checked and spelt one way (``tool+no_plan+no_features`` ->
    ``tool+no_features+no_plan``); duplicates are dropped, order kept.
    """
    if spec is None:
        return list(DEFAULT_VARIANTS)
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for raw in names:
        raw = str(raw).strip()
        if not raw:
            continue
        expanded = GROUPS.get(raw.lower(), (raw,))
        out.extend(_canonical(n) for n in expanded)
    if not out:
        raise GraphAgentEvalConfigError(f"no variant named in {spec!r}; choose from {', '.join(GROUPS['all'])}")
    return list(dict.fromkeys(out))


# ------------------------------------------------------------------ nodes


def pick_nodes(nodes: Sequence[str], limit: int | None, seed: int = 0) -> list[str]:
    """``limit`` nodes: the first of a seeded shuffle, in their original order (nested across limits)."""
    driver.check_run_options(limit, 1)
    if limit is None or limit >= len(nodes):
        return list(nodes)
    order = list(range(len(nodes)))
    random.Random(seed).shuffle(order)
    return [nodes[i] for i in sorted(order[:limit])]


def load_items(data: Any, part: str = "test") -> list[dict[str, Any]]:
    """One item per node of ``part``: qid (node id), question (its title), answer (gold label), graph."""
    if part not in PARTS:
        raise GraphAgentEvalConfigError(f"unknown part {part!r}; choose one of {', '.join(PARTS)}")
    if part not in data.parts:
        raise GraphAgentEvalConfigError(f"{data.name} has no {part} part; it has {', '.join(data.parts)}")
    graph = data.graph
    return [
        {"qid": graph.ids[i], "question": data.title(graph.ids[i]), "answer": graph.labels[i], "graph": data.name}
        for i in (int(p) for p in data.parts[part])
    ]


# ------------------------------------------------------------------ baselines

_NUMBER = re.compile(r"(?<![\w.])(\d{1,4})(?!\w|\.\d)")


def parse_label(reply: str, labels: Sequence[str]) -> str | None:
    """The label a free-text reply names: the earliest label name in it, else a label number, else None.

    Names match case-blind with ``_``/``-``/spaces alike; at one position the
    longest name wins (``Theory`` vs ``Theory_of_X``). Numbers are 0-based
    positions in ``labels``, as the prompt lists them.
    """
    text = " " + label_key(reply) + " "
    best: tuple[int, int, str] | None = None
    for label in labels:
        key = label_key(label)
        if not key:
            continue
        match = re.search(r"(?<![a-z0-9])" + re.escape(key) + r"(?![a-z0-9])", text)
        if match and (best is None or (match.start(), -len(key)) < (best[0], best[1])):
            best = (match.start(), -len(key), label)
    if best is not None:
        return best[2]
    for match in _NUMBER.finditer(str(reply)):
        index = int(match.group(1))
        if 0 <= index < len(labels):
            return labels[index]
    return None


def zero_shot_prompt(title: str, labels: Sequence[str], dataset: str) -> str:
    """The title-only prompt: one node's title and the numbered label set."""
    choices = "\n".join(f"{i}. {label}" for i, label in enumerate(labels))
    return (
        f"Below is the title of one item of the {dataset} dataset. Decide which category it belongs to.\n\n"
        f"Title: {title.strip() or '(no title)'}\n\nCategories:\n{choices}\n\n"
        "Reply with the name of the one category that fits best, and nothing else."
    )


def title_zero_shot(context: GraphAgentContext, data: Any, node: str) -> dict[str, Any]:
    """One LLM call on the node's title; the answer is the label it names (None when it names none)."""
    from graphreason.workflows.kit.llm import ask_role

    labels = list(data.graph.classes)
    prompt = zero_shot_prompt(data.title(node), labels, data.name)
    reply = ask_role(context, context.agent_model, prompt, temperature=context.temperature,
                     max_tokens=context.max_tokens)
    answer = parse_label(reply.text, labels)
    return {
        "answer": answer,
        "ended_by": "answer" if answer else "errors",
        "usage": reply.usage(),
        "steps": [{"reply": reply.text}],
    }


def graph_model_answer(classifier: Any, node: str) -> dict[str, Any]:
    """The node classifier's label for ``node`` (no LLM)."""
    label, probabilities = classifier.predict(node)
    return {
        "answer": label,
        "ended_by": "answer",
        "usage": {},
        "tool_prediction": {"label": label, "probabilities": probabilities},
    }


# ------------------------------------------------------------------ scoring


def tool_label(output: dict[str, Any]) -> str | None:
    """The graph model's label in an agent run's output (None when the tool was off or failed)."""
    prediction = output.get("tool_prediction")
    return prediction.get("label") if isinstance(prediction, dict) else None


def score(item: dict[str, Any], output: dict[str, Any]) -> dict[str, float]:
    """0/1 flags and counts per node: correct, how the run ended, steps; against the tool when it ran."""
    answer, gold = output.get("answer"), item["answer"]
    ended = str(output.get("ended_by") or "answer")
    scores = {
        "correct": float(same_label(answer, gold)),
        "ended_answer": float(ended == "answer"),
        "ended_t_max": float(ended == "t_max"),
        "ended_errors": float(ended == "errors"),
        "steps": float(len(output.get("steps") or [])),
    }
    tool = tool_label(output)
    if tool is not None and output.get("graph_tool", True):
        scores["tool_correct"] = float(same_label(tool, gold))
        scores["changed_tool_answer"] = float(change_outcome(answer, tool, gold) is not None)
    return scores


def _for_record(output: dict[str, Any], *, tool_mode: bool) -> dict[str, Any]:
    """The output as the runner stores it: the label as the answer, the episode as the record's details."""
    out = dict(output)
    out["answer"] = output.get("answer") or ""
    out["graph_tool"] = tool_mode
    out["details"] = {
        key: output.get(key)
        for key in ("ended_by", "reason", "agent_answer", "tool_prediction", "changed_tool_answer", "guard",
                    "lessons", "steps")
        if output.get(key) is not None
    }
    return out


# ------------------------------------------------------------------ the run


def run_graphagent_eval(
    part: str = "test",
    variants: str | Sequence[str] | None = None,
    limit: int | None = None,
    concurrency: int = 1,
    out_dir: str | Path | None = None,
    context: GraphAgentContext | None = None,
    seed: int = 0,
    progress: bool = True,
    solve: SolveFn | None = None,
    classifier: Any | None = None,
    **settings: Any,
) -> driver.EvalResult:
    """Classify the nodes of ``part`` with every variant; see the module docstring.

    ``settings`` override context fields by name (``dataset``, ``split``,
    ``data_path``, ``agent_model``, ...). ``solve`` (default
    :func:`graphreason.workflows.graphagent.solve`) and ``classifier`` (default the hub's
    node classifier) are for tests.
    """
    context = with_settings(context if context is not None else GraphAgentContext(), settings,
                            GraphAgentEvalConfigError)
    names = parse_variants(variants)
    driver.check_run_options(limit, concurrency)
    if part not in PARTS:
        raise GraphAgentEvalConfigError(f"unknown part {part!r}; choose one of {', '.join(PARTS)}")
    contexts = {n: with_settings(context, s, GraphAgentEvalConfigError)
                for n in names if (s := variant_settings(n)) is not None}

    # the workflow's own loaders: the same data and model objects as its runs (and datasets a caller provided)
    from graphreason.workflows.graphagent import resources

    data = resources.node_data(context.source, context.split)
    items = load_items(data, part)
    chosen = set(pick_nodes([item["qid"] for item in items], limit, seed))
    items = [item for item in items if item["qid"] in chosen]
    if "graph_model" in names:
        if classifier is None:
            classifier = resources.classifier(context.source, context.split)
        resources.check_labels(list(data.graph.classes), list(classifier.labels), "the graph model")
    if solve is None and contexts:
        from graphreason.workflows.graphagent import solve as graphagent_solve

        solve = graphagent_solve

    solvers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}
    for name in names:
        if name == "graph_model":
            solvers[name] = lambda item: _for_record(graph_model_answer(classifier, item["qid"]), tool_mode=False)
        elif name == "title_zero_shot":
            solvers[name] = lambda item: _for_record(title_zero_shot(replace(context), data, item["qid"]),
                                                     tool_mode=False)
        else:
            solvers[name] = _agent_solver(solve, contexts[name])

    model = driver.model_name(context.tuned_spec or context.agent_model)  # the tuned agent has its own folder
    out = Path(out_dir) if out_dir else driver.default_out_dir(
        "graphagent", data.name, context.split, part, model.replace(":", "-"))
    meta = {
        "title": f"GraphAgent on {data.name} ({context.split} split, {part} part)",
        "dataset": data.name,
        "source": str(context.source),
        "split": context.split,
        "part": part,
        "limit": limit,
        "seed": seed,
        "labels": list(data.graph.classes),
        "agent_model": model,
        "variants": names,
        "variant_settings": {n: variant_settings(n) for n in names},
        "references": {n: variant_base(n) for n in names},
        "settings": {
            key: getattr(context, key)
            for key in ("max_steps", "tuned_agent", "grammar", "temperature", "max_tokens", "summary_words",
                        "long_term", "experience_path", "top_k", "recall_k", "alpha", "experience_bonus",
                        "tool_guard", "override_risk", "embedding_model")
            if hasattr(context, key)
        },
    }
    # each variant's records carry its own context (the variants of one run differ in their settings)
    settings = {n: driver.answer_settings({**meta, "variant": n}, contexts.get(n, context)) for n in names}
    return driver.run_eval(
        items, solvers, out, meta, GRAPHAGENT_REPORT, score_fn=score, concurrency=concurrency,
        progress=progress, empty_note=f" ({data.name} {context.split} has no {part} nodes)", settings=settings,
    )


def _agent_solver(solve: SolveFn, context: GraphAgentContext) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def solve_item(item: dict[str, Any]) -> dict[str, Any]:
        # a fresh context per node: scripted models restart, nothing is shared between runs
        output = dict(solve(item["qid"], replace(context)))
        return _for_record(output, tool_mode=context.graph_tool)

    return solve_item
