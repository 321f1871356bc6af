"""The tuned reasoner's prompt: the graph's own names, the question, this trial's lines, one label to continue.

The paper's prompt (:func:`graphreason.workflows.counselor.prompts.reasoning_prompt`)
teaches a capable model the call language with prose and a worked example;
it runs to well over a thousand tokens, which a 135M model neither needs
after training nor can afford on 2 CPU cores. A reasoner trained by this
project (``graphreason train reasoner``) is sent this short form instead,
exactly as its training data was written (the trajectories are recorded
from the real workflow, see :mod:`graphreason.workflows.counselor.trajectories`):

* the graph line, read from the loaded graph, so what the model learns is to
  copy names from the prompt, never to remember ``cites``. Its ``schema`` form
  (and the ``composed`` form ``train reasoner`` records now) names each node type with its features
  and its relations with their target types, as Graph-CoT's graph definition
  does: ``Graph: lastfm. artist: name; listener->user, tag->tag. tag: name;
  tagged->artist. ...``. On a wide schema each type shows the relations whose
  words the question shares first, then the rest up to a cap. Its ``flat``
  form (one list of node types, one of features, one of relations) is the one
  adapters trained before the schema form were trained on; a card without a
  ``prompt_form`` names that one;
* the functions of the call language, one line (the ``composed`` form's line adds MinDegree, Same,
  Intersect, Union, Contains and Exists, which close every question program in one call);
* the question and the Plan/Thought/Action/Observation lines of this trial;
* the label of the line to write (``Thought 2:``); the reply is that line's text.

Reflections, when a trial is retried, come before the question as ``Lesson:`` lines.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from graphreason.tools.core.retrieval.lexical import word_stems
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.call_examples import vocabulary
from graphreason.tools.counselor.shorthand import spelled_out
from graphreason.tools.counselor.wording import question_names
from graphreason.workflows.counselor.state import Step

FUNCTIONS = (
    "Retrieve[text] finds a node; Feature[node, feature]; Neighbour[node, relation]; Degree[node, relation]; "
    "Count[list] counts distinct items; Mode[list] gives the most common value; "
    "MaxDegree[nodes, relation] gives the node with the most neighbours; "
    "Differing[node, relation, feature] counts neighbours whose feature differs from the node's; Finish[answer]"
)
# the schema form's adapters also learn Matching (the flat form's line is what its adapters were trained on)
SCHEMA_FUNCTIONS = FUNCTIONS.replace(
    "; Finish[answer]", "; Matching[nodes, feature, value] keeps the nodes whose feature has that value; Finish[answer]"
)
# the composed form's adapters also learn the functions that close a question worked out over lists,
# so each question is one call whose observation holds the answer
COMPOSED_FUNCTIONS = SCHEMA_FUNCTIONS.replace(
    "; Finish[answer]",
    "; MinDegree[nodes, relation] gives the node with the fewest neighbours; Same[node, relation, feature] counts "
    "neighbours whose feature equals the node's; Intersect[nodes, nodes] and Union[nodes, nodes] combine two lists; "
    "Contains[nodes, node] and Exists[list] answer yes or no; Finish[answer]",
)
LABELS = {"plan": "Plan", "thought": "Thought", "action": "Action"}


PromptForm = Literal["flat", "schema", "composed"]
# each form's functions line: the one its adapters were trained on
FUNCTION_LINES: dict[PromptForm, str] = {"flat": FUNCTIONS, "schema": SCHEMA_FUNCTIONS, "composed": COMPOSED_FUNCTIONS}
PROMPT_FORMS: tuple[PromptForm, ...] = tuple(FUNCTION_LINES)
TRAINED_FORM: PromptForm = "composed"  # the form `train reasoner` records its trajectories in
SCHEMA_TYPES = 6  # node types the schema line shows (the question's first)
SCHEMA_FEATURES = 6  # feature names per type
SCHEMA_RELATIONS = 10  # relations per type: a wide schema (FB15k-237's) cannot swamp the prompt


def graph_line(store: GraphStore, form: PromptForm = TRAINED_FORM, question: str = "") -> str:
    """One line naming the graph and its schema, in the prompt ``form`` (see the module's docstring)."""
    if form == "flat":
        features, relations = vocabulary(store)
        types = ", ".join(store.node_types()) or "node"
        return f"Graph: {store.name}. Nodes: {types}. Features: {features}. Relations: {relations}."
    if form not in PROMPT_FORMS:
        raise ValueError(f"prompt form must be one of {', '.join(PROMPT_FORMS)}, got {form!r}")
    words = question_stems(question)
    schema, features = store.schema(), store.type_features()
    types = sorted(set(schema) | set(features))
    parts = []
    for node_type in chosen(types, words, SCHEMA_TYPES):
        relations = schema.get(node_type, {})
        shown = [f"{r}->{'/'.join(relations[r])}" for r in chosen(list(relations), words, SCHEMA_RELATIONS)]
        if len(relations) > SCHEMA_RELATIONS:
            shown.append(f"+{len(relations) - SCHEMA_RELATIONS} more")
        named = ", ".join(chosen(features.get(node_type, []), words, SCHEMA_FEATURES)) or "no features"
        parts.append(f"{node_type}: {named}; {', '.join(shown) or 'no relations'}")
    if len(types) > SCHEMA_TYPES:
        parts.append(f"+{len(types) - SCHEMA_TYPES} more node types")
    return f"Graph: {store.name}. " + ". ".join(parts or ["no nodes"]) + "."


def question_stems(text: str) -> set[str]:
    """The question's words cut to five letters (``citing``, ``cites``, ``cited`` -> ``citin``, ``cites``, ``cited``;
    ``listeners`` -> ``liste``), the unit :func:`chosen` matches names on."""
    return word_stems(text)


def chosen(names: Sequence[str], stems: set[str], limit: int) -> list[str]:
    """At most ``limit`` of ``names``, in their own order: all when they fit, else those sharing
    most of the question's ``stems`` (ties: the earlier name)."""
    if len(names) <= limit:
        return list(names)
    ranked = sorted(range(len(names)), key=lambda i: -len(question_stems(names[i].replace("_", " ")) & stems))
    return [names[i] for i in sorted(ranked[:limit])]


def names_in_graph_line(line: str) -> tuple[list[str], list[str]]:
    """``(features, relations)`` a graph line shows, in either form (what a reader of the prompt can copy)."""
    flat = re.search(r"Features: (.*?)\. Relations: (.*?)\.$", line)
    if flat:
        return flat.group(1).split(", "), flat.group(2).split(", ")
    header = re.match(r"Graph: .*?\. ", line)
    if not header:
        raise ValueError(f"not a graph line: {line[:120]!r}")
    features: list[str] = []
    relations: list[str] = []
    for part in re.findall(r"(?:^|\. )[^:;]+: ([^;]*); ([^;]*?)(?=\. |\.$)", line[header.end() :]):
        features += [name for name in part[0].split(", ") if name and name != "no features"]
        relations += [item.split("->")[0] for item in part[1].split(", ") if "->" in item]
    return list(dict.fromkeys(features)), list(dict.fromkeys(relations))


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
    form: PromptForm = TRAINED_FORM,
) -> str:
    """The prompt of one reasoning line (``role``: plan, thought or action) for step ``index``.

    ``steps`` are the finished steps of the trial, then the step being written
    (its earlier lines); ``lessons`` the reflections in force; ``form`` the
    graph line's form, the one the adapter was trained on (:func:`adapter_prompt_form`).
    """
    if role not in LABELS:
        raise ValueError(f"role must be one of {', '.join(LABELS)}, got {role!r}")
    question = spelled_out(question, question_names(store, question))  # read as the grammar reads it: "r" is "are"
    lines = [graph_line(store, form, question)]  # refuses an unknown form
    lines.append(f"Functions: {FUNCTION_LINES[form]}.")
    lines += [f"Lesson: {' '.join(lesson.split())}" for lesson in lessons]
    lines.append(f"Question: {question}")
    lines += trial_lines(steps, with_plan)
    lines.append(f"{LABELS[role]} {index}:")
    return "\n".join(lines)


