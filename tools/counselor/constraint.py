"""Graph Counselor's Action line as a decoding constraint for the embedded engine.

The engine (:mod:`graphreason.llm.engine.constraint`) asks a constraint whether
the reply so far can still become an accepted one (``viable``) and whether it
may end here (``complete``). :class:`CounselorAction` answers both with a
prefix reader of the bracket call language, so the embedded model can only
write an Action that parses and names what exists:

* ``Action N: `` (optional), then one call, or several separated by ``", "``
  (one call only when ``compound`` is off, the paper's w/o Complex ablation);
* the registry's functions under their canonical names (``Retrieve``, ``Neighbour``, ...),
  with exactly their parameters, one ``", "`` between two arguments;
* a node argument is a node id of the graph that the question or an
  observation shows, or (with ``compound``, at most :data:`MAX_DEPTH` calls
  deep) a call of a function that returns node ids (``Retrieve``, ``Neighbour``);
* a list argument (``Count[...]``, ``Mode[...]``) is a call of any graph function (``compound`` only);
* a relation or feature argument is one of the loaded graph's own names and, where the type of the
  node argument before it is known, one that type has (the relations and features of
  :meth:`~graphreason.tools.core.store.GraphStore.schema` and ``type_features``). A node's type is
  known for an id, for a ``Retrieve`` of text that is some node's name (case, spacing and punctuation
  aside: the node hybrid Retrieve returns first), and through the calls: ``Neighbour[x, r]`` gives the
  types ``r`` reaches from ``x``'s, a function that keeps or picks nodes of a list the list's types.
  Where no relation or feature of the known types exists, all the graph's are allowed, so an error
  observation can teach the valid ones. Of the relations left, those that share a word with the
  question (``listened`` for "the artists user 7 listened to"), and the ones sharing their root (the
  other direction: ``cites`` beside ``cited_by``, as "cited by X" means what X cites), are the only
  ones when there are any;
* of the relations and features left, those the question writes out whole (every word of the name, in
  order: "member meronym links", "part of speech"; not inside a longer one, inside a node's name, or just
  before one) are the only ones when there are any; a number written just after the name narrows it to
  the numbered relation ("rated 3 out of 5": ``rated_3``), and a relation named in the passive keeps
  the one leading back (``cites`` beside ``cited_by``, read off the arcs: :meth:`~CounselorAction.voice_partners`);
  the feature shown for the node ``MaxDegree`` or ``MinDegree`` picks is the one the question writes out, a
  feature nodes share where it writes none but asks a category ("the research area of the most cited"), and
  is the node's name or title otherwise, as is the feature of a list whose names the question asks for
  ("list them"); a ``Degree`` of a picked node counts the links it was picked by. Along a chain of
  hops from a named node, when the question writes out one relation for each hop, the hops take them
  nearest the name first, save that the one after "most" or "fewest" is a final ``MaxDegree``'s or
  ``MinDegree``'s (:meth:`~CounselorAction.spelled_hop`);
* where the question spells out no relation, those that share the most content words with it (crude
  stems, numbers whole but not a range's or a scale's bounds: "gave 1 stars" keeps ``rated_1``), with a
  passive one's partner, when any shares one;
* where a relation's two directions are both left (``cites`` and ``cited_by``) and the hop is part of a
  chain from a named node (``Neighbour[Neighbour[Retrieve[X], r], s]``, ``MaxDegree[Neighbour[...], r]``),
  the direction follows the question's voice and word order: its mentions of the relation's root
  ("cite", "cited by", "citing") are ranked by their distance from X, the chain's hops take them
  nearest first, and a mention before X in the active voice ("the papers that cite X") or after it in
  the passive ("X is cited by", "has been cited the most") is the backward relation (a name ending in ``_by``, ``_from``, ``_of``),
  the others the forward one ("X cites", "the papers cited by X"); words that give the way round
  themselves override that ("incoming links", "links in", "citations": backward; "outgoing links",
  "the most references": forward), and other words for a link count as its mentions ("points to" for
  ``links_to``, "references" for ``cites``). A mention belongs to the name it
  stands nearest ("the papers that X cites and the papers cited by Y": "cites" is X's), and a name
  written twice starts its chain where a mention stands nearest. This is decided only when the
  mentions and the chain's hops are as many;
* the value a feature is matched against (``Matching[nodes, label, Theory]``) is one of that feature's
  values as the question or an observation writes it, where the feature has at most
  :data:`MAX_VALUES` values and one of them is written (else any copied text);
* search text (``Retrieve[...]``) is copied verbatim from the question or an
  observation; a name the question puts in double quotes (``"..."`` or curly ones) or, where it quotes
  none, a run of two or more of its words that is a node's whole name (or one such word written with a
  capital inside a sentence: "the articles Carbon links to"), is copied whole, and nothing
  else from inside or across it (a weak model otherwise stops short of a quoted
  title or runs on past its closing quote: ``Retrieve[Wavelet Shrinkage: Asymptopia?" and]``);
* with a ``skeleton`` (:mod:`graphreason.tools.counselor.skeleton`, the operation planner's
  prediction), a call other than Finish is one call of exactly that shape: its functions and their
  nesting are fixed, each named node an id or a ``Retrieve[...]``; the relations, features, values
  and search text are still the model's, and the named nodes name different nodes;
* under a skeleton that reads one feature of a neighbour list (``Feature[Neighbour[...]]``: the question
  asks for the names of a set), a Finish after a list observation is the whole list the last such
  observation shows, items in its order (a weak model otherwise copies one item of it); under one whose
  call answers a count (``Count``, ``Degree``, ``Same``, ``Differing``) it is a number, and under one that
  answers membership or existence (``Contains``, ``Exists``) ``yes`` or ``no`` (not a value the
  observation shows on the way, such as the subject's own label);
* a question whose superlatives go one way only ("which has the least ...", "tops the list") never
  picks the other way: ``MaxDegree`` or ``MinDegree`` is left out, and a skeleton holding it is
  turned round ("at least one of" bounds a count and picks nothing);
* the terminal call (``Finish[answer]``) stands alone, and only once something
  was observed: its answer is a whole value copied from what an observation
  reports (after its ``": "``, not its own words such as "most common value"),
  items separated by ``", "`` that are each such a value, or one number (a count,
  a mean) worked out from values seen: after an observation of one text value
  (the name a ``Feature`` read of one node) the answer is that value, whole. A value in any
  script counts: a character written in several byte tokens is judged whole
  (:meth:`CounselorAction.characters_after`).

The reader walks the text once per check (an Action is a line), raising
:class:`_End` where the text runs out (still viable) and :class:`_Dead` where
it left the language. Like every constraint it decides the form only: which
function, node or answer to write is still the model's choice, and the reply is
parsed and executed as any other model's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from graphreason.tools.core.registry import ANSWER, FEATURE_KEY, NODE, RELATION, TEXT, VALUES, Entry, Registry
from graphreason.tools.core.retrieval.lexical import normalise, stem_positions, word_stems
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.answers import listed_values, tie_of
from graphreason.tools.counselor.call_examples import graph_names
from graphreason.tools.counselor.calls.base import MAX_NESTING, ActionParseError
from graphreason.tools.counselor.calls.parse import parse_action
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS
from graphreason.tools.counselor.shorthand import spelled_out
from graphreason.tools.counselor.skeleton import NAMED, Skeleton, parse_skeleton, structural
from graphreason.tools.counselor.wording import (
    MAX_TEXT_CHARS,
    QuestionWording,
    compound_stems,
    declared_types,
    is_backward,
    name_nodes,
    name_types,
    question_names,
    quoted_names,
    reverse_relations,
    shared_features,
    synonym_stems,
)

MAX_ANSWER_CHARS = 2000  # an answer may list many titles (an observation is cut at 2,000 characters too)
MAX_CALLS = 8  # parallel calls in one Action
# calls nested in one another: the reference plans of the generated questions go four deep
# (Feature[Neighbour[Neighbour[Retrieve[...]]]]); a small model left free nests the same function until its
# token budget runs out
MAX_DEPTH = 4
_TOKEN = re.compile(r"[A-Za-z0-9_#:.\-]+")
_SEPARATOR = ", "
_LABEL = re.compile(r"Action \d{1,3}: ")
_NUMBER = re.compile(r"-?\d{1,12}(?:\.\d{1,6})?")
_WHOLE_NUMBER = re.compile(r"(?<![\w.])-?\d{1,12}(?:\.\d{1,6})?(?![\w]|\.\d)")  # a number as a value, not in a word
_NUMBER_PREFIX = re.compile(r"-?(?:\d{1,12}(?:\.\d{0,6})?)?")
_LABEL_PREFIX = re.compile(r"A(?:c(?:t(?:i(?:o(?:n(?: (?:\d{1,3}:?)?)?)?)?)?)?)?")
# the yes or no a membership or existence observation ends with, and the words that may turn a yes/no question round
_YES_NO_SEEN = re.compile(r"\bis: (yes|no)\.?\s*$")
_NEGATED = re.compile(r"\b(?:not|no|none|never|nothing|neither|nor|without|lacks?|lacking|fails?)\b|n't\b")
# what a question says of its answer's form, not of its content: "Answer yes or no.", "Output yes/no."; and its quoted
# names ("No Direction Home"): neither turns a yes/no round
_NOT_NEGATING = re.compile(r"\byes\s*(?:/|or|-or-)\s*no\b|\bno\s*(?:/|or)\s*yes\b|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d")
_PICKS = frozenset({"MaxDegree", "MinDegree", "MostLinked"})  # a feature of the node these pick is shown, not asked about
_FREE = object()  # a call position no skeleton shapes (a skeleton's named node is None)
# functions counting where a list's nodes lead: back along the hop that made the list, every member leads to the
# node it came from (the tag most of a user's artists carry, never that user); only a question asking for another
# node goes back ("the fans of X also like which other item most?": MostLinked leaves X out)
_AWAY = frozenset({"MostLinked"})
HOPS = frozenset({"Neighbour"})  # functions whose nodes are the ones their relation reaches
_FILTERS = frozenset({"Matching"})  # functions keeping some nodes of a list
_JOINS = frozenset({"Intersect", "Union", "Without"})  # functions joining two lists (Without: the first less the second)
_BOTH_NAMED = re.compile(r"\bboth\s*\n\s*and\s*\n")  # "both X and Y", the two names cut out (line breaks)
_NAMEABLE = frozenset({"Count", "Exists"})  # calls over a list a question may instead ask the names of
# two named nodes set side by side, one of them picked by its links (no planner class: the words tell it whole)
_PAIR_PICKS = {
    way: Skeleton("Feature", (Skeleton(pick, (Skeleton("Union", (None, None)),)),))
    for way, pick in (("most", "MaxDegree"), ("fewest", "MinDegree"))
}
# two named nodes compared one against the other (no planner class either): whether the first has more or fewer
# neighbours, or by how many they differ
_VERSUS = {"more": Skeleton("MoreThan", (None, None)), "fewer": Skeleton("FewerThan", (None, None)),
           "gap": Skeleton("Difference", (None, None))}  # fmt: skip
_COMPARES = frozenset(skeleton.name for skeleton in _VERSUS.values())
# how many links the member of a named node's neighbours a superlative picks has (no planner class: the words tell it)
_PICKED_COUNTS = {
    way: Skeleton("Degree", (Skeleton(pick, (Skeleton("Neighbour", (None,)),)),))
    for way, pick in (("most", "MaxDegree"), ("fewest", "MinDegree"))
}
# the count of the nodes two hops away, where the words ask a count only two hops can give and no skeleton the
# planner ranks fits ("how many users follow someone who likes X?", "how many different tags across what X likes?")
_TWO_HOP_COUNT = Skeleton("Count", (Skeleton("Neighbour", (Skeleton("Neighbour", (None,)),)),))
_ONE_HOP_LOOKUP = Skeleton("Feature", (Skeleton("Neighbour", (None,)),))
_VALUES_COUNTED = Skeleton("Count", (_ONE_HOP_LOOKUP,))  # the distinct values of a feature over a list
_TWO_HOP_LOOKUP = Skeleton("Feature", (Skeleton("Neighbour", (Skeleton("Neighbour", (None,)),)),))
_LEAF_HOP = Skeleton("Neighbour", (None,))  # one hop from a named node
_WITHIN_TWO_LISTS = Skeleton("Union", (_LEAF_HOP, Skeleton("Neighbour", (_LEAF_HOP,))))  # one hop from X, and two
# the lists a Without is made of where the planner ranks none: two hops' nodes, one hop's, counted or named
_USUAL_LISTS = tuple(
    Skeleton(outer, (hops,)) for hops in (Skeleton("Neighbour", (_LEAF_HOP,)), _LEAF_HOP) for outer in ("Count", "Feature")
)
Types = frozenset[str] | None  # the node types a node argument may have; None: not known











def _open_brackets(text: str) -> int | None:
    """How many ``[`` are left open at the end of ``text``; None if a ``]`` ever closes one that is not."""
    depth = 0
    for char in text:
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth < 0:
            return None
    return depth


class _End(Exception):
    """The text ran out inside an unfinished construct: it may still be continued."""


class _Dead(Exception):
    """The text left the language."""


class CounselorAction:
    """The Action language of one step over ``store``, given the ``question`` and the trial's ``observations``."""

    def __init__(
        self,
        store: GraphStore,
        question: str,
        observations: Sequence[str] = (),
        *,
        registry: Registry | None = None,
        compound: bool = True,
        max_depth: int | None = None,
        skeleton: Skeleton | None = None,
        done: Sequence[str] = (),
        answered: Sequence[str] = (),
    ) -> None:
        self.registry = GRAPH_FUNCTIONS if registry is None else registry
        # the Actions this trial already ran, as the parser renders them: running one again observes the same again
        self.done = frozenset(text for text in done if text)
        self.entries: dict[str, Entry] = {entry.name: entry for entry in self.registry}
        question = spelled_out(question, question_names(store, question))  # "how many r ..." read as "are"
        self.observations = [text for text in observations if text]
        self.sources = [text for text in (question, *self.observations) if text]
        self._wide: list[str] | None = None  # the non-ASCII characters of the sources (characters_after)
        self.compound = compound
        # a skeleton deeper than that (a list less another: Count[Without[Neighbour[Neighbour[Retrieve[X]]], ...]]) is
        # written as deep as it goes: its functions are fixed, so nothing nests on and on
        deepest = max(MAX_DEPTH, _depth(skeleton) + 1 if skeleton is not None else 0)
        self.max_depth = min(max_depth or deepest, deepest, MAX_NESTING)
        self.relations, self.features = _names_of_graph(store)
        self.store, self.schema, self.type_features = store, store.schema(), store.type_features()
        # the types of the nodes each name names, narrowed to the one the question writes before it ("the tag "X""):
        # the store's own table, copied only where the question narrows one
        declared = declared_types(store, question)
        self.named = name_types(store)
        if declared:
            self.named = {**self.named, **{name: frozenset({kind}) for name, kind in declared.items()}}
        # (position, stem) of each question word, and the stems of the words it stands for ("fans": listen):
        # where a relation's word stands beside its subject's name
        self.word_at = synonym_stems(stem_positions(question)) + compound_stems(question)
        self.stems = {stem for _, stem in self.word_at}
        self.question = question
        self.relation_stems = {relation: word_stems(relation) for relation in self.relations}
        # a relation's roots (its stems' first four letters): relations sharing one are two directions of one link
        self.relation_roots = {r: {stem[:4] for stem in stems if len(stem) >= 4} for r, stems in self.relation_stems.items()}
        # (valid relations, subject's name) -> those the question names
        self.named_relations: dict[tuple[tuple[str, ...], str | None], list[str]] = {}
        self.widest: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}  # (options, valid) -> the widest written
        self.held: dict[tuple[tuple[str, ...], str | None, tuple[str, ...]], list[str]] = {}  # see _Reader._held_by
        # what the question names and how it words it (tools/counselor/wording.py)
        self.wording = QuestionWording(store, question, self.relations, self.features, self.observations)
        # ids the question writes outside its names ("Korea" inside "South Korea" is no id), or a name that is one,
        # written as ids are (one token: "Carbon")
        outside = [self.wording.search_sources[0], *self.observations]
        whole = {name for name in self.wording.names if name in store and _TOKEN.fullmatch(name)}
        self.ids = sorted(_ids_in(outside, store) | whole)
        # the functions a call may name at each nesting depth, decided once (the reader asks at every call)
        self.names_at_depth = {depth: {e.name for e in self.entries.values() if self.completable(e, depth)}
                         for depth in range(1, self.max_depth + 1)}
        # a question whose superlatives go one way only ("the least linked") never picks the other way's node
        unworded = _OTHER_PICK.get(self.wording.extreme or "")
        for names in self.names_at_depth.values():
            names.discard(unworded)
        skeleton = _oriented(skeleton, unworded) if skeleton is not None else None
        self.skeleton = skeleton if skeleton is not None and self.fits(skeleton) else None
        # the skeleton's call already ran without an error (one of the Actions ``answered``): its observation holds the
        # answer, so the Action is its Finish (the same call again would observe the same; the grammar left no other)
        # the last call reported a tie ("No single node has the most ...: ['12', '40'] have 4 each"): no single node or
        # value is the one asked for, so the answer is all the tied ones; a count of the picked node's links is the
        # count they tie at (never an id in the list). Under a skeleton, the same call again would report the same tie
        self.tie = tie_of(self.observations[-1]) if self.observations else None
        self.finish_only = self.skeleton is not None and (
            self.tie is not None or any(_top_function(text, self.registry) == self.skeleton.name for text in answered if text)
        )
        # the question names a node for each of the skeleton's named nodes: those come from its names
        self.leaves_named = self.skeleton is not None and len(self.wording.names) >= _names_needed(
            self.skeleton, self.wording.within_two)
        # a Without's (or a within-two Union's) second list may start from the node its first did, where the question
        # names fewer nodes than the skeleton has named ones ("the friends of X's friends, X's own friends left out")
        self.repeat_leaf = self.skeleton is not None and len(self.wording.names) < _leaf_count(self.skeleton)
        # two named nodes compared one against the other: the compared one is the first named node, the other second
        compares = self.leaves_named and self.skeleton is not None and self.skeleton.name in _COMPARES
        # a membership check: the list's owner first ("X in the list neighbours of Y": Y's list, X looked for)
        member_check = self.leaves_named and self.skeleton is not None and self.skeleton.name == "Contains"
        # one named node's list less another's: the first written first ("the movies A rated that B never rated")
        less = self.leaves_named and self.skeleton is not None and "Without" in self.skeleton.names() and (
            len(self.wording.names) == 2)  # fmt: skip
        self.leaf_order = (
            self.wording.compared if compares else self.wording.list_owner_first() if member_check
            else self.wording.written_order() if less else None
        )  # fmt: skip
        self.whole_list = self._listed_answer() if self.skeleton is not None and _lists_names(self.skeleton) else None
        # what the skeleton's call answers: a number (a count, a degree) or yes / no; so is the Finish after it
        self.answer_kind = _ANSWER_KINDS.get(self.skeleton.name) if self.skeleton is not None else None
        # a number not copied from an observation is one worked out from values seen; one text value (the name a
        # Feature read of one node) gives nothing to work out, so the Finish after it copies that value whole
        last = _observed_parts(self.observations[-1]) if self.observations else []
        self.one_value = _one_text_value(last[0]) if len(last) == 1 else None  # two calls' observations: two values
        # a number the model works out (a mean, a sum) where nothing shapes the Action; a skeleton's call gives its
        # answer whole (a count, yes or no, a value or a name: "The most common value (4 of 8) is: writer." is
        # answered "writer", never "4")
        self.worked_out = self.one_value is None and self.skeleton is None
        # where an answer is copied from: each observation's values, not its own words ("The", "most common value")
        self.answer_sources = [_values_part(part) for text in self.observations for part in _observed_parts(text)]
        # a count's answer is a number an observation reports (none reported: any number); after a tie, its count
        self.numbers = {self.tie.count} if self.tie is not None else {
            m.group() for text in self.answer_sources for m in _WHOLE_NUMBER.finditer(text)
        }
        # a yes/no answer is the one the latest yes/no observation gives ("Whether the list holds anything is: yes."),
        # unless the question words a negation ("none of", "not among"), which may turn it round; none seen: either
        seen = [found.group(1) for text in self.observations if (found := _YES_NO_SEEN.search(text))]
        self.yes_no = seen[-1] if seen and not _NEGATED.search(_NOT_NEGATING.sub(" ", question.lower())) else None

    def _listed_answer(self) -> str | None:
        """The items of the last observation that shows a list of values, joined by ``", "`` (None: none does)."""
        texts = listed_values(self.observations)
        answer = _SEPARATOR.join(texts or [])
        if texts and _open_brackets(answer) == 0 and "\n" not in answer and len(answer) <= MAX_ANSWER_CHARS:
            return answer
        return None

    def characters_after(self, lead: bytes) -> list[str]:
        """The characters of the question and the observations whose UTF-8 bytes start with ``lead``: what a reply
        whose last token wrote the first bytes of a character ("Μ" is two tokens) may be writing."""
        if self._wide is None:
            self._wide = sorted({char for text in self.sources for char in text if ord(char) > 127})
        return [char for char in self._wide if char.encode("utf-8").startswith(lead)]

    def fits(self, skeleton: Skeleton, depth: int = 1) -> bool:
        """Whether an Action of ``skeleton``'s shape can be written here (its functions exist and can be finished)."""
        if not self.compound or skeleton.name not in self.names_at_depth.get(depth, ()):
            return False
        if len(structural(self.registry, skeleton.name)) != len(skeleton.children):
            return False
        named_ok = bool(self.ids) or NAMED in self.names_at_depth.get(depth + 1, ())
        return all(named_ok if child is None else self.fits(child, depth + 1) for child in skeleton.children)

    def completable(self, entry: Entry, depth: int) -> bool:
        """Whether a call of ``entry`` at nesting ``depth`` can be finished here (no dead-end prefixes).

        ``Finish`` needs an observation to copy from, a node argument an id
        shown or a nested call, a relation or feature argument a name.
        """
        if depth > self.max_depth:
            return False
        return all(self._satisfiable(param.kind, depth) for param in entry.params)

    def _satisfiable(self, kind: object, depth: int) -> bool:
        if kind is ANSWER:
            return bool(self.observations)
        if kind is RELATION:
            return bool(self.relations)
        if kind is FEATURE_KEY:
            return bool(self.features)
        if kind is TEXT:
            return bool(self.sources)
        if kind is NODE:
            nested = self.compound and any(
                entry.returns is NODE and not entry.terminal and self.completable(entry, depth + 1)
                for entry in self.entries.values()
            )
            return bool(self.ids) or nested
        if kind is VALUES:
            return self.compound and any(
                not entry.terminal and self.completable(entry, depth + 1) for entry in self.entries.values()
            )
        return True

    # ------------------------------------------------------------------ the engine's two questions
    def viable(self, text: str) -> bool:
        try:
            _Reader(self, text).action()
        except _End:
            return True
        except _Dead:
            return False
        return not self._repeats(text)

    def complete(self, text: str) -> bool:
        try:
            return _Reader(self, text).action() and not self._repeats(text)
        except (_End, _Dead):
            return False

    def _repeats(self, text: str) -> bool:
        """Whether ``text``, a whole Action the grammar reads, is one this trial already ran (its observation would
        be the one already seen)."""
        if not self.done:
            return False
        try:
            rendered = ", ".join(call.render() for call in parse_action(text, self.registry))
        except ActionParseError:
            return False
        return rendered in self.done






