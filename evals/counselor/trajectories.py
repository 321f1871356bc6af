"""Teacher trajectories for the tuned reasoner: every role turn of the real workflow, prompted as it prompts.

For each generated question on a training graph (:data:`TRAIN_GRAPHS`; never
CiteSeer, the unseen graph of :data:`UNSEEN`), a teacher drives the real
Counselor workflow (``no_reflection`` mode, ``reasoner_prompt="tuned"``, the real
parser, graph functions, retriever and observations) with scripted replies:

1. ``Plan 1`` says what the question needs from the graph, in one of a few
   phrasings, naming the graph's relations and features as the reference
   action uses them;
2. ``Thought 1`` names the information needed now;
3. ``Action 1`` is the question's reference action;
4. ``Plan 2`` says how the answer follows from the observation (the answer rule);
5. ``Thought 2`` works it out from the values the observation shows (the
   count, the value counts of a vote, the largest degree, ...): only what the
   observation says, read the way :mod:`graphreason.evals.counselor.reference_agent`
   reads it;
6. ``Action 2`` is ``Finish[answer]``, the answer derived by the question's
   answer rule from those values (never copied from the gold; a record whose
   derived answer misses the gold is refused).

A question whose observation does not show all its values (a list the
workflow cut short) cannot be answered from what the model sees: it is left
out, and its id listed in the info (``skipped_qids``).

Each model call is one record: the prompt the workflow sent (its one message)
and the reply. Questions are split by id before any record is written: a
stratified share (:data:`VALIDATION_FRACTION`, seeded) is held out for the
validation loss, and the held-out ids are listed in the run's info.

Besides Cora and MovieLens as they are, the teacher asks the direction-free
question family (the templates CiteSeer is evaluated with,
:func:`graphreason.evals.datasets.templates_citeseer.linked_templates`) on
undirected copies of Cora whose one relation takes another name in each copy
(:data:`LINK_NAMES`): ``cites`` and ``cited_by`` merged, golds computed from
Cora's raw files. The model thus meets the same question under several
relation names and must copy the name from the prompt's graph line; CiteSeer
itself is never read.

Questions that need counting, a vote or the node with the most links
use the registry's aggregates (``Count``, ``Mode``, ``MaxDegree``, ``Differing``, beyond the paper):
their observation holds the answer, so the worked thought copies it.

The copies also rename: the ``connected`` copy calls the class feature ``topic``
(:data:`LABEL_KEYS`), so the feature name too is read from the graph line. A seeded share
of the questions (:data:`RECOVERY_SHARE`) recovers from an error: the first Action
misnames a relation or feature (``cites`` on a graph that has only ``linked``), the
workflow's error observation names the valid ones, and the next step runs the call with
the right name. The misnamed Action is never a record; the turns that read the error are.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphreason.evals.counselor.reference_agent import (
    ObservationParseError,
    answer_with_items,
    last_observation,
    observation_values,
    subject_text,
)
from graphreason.evals.datasets.answer_rules import flatten, same_key
from graphreason.evals.datasets.generated import generate_questions, instantiate, make_splits
from graphreason.evals.datasets.items import QAItem, save_items
from graphreason.evals.datasets.program_questions import FAMILIES, SHAPES, check_trainable, program_questions
from graphreason.evals.datasets.renamed_graphs import RENAMINGS, write_renamed
from graphreason.evals.datasets.templates_citeseer import RawCiteSeer, linked_templates
from graphreason.evals.datasets.templates_cora import read_raw_cora
from graphreason.evals.metrics import exact_match
from graphreason.tools.core.loaders import UNSEEN_GRAPHS, load_graph
from graphreason.tools.core.loaders.citeseer import distinct_links
from graphreason.tools.core.loaders.cora import load_cora
from graphreason.tools.core.loaders.grbench import save_graph_json
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import Call, parse_action
from graphreason.tools.counselor.registry import AGGREGATES
from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.counselor.tuned import TRAINED_FORM, names_in_graph_line
from graphreason.workflows.models.scripted import ScriptedChatModel

UNSEEN = tuple(sorted(UNSEEN_GRAPHS))  # never trained on: the tuned reasoner is evaluated on them as unseen graphs
TRAIN_GRAPHS = ("cora", "movielens")
LINK_NAMES = ("connected", "linked", "related")  # the one relation of each undirected copy of Cora
LABEL_KEYS = {"connected": "topic", "related": "category"}  # the class feature's name, where not Cora's "label"
COPY_NAMES = {"related": "paper-links"}  # a copy's graph name, where not "cora-<link>": the name is not a cue
RECOVERY_SHARE = 0.15  # questions whose trajectory recovers from a misnamed relation or feature
SLIP_RELATIONS = ("cites", "cited_by", "linked", "links", "neighbours", "rated")
SLIP_FEATURES = ("area", "category", "label", "name", "topic", "year")
VALIDATION_FRACTION = 0.2
MAX_STEPS = 3  # what the workflow gives the embedded reasoner (EMBEDDED_BUDGET)
SHOWN_VALUES = 6  # values a worked thought lists before "..."
KEEPS_RULE = {"any"}  # rules still worked out after an aggregate (a count becomes yes or no)

PLAN_FORMS = (
    "Get {needs} from the graph, then answer.",
    "Look up {needs}; the answer follows from that.",
    "The answer needs {needs}.",
)
THOUGHT_FORMS = ("I need {needs}.", "First I need {needs}.", "The graph must give {needs}.")
RULE_PLANS = {
    "value": "the observation holds the value asked for",
    "list": "the items the observation lists are the answer",
    "list_without_target": "the items the observation lists, without the node itself, are the answer",
    "count": "count the distinct nodes in the observation",
    "count_distinct": "count the distinct values in the observation",
    "most_common": "take the most common value in the observation",
    "mean": "average the numbers in the observation",
    "weighted_mean": "average the ratings, weighted by their counts",
    "argmax": "take the node with the largest count",
    "count_differing": "count the values that differ from the node's own",
    "count_same": "count the values that equal the node's own",
    "argmin": "take the node with the smallest count",
    "count_common": "count the items both lists hold",
    "count_union": "count the distinct items of both lists together",
    "contains": "check whether the list holds the other node",
    "any": "say yes when the count is above zero, else no",
}


@dataclass(frozen=True)
class ReasonerRecord:
    """One reasoning turn: the prompt the workflow sent (``input``) and the teacher's reply (``output``)."""

    graph: str
    qid: str
    template: str
    role: str
    step: int
    input: str
    output: str
    index: int = 0  # position in its side of the split (set by build_records)

    @property
    def dataset(self) -> str:
        """The graph, as the fine-tuning data names a record's source."""
        return self.graph