def adapter_prompt_form(adapter: str = "counselor") -> PromptForm:
    """The graph line's form the shipped reasoner adapter was trained on: its card's ``prompt_form``.

    A card without one predates the schema form, so its adapter read the flat line;
    an adapter that cannot be found reads the form training writes now.
    """
    from graphreason.llm.engine.adapter import shipped_adapter
    from graphreason.llm.engine.weights import LocalModelError

    try:
        card = shipped_adapter(adapter) / "card.json"
        return _card_form(str(card), card.stat().st_mtime_ns)
    except (OSError, LocalModelError):
        return TRAINED_FORM


@functools.lru_cache(maxsize=8)
def _card_form(path: str, mtime_ns: int) -> PromptForm:
    """The ``prompt_form`` of one card file (read once per version of the file)."""
    try:
        card = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return TRAINED_FORM
    form = card.get("prompt_form", "flat") if isinstance(card, dict) else "flat"
    if form not in PROMPT_FORMS:
        raise ValueError(f"{path} names prompt form {form!r}, not one of {', '.join(PROMPT_FORMS)}")
    return form


def _shipped_card() -> Any:
    """The shipped reasoner's card, or None when it cannot be found or read."""
    from graphreason.llm.engine.adapter import shipped_adapter
    from graphreason.llm.engine.weights import LocalModelError

    try:
        return json.loads((shipped_adapter("counselor") / "card.json").read_text())
    except (OSError, ValueError, LocalModelError):
        return None