def _is_hop(entry: Entry) -> bool:
    """A call whose relation is taken from its first argument's nodes (Neighbour, Degree, MaxDegree, Same, ...)."""
    kinds = [param.kind for param in entry.params]
    return len(kinds) >= 2 and kinds[0] is NODE and kinds[1] is RELATION








def _top_function(action: str, registry: Registry) -> str | None:
    """The function of ``action``'s first top-level call (None: it does not parse)."""
    try:
        return parse_action(action, registry)[0].name
    except ActionParseError:
        return None


def _numbered_form(relation: str, base: str) -> bool:
    """``relation`` is ``base`` with numbers among its words (``rated_3_by`` for ``rated_by``)."""
    words, extra = base.lower().split("_"), relation.lower().split("_")
    if relation == base or any(word not in extra for word in words):
        return False
    return all(word.isdigit() for word in extra if word not in words)


def _two_hops(skeleton: Skeleton) -> bool:
    """Whether ``skeleton`` takes a ``Neighbour`` of a ``Neighbour`` somewhere (a list reached from a list)."""
    inner = [child for child in skeleton.children if child is not None]
    if skeleton.name == "Neighbour" and any(child.name == "Neighbour" for child in inner):
        return True
    return any(_two_hops(child) for child in inner)


def _reached_from_list(skeleton: Skeleton) -> bool:
    """Whether ``skeleton`` takes a ``MostLinked`` of a ``Neighbour`` somewhere: the node most members of a list reach,
    one hop from each of them."""
    inner = [child for child in skeleton.children if child is not None]
    if skeleton.name == "MostLinked" and any(child.name == "Neighbour" for child in inner):
        return True
    return any(_reached_from_list(child) for child in inner)


