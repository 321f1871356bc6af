"""The tuned reasoner's prompt: the graph's own names, the question, this trial's lines, one label to continue.

The paper's prompt (:func:`graphreason.workflows.counselor.prompts.reasoning_prompt`)
teaches a capable model the call language with prose and a worked example;
it runs to well over a thousand tokens, which a 135M model neither needs
after training nor can afford on 2 CPU cores. A reasoner trained by this
project (``graphreason train reasoner``) is sent this short form instead,
exactly as its training data was written (the trajectories are recorded
from the real workflow, see :mod:`graphreason.workflows.counselor.trajectories`):

* the graph's node types, feature names and relation names, read from the
  loaded graph, so what the model learns is to copy names from the prompt,
  never to remember ``cites``;
* the functions of the call language, one line;
* the question and the Plan/Thought/Action/Observation lines of this trial;
* the label of the line to write (``Thought 2:``); the reply is that line's text.

Reflections, when a trial is retried, come before the question as ``Lesson:`` lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.call_examples import vocabulary
from graphreason.workflows.counselor.state import Step

FUNCTIONS = (
    "Retrieve[text] finds a node; Feature[node, feature]; Neighbour[node, relation]; Degree[node, relation]; "
    "Count[list] counts distinct items; Mode[list] gives the most common value; "
    "MaxDegree[nodes, relation] gives the node with the most neighbours; "
    "Differing[node, relation, feature] counts neighbours whose feature differs from the node's; Finish[answer]"
)
LABELS = {"plan": "Plan", "thought": "Thought", "action": "Action"}


def graph_line(store: GraphStore) -> str:
    """One line naming the graph, its node types, feature names and relations."""
    features, relations = vocabulary(store)
    types = ", ".join(store.node_types()) or "node"
    return f"Graph: {store.name}. Nodes: {types}. Features: {features}. Relations: {relations}."


def trial_lines(steps: Sequence[Step], with_plan: bool = True) -> list[str]:
    """The ``Plan i / Thought i / Action i / Observation i`` lines of the steps so far, in order."""
    lines = []
    for step in steps:
        for key, label in (("plan", "Plan"), ("thought", "Thought"), ("action", "Action"), ("observation", "Observation")):
            if key == "plan" and not with_plan:
                continue
            if key in step:
                lines.append(f"{label} {step['index']}: {step[key]}")
    return lines


def tuned_prompt(
    role: str,
    index: int,
    question: str,
    store: GraphStore,
    steps: Sequence[Step],
    *,
    lessons: Sequence[str] = (),
    with_plan: bool = True,
) -> str:
    """The prompt of one reasoning line (``role``: plan, thought or action) for step ``index``.

    ``steps`` are the finished steps of the trial, then the step being written
    (its earlier lines); ``lessons`` the reflections in force.
    """
    if role not in LABELS:
        raise ValueError(f"role must be one of {', '.join(LABELS)}, got {role!r}")
    lines = [graph_line(store), f"Functions: {FUNCTIONS}."]
    lines += [f"Lesson: {' '.join(lesson.split())}" for lesson in lessons]
    lines.append(f"Question: {question}")
    lines += trial_lines(steps, with_plan)
    lines.append(f"{LABELS[role]} {index}:")
    return "\n".join(lines)


def tuned_reasoner_scores() -> str:
    """What the shipped reasoner's card says it scored, in words (the eval its card records, if any)."""
    import json

    from graphreason.llm.engine.adapter import shipped_adapter
    from graphreason.llm.engine.weights import LocalModelError

    try:
        card = json.loads((shipped_adapter("counselor") / "card.json").read_text())
        scores = card["validation_scores"]
        row, graph = scores["modes"]["counselor"], scores["graph"]
        em, n = float(row["exact_match"]), int(row["n"])
    except (OSError, LookupError, TypeError, ValueError, LocalModelError):
        return "its measured exact-match rate is in docs/methods/counselor.md"
    return f"measured on {n} generated {graph} questions it answers {em:.1f}% exactly"