def tuned_reasoner_data() -> str:
    """What the shipped reasoner's card says it was trained on, in words (the graphs, never a guess)."""
    from graphreason.tools.core.loaders import KNOWN_GRAPHS, UNSEEN_GRAPHS

    try:
        card = _shipped_card()
        stages = [card["data"]] + ([card["earlier_stage"]["data"]] if isinstance(card.get("earlier_stage"), dict) else [])
        data = stages[0]
        graphs = list(dict.fromkeys(g for stage in stages for g in stage.get("graphs") or []))
        links = list(dict.fromkeys(r for stage in stages for r in stage.get("undirected_cora_relations") or []))
        programs = list(dict.fromkeys(g for stage in stages for g in stage.get("program_graphs") or []))
    except (LookupError, TypeError):
        return "teacher trajectories (its card is unreadable)"
    parts = [f"template questions on {', '.join(graphs)}"] if graphs else []
    if links:
        parts.append(f"{len(links)} undirected copies of Cora")
    if programs:
        parts.append(f"question programs over {', '.join(programs)}")
    never = " or ".join(sorted(name for name in KNOWN_GRAPHS if name in UNSEEN_GRAPHS))  # by their loaders' names
    family = f", nor the {data['held_out_family']} wording family" if data.get("held_out_family") else ""
    return f"teacher trajectories over {'; '.join(parts) or 'no graph'}; never {never}{family}"


def tuned_reasoner_scores() -> str:
    """What the shipped reasoner's card says it scored, in words: out of distribution first, when measured.

    The out-of-distribution figure (``generalization_scores``, written by
    ``benchmarks/quality_counselor.py --card``) is quoted only while it names the shipped
    weights' digest; the in-template figure (the card's ``validation_scores``) is labelled as such.
    """
    from graphreason.workflows.counselor.operations import planner_digest

    try:
        card = _shipped_card()
        scores = card["validation_scores"]
        row, graph = scores["modes"]["counselor"], scores["graph"]
        em, n = float(row["exact_match"]), int(row["n"])
    except (LookupError, TypeError, ValueError):
        return "its measured exact-match rate is in docs/methods/counselor.md"
    in_template = f"on {n} questions from the project's own templates over {graph} (in-template) {em:.1f}%"
    try:
        ood = card["generalization_scores"]
        if ood["adapter_sha256"] != card["shipped"]["sha256"]:
            raise ValueError("measured on other weights")
        if ood.get("operation_planner") and ood["operation_planner"] != planner_digest():
            raise ValueError("measured with another operation planner")
        graphs = sorted(g for g, r in ood["graphs"].items() if r["kind"] in ("unseen graph", "never trained on"))
        ood_em, ood_n = float(ood["out_of_distribution_exact_match"]), int(ood["out_of_distribution_questions"])
    except (LookupError, TypeError, ValueError):
        return f"it answers {in_template} exactly; out of distribution it was not measured"
    family = ""
    if ood.get("family_out_questions"):
        family = (
            f", on {int(ood['family_out_questions'])} over its training graphs worded in a family it never saw "
            f"({ood['held_out_family']}) {float(ood['family_out_exact_match']):.1f}%"
        )
    if ood.get("others_wording_questions"):
        family += (
            f", on {int(ood['others_wording_questions'])} over those graphs in wordings kept for evaluation only "
            f"{float(ood['others_wording_exact_match']):.1f}%"
        )
    shaped = " (its Actions shaped by the operation planner)" if ood.get("operation_planner") else ""
    return (
        f"on {ood_n} question programs over graphs it never trained on ({', '.join(graphs)}) it answers "
        f"{ood_em:.1f}% exactly{shaped}{family}, {in_template}"
    )