def _leaf_count(skeleton: Skeleton) -> int:
    """How many named nodes (``_``) a skeleton holds."""
    return sum(1 if child is None else _leaf_count(child) for child in skeleton.children)


def _names_needed(skeleton: Skeleton, within_two: bool = False) -> int:
    """How many different names the named nodes of ``skeleton`` need at least: those of a ``Without``'s second list may
    name again the node its first list starts from, two hops or more away (the friends of X's friends without X's own
    friends; one hop from X less one hop from X again leaves nothing); so may those of a ``Union`` of one hop and two
    from one node, ``within_two`` links of it."""
    first = _first(skeleton)
    if skeleton.name == "Without" and len(skeleton.children) == 2 and _two_hops(first or _LEAF_HOP):
        return _names_needed(first, within_two)  # type: ignore[arg-type]
    if within_two and skeleton == _WITHIN_TWO_LISTS:
        return 1
    return sum(1 if child is None else _names_needed(child, within_two) for child in skeleton.children)


def _depth(skeleton: Skeleton) -> int:
    """How many calls ``skeleton`` nests (``Count[Neighbour[_]]``: 2; its named nodes' Retrieve not counted)."""
    return 1 + max((_depth(child) for child in skeleton.children if child is not None), default=0)


_LOOKUP = Skeleton("Feature", (None,))  # a feature of the named node itself
_OTHER_PICK = {"most": "MinDegree", "fewest": "MaxDegree"}  # the pick a question wording only one way never asks
_SET_OF = {"union": "Union", "intersect": "Intersect", "without": "Without"}
_SWAPPED = {"MaxDegree": "MinDegree", "MinDegree": "MaxDegree"}
# a Feature observation of one node whose value is neither a list nor a number
# (a value that is only a number is not one: the model may work a number out from it; "4 Implementing ..." is a title)
_ONE_TEXT_VALUE = re.compile(r"The \S+ feature of (?!\[)[^\n]*? are: (?![\[-]|[\d.,\s]+$)[^\n]*\.$")


def consistent(skeleton: Skeleton, wording: QuestionWording) -> bool:
    """Whether an Action of ``skeleton``'s shape can answer the question as its words ask (``wording``): a yes/no
    question ends in ``Contains`` or ``Exists``, a "how many" one in a count, a "which ... the most" one picks a
    node; a feature value the question writes is matched (``Matching``) and none is matched where it writes
    none; two lists are joined the way it words it ("either", "both"); a count that spells out a feature but no
    value of it compares with the subject's (``Same``, or ``Differing`` where it says "not", "different"); and
    there are as many named nodes as names the question quotes (one or two), or no fewer than the names it
    writes bare (one may not be found)."""
    names = set(skeleton.names())
    form = wording.form
    if form == "yes/no" and _ANSWER_KINDS.get(skeleton.name) != "yes/no":
        return False
    if form == "number" and _ANSWER_KINDS.get(skeleton.name) != "number":
        return False
    if skeleton.name == "Exists" and form != "yes/no" and not wording.existence:  # nothing asks whether any exists
        return False
    if skeleton.name == "Count" and _over(skeleton, _FILTERS | _JOINS) and form != "number":
        return False  # a filtered list or two lists joined, and no count asked
    if form is None and wording.existence and skeleton.name == "Feature" and _over(skeleton, _FILTERS):
        return False  # "any of them with ...?": whether any exists
    if form == "pick" and not names & _PICKS:
        return False
    if names & _COMPARES and (wording.versus is None or names & _COMPARES != {_VERSUS[wording.versus].name}):
        return False  # two named nodes compared by their links, the way the question asks
    if names & {"MaxDegree", "MinDegree"} and wording.extreme is None:  # a member picked by a superlative ("most")
        return False
    if form == "list" and not _lists_names(skeleton):
        return False
    if form == "which" and skeleton.name in _ANSWER_KINDS:  # which node or value: not a count, not a yes/no
        return False
    # the node most of a list link to: not a member of the list, not a feature value the question spells out
    if "MostLinked" in names and (wording.member or (wording.keys and not wording.values)):
        return False
    # "Most <links> among the <nodes> ...", "<nodes>: most also see links?": one member picked by its own links, never
    # the list itself
    superlative_pick = wording.extreme_link or (wording.member and wording.extreme is not None)
    if superlative_pick and not wording.mode_worded and not names & _PICKS:
        return False
    if wording.votes and form == "pick" and "MostLinked" not in names:  # the members vote for what they link to
        return False
    if "MostLinked" in names and wording.extreme == "fewest":  # the node reached most often: never "the fewest"
        return False
    if "Mode" in names and wording.extreme is not None and not (wording.keys or wording.mode_worded):
        return False  # "most citations among ...": a member picked by its links, not a feature's most common value
    if "Mode" in names and wording.extreme_link and not wording.mode_worded:  # "the label of the one with the
        return False  # most citations": the picked member's, not the most common label
    if wording.asks_thing and _ANSWER_KINDS.get(skeleton.name) == "number":  # "What is the capital of X?",
        return False  # "Where was X born?": a node or a value, no measure named
    if form is None and wording.features_named and _ANSWER_KINDS.get(skeleton.name) == "number":
        return False  # "what is the label of ...", "the title recorded for ...": a value asked, not a count
    if form is None and wording.features_named and not wording.existence and _ANSWER_KINDS.get(skeleton.name) == "yes/no":
        return False  # "Title of the article linking to X?": a value asked, not whether something holds
    if wording.mode_worded and not wording.votes and not {"Mode", "MostLinked"} & names:
        return False  # "the usual label", "the most common genre": a value counted over a list
    if wording.once and skeleton.name == "Degree" and not _one_hop_once(wording):  # "distinct", "unique": not one
        return False  # node's own arcs, unless the type counted lies one hop from the node named, never two
    if wording.through_any and not (_two_hops(skeleton) or _reached_from_list(skeleton)):  # "tagged with any of the
        return False  # tags of X": a hop from a hop; "top article among backlinks of backlinks of X": the one most reach
    counted = _counted_types(skeleton, wording) if wording.counted_type is not None else None
    if counted is not None and wording.counted_type not in counted:  # "how many tags ...": a list that holds tags
        return False
    if (
        _two_hops(skeleton) and not (wording.through_any or wording.once or wording.within_two or "Without" in names)
        and wording.link_mentions == 1
    ):  # fmt: skip
        # one link mentioned, nothing reached "from any of" a list, nothing counted once: one hop; unless the type
        # counted lies two hops away ("count the tags on the items X likes", X a user)
        if counted is None or wording.counted_type in _reached(wording, _named_types(wording)):
            return False
    if {"Same", "Differing"} & names and not (wording.keys or wording.compares):  # nothing compared with the subject
        return False
    if skeleton == _LOOKUP and not wording.has_values:  # a node's only feature is the name the question writes
        return False
    if names & _JOINS and len(wording.names) < 2 and wording.set_way is None and not wording.union_worded:
        return False  # one name and no word for an overlap or a union: no two lists to join
    if skeleton == _VALUES_COUNTED and wording.link_mentions >= 2 and not (wording.keys or wording.category_asked):
        return False  # "how many different genres do the films X directed cover?": nodes two links reach, not the
        # distinct names of the films (one link: "how many different tags has X been given?", its tags' names)
    if skeleton == _ONE_HOP_LOOKUP and _two_links_asked(wording):  # "Where was the spouse of X born?": two links
        return False  # walked from the one node named, not one
    if skeleton == _LOOKUP and (wording.link_beside_name or wording.link_written):  # "the label of the paper X
        return False  # cites", "the paper hooked up to X by a citation": a node a link reaches, not X's own label
    if bool(wording.values) != ("Matching" in names) and not names & _COMPARES:  # two compared: by a link only
        return False  # ("fewer verb group neighbours than Y": "verb" is no part of speech matched)
    if wording.set_way is not None and _JOINS & names != {_SET_OF[wording.set_way]} & names:
        return False
    if "Without" in names and wording.set_way != "without":  # a list less another: only where the words ask it
        return False
    if skeleton.name == "Contains" and _BOTH_NAMED.search(wording.search_sources[0].lower()):  # "any item both X
        return False  # and Y like": what the two lists share, not whether one holds the other
    if not wording.union_worded and _joins_lists(skeleton, "Union"):  # "how many of the users X follows like Y?":
        return False  # those in both lists (two named nodes put side by side are no union asked: "X or Y: which ...")
    compared = wording.keys or (wording.compares and wording.category_asked)  # "outside its own area": no feature named
    # the type counted lies no one hop from the node named ("how many other movies share a genre with X", X a movie):
    # reached through what they share, two hops, not compared along one
    beyond = counted is not None and wording.counted_type not in _reached(wording, _named_types(wording))
    if form == "number" and compared and not wording.values and wording.versus is None and not beyond:  # "how many
        # ... have the label of X": compared with the subject (not "how many more genres has X than Y": two nodes' links)
        return skeleton.name == ("Differing" if wording.unlike else "Same")
    if wording.asked_type is not None and names & _PICKS and not _picks_type(skeleton, wording):
        return False
    names_given = len(wording.names)
    if not 1 <= names_given <= 2:
        return True
    # quoted names are all there is; a name written bare may not be found ("the artists tagged speed"): not fewer
    quoted = bool(quoted_names(wording.question))
    if quoted:
        return _names_needed(skeleton, wording.within_two) <= names_given <= _leaf_count(skeleton)
    return _leaf_count(skeleton) >= names_given


