"""Answer hygiene: what a Finish may return, checked against the graph before it becomes the answer.

A weak model's Finish often holds something that is not an answer. Each shape below
is caught, and either refused (a corrective observation; the trial goes on) or mapped:

* a function call (``MaxDegree[Neighbour[...]``) - refused: the call was never run; so is a function's name
  alone (``MostLinked``, copied from an error observation about the call);
* a relation name or a feature name, alone or in a list (``759, cited_by``,
  ``Agents, label``) - refused;
* the text of an error observation of this trial (``No single node has the most
  cited_by neighbors``) - refused; so is a heading of the prompt alone (``Observations``, ``Thought``), unless an
  Observation shows it as a value (a tag named "thought");
* node ids where the question asks for a name or title (``Which artist ...?``
  answered ``a10740``) - mapped to the nodes' names or titles, when every item is
  a node id with a name of its own; so are ids whose names the trial's observations
  show (it read the title, then copied the id). A question that asks for a number, a
  year or an id is never mapped (Cora's ids are numbers);
* the node ids a tie reports (``No single node has the most ...: ['12', '40'] have 4 each.``), listed as the
  answer - mapped to the one feature the question writes (a year too), each value once ("the label of the most
  cited of them"); else, unless it asks for ids or a number, to their names or titles (a count word that only says
  how the node is picked, "which has the highest count of citations", asks no number);
* a list that holds a node the question leaves out by name ("Which papers, other than
  "X" itself, ..."; "except", "excluding", "besides") - mapped to the list without it
  (two hops away and back, a node is among its own neighbours' neighbours);
* ``yes`` or ``no`` where the question asks to answer True or False ("Kindly respond with True or False") -
  mapped to ``True`` or ``False``;
* a date where the question asks for a year ("In what year was X released?" answered ``01-Jan-1994``) - mapped
  to the one year the date holds.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graphreason.tools.core.retrieval.lexical import normalise
from graphreason.tools.counselor.functions import GraphFunctions, name_key
from graphreason.tools.counselor.wording import TRUE_OR_FALSE, left_out_names, question_names, quoted_names

_NOT_A_NAME = re.compile(
    r"\b(how many|number of|count|how much|how often|ids?|identifiers?|years?|when|dates?|degree)\b", re.IGNORECASE
)
# the number a count's Observation ends in ("The number of distinct values is: 3.", "The cites neighbor number of 12
# is 2."): a Finish that copies it gives the count, whatever words the question uses ("whose label is ...")
_COUNTED = re.compile(r"\bnumber\b[^\n]*?\bis:? (-?\d+)\.\s*$", re.IGNORECASE)
# a count word that says how a node is picked, not what is asked: "which of them has the highest count of citations",
# "the member with the greatest number of links", "which one ends with the biggest count", "the argmax over X of the
# number of links"
_PICKED_BY_COUNT = re.compile(
    r"\b(?:with|has|have|having|had|got)\s+(?:the\s+)?(?:highest|largest|greatest|biggest|lowest|smallest)\s+"
    r"(?:count|number)(?:\s+of)?\b|\barg(?:max|min)\b[^.?!]*?\bof\s+the\s+(?:count|number)\s+of\b",
    re.IGNORECASE,
)
_NAME_WORDS = re.compile(r"\b(who|whom|whose|title|titles|name|names)\b", re.IGNORECASE)
# the prompt's own headings, copied where the answer goes ("Finish[Observations]")
_HEADINGS = frozenset({"observation", "observations", "thought", "thoughts", "action", "actions", "question", "plan"})
_NAME_ITEMS = 12  # the most ", "-separated pieces one name is looked for in (a title with commas in it)
_LISTED_VALUES = re.compile(r" are: (\[.*\])\.?$")  # "The title feature of [...] are: ['A', 'B']."
# the answer form a question asks for: "Kindly respond with True or False", "answer true/false"
_TRUE_OR_FALSE = re.compile(rf"\b(?:{TRUE_OR_FALSE})\b", re.IGNORECASE)
_TRUTH = {"yes": "True", "no": "False"}
_YES_NO = {truth.lower(): yes_no for yes_no, truth in _TRUTH.items()}  # the yes or no a True or False stands for
# a question that asks for a year: "In what year was X released?", "which year", "the year X came out"
_ASKS_YEAR = re.compile(r"\b(?:what|which)\s+year\b|\bthe\s+year\s+(?:of|when|in\s+which|that)\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


@dataclass(frozen=True)
class FinalCheck:
    """The outcome of checking one Finish: the answer to keep (None when refused) and what was done."""

    answer: str | None
    action: str = "kept"  # kept, refused or mapped
    kind: str = ""  # call, function name, relation, feature name, heading, error observation, node id, tied nodes, left-out
    # name, cut list
    message: str = ""  # the corrective observation when refused

    def record(self, raw: str) -> dict[str, str]:
        """What the trace keeps of a refused or mapped Finish."""
        found = {"action": self.action, "kind": self.kind, "finish": raw}
        if self.answer is not None and self.answer != raw:
            found["answer"] = self.answer
        return found


def asks_for_name(question: str, node_types: Sequence[str] = ()) -> bool:
    """Whether ``question`` asks for a name or title: it says who, title or name, or which / what ``<node type>``.

    A question that asks for a number, a year, a count or an id never does.
    """
    if _NOT_A_NAME.search(question):
        return False
    if _NAME_WORDS.search(question):
        return True
    nouns = "|".join(re.escape(t.replace("_", " ")) for t in node_types if t)
    return bool(nouns) and bool(
        re.search(rf"\b(which|what|list|give)\s+(?:\w+\s+){{0,3}}?(?:{nouns})(?:s|es)?\b", question, re.IGNORECASE)
    )


# the values an Observation shows: quoted list items ('Abstract'), or the one value ending it (": Abstract.")
_VALUES = re.compile(r"'([^']*)'|: ([^'\[\]]+?)\.$")


def _parts(answer: str) -> list[str]:
    text = answer.strip().strip("[]")
    return [p.strip().strip("'\"").strip() for p in text.split(",") if p.strip().strip("'\"").strip()]


def check_final(
    answer: str,
    functions: GraphFunctions,
    question: str,
    failed_observations: Sequence[str] = (),
    observations: Sequence[str] = (),
    cut: bool = False,
) -> FinalCheck:
    """Check a Finish's ``answer`` (see the module docstring).

    A part that an Observation shows as a value (``'Abstract'``, a paper's title) is an answer
    even where it spells a relation or feature name. ``cut``: the reply ended before the Finish closed (its token
    budget ran out); an answer that copies the start of the last listed observation is then that whole list.
    """
    names = sorted({n for entry in functions.registry for n in (entry.name, *entry.aliases)}, key=len, reverse=True)
    call = re.search(r"\b(" + "|".join(re.escape(n) for n in names) + r")\s*\[", answer, re.IGNORECASE)
    if call:
        return FinalCheck(None, "refused", "call", (
            f"{answer.strip()[:60]!r} is a function call, not its result; the task is not finished. Run the call "
            "in an Action, then Finish with the value its Observation shows."
        ))
    store = functions.store
    given = question_names(store, question)  # a name it leaves out is no item of the answer
    parts = _parts(answer)
    shown = {name_key(value) for obs in observations for found in _VALUES.findall(obs) for value in found if value}
    unshown = [p for p in parts if name_key(p) not in shown]  # a value an Observation shows is an answer
    relations = {name_key(r) for rels in store.schema().values() for r in rels}
    named = [p for p in unshown if name_key(p) in relations]
    if named:
        return FinalCheck(None, "refused", "relation", (
            f"{named[0]!r} is a neighbor type of the graph, not an answer; the task is not finished. Finish with "
            "the value itself (a name, title, number or list from the Observations)."
        ))
    function_keys = {name_key(n) for n in names}
    functions_named = [p for p in unshown if name_key(p) in function_keys]
    if functions_named:
        return FinalCheck(None, "refused", "function name", (
            f"{functions_named[0]!r} is the name of a graph function, not an answer; the task is not finished. Run "
            "a call in an Action, then Finish with the value its Observation shows."
        ))
    features = {name_key(k) for keys in store.type_features().values() for k in keys}
    keys = [p for p in unshown if name_key(p) in features]
    if keys:
        return FinalCheck(None, "refused", "feature name", (
            f"{keys[0]!r} is the name of a feature, not its value; the task is not finished. Read the "
            "feature with Feature[node, feature], then Finish with the value it shows."
        ))
    if len(unshown) == 1 == len(parts) and re.sub(r"^the_", "", name_key(unshown[0])) in _HEADINGS:
        return FinalCheck(None, "refused", "heading", (
            f"{unshown[0]!r} is a heading of this prompt, not an answer; the task is not finished. Finish with the "
            "value itself (a name, title, number or list from the Observations)."
        ))
    text = answer.strip()
    if len(text) >= 12 and any(obs.strip().startswith(text[:60]) for obs in failed_observations):
        return FinalCheck(None, "refused", "error observation", (
            "That is the text of an error observation, not an answer; the task is not finished. Fix the call the "
            "error is about, or try another, then Finish with the value an Observation shows."
        ))
    # a tie is an error observation: the answer that lists its nodes, each of them
    tie = next((found for obs in reversed(failed_observations) if (found := tie_of(obs)) is not None), None)
    if tie is not None and parts == list(tie.items) and all(p in store for p in parts):
        valued = tied_values(parts, store, question)  # "the label of the one with the most ...": each tied one's label
        # else their names, where a node has one; a count word that only says how the node is picked asks no number
        if valued is None and not _NOT_A_NAME.search(_PICKED_BY_COUNT.sub(" ", question)):
            valued = ", ".join(store.text(p) for p in parts)
        if valued is not None and valued != answer.strip():
            return FinalCheck(without_left_out(valued, question, given) or valued, "mapped", "tied nodes")
    counted = {found for obs in observations for found in _COUNTED.findall(obs)}  # "The number of ... is: 3."
    if parts and all(p in store for p in parts) and not _NOT_A_NAME.search(question) and not set(parts) <= counted:
        texts = [store.text(p) for p in parts]
        read = all(name_key(t) in shown for t in texts)  # the trial read their names: "The title feature of X are: Y."
        if all(t != p for t, p in zip(texts, parts, strict=True)) and (
            read or asks_for_name(question, [store.node_type(p) for p in parts])
        ):
            named = ", ".join(texts)
            return FinalCheck(without_left_out(named, question, given) or named, "mapped", "node id")
    whole = completed_list(answer, observations) if cut else None
    if whole is not None:  # copying a list, the reply ran out of tokens: the list it was copying, whole
        return FinalCheck(without_left_out(whole, question, given) or whole, "mapped", "cut list")
    kept = without_left_out(answer, question, given)
    if kept is not None:
        return FinalCheck(kept, "mapped", "left-out name")
    formed = asked_form(answer, question)
    return FinalCheck(answer) if formed is None else FinalCheck(formed, "mapped", "answer form")


def asked_form(answer: str, question: str) -> str | None:
    """``answer`` in the form ``question`` asks for, where that differs: ``True`` or ``False`` for ``yes`` or ``no``
    when it asks to answer True or False; the one year a date holds (``01-Jan-1994``: ``1994``) when it asks for a
    year. None where the answer is already in that form, or the form does not apply (a date holding no year, or
    two)."""
    text = answer.strip()
    if text.lower() in _TRUTH and _TRUE_OR_FALSE.search(question):
        return _TRUTH[text.lower()]
    if _ASKS_YEAR.search(question) and "," not in text:
        years = set(_YEAR.findall(text))
        if len(years) == 1 and text != (year := years.pop()):
            return year
    return None


def listed_values(observations: Sequence[str]) -> list[str] | None:
    """The values the last observation that lists values shows ("The title feature of [...] are: ['A', 'B']."), as
    text; None where none lists any, or the last that does cannot be read as a list."""
    for observation in reversed(observations):
        found = _LISTED_VALUES.search(observation)
        if not found:
            continue
        try:
            items = ast.literal_eval(found.group(1))
        except (ValueError, SyntaxError):
            return None
        return [str(item) for item in items] if isinstance(items, list) else None
    return None


# a tie a pick or a mode reports instead of breaking it (tools/counselor/registry.py): the tied items, then their count
_TIE = re.compile(
    r"(?:No single node (?:has|is)|There is no single most common value)[^\n]*?: (\[[^\n]*\]) "
    r"(?:have|are of|each appear) (\d+)(?: each| of \d+ times)\.$"
)


@dataclass(frozen=True)
class Tie:
    """The items an observation reports tied (a pick's nodes, a mode's values) and the count they tie at."""

    items: tuple[str, ...]
    count: str

    @property
    def answer(self) -> str:
        """The tied items as one answer: each of them, since none is the single one asked for."""
        return ", ".join(self.items)


def tie_of(observation: str) -> Tie | None:
    """The tie ``observation`` reports ("No single node has the most cites neighbors: ['12', '40'] have 4 each."),
    or None: no tie, or one whose list was cut short ("... (9 nodes in all)")."""
    found = _TIE.search(observation.strip())
    if not found:
        return None
    try:
        items = ast.literal_eval(found.group(1))
    except (ValueError, SyntaxError):
        return None
    if not isinstance(items, list) or len(items) < 2:
        return None
    return Tie(tuple(str(item) for item in items), found.group(2))


def completed_list(answer: str, observations: Sequence[str]) -> str | None:
    """The values of the last observation that lists values, joined by ``", "``, where ``answer`` is a shorter
    start of them that holds at least one whole value (a copy cut short); None otherwise."""
    items = listed_values(observations)
    if not items:
        return None
    whole, text = ", ".join(items), answer.strip()
    started = len(text) > len(items[0]) and whole.startswith(text) and len(text) < len(whole)
    return whole if started else None


def tied_values(nodes: Sequence[str], store: Any, question: str) -> str | None:
    """The one feature ``question`` writes of tied ``nodes`` ("the label of the one with the most citations"), each
    value once, in the nodes' order: one value where they share it. None where it writes no such feature (not the
    name or title) or several."""
    text = question.lower()
    types = {store.node_type(node) for node in nodes}
    written = {
        key
        for kind, keys in store.type_features().items()
        if kind in types
        for key in keys
        if key != store.text_keys.get(kind) and re.search(rf"\b{re.escape(key.replace('_', ' ').lower())}\b", text)
    }
    if len(written) != 1:
        return None
    (key,) = written
    values = [store.feature(node, key) for node in nodes]
    if any(value is None or isinstance(value, (list, dict)) or not str(value).strip() for value in values):
        return None
    return ", ".join(dict.fromkeys(str(value) for value in values))


def without_left_out(answer: str, question: str, names: Sequence[str] | None = None) -> str | None:
    """``answer`` without the items that are a name ``question`` leaves out ("other than "X" itself",
    :func:`~graphreason.tools.counselor.wording.left_out_names`; ``names``: the question's names, its quoted ones
    where not given), where it holds one beside other items; None where it holds none (or nothing else: an answer
    is never emptied). An item is a whole stretch between ", " separators, so a title with a comma in it is matched
    whole."""
    left = {name_key(found) for found in left_out_names(question, quoted_names(question) if names is None else names)}
    if not left:
        return None
    items = answer.strip().split(", ")
    kept, start = [], 0
    while start < len(items):  # the longest run of items that spells a left-out name is dropped
        stop = next((end for end in range(min(len(items), start + _NAME_ITEMS), start, -1) if name_key(", ".join(items[start:end])) in left), None)
        if stop is None:
            kept.append(items[start])
            start += 1
        else:
            start = stop
    if len(kept) == len(items) or not kept:
        return None
    return ", ".join(kept)


_COUNT_QUESTION = re.compile(r"\b(how many|number of|count of)\b", re.IGNORECASE)
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def grounded(answer: str | None, observations: Sequence[str], question: str) -> bool:
    """Whether ``answer`` is supported by a trial's (successful) ``observations``.

    Every item of the answer (a list splits on commas) must occur, as whole words, in
    an observation; and a question that asks how many wants a number. This is what
    reflection weighs before it lets a later trial replace an earlier answer.
    """
    if not answer or not answer.strip():
        return False
    items = [p for p in _parts(answer) if normalise(p)] or [answer]
    if _TRUE_OR_FALSE.search(question):  # "True" asked for stands for the "yes" an observation shows
        items = [_YES_NO.get(p.strip().lower(), p) for p in items]
    if _COUNT_QUESTION.search(question) and not all(_NUMBER.match(p.strip()) for p in items):
        return False
    seen = " " + " ".join(normalise(o) for o in observations) + " "
    return all(f" {normalise(item)} " in seen for item in items)