def copy_name(link: str) -> str:
    """The graph name of the undirected Cora copy whose one relation is ``link``."""
    return COPY_NAMES.get(link, f"cora-{link}")


def _node_phrase(arg: Any) -> str:
    if isinstance(arg, Call) and arg.name == "Neighbour":
        return f"the {arg.args[1]} neighbours of {_node_phrase(arg.args[0])}"
    if isinstance(arg, Call) and arg.name == "MaxDegree":
        return f"the one of {_node_phrase(arg.args[0])} with the most {arg.args[1]} neighbours"
    if isinstance(arg, Call) and arg.name == "Retrieve":
        return "the named node"
    return f"node {arg}"


def _need(call: Call) -> str:
    if call.name == "Feature":
        return f"the {call.args[1]} of {_node_phrase(call.args[0])}"
    if call.name == "Degree":
        return f"the number of {call.args[1]} links of {_node_phrase(call.args[0])}"
    if call.name == "Count":
        return f"how many distinct items are in {_need(call.args[0])}"
    if call.name == "Mode":
        return f"the most common value of {_need(call.args[0])}"
    if call.name == "Matching":
        nodes, key, value = call.args
        return f"{_node_phrase(nodes)} whose {key} is {value}"
    if call.name == "Differing":
        node, relation, key = call.args
        return f"how many {relation} neighbours of {_node_phrase(node)} have a {key} other than its own"
    return _node_phrase(call)