def _joins_lists(skeleton: Skeleton, join: str) -> bool:
    """Whether ``skeleton`` joins (``join``: ``Union``, ``Intersect``) a list an inner call makes, not only named
    nodes."""
    if skeleton.name == join and any(child is not None for child in skeleton.children):
        return True
    return any(child is not None and _joins_lists(child, join) for child in skeleton.children)


def _one_hop_once(wording: QuestionWording) -> bool:
    """Whether a count of "distinct" (or "unique") nodes is still one named node's links: one link written, nothing
    reached through a list, and the type counted one hop from the named node's type and never two ("how many
    different tags has X received?", X an artist; not "how many different users ...", X a user with friends)."""
    named = _named_types(wording)
    if wording.counted_type is None or not named or wording.link_mentions > 1 or wording.through_any:
        return False
    near = _reached(wording, named)
    return wording.counted_type in near and wording.counted_type not in _reached(wording, near)


def _named_types(wording: QuestionWording) -> frozenset[str]:
    """The types of the nodes the question names (empty where none is known): the one it writes before a name ("the
    tag "X"") where it writes one, else every type a node of that name has."""
    named = name_types(wording.store)
    return frozenset().union(
        *(frozenset({wording.declared[key]}) if key in wording.declared else named.get(key, frozenset())
          for key in map(normalise, wording.names))
    )  # fmt: skip


def _reached(wording: QuestionWording, types: frozenset[str]) -> frozenset[str]:
    """The types one hop from ``types`` reaches, by any relation."""
    schema = wording.store.schema()
    return frozenset(end for t in types for ends in schema.get(t, {}).values() for end in ends)


def _types_given(
    node: Skeleton | None, wording: QuestionWording, start: frozenset[str], hops: frozenset[str]
) -> frozenset[str]:
    """The types of the nodes ``node`` gives, from ``start`` (the types of the nodes named): each of ``hops`` (the
    functions that step along a relation) takes the types one hop from its list's; any other call gives its
    arguments' types."""
    if node is None:
        return start
    if node.name in hops:
        return _reached(wording, _types_given(node.children[0] if node.children else None, wording, start, hops))
    if node.name == "Without" and node.children:  # the first list, less some of its nodes
        return _types_given(node.children[0], wording, start, hops)
    inner = [_types_given(child, wording, start, hops) for child in node.children]
    return frozenset().union(*inner) if inner else start


def _counted_types(skeleton: Skeleton, wording: QuestionWording) -> frozenset[str] | None:
    """The types of the nodes a count of ``skeleton``'s shape counts (``Degree``: the neighbours of the node named,
    or of the one a pick gives; ``Count``: its list's members), starting from the types of the nodes the question
    names; None where the shape counts no nodes or those types are not known."""
    start = _named_types(wording)
    if not start:
        return None

    def types_of(node: Skeleton | None) -> frozenset[str]:
        return _types_given(node, wording, start, HOPS)

    if skeleton.name in ("Degree", "Same", "Differing"):  # the links of the node named, or of the one picked
        return _reached(wording, types_of(skeleton.children[0] if skeleton.children else None))
    if skeleton.name == "Count" and skeleton.children:
        return types_of(skeleton.children[0])
    return None


def _picks_type(skeleton: Skeleton, wording: QuestionWording) -> bool:
    """Whether a node ``skeleton`` picks (``MaxDegree``, ``MinDegree``, ``MostLinked``) can be of the type the
    question asks for by name ("Which tag ..."), starting from the types of the nodes it names; True where those
    are not known. "Which tag occurs most among the tags of the artists X listened to" (X a user): the tag most of
    those artists link to (``MostLinked``), never one of the artists (``MaxDegree``)."""
    start = _named_types(wording)
    if not start:
        return True

    def types_of(node: Skeleton | None) -> frozenset[str]:
        return _types_given(node, wording, start, HOPS | {"MostLinked"})

    def picks(node: Skeleton | None) -> list[Skeleton]:
        if node is None:
            return []
        own = [node] if node.name in _PICKS else []
        return own + [found for child in node.children for found in picks(child)]

    return any(wording.asked_type in types_of(pick) for pick in picks(skeleton))


def _names_of_graph(store: GraphStore) -> tuple[list[str], list[str]]:
    """The graph's relations and features, sorted: what a question's words are read against."""
    features, relations = graph_names(store)
    return sorted(set(relations)), sorted(features)


def question_wording(store: GraphStore, question: str) -> QuestionWording:
    """How ``question`` words what it asks about, read against ``store``'s relations and features, its chat
    shorthand spelled out (:func:`~graphreason.tools.counselor.shorthand.spelled_out`): ``.question`` is what is read."""
    return QuestionWording(store, spelled_out(question, question_names(store, question)), *_names_of_graph(store))


def planned_choice(
    ranked: Sequence[tuple[str, float]], wording: QuestionWording, registry: Registry = GRAPH_FUNCTIONS
) -> tuple[Skeleton | None, float]:
    """Of the planner's skeletons (``ranked``: rendered, each with its probability; those ``registry`` cannot build
    are passed over), the likeliest one that is :func:`consistent` with the question's words, picks turned the
    way its superlatives go, and its probability among the consistent ones; ``(None, 0.0)`` when none is."""
    parsed = []
    for text, probability in ranked:
        try:
            parsed.append((parse_skeleton(text, registry), probability))
        except ValueError:  # a shape this registry cannot build
            continue
    best = _likeliest(parsed, wording)
    return best if best is not None else (None, 0.0)


def chosen_skeleton(
    ranked: Sequence[tuple[Skeleton, float]], wording: QuestionWording, confidence: float
) -> Skeleton | None:
    """Of the planner's skeletons (``ranked``: each with its probability), the likeliest one that is
    :func:`consistent` with the question's words, picks turned the way its superlatives go; None when none is,
    or its probability among the consistent ones is under ``confidence``."""
    best = _likeliest(ranked, wording)
    return best[0] if best is not None and best[1] >= confidence else None


def _likeliest(ranked: Sequence[tuple[Skeleton, float]], wording: QuestionWording) -> tuple[Skeleton, float] | None:
    """The likeliest consistent skeleton of ``ranked`` (picks turned) and its share of the consistent ones' mass.

    A count of a filtered list or a check that it holds anything that the question's words rule out (it asks for
    names: a list, "which"; or it asks neither a count nor whether any exists) stands for the list named
    (:func:`_named`): the planner tells the operation, the words what of its result is asked. A question setting two
    named nodes side by side (:attr:`~graphreason.tools.counselor.wording.QuestionWording.pair`) picks one of them:
    the planner has no class for it, so the words tell the whole skeleton; so do they where it compares one against
    the other (:attr:`~graphreason.tools.counselor.wording.QuestionWording.versus`), and where it asks how many links
    the member a superlative picks has (:attr:`~graphreason.tools.counselor.wording.QuestionWording.picked_count`)."""
    if wording.pair is not None and consistent(_PAIR_PICKS[wording.pair], wording):
        return _PAIR_PICKS[wording.pair], 1.0  # "which has more citations, X or Y?": one of the two, picked
    if wording.versus is not None and consistent(_VERSUS[wording.versus], wording):
        return _VERSUS[wording.versus], 1.0  # "does X have more citations than Y?": the two compared
    if wording.picked_count and wording.extreme in _PICKED_COUNTS and consistent(_PICKED_COUNTS[wording.extreme], wording):
        return _PICKED_COUNTS[wording.extreme], 1.0  # "how many citations has the most cited of X's references?"
    if wording.set_way == "without":  # "the friends of X's friends, not counting X and their friends": the planner has
        for turned in _less_a_list([skeleton for skeleton, _ in ranked]):  # no class for a list less another: the
            if consistent(turned, wording):  # list it reads the question as asking about, less the named node's own
                return turned, 1.0
    if wording.within_two:  # "how many papers are within two citation links of X?": one hop and two, together (no
        for within in (Skeleton("Count", (_WITHIN_TWO_LISTS,)), Skeleton("Feature", (_WITHIN_TWO_LISTS,))):  # class)
            if consistent(within, wording):
                return within, 1.0
    if _two_links_asked(wording) and consistent(_TWO_HOP_LOOKUP, wording):  # "Where was the spouse of X born?": the
        return _TWO_HOP_LOOKUP, 1.0  # thing two links away, the planner having no class for a value asked so
    unworded = _OTHER_PICK.get(wording.extreme or "")
    mass: dict[Skeleton, float] = {}
    for skeleton, probability in ranked:
        turned = _oriented(skeleton, unworded)
        if not consistent(turned, wording):
            named = _named(turned)
            if named is None or not consistent(named, wording):
                named = _whether(turned)
                if named is None or not consistent(named, wording):
                    continue
            turned = named
        mass[turned] = mass.get(turned, 0.0) + probability
    if not mass and wording.form == "number" and consistent(_TWO_HOP_COUNT, wording):  # a count the words allow
        return _TWO_HOP_COUNT, 1.0  # only two hops away ("through someone", "distinct tags across what X likes")
    total = sum(mass.values())
    if not mass or total <= 0.0:
        return None
    best = max(mass, key=lambda s: mass[s])
    return best, mass[best] / total


def _less_a_list(ranked: Sequence[Skeleton]) -> Iterator[Skeleton]:
    """``Without`` skeletons from the planner's (``ranked``, likeliest first), then from the usual lists: a count,
    names or a check of a list made less a named node's one-hop list (``Count[Neighbour[Neighbour[_]]]``:
    ``Count[Without[Neighbour[Neighbour[_]], Neighbour[_]]]``), and of one named node's list less the other's
    (``Count[Intersect[A, B]]``: ``Count[Without[A, B]]``)."""
    for skeleton in [*ranked, *_USUAL_LISTS]:
        if skeleton.name == "Degree" and skeleton.children == (None,):  # one node's links: its list, less another's
            yield Skeleton("Count", (Skeleton("Without", (_LEAF_HOP, _LEAF_HOP)),))
            continue
        outer, listed = (None, skeleton) if skeleton.name == "Neighbour" else (skeleton.name, _first(skeleton))
        if outer not in (None, "Count", "Feature", "Exists") or listed is None:
            continue
        if listed.name == "Intersect":
            made = Skeleton("Without", listed.children)
        elif listed.name == "Neighbour":
            made = Skeleton("Without", (listed, _LEAF_HOP))
        else:
            continue
        yield made if outer is None else Skeleton(outer, (made,))
        if outer is None:
            yield Skeleton("Feature", (made,))


def _first(skeleton: Skeleton) -> Skeleton | None:
    """The skeleton of ``skeleton``'s first node or list argument (None: a named node, or none)."""
    return skeleton.children[0] if skeleton.children else None


def _named(skeleton: Skeleton) -> Skeleton | None:
    """The names of the filtered list or the overlap ``skeleton`` counts or checks (``Count[Matching[...]]``,
    ``Exists[Matching[...]]``, ``Count[Intersect[...]]``: ``Feature[Matching[...]]``, ``Feature[Intersect[...]]``), or
    None where it is no such call. Two lists' union is never named so: no question shape asks for it."""
    named = skeleton.name in _NAMEABLE and _over(skeleton, _FILTERS | {"Intersect", "Without"})
    return Skeleton("Feature", skeleton.children[:1]) if named else None


def _two_links_asked(wording: QuestionWording) -> bool:
    """Whether the question asks a thing ("where", "what is the ...") two links from its one named node, with nothing
    picked or counted over a list ("Where was the spouse of X born?")."""
    if not (
        wording.asks_thing and wording.link_mentions >= 2 and len(wording.names) == 1 and wording.extreme is None
        and not (wording.mode_worded or wording.votes or wording.values)
    ):  # fmt: skip
        return False
    links: list[str] = []  # the links it writes out, each link's two ways round once
    for relation in sorted(wording.spelled & wording.relation_names):
        if not any(relation == seen or relation in wording.voice_partners(seen) for seen in links):
            links.append(relation)
    return len(links) >= 2


def _whether(skeleton: Skeleton) -> Skeleton | None:
    """Whether the overlap, union or filtered list ``skeleton`` counts holds anything (``Count[Intersect[...]]``:
    ``Exists[Intersect[...]]``: "is there any item both X and Y like?"), or None where it counts no such list."""
    return Skeleton("Exists", skeleton.children) if skeleton.name == "Count" and _over(skeleton, _FILTERS | _JOINS) else None


def _over(skeleton: Skeleton, functions: frozenset[str]) -> bool:
    """Whether ``skeleton``'s call is over a list one of ``functions`` makes (``Count[Matching[...]]``: a filter's)."""
    child = _first(skeleton)
    return child is not None and child.name in functions


def _one_text_value(observation: str) -> str | None:
    """The value of an observation of one text value ("The title feature of 7 are: Lightning rod."), when it can be an
    answer as written (brackets balanced, not too long); else None."""
    if not _ONE_TEXT_VALUE.match(observation):
        return None
    value = observation.partition(": ")[2].removesuffix(".")
    ok = value.strip() and _open_brackets(value) == 0 and len(value) <= MAX_ANSWER_CHARS
    return value if ok else None


# where the observation of one call of an Action ends and the next one's starts ("... are: Agents. The label feature
# of ['1341'] are: ..."): an answer is a value one call reported, never a run across two
_NEXT_OBSERVATION = re.compile(
    r"(?<=[.\]])\s+(?=The [^.:]{1,80}? (?:feature|neighbors|neighbor number) of |The IDs? of th|The number of "
    r"|The nodes |Whether |The difference between |The most common value |The node (?:with|that) )"
)


def _observed_parts(observation: str) -> list[str]:
    """``observation`` cut where each call's own observation starts (an Action of several calls joins them)."""
    return _NEXT_OBSERVATION.split(observation)


def _values_part(observation: str) -> str:
    """What ``observation`` reports, without the words around it: after its first ``": "`` ("The most common value
    (2 of 3) is: Theory."), else after its last ``" is "`` ("The cites neighbor number of 12 is 2."); an
    observation of neither form (an error) whole."""
    head, colon, rest = observation.partition(": ")
    if colon:
        return rest
    head, is_, rest = observation.rpartition(" is ")
    return rest if is_ else observation


def _oriented(skeleton: Skeleton, unworded: str | None) -> Skeleton:
    """``skeleton`` with each pick of the way round the question never words (``unworded``) turned the other way."""
    if unworded is None:
        return skeleton
    children = tuple(None if child is None else _oriented(child, unworded) for child in skeleton.children)
    return Skeleton(_SWAPPED[skeleton.name] if skeleton.name == unworded else skeleton.name, children)


_ANSWER_KINDS = {"Count": "number", "Degree": "number", "Same": "number", "Differing": "number", "Difference": "number",
                 "Contains": "yes/no", "Exists": "yes/no", "MoreThan": "yes/no", "FewerThan": "yes/no"}  # fmt: skip


def _lists_names(skeleton: Skeleton) -> bool:
    """Whether ``skeleton`` reads a feature of a neighbour list, filtered, joined or not (the question asks for a set's
    names or values)."""
    return skeleton.name == "Feature" and _over(skeleton, HOPS | _FILTERS | _JOINS)


def _ids_in(sources: Iterable[str], store: GraphStore) -> set[str]:
    """The node ids of ``store`` written in ``sources`` (as whole tokens)."""
    found = set()
    for text in sources:
        for token in _TOKEN.findall(text):
            for candidate in (token, token.rstrip(".:")):  # "... target node is 12."
                if candidate and candidate in store:
                    found.add(candidate)
    return found