def aggregated(action: str) -> bool:
    """Whether a reference action lets an aggregate (:data:`AGGREGATES`) do its counting or comparing."""
    return any(inner.name in AGGREGATES for call in parse_action(action) for inner in call.nested())


def needs(action: str) -> str:
    """What a reference action reads, in words (``the title of the cites neighbours of the node the question names``)."""
    return " and ".join(_need(call) for call in parse_action(action))


def _shown(values: Sequence[Any]) -> str:
    listed = [str(v) for v in values[:SHOWN_VALUES]]
    return ", ".join(listed) + (", ..." if len(values) > SHOWN_VALUES else "")


def worked_thought(rule: str, values: list[Any], answer: str, target: str | None = None) -> str:
    """The second Thought: the answer worked out from the observation's values, saying only what they show.

    ``target``: the question's subject, which a ``list_without_target`` answer leaves out.
    """
    result = values[0] if len(values) == 1 else tuple(values)
    if rule == "value":
        return f"The observation gives {answer}."
    if rule == "list_without_target" and target and target in {str(v).strip() for v in flatten(result)}:
        return f"The answer is every item the observation lists except {target} itself."
    if rule in ("list", "list_without_target"):
        return "The answer is every item the observation lists."
    if rule == "count":
        if isinstance(result, int):
            return f"The observation gives the count, {answer}."
        return f"The observation lists {answer} distinct node(s), so the answer is {answer}."
    if rule == "count_distinct":
        distinct = sorted({str(v) for v in flatten(result) if v not in (None, "")})
        return f"The distinct values are {_shown(distinct)}: {answer} in all."
    if rule == "most_common" and not isinstance(result, (list, tuple)):  # Mode gave it
        return f"The observation gives the most common value, {answer}."
    if rule == "most_common":
        counts = Counter(str(v) for v in flatten(result) if v not in (None, ""))
        listed = ", ".join(f"{k} x{n}" for k, n in counts.most_common(SHOWN_VALUES))
        return f"Counts: {listed}. The most common is {answer}."
    if rule in ("argmax", "argmin"):
        names, numbers = result
        if rule == "argmin":
            return f"The smallest count is {min(numbers)}, for {answer}."
        return f"The largest count is {max(numbers)}, for {answer}."
    if rule == "count_same":
        own, others = result
        return f"Its own value is {own}; {answer} of the {len(flatten(others))} values equal it."
    if rule in ("count_common", "count_union"):
        first, second = ({same_key(v) for v in flatten(side) if v not in (None, "")} for side in result)
        if rule == "count_common":
            shared = sorted(first & second)
            return f"Both lists hold {_shown(shared) or 'nothing'}: {answer} in all." if shared else "The lists share nothing: 0."
        return f"The first list has {len(first)}, the second {len(second)}, {len(first & second)} in both: {answer} in all."
    if rule == "contains":
        values, wanted = result
        where = "is" if answer == "yes" else "is not"
        return f"{wanted} {where} in the list, so the answer is {answer}."
    if rule == "any":
        return f"The count is {result}, so the answer is {answer}."
    if rule == "count_differing" and isinstance(result, int):  # Differing gave it
        return f"The observation gives the count, {answer}."
    if rule == "count_differing":
        own, others = result
        total = len(flatten(others))
        return f"Its own value is {own}; {answer} of the {total} values differ from it."
    if rule in ("mean", "weighted_mean"):
        return f"Working it out from the observation gives {answer}."
    raise ValueError(f"no worked thought for answer rule {rule!r}")