class _Reader:
    """One pass over one candidate text."""

    def __init__(self, language: CounselorAction, text: str) -> None:
        self.lang, self.text, self.pos = language, text, 0
        self.named_text: str | None = None  # the search text of the node argument just read, if it was a Retrieve
        # the node argument just read as a chain of hops from a named node: that Retrieve's text (None: no
        # name starts it) and how many relations its calls took on the way (Neighbour[Neighbour[Retrieve[X], r], s]: 2)
        self.chain_name: str | None = None
        self.chain_hops = 0
        self.pending = 0  # enclosing calls whose relation comes after the node argument being read
        self.pending_names: list[str] = []  # their functions, outermost first
        self.open_calls: list[str] = []  # the functions of the calls being read, outermost first
        self.last_call: str | None = None  # the function of the call read last (None: an id)
        self.last_hop: str | None = None  # the relation of that call, where it was a hop (Neighbour)
        self.last_pick: str | None = None  # the relation of that call, where it picked a node by its links (MaxDegree)
        self.leaves: set[str] = set()  # the nodes a skeleton's named leaves named so far (each names another)
        self.filtered: set[str] = set()  # the features the filters read so far keep nodes by
        # while a Without's second list is read (or a Union's, within two links of X): the relation of the first list's
        # last hop, which each hop of the second takes too (the friends of X's friends without X's friends; the artists
        # X's friends play without X's own; the papers one citation, or two, from X); its named node may be one an
        # earlier leaf named (X both times, where the question names one node)
        self.second_hop: str | None = None

    # ------------------------------------------------------------------ helpers
    def _at_end(self) -> bool:
        return self.pos >= len(self.text)

    def _expect(self, literal: str) -> None:
        """Consume ``literal``; the text may stop part way through it."""
        rest = self.text[self.pos : self.pos + len(literal)]
        if not literal.startswith(rest):
            raise _Dead
        if len(rest) < len(literal):
            raise _End
        self.pos += len(literal)

    def _scan(self, stops: str) -> int:
        """Where the next character of ``stops`` is, from the current position (the text's end if none)."""
        end = self.pos
        while end < len(self.text) and self.text[end] not in stops:
            end += 1
        return end

    def _choice(self, options: Sequence[str], stops: str) -> str:
        """One of ``options``, read up to (not including) a character of ``stops``."""
        end = self._scan(stops)
        word = self.text[self.pos : end]
        if end == len(self.text):  # unfinished: a prefix of some option will do
            if any(option.startswith(word) for option in options):
                raise _End
            raise _Dead
        if word not in options:
            raise _Dead
        self.pos = end
        return word

    def _copied(self, stops: str) -> str:
        """Non-empty text copied from a source, read up to a character of ``stops``."""
        end = self._scan(stops)
        piece = self.text[self.pos : end]
        if len(piece) > MAX_TEXT_CHARS or "\n" in piece or not any(piece in source for source in self.lang.sources):
            raise _Dead
        if end == len(self.text):
            raise _End
        if not piece.strip():
            raise _Dead
        self.pos = end
        return piece

    def _search_text(self, stops: str, leaf: bool = False) -> str:
        """A ``Retrieve``'s search text: a name the question quotes, whole, or text copied from the question
        outside its quotes or from an observation. A skeleton's named ``leaf`` may not start a quoted name an
        earlier leaf named (it could not end: :meth:`_new_leaf`) and, where the question gives a name for each of
        the skeleton's named nodes, is one of those names (or text an observation shows). A question that quotes
        no name but writes runs of words that are nodes' names (``name_runs``) is searched for one of those runs
        (or text an observation shows), never for other words of it ("Find", "Wo")."""
        end = self._scan(stops)
        piece = self.text[self.pos : end]
        wording = self.lang.wording
        # a question that quotes no name but writes some node's name: that name, not any of its words
        given = leaf and self.lang.leaves_named
        named_only = given or bool(wording.name_runs)
        names = wording.names if given else wording.name_runs or wording.names
        # a search text is short, or a name the question gives (CiteSeer has titles of 400 characters)
        if "\n" in piece or (len(piece) > MAX_TEXT_CHARS and not any(name.startswith(piece) for name in names)):
            raise _Dead
        if given and self.lang.leaf_order:  # two named nodes compared: the compared one first
            names = list(self.lang.leaf_order[len(self.leaves) : len(self.leaves) + 1]) or names
        sources = self.lang.observations if named_only else wording.search_sources
        copied = any(piece in source for source in sources)
        if end == len(self.text):  # unfinished
            repeat = self.second_hop is not None and self.lang.repeat_leaf  # the first list's node again
            free = [name for name in names if not (leaf and normalise(name) in self.leaves and not repeat)]
            if copied or any(name.startswith(piece) for name in free):
                raise _End
            raise _Dead
        if not piece.strip() or not (copied or piece in names):
            raise _Dead
        self.pos = end
        return piece

    # ------------------------------------------------------------------ the grammar
    def action(self) -> bool:
        """The whole Action; True when it was read to its end."""
        self._label()
        shaped = self.lang.skeleton is not None
        first, _ = self._call(depth=1, top=True, shape=self.lang.skeleton if shaped else _FREE)
        calls = 1
        while not self._at_end():
            if self.lang.entries[first].terminal or not self.lang.compound or calls >= MAX_CALLS or shaped:
                raise _Dead
            self._expect(_SEPARATOR)
            self._call(depth=1, top=False)  # the terminal call stands alone
            calls += 1
        return True

    def _label(self) -> None:
        """An optional ``Action N: `` before the calls (the text may stop inside it)."""
        found = _LABEL.match(self.text)
        if found:
            self.pos = found.end()
        elif _LABEL_PREFIX.fullmatch(self.text):
            raise _End

    def _call(self, depth: int, top: bool, returns: object = None, shape: object = _FREE) -> tuple[str, Types]:
        """One call, and the node types its value may have (None: not known, or not nodes).

        Only the Action's first top-level call may be the terminal one. ``returns`` (a parameter
        kind) keeps to the functions whose value fills such an argument; ``shape`` to the skeleton's
        function (None: a named node's ``Retrieve``), at the top besides Finish.
        """
        if depth > self.lang.max_depth:
            raise _Dead
        wanted = None if shape is _FREE else NAMED if shape is None else shape.name  # type: ignore[attr-defined]
        names = [
            name for name, entry in self.lang.entries.items()
            if (top or not entry.terminal) and (returns is None or entry.returns is returns)
            and name in self.lang.names_at_depth[depth]
            and (wanted is None or name == wanted or (top and entry.terminal))
            and not (top and self.lang.finish_only and not entry.terminal)
        ]
        name = self._choice(names, "[")
        self.open_calls.append(name)
        entry = self.lang.entries[name]
        children = iter(shape.children) if isinstance(shape, Skeleton) and not entry.terminal else None
        self._expect("[")
        node_types: list[Types] = []  # the types of each node argument, in order
        subject_text: str | None = None  # the first node argument's search text, when it is a Retrieve
        relation: str | None = None
        text: str | None = None
        key: str | None = None  # the feature argument read, for a value argument after it
        picked = False  # the first node argument is the node a MaxDegree or MinDegree picked: its feature is shown
        looked_up = False  # the first node argument is a Retrieve of a name the question writes: a value of its own
        by_links: str | None = None  # the relation that node was picked by: a Degree of it counts the same links
        listed = False  # the first node argument is a list whose names the question asks for
        hop = _is_hop(entry)  # a node, then a relation: the relation is one more hop of the node's chain
        chain: tuple[str | None, int] = (None, 0)
        back: frozenset[str] = frozenset()  # the relations leading back to where the list came from
        for index, param in enumerate(entry.params):
            if index:
                self._expect(_SEPARATOR)
            last = index == len(entry.params) - 1
            child = next(children) if children is not None and param.kind in (NODE, VALUES) else _FREE
            subject = node_types[0] if node_types else None
            if hop and index == 0:
                self.pending += 1
                self.pending_names.append(name)
            second = name == "Without" or (name == "Union" and self.lang.wording.within_two)
            if second and index == 1:  # the second list takes the first list's last link
                self.second_hop = self.last_hop or ""
            value = self._argument(
                param.kind, depth, "]" if last else ",", child, subject, subject_text,
                search=None if name != NAMED else "leaf" if shape is None else "free",
                chain=(*chain, name) if hop and param.kind is RELATION else None,
                key=key if index and entry.params[index - 1].kind is FEATURE_KEY else None,
                shown=picked, avoid=back, listed=listed, by_links=by_links, looked_up=looked_up,
            )  # fmt: skip
            if second and index == 1:
                self.second_hop = None
            if param.kind is NODE:
                if not node_types:
                    subject_text = self.named_text
                    if hop:
                        self.pending -= 1
                        self.pending_names.pop()
                    chain = (self.chain_name, self.chain_hops)
                    picked = self.last_call in _PICKS
                    looked_up = name == "Feature" and self.last_call == NAMED
                    by_links = self.last_pick if picked and name == "Degree" else None
                    # a list's names asked ("list them"): the Feature of a call's nodes
                    # or the names of the list a filter kept or a join made ("which of them have the label L?")
                    listed = name == "Feature" and self.last_call is not None and (
                        self.lang.wording.form == "list" or self.last_call in _FILTERS | _JOINS)
                    if name in _AWAY and self.last_hop is not None and not self.lang.wording.others:
                        back = reverse_relations(self.lang.store).get(self.last_hop, frozenset())
                node_types.append(value)  # type: ignore[arg-type]
            elif param.kind is RELATION:
                relation = value  # type: ignore[assignment]
            elif param.kind is FEATURE_KEY:
                key = value  # type: ignore[assignment]
            elif param.kind is TEXT:
                text = value  # type: ignore[assignment]
                if shape is None:  # a skeleton's named node: the others name other nodes
                    self._new_leaf(normalise(str(value)))
        self._expect("]")
        self.open_calls.pop()
        self.named_text, self.last_call = (text if name == NAMED else None), name
        self.last_hop = relation if name in HOPS else None
        self.last_pick = relation if name in _PICKS else None
        if name in _FILTERS and key is not None:  # the filter's feature: what the names read after it are not
            self.filtered.add(key)
        if name == NAMED:
            self.chain_name, self.chain_hops = text, 0
        elif entry.returns is NODE and node_types and len(node_types) == 1:  # keeps or walks from one list
            self.chain_name, self.chain_hops = chain[0], chain[1] + hop
        else:
            self.chain_name, self.chain_hops = None, 0
        return name, self._result_types(entry, node_types, relation, text)

    def _new_leaf(self, name: str) -> None:
        """A skeleton's named node names a node no earlier one named (``Intersect[A's, B's]``, not ``[A's, A's]``)."""
        if name in self.leaves and not (self.second_hop is not None and self.lang.repeat_leaf):
            raise _Dead
        self.leaves.add(name)

    def _result_types(self, entry: Entry, node_types: list[Types], relation: str | None, text: str | None) -> Types:
        if entry.returns is not NODE:
            return None
        if entry.name == NAMED:
            return self.lang.named.get(normalise(text or ""))
        if (entry.name in HOPS or entry.name in _AWAY) and relation is not None:  # the nodes the relation reaches
            sources = node_types[0] if node_types else None
            schema = self.lang.schema
            reached = {t for source in (sources or schema) for t in schema.get(source, {}).get(relation, ())}
            return frozenset(reached) or None
        if not node_types or any(types is None for types in node_types):
            return None
        return frozenset().union(*node_types)  # type: ignore[arg-type]

    def _argument(
        self,
        kind: object,
        depth: int,
        stop: str,
        shape: object = _FREE,
        subject: Types = None,
        named: str | None = None,
        search: str | None = None,
        chain: tuple[str | None, int, str] | None = None,
        key: str | None = None,
        shown: bool = False,
        avoid: frozenset[str] = frozenset(),
        listed: bool = False,
        by_links: str | None = None,
        looked_up: bool = False,
    ) -> object:
        """One argument; returns a node argument's types, a relation's name or a search text (else None)."""
        if kind is NODE:
            return self._node(depth, stop, shape)
        if kind is RELATION:
            valid = self._names_of(subject, self.lang.relations, self._relations_of)
            valid = [relation for relation in valid if relation not in avoid] or valid
            if self.second_hop and self.open_calls[-1:] == ["Neighbour"]:  # a Without's second list: the first's link
                return self._choice([self.second_hop] if self.second_hop in valid else valid, stop)
            wanted = self.lang.wording.counted_type or self.lang.wording.asked_type
            if wanted and self.second_hop is None and self.open_calls[-2:-1] in (["Without"], ["Intersect"]) and subject:
                # a list joined or taken from ends in the type counted or asked ("the artists X's friends play, leaving
                # out the ones X listens to", "how many artists do X and Y have in common": artists, not friends)
                schema = self.lang.schema
                reaching = [r for r in valid if any(wanted in schema.get(t, {}).get(r, ()) for t in subject)]
                valid = reaching or valid
            counted = [relation for relation in valid if any(  # the links "how many <noun>" names, if any
                relation == named or relation in self.lang.wording.voice_partners(named)
                for named in self.lang.wording.counted_links
            )] if by_links is not None else []  # fmt: skip
            if counted:  # "how many listeners does the most tagged artist have?": the noun's links, not the pick's
                return self._choice(counted, stop)
            if by_links in valid:  # the count of the links a node was picked by ("how many has the most cited?")
                return self._choice([by_links], stop)  # type: ignore[list-item]
            if self.open_calls[-2:] == ["Contains", "Neighbour"]:  # the list a named node is looked for in
                valid = self._reaching_the_member(valid, subject)
            if chain is not None and chain[0]:
                name, hops, call = chain
                readings = []  # the relations each reading of the chain's end gives this hop
                for outer, pending in self._chain_ends(call):
                    total = hops + 1 + pending
                    numbered = self.lang.wording.numbered_hop(valid, name, hops, total, outer in _PICKS)
                    if numbered:  # "gave X 2 stars", "3-star ratings": the numbered relation this hop's words give
                        return self._choice(numbered, stop)
                    spelled = self.lang.wording.spelled_hop(valid, name, hops, total, outer in _PICKS)
                    directed = self.lang.wording.direction(valid, name, hops, total)
                    both = [relation for relation in spelled or () if relation in (directed or spelled or ())]
                    if both or directed:  # the relation written for this hop, in the direction the voice gives
                        readings.append(both or directed)
                if readings:  # the reading that narrows most (the first of those that narrow as much)
                    options = self._widest_written(min(readings, key=len), valid)  # type: ignore[arg-type]
                    return self._choice(self._held_by(options, name if hops == 0 else None, valid), stop)
            wording = self.lang.wording
            if self.open_calls[-1:] and (
                (wording.pair is not None and self.open_calls[-1] in _PICKS)
                or (wording.versus is not None and self.open_calls[-1] in _COMPARES)
            ):  # two named nodes picked between, or compared, by the one link named
                numbered = next((found for name in wording.names if (found := wording.numbered_hop(valid, name, 0, 1, True))), None)
                compared = numbered or self._named_relations(valid)  # "more 5-star ratings given": ``rated_5``
                if not numbered:  # "more ratings": every rating (``rated_by``), not those of one number (``rated_5_by``)
                    compared = [r for r in compared if not any(_numbered_form(r, base) for base in compared)] or compared
                return self._choice(wording.pair_direction(compared) or compared, stop)
            options = self._widest_written(self._named_relations(valid, named), valid)
            return self._choice(self._held_by(options, named, valid), stop)
        if kind is FEATURE_KEY:
            valid = self._names_of(subject, self.lang.features, self._features_of)
            if self.open_calls[-2:-1] == ["Mode"]:  # the most common value: of a label, never of a title or an abstract
                shared = shared_features(self.lang.store)
                valid = [feature for feature in valid if feature in shared] or valid
            # the value neighbours share with the node or not, where the question names no feature ("in its research
            # area"): a label's, never an abstract's or a title's, each node's own
            compared = self.open_calls[-1:] in (["Same"], ["Differing"])
            if compared and not any(feature in self.lang.wording.spelled for feature in valid):
                shared = shared_features(self.lang.store)
                valid = [feature for feature in valid if feature in shared] or valid
            if self.open_calls[-1:] == ["Matching"] and self.lang.wording.values:  # a filter's: a feature whose value
                written = {feature for feature, _ in self.lang.wording.values}  # the question writes ("gender F")
                valid = [feature for feature in valid if feature in written] or valid
            # a feature a filter read is the filter's, not the one shown ("which of them have the label L": names)
            spelled = [feature for feature in valid if feature in self.lang.wording.spelled and feature not in self.filtered]
            if shown and not spelled and self.lang.wording.category_asked:  # "the research area of the most cited"
                shared = shared_features(self.lang.store)
                categories = [feature for feature in valid if feature in shared and feature not in self.filtered]
                if categories:
                    return self._choice(categories, stop)
            # the answer is a value of the named node's own (the planner's lookup), no feature written: never the
            # name the question writes ("which area is X filed under?"); a category where it asks for one
            if looked_up and not spelled and self.lang.skeleton == _LOOKUP:
                keys = {self.lang.store.text_keys.get(node_type) for node_type in subject or ()}
                own = [feature for feature in valid if feature not in keys]
                if own and self.lang.wording.category_asked:
                    shared = shared_features(self.lang.store)
                    own = [feature for feature in own if feature in shared] or own
                return self._choice(own or valid, stop)
            if (shown or listed) and not spelled:  # a picked node, a list's names: no feature written, the name
                keys = {self.lang.store.text_keys.get(node_type) for node_type in subject or ()}
                return self._choice([feature for feature in valid if feature in keys] or valid, stop)
            return self._choice(spelled or valid, stop)  # a picked node's feature the question writes ("its label")
        if kind is TEXT:
            stops = "[]" if stop == "]" else "[]" + stop
            if search is not None:
                return self._search_text(stops, leaf=search == "leaf")
            values = self.lang.wording.value_choices(key) if key else None
            return self._choice(values, stops) if values else self._copied(stops)
        if kind is ANSWER:
            self._answer()
        elif kind is VALUES:  # a list comes only from an inner call
            if shape is None:  # a skeleton never puts a named node where a list goes
                raise _Dead
            self._call(depth + 1, top=False, shape=shape)
        else:  # a kind this language does not know: any text without brackets
            self._copied_free(stop)
        return None

    def _reaching_the_member(self, valid: list[str], subject: Types) -> list[str]:
        """Of ``valid``, the relations from ``subject`` that reach the type of the node a ``Contains`` looks for: the
        question's name no leaf named yet ("is X among the artists tagged Y": the list read from X holds tags, so not
        X's listeners). All of ``valid`` where that node, or what the relations reach, is not known."""
        if not self.lang.leaves_named or not subject:
            return valid
        rest = [normalise(name) for name in self.lang.wording.names if normalise(name) not in self.leaves]
        member = {t for name in rest for t in self.lang.named.get(name, ())}
        if not rest or not member:
            return valid
        schema = self.lang.schema
        reaching = [r for r in valid if any(member & set(schema.get(s, {}).get(r, ())) for s in subject)]
        return reaching or valid

    def _widest_written(self, options: list[str], valid: Sequence[str] = ()) -> list[str]:
        """``options`` without a relation whose content words another option's hold, where the question writes all
        of that other's ("X executive produced": ``executive_produced_by``, not ``produced_by``); a relation of
        ``valid`` whose words the question writes all, and that holds every word of the one option left, the same
        way round, stands in for it ("How many genres is the film X classed under?": ``film_genre``, not ``films``)."""
        key = (tuple(options), tuple(valid))
        if key not in self.lang.widest:  # asked at every token: worked out once per pair of lists
            self.lang.widest[key] = self._widest_of(options, valid)
        return self.lang.widest[key]

    def _widest_of(self, options: list[str], valid: Sequence[str]) -> list[str]:
        """See :meth:`_widest_written`."""
        content, asked = self.lang.wording.content_words, self.lang.wording.asked_words
        written = [relation for relation in options if content(relation) and content(relation) <= asked]
        narrower = {relation for relation in options for wide in written if content(relation) < content(wide)}
        kept = [relation for relation in options if relation not in narrower] or options
        if len(kept) == 1 and content(kept[0]):
            wording = self.lang.wording
            spelled = [relation for relation in wording.spelled & wording.relation_names if relation not in options]

            def elsewhere(relation: str) -> bool:  # its further words are another relation's the question spells out
                extra = content(relation) - content(kept[0])  # ("... of the olympic athlete affiliation country of
                others = [r for r in spelled if r != relation and r not in wording.voice_partners(relation)]  # X with
                return bool(others) and extra <= set().union(*(content(r) for r in others))  # the most films": films)

            wider = [relation for relation in valid if content(kept[0]) < content(relation) <= asked
                     and is_backward(relation) == is_backward(kept[0])  # not a number's ("2 stars": rated_2)
                     and not any(word.isdigit() for word in content(relation) - content(kept[0]))
                     and not elsewhere(relation)]  # fmt: skip
            if len(wider) == 1:
                return wider
        return kept

    def _held_by(self, options: list[str], name: str | None, valid: Sequence[str]) -> list[str]:
        """Of ``options``, on a graph of one node type (FB15k-237: its type tells no node's relations), the relations
        the one node ``name`` names has links along, where it has some of them and they are more than one link's two
        ways round ("What religion does X follow?" takes ``person_religion``, which X has, not
        ``religion_percentage_religion``, which no person has); where it has none of them, its own relations that
        share as many words with the question (see below), of ``valid``; all of them otherwise."""
        key = (tuple(options), name, tuple(valid))
        if key not in self.lang.held:  # asked at every token: worked out once per options, name and hop
            self.lang.held[key] = self._held_of(options, name, valid)
        return self.lang.held[key]

    def _held_of(self, options: list[str], name: str | None, valid: Sequence[str]) -> list[str]:
        nodes = name_nodes(self.lang.store).get(normalise(name), ()) if name else ()
        if not nodes or len(nodes) != 1 or len(self.lang.store.node_types()) > 1 or not options:
            return options  # several types: a node's type already tells its relations
        own = self.lang.store.relations(nodes[0])
        held = [relation for relation in options if relation in own]
        if held:  # two ways round of one link stay the words' (and the model's) to tell: a count of 0 may be asked
            one_link = set(options) - {options[0]} <= self.lang.wording.voice_partners(options[0])
            return options if one_link else held
        # one type for every node (FB15k-237) and none of the options held: the node's own relations whose words,
        # cut to five letters, the question writes as many of as of any option's, or more ("How many films did X
        # direct?": ``director_film``, not the ``film_art_direction_by_of`` "films" led to), where one relation (with
        # its reverse) has most
        asked = {word[:5] for word in self.lang.wording.asked_words}
        allowed = set(valid)
        own = [relation for relation in own if relation in allowed]  # never the link just walked back along
        overlap = {relation: len({w[:5] for w in self.lang.wording.content_words(relation)} & asked) for relation in own}
        least = max((len({w[:5] for w in self.lang.wording.content_words(r)} & asked) for r in options), default=0)
        most = max(overlap.values(), default=0)
        best = [relation for relation in own if overlap[relation] == most]
        partners = set(best) - {best[0]} <= self.lang.wording.voice_partners(best[0]) if best else False
        turned = set().union(*(self.lang.wording.voice_partners(relation) for relation in options))
        # never an option's other way round ("How many papers does X cite?", X citing none: 0, not its citers)
        return best if most >= max(least, 1) and partners and not set(best) & turned else options

    def _named_relations(self, valid: list[str], subject: str | None = None) -> list[str]:
        """Of ``valid``, the relations the question names, with every relation sharing their root (the other
        direction: "cited by X" names ``cited_by`` but means ``cites``); all of ``valid`` when it names none.

        With the ``subject``'s name in the question, the direction follows the word order: a relation word after
        the name keeps that relation ("X links to", "X is cited by"), one before it the other relations of its
        root ("linked from X", "cited by X", "users who listened to X"), where there are such.
        """
        key = (tuple(valid), subject)
        if key not in self.lang.named_relations:  # asked at every token: worked out once per set of relations
            spelled = [relation for relation in valid if relation in self.lang.wording.spelled]
            if spelled:  # written out whole ("member meronym"); "rated 3 out of 5": rated_3 rather than rated
                numbered = {relation for relation in valid for base in spelled if self.lang.wording.numbered(relation, base)}
                valid = self.lang.wording.with_reverse(valid, numbered or set(spelled))
            else:  # the ones that share the most content words with the question ("gave 1 stars": rated_1)
                shared = {relation: len(self.lang.wording.content_words(relation) & self.lang.wording.asked_words) for relation in valid}
                most = max(shared.values(), default=0)
                if most:
                    valid = self.lang.wording.with_reverse(valid, {relation for relation, n in shared.items() if n == most})
            stems, roots_of = self.lang.relation_stems, self.lang.relation_roots
            named = [relation for relation in valid if stems[relation] & self.lang.stems]
            roots = set().union(*(roots_of[relation] for relation in named))
            kept = [relation for relation in valid if roots_of[relation] & roots]
            ordered = self._by_word_order(named, kept, subject) if named and subject else []
            self.lang.named_relations[key] = ordered or kept or valid
        return self.lang.named_relations[key]

    def _by_word_order(self, named: list[str], kept: list[str], subject: str) -> list[str]:
        at = self.lang.question.lower().find(subject.lower())
        if at < 0:
            return []
        chosen: set[str] = set()
        for relation in named:
            places = [pos for pos, stem in self.lang.word_at if stem in self.lang.relation_stems[relation]]
            partners = self.lang.wording.voice_partners(relation) & set(kept)
            if not places or not partners:  # no other direction to tell it from
                chosen.add(relation)
                continue
            nearest = min(places, key=lambda pos: abs(pos - at))
            owner = self.lang.wording.owner_at(nearest, subject)
            if owner is None:
                chosen |= {relation} if nearest > at else partners
            else:  # the word is another name's ("the articles linked from Y: includes X?"): X's hop runs back
                chosen |= partners if nearest > owner else {relation}
        return [relation for relation in kept if relation in chosen]

    def _chain_ends(self, call: str) -> list[tuple[str, int]]:
        """The call that ends the chain of hops being read (``call`` is the one whose relation is next) and how many
        enclosing calls take a relation after it. A ``Degree`` of the node a ``MaxDegree`` or ``MinDegree`` picks
        counts the links it was picked by, so the pick ends the chain; where the question writes those links once
        more for the count ("how many citations has the one with the most citations"), the ``Degree`` does."""
        names = [*self.pending_names, call]
        if len(names) >= 2 and names[0] == "Degree" and names[1] in _PICKS:
            return [(names[1], self.pending - 1), (names[0], self.pending)]
        return [(names[0], self.pending)]

    def _relations_of(self, node_type: str) -> Iterable[str]:
        return self.lang.schema.get(node_type, {})

    def _features_of(self, node_type: str) -> Iterable[str]:
        return self.lang.type_features.get(node_type, ())

    @staticmethod
    def _names_of(types: Types, every: list[str], of_type: object) -> list[str]:
        """The names the ``types`` have (all of ``every`` when the types are not known or have none)."""
        if not types:
            return every
        own = {name for node_type in types for name in of_type(node_type)}  # type: ignore[operator]
        kept = [name for name in every if name in own]
        return kept or every

    def _node(self, depth: int, stop: str, shape: object = _FREE) -> Types:
        """A call returning node ids (``compound`` only) or an id shown in a source; returns its types.

        Under a skeleton, a named node (``shape`` None) is an id or a ``Retrieve``, anything else the shape's call.
        """
        start = self.pos
        if self.lang.compound:
            try:
                return self._call(depth + 1, top=False, returns=NODE, shape=shape)[1]
            except _Dead:
                self.pos = start
        if shape is not _FREE and shape is not None:
            raise _Dead
        self.named_text, self.chain_hops, self.last_call, self.last_hop = None, 0, None, None
        ids = self.lang.ids
        if shape is None and not (self.second_hop is not None and self.lang.repeat_leaf):  # a skeleton's named node:
            # not one an earlier named node named (no prefix of one either), but where a Without's second list may be
            ids = [node for node in ids if normalise(self.lang.store.text(node)) not in self.leaves]
            if self.lang.leaf_order and len(self.leaves) < len(self.lang.leaf_order):  # two compared: in order
                wanted = normalise(self.lang.leaf_order[len(self.leaves)])
                ids = [node for node in ids if normalise(self.lang.store.text(node)) == wanted]  # none: a Retrieve
        node = self._choice(ids, stop)
        self.chain_name = self.lang.store.text(node)  # an id written for a node the question names starts a chain too
        if shape is None:
            self._new_leaf(normalise(self.chain_name))  # as a Retrieve's text of the same node counts
        return frozenset({self.lang.store.node_type(node)})

    def _answer(self) -> None:
        """Finish's answer, ended by the Action's last ``]``: values read off the observations.

        The answer is one whole value copied from an observation (a title, a
        list as the observation writes it), items separated by ``", "`` that are
        each such a value, or one number (a count, a mean: what the model works
        out from the values it saw). Whole: not cut out of a longer word or
        number (``1`` out of ``1131348``), brackets balanced.
        """
        rest = self.text[self.pos :]
        if "\n" in rest or len(rest) > MAX_ANSWER_CHARS + 1 or not self.lang.observations:
            raise _Dead
        head = _open_brackets(rest[:-1])
        if head is None:  # a ``]`` closed Finish and more text followed
            raise _Dead
        closes_finish = rest.endswith("]") and head == 0
        whole = self.lang.whole_list
        if self.lang.tie is not None and self.lang.answer_kind is None:
            whole = self.lang.tie.answer  # a tie: every tied node or value, as the observation lists them
        if whole is None and self.lang.answer_kind is None:
            whole = self.lang.one_value  # one text value just read: that value, not a word of it ("Lightning")
        if whole is not None:  # the set's names: the whole list, as the observation shows it
            if closes_finish and rest[:-1] == whole:
                self.pos = len(self.text) - 1
                return
            if not closes_finish and whole.startswith(rest):
                raise _End
            raise _Dead
        if closes_finish and self._is_answer(rest[:-1]):  # an answer has balanced brackets
            self.pos = len(self.text) - 1
            return
        if not closes_finish and self._may_become_answer(rest):
            raise _End
        raise _Dead

    def _is_answer(self, answer: str) -> bool:
        if self.lang.answer_kind == "number":
            return bool(_NUMBER.fullmatch(answer)) and (not self.lang.numbers or answer in self.lang.numbers)
        if self.lang.answer_kind == "yes/no":
            return answer == self.lang.yes_no if self.lang.yes_no else answer in ("yes", "no")
        if self._found(answer, whole=True) or (self.lang.worked_out and _NUMBER.fullmatch(answer)):
            return True
        items = answer.split(_SEPARATOR)
        return len(items) > 1 and all(self._found(item, whole=True) for item in items)

    def _may_become_answer(self, text: str) -> bool:
        if self.lang.answer_kind == "number":
            numbers = self.lang.numbers
            return bool(_NUMBER_PREFIX.fullmatch(text)) and (not numbers or any(n.startswith(text) for n in numbers))
        if self.lang.answer_kind == "yes/no":
            return any(word.startswith(text) for word in ([self.lang.yes_no] if self.lang.yes_no else ["yes", "no"]))
        if self._found(text, whole=False) or (self.lang.worked_out and _NUMBER_PREFIX.fullmatch(text)):
            return True
        if text.endswith(","):  # half of a separator
            return all(self._found(item, whole=True) for item in text[:-1].split(_SEPARATOR))
        *done, last = text.split(_SEPARATOR)
        return all(self._found(item, whole=True) for item in done) and self._found(last, whole=False)

    def _found(self, answer: str, whole: bool) -> bool:
        """``answer`` occurs in an observation where a value can start (and, if ``whole``, end)."""
        if whole and (not answer.strip() or _open_brackets(answer) != 0):
            return False
        if answer[:1].isspace():  # a value starts with its first character, not between two of its words
            return False
        pattern = rf"(?<!\w){re.escape(answer)}" + (r"(?!\w)" if whole else "")  # a word in any script
        return any(re.search(pattern, values) for values in self.lang.answer_sources)

    def _copied_free(self, stop: str) -> None:
        end = self._scan("[]\n" + stop)
        if end == len(self.text):
            raise _End
        if end == self.pos or self.text[end] == "\n" or self.text[end] == "[":
            raise _Dead
        self.pos = end