def in_observed_order(values: Sequence[Any], items: Sequence[str]) -> list[str]:
    """``items`` in the order the observation first shows them (the Finish copies the list as it reads it)."""
    keep, ordered = set(items), []
    for value in flatten(list(values)):
        text = str(value).strip()
        if text in keep and text not in ordered:
            ordered.append(text)
    if len(ordered) != len(keep):
        raise ValueError(f"the observation does not show all of {sorted(keep)!r:.120}")
    return ordered


def slip(action: str, features: Sequence[str], relations: Sequence[str], rng: random.Random) -> tuple[str, str, str]:
    """``(wrong action, wrong name, right name)``: one relation or feature name of ``action`` misnamed everywhere.

    The wrong name is a plausible one this graph does not have (a weak model's typical slip:
    ``cites`` on a graph whose relation is ``linked``), so the workflow answers with an error.
    """
    named = {arg for call in parse_action(action) for inner in call.nested() for arg in inner.args[1:]}
    used = sorted({arg for arg in named if isinstance(arg, str)} & (set(features) | set(relations)))
    if not used:
        raise SlipUnseen(f"{action!r} names no relation or feature the graph line shows, so none to misname")
    right = rng.choice(used)
    pool = SLIP_RELATIONS if right in relations else SLIP_FEATURES
    wrong = rng.choice([name for name in pool if name not in features and name not in relations])
    return re.sub(rf"(?<=, ){re.escape(right)}(?=[,\]])", wrong, action), wrong, right  # a whole argument


class SlipUnseen(AssertionError):
    """A recovering trajectory's error observation does not name the right relation or feature.

    On a graph with more names than an error lists, the one to read may be cut off; such a question is
    taught without the slip instead.
    """


class _Teacher:
    """The scripted replies of one question, recording each reply it gives (callables see the prompt).

    With ``recover`` the first Action misnames one relation or feature (:func:`slip`); the
    next step reads the error, names the right one and runs the reference action, and the
    third finishes. The slip itself is never a training target (see :func:`teacher_records`).
    """

    def __init__(self, item: QAItem, rng: random.Random, recover: bool = False) -> None:
        if not item.reference_action or not item.reference_answer_rule:
            raise ValueError(f"item {item.qid} has no reference action or answer rule")
        self.item, self.rng, self.recover = item, rng, recover
        self.replies: list[str] = []
        self.answer: str | None = None
        self.slip: tuple[str, str, str] | None = None
        self.what = needs(item.reference_action)
        rule = item.reference_answer_rule
        if aggregated(item.reference_action) and rule not in KEEPS_RULE:
            rule = "value"
        self._plan = rng.choice(PLAN_FORMS).format(needs=self.what)
        self._thought_1 = rng.choice(THOUGHT_FORMS).format(needs=self.what)
        self._answer_plan = f"The observation is in; {RULE_PLANS[rule]}."

    def script(self) -> list[Callable[[list[BaseMessage]], str]]:
        def fixed(text: str) -> Callable[[list[BaseMessage]], str]:
            return lambda messages: self._say(text)

        action = fixed(str(self.item.reference_action))
        if not self.recover:
            return [fixed(self._plan), fixed(self._thought_1), action, fixed(self._answer_plan), self._thought, self._finish]
        return [
            fixed(self._plan), fixed(self._thought_1), self._slip, self._error_plan, self._error_thought, action,
            fixed(self._answer_plan), self._thought, self._finish,
        ]  # fmt: skip

    def _slip(self, messages: list[BaseMessage]) -> str:
        features, relations = names_in_graph_line(str(messages[-1].content).split("\n", 1)[0])
        self.slip = slip(str(self.item.reference_action), features, relations, self.rng)
        return self._say(self.slip[0])

    def _error_plan(self, messages: list[BaseMessage]) -> str:
        assert self.slip is not None
        _, wrong, right = self.slip
        observation = last_observation(messages)
        if f"'{wrong}' does not exist" not in observation or right not in observation:
            raise SlipUnseen(f"{self.item.qid}: the slip {wrong!r} drew no error naming {right!r}: {observation!r}")
        return self._say(f"The graph has no {wrong}; the observation lists {right}, so run the call again with {right}.")

    def _error_thought(self, messages: list[BaseMessage]) -> str:
        return self._say(f"I need {self.what}.")

    def _say(self, text: str) -> str:
        self.replies.append(text)
        return text

    def _thought(self, messages: list[BaseMessage]) -> str:
        observation = last_observation(messages)
        values = observation_values(observation)
        rule, target = str(self.item.reference_answer_rule), subject_text(self.item)
        # as the reference agent reads it; a list keeps the observation's order, so the Finish copies it in turn
        self.answer, items = answer_with_items(self.item, observation)
        if items is not None:
            self.answer = ", ".join(in_observed_order(values, items))
        return self._say(worked_thought(rule, values, self.answer, target))

    def _finish(self, messages: list[BaseMessage]) -> str:
        return self._say(f"Finish[{self.answer}]")


ROLES = ("plan", "thought", "action") * 2


def teacher_records(
    item: QAItem, *, seed: int = 0, embedding_model: str = "hash", recover: bool = False
) -> list[ReasonerRecord]:
    """The records of one question's teacher trajectory, recorded from the real workflow.

    Six turns (plan, thought, action; plan, thought, Finish), or with ``recover`` nine, of
    which the eight after the misnamed Action are records: the slip is in the later prompts
    (an error the model must read), never a reply the model is trained to write.
    """
    graph = str(item.graph or "")
    name = str(item.meta.get("graph_name") or graph)  # a copy written to a graph.json goes by its name
    if graph.strip().lower() in UNSEEN or name.strip().lower() in UNSEEN:
        raise ValueError(f"{name} is the unseen graph: the tuned reasoner is never trained on it")
    teacher = _Teacher(item, random.Random(f"{seed}:{item.qid}"), recover=recover)
    roles = ROLES + ROLES[:3] if recover else ROLES
    model = ScriptedChatModel(script=teacher.script())
    context = CounselorContext(
        graph=graph, embedding_model=embedding_model, reasoner_model=model, reflector_model=model,
        judge_model=model, mode="no_reflection", reasoner_prompt="tuned", max_steps=MAX_STEPS,
    )  # fmt: skip
    out = solve(item.question, context)
    if not exact_match(out["answer"], item.answers or item.answer):
        raise AssertionError(f"{item.qid}: the teacher's answer {out['answer']!r} misses the gold {item.answer!r}")
    prompts = [str(call[-1].content) for call in model.calls]
    if len(prompts) != len(roles) or len(teacher.replies) != len(roles):
        raise AssertionError(f"{item.qid}: expected {len(roles)} reasoning calls, the workflow made {len(prompts)}")
    return [
        ReasonerRecord(name, item.qid, str(item.template), role, i // 3 + 1, prompt, reply)
        for i, (role, prompt, reply) in enumerate(zip(roles, prompts, teacher.replies, strict=True))
        if not (recover and i == 2)  # the slip: never a training target
    ]


def split_questions(items: Sequence[QAItem], seed: int = 0) -> tuple[list[QAItem], list[QAItem]]:
    """``(train, held_out)``: a stratified, seeded share of each template's questions is held out."""
    splits = make_splits(items, seed=seed, validation_fraction=VALIDATION_FRACTION)
    return splits["dev"], splits["validation"]


def undirected_cora(
    link: str, folder: str | Path, root: str | Path | None = None, label_key: str = "label"
) -> tuple[str, RawCiteSeer]:
    """An undirected copy of Cora whose one relation is ``link`` (``cites`` and ``cited_by`` merged).

    The copy is written to ``folder/<copy_name(link)>/graph.json`` (the spec the workflow loads, returned
    first) with Cora's nodes and features, the class feature named ``label_key``; the raw view
    beside it, for the golds, comes from Cora's raw files (``root``: the ``cora`` folder, default
    the shared data).
    """
    raw = read_raw_cora(root)
    linked = {pid: raw.cites[pid] | raw.cited_by[pid] for pid in raw.titles}
    cora = load_cora(root)
    copy = GraphStore(name=copy_name(link), directed=False, text_keys=dict(cora.text_keys))
    for node in cora.nodes():
        features = {(label_key if key == "label" else key): value for key, value in cora.features(node).items()}
        copy.add_node(node, cora.node_type(node), features)
    pairs = [(pid, other) for pid in sorted(linked) for other in sorted(linked[pid])]
    for a, b in distinct_links(pairs):
        copy.add_edge(a, b, link)
    path = save_graph_json(copy, Path(folder) / copy.name / "graph.json")
    return str(path), RawCiteSeer(raw.titles, raw.labels, linked, link=link, label_key=label_key)


def linked_questions(link: str, folder: str | Path, *, n_per_template: int, seed: int, root: Any = None) -> list[QAItem]:
    """The direction-free questions on the undirected Cora copy named after ``link`` (class feature: :data:`LABEL_KEYS`)."""
    label_key = LABEL_KEYS.get(link, "label")
    spec, raw = undirected_cora(link, folder, root, label_key)
    name = copy_name(link)
    templates = linked_templates(link, label_key)
    items = [item for template in templates for item in instantiate(name, template, raw, n_per_template, seed)]
    return [replace(item, graph=spec, meta={**item.meta, "graph_name": name}) for item in items]


def training_questions(
    graphs: Iterable[str],
    *,
    links: Iterable[str],
    n_per_template: int,
    seed: int,
    root_of: dict[str, Any] | None = None,
    work_dir: str | Path | None = None,
    program_graphs: Iterable[str] = (),
    programs_per_shape: int = 20,
) -> list[QAItem]:
    """The questions the tuned reasoner's teacher (and the operation planner) learn from, before any split.

    Templates on ``graphs``, the direction-free family on one undirected Cora copy per ``links`` name
    (written under ``work_dir``), and question programs with a reference action over ``program_graphs``
    (renamed copies are written first). See :func:`build_records` for the arguments.
    """
    roots = root_of or {}
    items: list[QAItem] = []
    for graph in graphs:
        items += generate_questions(graph, n_per_template=n_per_template, seed=seed, root=roots.get(graph))
    made = [Path(work_dir)] if work_dir is not None else []

    def folder() -> Path:  # made on first use: only where a graph is written
        if not made:
            made.append(Path(tempfile.mkdtemp(prefix="reasoner-graphs-")))
        return made[0]

    for link in links:
        items += linked_questions(link, folder(), n_per_template=n_per_template, seed=seed, root=roots.get("cora"))
    for spec in program_graphs:
        path = write_renamed(spec, folder()) if spec in RENAMINGS else spec  # a renamed copy is written first
        store = load_graph(path)
        asked = program_questions(store, programs_per_shape * len(SHAPES), seed=seed, graph_spec=path, for_training=True)
        items += [replace(item, meta={**item.meta, "graph_name": store.name}) for item in asked if item.reference_action]
    return items


def held_out_whole(item: QAItem, graph: str | None, family: str | None) -> bool:
    """Whether ``item`` is on the held-out ``graph`` (its name) or worded in the held-out ``family``."""
    name = str(item.meta.get("graph_name") or item.graph or "")
    return (graph is not None and name == graph) or (family is not None and item.meta.get("family") == family)


def build_records(
    graphs: Iterable[str] = TRAIN_GRAPHS,
    *,
    links: Iterable[str] = LINK_NAMES,
    n_per_template: int = 20,
    seed: int = 0,
    embedding_model: str = "hash",
    root_of: dict[str, Any] | None = None,
    work_dir: str | Path | None = None,
    held_out_file: str | Path | None = None,
    program_graphs: Iterable[str] = (),
    programs_per_shape: int = 20,
    held_out_graph: str | None = None,
    held_out_family: str | None = None,
) -> tuple[list[ReasonerRecord], list[ReasonerRecord], dict[str, Any]]:
    """``(train, validation, info)`` records of the teacher over generated questions on ``graphs``.

    ``program_graphs`` (names, ``graph.json`` paths or the renamed copies of
    :data:`~graphreason.evals.datasets.renamed_graphs.RENAMINGS`) add question programs over each graph's schema
    (:mod:`graphreason.evals.datasets.program_questions`), ``programs_per_shape`` of each shape, those
    that one reference action answers. For a validation of generalization rather than fit, every
    question on ``held_out_graph`` (a graph's name) or worded in ``held_out_family`` is held out whole:
    none of them, nor any other question on that graph or in that family, is trained on.

    ``links`` names the undirected Cora copies (one each, written under ``work_dir``, a fresh
    temporary folder by default). ``root_of`` may name a raw data folder per graph (the tests'
    small copies; ``cora`` also serves the copies). ``held_out_file``: where to write the held-out
    questions (QAItem JSONL, the ones with records), so ``graphreason eval counselor --path`` scores them.
    """
    graphs, links, program_graphs = list(graphs), list(links), list(program_graphs)
    unseen = [g for g in graphs if g.strip().lower() in UNSEEN]
    if unseen:
        raise ValueError(f"{unseen[0]} is the unseen graph: the tuned reasoner is never trained on it")
    for spec in program_graphs:
        check_trainable(spec)  # a loaded graph's own name is checked again when its questions are drawn
    if held_out_family is not None and held_out_family not in FAMILIES:
        raise ValueError(f"unknown wording family {held_out_family!r}; choose one of {', '.join(FAMILIES)}")
    items = training_questions(
        graphs, links=links, n_per_template=n_per_template, seed=seed, root_of=root_of, work_dir=work_dir,
        program_graphs=program_graphs, programs_per_shape=programs_per_shape,
    )  # fmt: skip
    whole = [item for item in items if held_out_whole(item, held_out_graph, held_out_family)]
    train_items, held_out = split_questions(
        [item for item in items if not held_out_whole(item, held_out_graph, held_out_family)], seed
    )
    held_out += whole

    skipped: list[str] = []

    def records(side: list[QAItem]) -> list[ReasonerRecord]:
        made = []
        for item in side:
            recover = random.Random(f"recover:{seed}:{item.qid}").random() < RECOVERY_SHARE
            try:
                try:
                    made += teacher_records(item, seed=seed, embedding_model=embedding_model, recover=recover)
                except SlipUnseen:  # the error's list of names was cut before the right one
                    made += teacher_records(item, seed=seed, embedding_model=embedding_model)
            except ObservationParseError:  # the observation shows too few of the values (a truncated list)
                skipped.append(item.qid)
        return [replace(record, index=i) for i, record in enumerate(made)]

    train, validation = records(train_items), records(held_out)
    if held_out_file is not None:
        save_items([item for item in held_out if item.qid not in skipped], held_out_file)
    info = {
        "graphs": graphs,
        "undirected_cora_relations": links,
        "undirected_cora_label_keys": {link: LABEL_KEYS.get(link, "label") for link in links},
        "undirected_cora_names": {link: copy_name(link) for link in links},
        "recovery_share": RECOVERY_SHARE,
        "recovering_qids": sorted({r.qid for r in train + validation if r.step == 3}),
        "n_per_template": n_per_template,
        "seed": seed,
        "questions": len(items),
        "held_out_qids": [item.qid for item in held_out if item.qid not in skipped],
        "skipped_qids": skipped,
        "validation_fraction": VALIDATION_FRACTION,
        "prompt_form": f"tuned, {TRAINED_FORM} graph line",
        "program_graphs": program_graphs,
        "programs_per_shape": programs_per_shape if program_graphs else 0,
        "program_questions": sum(1 for item in items if str(item.template or "").startswith("program:")),
        "held_out_graph": held_out_graph,
        "held_out_family": held_out_family,
        "held_out_whole": len(whole),
    }
    return train, validation, info
