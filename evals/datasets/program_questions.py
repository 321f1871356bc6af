"""Question programs sampled over a graph's schema and worded many ways: question sets nobody templated per graph.

:func:`program_questions` picks, for each question, a program shape (:data:`SHAPES`, or a tie of
:data:`TIE_SHAPES` when named), a subject of a
node type that has what the shape needs, the relations and features from the graph's schema
(:func:`graphreason.evals.datasets.programs.schema_of`), and one of the shape's wordings. The gold
comes from the program's reference evaluator; a program without a well-defined answer is drawn again.

Wordings come in :data:`FAMILIES` (two per family and shape, so ten per shape), so a validation can
leave one family out of training and ask only its wordings. :data:`EVAL_ONLY_FAMILIES` are asked only
when named and never trained on. Relations are phrased from a lexicon of
the labels the project's graphs use (``cites`` reads as "cites", "references", "links to"; ``cited_by``
as "is cited by", "cite") in several forms, and any other label from its own words
(``written_by`` -> "written by"), so a renamed schema still reads as a question.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from graphreason.evals.datasets.items import QAItem
from graphreason.evals.datasets.programs import (
    AnyWith,
    CompareToSubject,
    Contains,
    Count,
    Extreme,
    Filter,
    Gap,
    Hop,
    Join,
    Lookup,
    Mode,
    MoreThan,
    MostReached,
    Names,
    OfExtreme,
    OnlyMember,
    Operation,
    Pair,
    PlainGraph,
    Program,
    Subject,
    TiedPick,
    TypeSchema,
    schema_of,
)
from graphreason.evals.datasets.renamed_graphs import EVALUATION_RENAMINGS
from graphreason.tools.core.loaders import UNSEEN_GRAPHS
from graphreason.tools.core.retrieval.lexical import normalise

FAMILIES = ("ask", "tell", "curious", "terse", "formal")
# Wordings kept out of every training set and of the default question mix: asked only when named, so a
# validation has sentence frames no model was ever fitted to. ``later`` was written after the call grammar's
# rules for a question's answer form, which were fitted by reading ``others``' failures: no rule has seen it.
# ``fresh`` was written after ``later``'s rules, and names relations in phrases of its own (:data:`_FRESH_LEXICON`)
# that no other family, and so no training set, uses.
# ``spoken`` was written in one sitting before any question of it was asked. Its first measurement (commit efe0600,
# 3 questions per shape, seed 0: citeseer 42/42, last-fm 24/27, wikispeedia 23/26) came before any rule read its
# failures; rules were then fitted to them ("Show me ...", "the links out of ..."), so later figures of it are not
# first measurements.
# ``kgqa`` was written in one sitting, frames and relation phrases (:data:`_KGQA_LEXICON`) together, in the register
# of published graph question-answering benchmarks ("Could you specify ...", "What is the predominant ...", "the
# academic works that referenced X"), before any question of it was asked. Its first measurement (commit 68b61f1,
# 3 questions per shape, seed 0: citeseer 39/42, last-fm 19/27, wikispeedia 13/27; 71/96 = 74.0 pooled) came before
# any rule read its failures; rules were then fitted to them (compound words such as "hyperlinks" and "befriended",
# "the one of X with the largest count of Y", the type a "which <type>" question asks for), so later figures of it
# are not first measurements.
# ``walk`` tells each question as moves through the graph ("Collect the users one friendship away from X. Is Y on
# the list?"), frames and relation phrases (:data:`_WALK_LEXICON`) written in one sitting after kgqa's rules and
# before any question of it was asked. Its first measurement (commit 36b5cb7, 3 questions per shape, seed 0: citeseer
# 41/42, last-fm 20/27, wikispeedia 11/27; 72/96 = 75.0 pooled) came before any rule read its failures; rules were then
# fitted to them (a question told in several sentences asks in its last, "rank them by ... which comes first", "drop the
# ones that match", "a link on X", "click through to from X", "pages that click through to them", "links to click",
# "which gets the most votes", "then add ..., skipping any already there", "friendships"), so later figures of it are
# not first measurements.
# ``learner`` asks as someone still learning English may ("How much are the papers which X is citing?", "Is Y is one
# of ...?", "What genre is more common in ...?"): frames and relation phrases (:data:`_LEARNER_LEXICON`) written in one
# sitting after walk's rules and before any question of it was asked. Its first measurement (commit 537b8bf, 3
# questions per shape, seed 0: citeseer 35/42, last-fm 24/27, wikispeedia 20/27; 79/96 = 82.3 pooled) came before any
# rule read its failures; rules were then fitted to them ("How much are ...", "... or not?", "not the same one two
# times", "the papers which have ...", "who have most link coming in", "most of ... have which label"), so later figures
# of it are not first measurements.
# ``quiz`` words each question as a textbook exercise ("Let S be the papers v such that X cites v. Compute |S|.",
# "Find the argmax over ... of in-degree."): frames and relation phrases (:data:`_QUIZ_LEXICON`) written in one sitting
# after learner's first measurement and before any question of it was asked. Its first measurement (commit 2a2819d, 3
# questions per shape, seed 0: citeseer 32/42, last-fm 22/27, wikispeedia 11/27; 65/96 = 67.7 pooled) came before any
# rule read its failures; an answer check (a count a Finish copies from its Observation is never taken for a node's
# id) and then rules were written from them ("in-neighbours" and "out-degree" carry their way round, "in the link
# graph" names the link they walk, "|S|" and "cardinality" count, "the argmax over S" picks one of S, "∪" and "∩",
# "unequal"), so later figures of it are not first measurements.
# ``prompt`` words each question as a developer instructs a model ("Task: count X. Respond with a single integer.",
# "Return the item from ... with the highest count of backlinks."): frames and relation phrases
# (:data:`_PROMPT_LEXICON`) written in one sitting after quiz's first measurement and before any question of it was
# asked. Its first measurement (commit 398a64f, 3 questions per shape, seed 0: citeseer 38/42, last-fm 24/27,
# wikispeedia 23/27; 85/96 = 88.5 pooled) came before any rule read it, and so did a second (90b61e9, after quiz's
# rules: the same 85 right); rules were then fitted to its failures ("select the one ranking last by", "the item from
# X with the lowest count of", "the user that occurs most often", "the link targets of X", and "Answer yes or no." or
# "Output yes/no." no longer read as a negation), so later figures of it are not first measurements.
# ``analyst`` asks as someone reading a dashboard ("What's the headcount of X's audience?", "Break X down by genre:
# which bucket is the biggest?", "Sanity check: is Y part of ...?"): frames and relation phrases
# (:data:`_ANALYST_LEXICON`) written in one sitting after prompt's second measurement and before any question of it
# was asked. Its first measurement (commit 201dcfd, 3 questions per shape, seed 0: citeseer 38/42, last-fm 15/27,
# wikispeedia 16/27; 69/96 = 71.9 pooled) came before any rule read it, and so did a second (ad97984, after prompt's
# rules: citeseer 38/42, last-fm 16/27, wikispeedia 16/27; 70/96 = 72.9); rules were then fitted to its failures
# ("X streams", "X's audience", "filed under", "X's connections" and "network", "sends traffic to", "referring pages",
# "Rank ...: who comes out number one?", "the weakest performer", "which bucket is the biggest", one link mentioned
# is one hop), so later figures of it are not first measurements.
# ``context`` opens each question with why it is asked ("For my thesis I need one number: how many are ...?", "I have a
# hunch about Y. Is it one of ...?", "Help me find the least connected one: ..."): frames and relation phrases
# (:data:`_CONTEXT_LEXICON`) written in one sitting after analyst's rules and before any question of it was asked.
# Its first measurement (commit 28a03be, 3 questions per shape, seed 0: citeseer 40/42, last-fm 23/27, wikispeedia
# 18/27; 81/96 = 84.4 pooled) came before any rule read it; rules were then fitted to its failures ("leaving out the
# ones that share X's label", "X's playlists", "pals", "the articles that mention X with a link"), so later figures
# of it are not first measurements.
# ``chat`` types each question as a quick message ("how many r the ppl who listen to X", "X in the pages u get to from
# Y? y/n", "count ... w/o dupes pls"): frames and relation phrases (:data:`_CHAT_LEXICON`) written in one sitting after
# context's rules and before any question of it was asked. Its first measurement (commit 5a939ea, 3 questions per
# shape, seed 0: citeseer 34/42, last-fm 23/27, wikispeedia 20/27; 77/96 = 80.2 pooled) came before any rule read it;
# rules were then fitted to its failures, read on other seeds' questions of it (chat shorthand spelled out before a
# question is read, "the pages u get to from X", "has on repeat", "w/o X's label", a link word that takes the name as its
# object is the first hop), so later figures of it are not first measurements.
# ``search`` types each question as a query into a search box ("number of X listeners", "top of the articles linking
# to X by backlinks", "is Y in X friends list"): frames and relation phrases (:data:`_SEARCH_LEXICON`) written in one
# sitting after chat's rules and before any question of it was asked. Its first measurement (commit 7dbad97, 3
# questions per shape, seed 0: citeseer 42/42, last-fm 23/27, wikispeedia 27/27; 92/96 = 95.8 pooled) came before any
# rule read it; rules were then fitted to its failures, read on other seeds' questions of it ("X friends list with
# fewest friends", "top of ... by", "top tag among tags of", "most frequent tag", "label breakdown top value"), so
# later figures of it are not first measurements.
EVAL_ONLY_FAMILIES = ("others", "later", "fresh", "spoken", "kgqa", "walk", "learner", "quiz", "prompt", "analyst",
                      "context", "chat", "search", "email", "indirect")
# ``email`` asks as a polite request in a message, with a greeting and a sign-off ("Dear team, I need to know how many
# ... there are. Many thanks.", "Hi, could you check whether Y is among ...? Best."): frames and relation phrases
# (:data:`_EMAIL_LEXICON`) written in one sitting after last-fm-items' rules and before any question of it was asked.
# Its first measurement (commit abcb3d3, 3 questions per shape, seed 0: citeseer 42/42, last-fm 26/27, wikispeedia
# 25/27; 93/96 = 96.9 pooled) came before any rule read it; rules were then written from its failures ("labelled with
# the tag" one mention, "send me" no link, "check whether" a yes/no question), so it is no longer blind.
# ``indirect`` asks in indirect questions and statements of need ("I'd like to know which of ... has the most ...",
# "I'm trying to work out whether X or Y has more ...", "What I need is X's label."): frames written in one sitting
# after which_of_two's rules and before any question of it was asked, with the common relation phrases. Its first
# measurement (commit f5fe8dc, 3 questions per shape, seed 0: citeseer 51/51, last-fm 33/33, wikispeedia 32/32) came
# before any rule read its failures; rules were then fitted to failures of other seeds ("what the listeners of X
# are" asks for the list, "the article that appears most among ..."), so later figures of it are not first looks.
# The evaluation-only families no rule was written from yet: their figures are first looks.
BLIND_FAMILIES: tuple[str, ...] = ()
ALL_FAMILIES = FAMILIES + EVAL_ONLY_FAMILIES


# Subjects are named in questions and in Retrieve[...]: names with call-language syntax are avoided.
_UNSAFE = re.compile(r"[\[\]\"`]")


# ------------------------------------------------------------------------------------- relation phrases
# {x}: one node's phrase; {T}: the plural noun of the nodes reached. "single" phrases hang off one node,
# "many" off a set (two hops), "noun" names what a node has along the relation (for most / fewest).
_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} that {x} cites", "the {T} cited by {x}", "the {T} {x} references", "the {T} {x} links to"),
        "many": ("the {T} cited by any of {x}", "the {T} that {x} cite"),
        "noun": ("references", "outgoing citations"),
    },
    "cited_by": {
        "single": ("the {T} that cite {x}", "the {T} citing {x}", "the {T} that reference {x}", "the {T} {x} is cited by"),
        "many": ("the {T} that cite any of {x}", "the {T} citing {x}"),
        "noun": ("citations", "citing papers"),
    },
    "links_to": {
        "single": ("the {T} {x} links to", "the {T} linked from {x}", "the {T} that {x} points to"),
        "many": ("the {T} linked from any of {x}",),
        "noun": ("outgoing links", "links out"),
    },
    "linked_from": {
        "single": ("the {T} that link to {x}", "the {T} linking to {x}", "the {T} {x} is linked from"),
        "many": ("the {T} that link to any of {x}",),
        "noun": ("incoming links", "links in"),
    },
    # the relations of the evaluation-only copies (renamed_graphs.EVALUATION_RENAMINGS): no training graph has them
    "likes": {
        "single": ("the {T} {x} likes", "the {T} liked by {x}"),
        "many": ("the {T} liked by any of {x}", "the {T} that {x} like"),
        "noun": ("liked items", "likes given"),
    },
    "liked_by": {
        "single": ("the {T} who like {x}", "the {T} that {x} is liked by"),
        "many": ("the {T} who like any of {x}",),
        "noun": ("likes", "fans"),
    },
    "has_tag": {
        "single": ("the {T} {x} has", "the {T} on {x}", "the {T} {x} is tagged with"),
        "many": ("the {T} on any of {x}",),
        "noun": ("tags",),
    },
    "tag_on": {
        "single": ("the {T} tagged {x}", "the {T} that carry the tag {x}"),
        "many": ("the {T} tagged with any of {x}",),
        "noun": ("tagged items",),
    },
    "follows": {
        "single": ("the {T} {x} follows", "the {T} following {x}"),
        "many": ("the {T} any of {x} follow",),
        "noun": ("follows", "followed users"),
    },
    "rated": {
        "single": ("the {T} {x} rated", "the {T} rated by {x}", "the {T} that {x} has rated"),
        "many": ("the {T} rated by any of {x}",),
        "noun": ("ratings given", "rated movies"),
    },
    "rated_by": {
        "single": ("the {T} who rated {x}", "the {T} that rated {x}", "the {T} {x} was rated by"),
        "many": ("the {T} who rated any of {x}",),
        "noun": ("ratings", "raters"),
    },
    "has_genre": {
        "single": ("the {T} of {x}", "the {T} {x} belongs to", "the {T} {x} is tagged with"),
        "many": ("the {T} of any of {x}",),
        "noun": ("genres",),
    },
    "genre_of": {
        "single": ("the {T} in {x}", "the {T} tagged with {x}", "the {T} of the genre {x}"),
        "many": ("the {T} in any of {x}",),
        "noun": ("movies in it",),
    },
    "listener": {
        "single": ("the {T} who listen to {x}", "the {T} {x} is listened to by", "the listeners of {x}"),
        "many": ("the {T} who listen to any of {x}",),
        "noun": ("listeners",),
    },
    "tag": {
        "single": ("the {T} {x} is tagged with", "the tags of {x}", "the {T} attached to {x}"),
        "many": ("the {T} of any of {x}",),
        "noun": ("tags",),
    },
    "listened": {
        "single": ("the {T} {x} listened to", "the {T} that {x} listens to", "the {T} listened to by {x}"),
        "many": ("the {T} that any of {x} listened to",),
        "noun": ("artists listened to", "listens"),
    },
    "listened_by": {
        "single": ("the {T} who listened to {x}", "the {T} that listen to {x}", "the listeners of {x}"),
        "many": ("the {T} who listened to any of {x}",),
        "noun": ("listeners",),
    },
    "tagged": {
        "single": ("the {T} {x} is tagged with", "the tags of {x}", "the {T} given to {x}"),
        "many": ("the {T} of any of {x}",),
        "noun": ("tags",),
    },
    "tag_of": {
        "single": ("the {T} tagged with {x}", "the {T} that carry the tag {x}", "the {T} tagged {x}"),
        "many": ("the {T} tagged with any of {x}",),
        "noun": ("tagged items",),
    },
    "friend": {
        "single": ("the friends of {x}", "the {T} who are friends of {x}", "{x}'s friends"),
        "many": ("the friends of any of {x}",),
        "noun": ("friends",),
    },
}


# Relation phrases only the ``fresh`` family uses (never in training data): how someone who never read the
# lexicon above might name the same links. Relations without an entry keep the lexicon's phrases.
_FRESH_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} in the bibliography of {x}", "the {T} {x} draws on"),
        "many": ("the {T} that any of {x} draws on",),
        "noun": ("entries in their bibliography",),
    },
    "cited_by": {
        "single": ("the {T} whose bibliography lists {x}", "the {T} that draw on {x}"),
        "many": ("the {T} that draw on any of {x}",),
        "noun": ("papers drawing on them",),
    },
    "linked": {
        "single": ("the {T} connected to {x}", "the {T} with a citation link to {x}", "the {T} adjacent to {x}"),
        "many": ("the {T} connected to any of {x}",),
        "noun": ("connections", "citation links"),
    },
    "links_to": {
        "single": ("the {T} one click away from {x}", "the {T} that {x} has links to", "the {T} {x} sends readers to"),
        "many": ("the {T} one click away from any of {x}",),
        "noun": ("outbound links", "links leaving them"),
    },
    "linked_from": {
        "single": ("the {T} with a link to {x}", "the {T} pointing at {x}", "the {T} that send readers to {x}"),
        "many": ("the {T} with a link to any of {x}",),
        "noun": ("backlinks", "inbound links"),
    },
    "listened_by": {
        "single": ("the fans of {x}", "the {T} who play {x}", "the {T} with {x} in their listening history"),
        "many": ("the fans of any of {x}",),
        "noun": ("fans", "people playing them"),
    },
    "tagged": {
        "single": ("the {T} on {x}", "the {T} people put on {x}", "the {T} describing {x}"),
        "many": ("the {T} on any of {x}",),
        "noun": ("tags on them", "labels"),
    },
    "tag_of": {
        "single": ("the {T} labelled {x}", "the {T} carrying the tag {x}", "the {T} marked as {x}"),
        "many": ("the {T} labelled with any of {x}",),
        "noun": ("artists labelled with them",),
    },
    "listened": {
        "single": ("the {T} {x} plays", "the {T} in the listening history of {x}", "the {T} {x} is a fan of"),
        "many": ("the {T} that any of {x} plays",),
        "noun": ("artists they play",),
    },
    "friend": {
        "single": ("the {T} {x} is friends with", "the people on the friend list of {x}", "the buddies of {x}"),
        "many": ("the {T} any of {x} is friends with",),
        "noun": ("people on their friend list", "buddies"),
    },
}


# Relation phrases only the ``kgqa`` family uses, in the register of published graph question-answering
# benchmarks ("the academic works that referenced X", "the tags assigned to X"); written with its frames. Every
# "noun" must read both after "the highest number of" and before "of <a set>".
_KGQA_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} referenced in the paper {x}", "the {T} that the paper {x} refers to"),
        "many": ("the {T} referenced in any of {x}",),
        "noun": ("outgoing references",),
    },
    "cited_by": {
        "single": ("the academic works that referenced {x}", "the {T} referring to {x}"),
        "many": ("the {T} referring to any of {x}",),
        "noun": ("incoming references",),
    },
    "linked": {
        "single": ("the {T} related to {x} by citation", "the {T} that {x} is connected with by citation"),
        "many": ("the {T} related by citation to any of {x}",),
        "noun": ("citation relations", "cited or citing papers"),
    },
    "listened_by": {
        "single": ("the {T} in the audience of {x}", "the {T} that have listened to {x}"),
        "many": ("the {T} in the audience of any of {x}",),
        "noun": ("audience members", "listening users"),
    },
    "listened": {
        "single": ("the {T} whose music {x} has listened to", "the {T} in {x}'s listening record"),
        "many": ("the {T} whose music any of {x} has listened to",),
        "noun": ("artists in their listening record",),
    },
    "tagged": {
        "single": ("the {T} assigned to {x}", "the {T} used to describe {x}"),
        "many": ("the {T} assigned to any of {x}",),
        "noun": ("assigned tags", "descriptive tags"),
    },
    "tag_of": {
        "single": ("the {T} assigned the tag {x}", "the {T} described by the tag {x}"),
        "many": ("the {T} assigned any of {x}",),
        "noun": ("assigned artists",),
    },
    "friend": {
        "single": ("the {T} in {x}'s circle of friends", "the {T} befriended by {x}"),
        "many": ("the {T} befriended by any of {x}",),
        "noun": ("friendships", "friends on record"),
    },
    "links_to": {
        "single": ("the {T} referenced by hyperlink from {x}", "the {T} the page {x} hyperlinks to"),
        "many": ("the {T} hyperlinked from any of {x}",),
        "noun": ("outgoing hyperlinks",),
    },
    "linked_from": {
        "single": ("the {T} containing a hyperlink to {x}", "the {T} whose pages hyperlink to {x}"),
        "many": ("the {T} containing a hyperlink to any of {x}",),
        "noun": ("incoming hyperlinks",),
    },
}

# Relation phrases only the ``walk`` family uses: a set of nodes told as moves through the graph ("the articles you
# can click through to from X", "the users one friendship away from X"); written with its frames, after kgqa's rules.
_WALK_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} you reach by following {x}'s references", "the {T} {x} points you to in its reference list"),
        "many": ("the {T} you reach by following the references of any of {x}",),
        "noun": ("references",),
    },
    "cited_by": {
        "single": ("the {T} that lead to {x} through a citation", "the {T} whose reference lists send you to {x}"),
        "many": ("the {T} that lead to any of {x} through a citation",),
        "noun": ("incoming citations",),
    },
    "linked": {
        "single": ("the {T} one citation step from {x}", "the {T} you reach from {x} along a citation, either way"),
        "many": ("the {T} one citation step from any of {x}",),
        "noun": ("citation neighbours",),
    },
    "listened_by": {
        "single": ("the {T} you find in {x}'s listener list", "the {T} you meet by going from {x} to its audience"),
        "many": ("the {T} in the listener lists of any of {x}",),
        "noun": ("listeners",),
    },
    "listened": {
        "single": ("the {T} you reach from {x} through its listening history", "the {T} you land on by following what {x} listens to"),
        "many": ("the {T} you reach through the listening history of any of {x}",),
        "noun": ("artists listened to",),
    },
    "tagged": {
        "single": ("the {T} you reach by following {x}'s tags", "the {T} hanging on {x}"),
        "many": ("the {T} hanging on any of {x}",),
        "noun": ("tags",),
    },
    "tag_of": {
        "single": ("the {T} filed under {x}", "the {T} you reach by following the tag {x} to what carries it"),
        "many": ("the {T} filed under any of {x}",),
        "noun": ("filed artists",),
    },
    "friend": {
        "single": ("the {T} one friendship away from {x}", "the {T} you reach in one step along {x}'s friendships"),
        "many": ("the {T} one friendship away from any of {x}",),
        "noun": ("friendships",),
    },
    "links_to": {
        "single": ("the {T} you can click through to from {x}", "the {T} you land on by clicking a link on {x}"),
        "many": ("the {T} you can click through to from any of {x}",),
        "noun": ("links to click",),
    },
    "linked_from": {
        "single": ("the {T} from which a click takes you to {x}", "the {T} whose links take you to {x}"),
        "many": ("the {T} whose links take you to any of {x}",),
        "noun": ("pages that click through to them",),
    },
}

# Relation phrases only the ``learner`` family uses: how someone still learning English may name a link ("the papers
# which X is citing", "the users who are listening X", "the articles where X have link"); written with its frames.
_LEARNER_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} which {x} is citing", "the {T} that {x} cite"),
        "many": ("the {T} which any of {x} is citing",),
        "noun": ("reference",),
    },
    "cited_by": {
        "single": ("the {T} which are citing {x}", "the {T} who cite {x}"),
        "many": ("the {T} which are citing any of {x}",),
        "noun": ("citation",),
    },
    "linked": {
        "single": ("the {T} connected with {x} by citation in any direction", "the {T} which have citation with {x}"),
        "many": ("the {T} which have citation with any of {x}",),
        "noun": ("citation connection",),
    },
    "listened_by": {
        "single": ("the {T} who are listening {x}", "the {T} which listen {x}"),
        "many": ("the {T} who are listening any of {x}",),
        "noun": ("listener",),
    },
    "listened": {
        "single": ("the {T} which {x} is listening", "the {T} that {x} listen"),
        "many": ("the {T} which any of {x} is listening",),
        "noun": ("artist listened",),
    },
    "tagged": {
        "single": ("the {T} which {x} is tagged", "the {T} put on {x}"),
        "many": ("the {T} put on any of {x}",),
        "noun": ("tag",),
    },
    "tag_of": {
        "single": ("the {T} which have tag {x}", "the {T} tagged like {x}"),
        "many": ("the {T} which have tag from any of {x}",),
        "noun": ("tagged artist",),
    },
    "friend": {
        "single": ("the {T} which are friend with {x}", "the {T} who {x} is friend"),
        "many": ("the {T} which are friend with any of {x}",),
        "noun": ("friend",),
    },
    "links_to": {
        "single": ("the {T} which {x} is linking", "the {T} where {x} have link"),
        "many": ("the {T} which any of {x} is linking",),
        "noun": ("link going out",),
    },
    "linked_from": {
        "single": ("the {T} which are linking {x}", "the {T} having link to {x}"),
        "many": ("the {T} which are linking any of {x}",),
        "noun": ("link coming in",),
    },
}

# Relation phrases only the ``quiz`` family uses: a set told as a textbook exercise defines it ("the papers v such
# that X cites v", "the in-neighbours of X in the link graph"); written with its frames.
_QUIZ_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} v such that {x} cites v", "the out-neighbours of {x} under citation"),
        "many": ("the {T} w such that some member of {x} cites w",),
        "noun": ("out-neighbours under citation",),
    },
    "cited_by": {
        "single": ("the {T} u such that u cites {x}", "the in-neighbours of {x} under citation"),
        "many": ("the {T} w such that w cites some member of {x}",),
        "noun": ("in-neighbours under citation",),
    },
    "linked": {
        "single": ("the {T} adjacent to {x} by a citation edge in either direction", "the citation neighbourhood of {x}"),
        "many": ("the {T} adjacent by citation to some member of {x}",),
        "noun": ("citation neighbours",),
    },
    "listened_by": {
        "single": ("the {T} u such that u listens to {x}", "the {T} incident to {x} through a listening edge"),
        "many": ("the {T} w such that w listens to some member of {x}",),
        "noun": ("listeners",),
    },
    "listened": {
        "single": ("the {T} v such that {x} listens to v", "the {T} at the far end of {x}'s listening edges"),
        "many": ("the {T} w such that some member of {x} listens to w",),
        "noun": ("artists listened to",),
    },
    "tagged": {
        "single": ("the {T} t such that {x} carries t", "the {T} attached to {x}"),
        "many": ("the {T} attached to some member of {x}",),
        "noun": ("tags",),
    },
    "tag_of": {
        "single": ("the {T} a such that a carries {x}", "the {T} to which {x} is attached"),
        "many": ("the {T} to which some member of {x} is attached",),
        "noun": ("carrying artists",),
    },
    "friend": {
        "single": ("the {T} u such that u and {x} are friends", "the friendship neighbourhood of {x}"),
        "many": ("the {T} w such that w is a friend of some member of {x}",),
        "noun": ("friends",),
    },
    "links_to": {
        "single": ("the {T} v such that {x} has a hyperlink to v", "the out-neighbours of {x} in the link graph"),
        "many": ("the {T} w such that some member of {x} has a hyperlink to w",),
        "noun": ("out-neighbours",),
    },
    "linked_from": {
        "single": ("the {T} u such that u has a hyperlink to {x}", "the in-neighbours of {x} in the link graph"),
        "many": ("the {T} w such that w has a hyperlink to some member of {x}",),
        "noun": ("in-neighbours",),
    },
}

# Relation phrases only the ``prompt`` family uses: how a developer names an edge when instructing a model ("the
# targets of X's citations", "the backlinks of X", "the users whose listening history includes X"); written with its
# frames.
_PROMPT_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the targets of {x}'s citations", "the {T} on {x}'s outgoing citation edges"),
        "many": ("the targets of citations made by any of {x}",),
        "noun": ("outgoing citation edges",),
    },
    "cited_by": {
        "single": ("the {T} with a citation edge into {x}", "the sources of citations pointing at {x}"),
        "many": ("the {T} with a citation edge into any of {x}",),
        "noun": ("incoming citation edges",),
    },
    "linked": {
        "single": ("the {T} sharing a citation edge with {x}, either direction", "the undirected citation neighbours of {x}"),
        "many": ("the {T} sharing a citation edge with any of {x}",),
        "noun": ("citation edges",),
    },
    "listened_by": {
        "single": ("the {T} whose listening history includes {x}", "the {T} with a listen edge to {x}"),
        "many": ("the {T} whose listening history includes any of {x}",),
        "noun": ("users in whose history they appear",),
    },
    "listened": {
        "single": ("the {T} in {x}'s listening history", "the {T} that {x} has a listen edge to"),
        "many": ("the {T} in the listening history of any of {x}",),
        "noun": ("artists in their history",),
    },
    "tagged": {
        "single": ("the {T} applied to {x}", "the {T} on {x}'s tag list"),
        "many": ("the {T} applied to any of {x}",),
        "noun": ("applied tags",),
    },
    "tag_of": {
        "single": ("the {T} labelled with the tag {x}", "the {T} that have {x} on their tag list"),
        "many": ("the {T} labelled with any of {x}",),
        "noun": ("labelled artists",),
    },
    "friend": {
        "single": ("the {T} on {x}'s friend list", "the {T} joined to {x} by a friendship edge"),
        "many": ("the {T} on the friend list of any of {x}",),
        "noun": ("friend-list entries",),
    },
    "links_to": {
        "single": ("the {T} that {x}'s page links out to", "the outbound link targets of {x}"),
        "many": ("the link targets of any of {x}",),
        "noun": ("link targets",),
    },
    "linked_from": {
        "single": ("the {T} whose pages link to {x}", "the backlinks of {x}"),
        "many": ("the {T} whose pages link to any of {x}",),
        "noun": ("backlinks",),
    },
}

# Relation phrases only the ``analyst`` family uses: how someone reading a dashboard names an edge ("X's inbound
# citations", "the pages that send traffic to X", "X's audience", "the artists filed under X"); written with its frames.
_ANALYST_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} in {x}'s outbound citations", "the {T} that {x} draws on"),
        "many": ("the {T} drawn on by any of {x}",),
        "noun": ("outbound citations",),
    },
    "cited_by": {
        "single": ("the {T} behind {x}'s inbound citations", "the {T} that draw on {x}"),
        "many": ("the {T} that draw on any of {x}",),
        "noun": ("inbound citations",),
    },
    "linked": {
        "single": ("the {T} connected to {x} by citation, inbound or outbound", "the {T} in {x}'s citation network"),
        "many": ("the {T} connected by citation to any of {x}",),
        "noun": ("citation connections",),
    },
    "listened_by": {
        "single": ("{x}'s audience", "the {T} who stream {x}"),
        "many": ("the {T} who stream any of {x}",),
        "noun": ("audience members",),
    },
    "listened": {
        "single": ("the {T} {x} streams", "the {T} in {x}'s play history"),
        "many": ("the {T} streamed by any of {x}",),
        "noun": ("artists streamed",),
    },
    "tagged": {
        "single": ("the {T} {x} is filed under", "the {T} assigned to {x}"),
        "many": ("the {T} any of {x} is filed under",),
        "noun": ("tag assignments",),
    },
    "tag_of": {
        "single": ("the {T} filed under {x}", "the {T} carrying the {x} tag"),
        "many": ("the {T} filed under any of {x}",),
        "noun": ("artists filed under them",),
    },
    "friend": {
        "single": ("the {T} in {x}'s network", "{x}'s connections"),
        "many": ("the {T} in the network of any of {x}",),
        "noun": ("connections",),
    },
    "links_to": {
        "single": ("the {T} {x} sends traffic to", "the {T} on {x}'s outbound link list"),
        "many": ("the {T} any of {x} sends traffic to",),
        "noun": ("outbound links",),
    },
    "linked_from": {
        "single": ("the {T} that send traffic to {x}", "the {T} referring traffic to {x}"),
        "many": ("the {T} that send traffic to any of {x}",),
        "noun": ("referring pages",),
    },
}

# Relation phrases only the ``context`` family uses: how someone explaining why they ask names an edge ("the works X
# builds on", "the people who have X on their playlists", "the articles you can reach from X in one click"); written
# with its frames.
_CONTEXT_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the works {x} builds on", "the {T} in the bibliography of {x}"),
        "many": ("the works that any of {x} builds on",),
        "noun": ("works in their bibliography",),
    },
    "cited_by": {
        "single": ("the later {T} that build on {x}", "the {T} whose bibliography includes {x}"),
        "many": ("the {T} whose bibliography includes any of {x}",),
        "noun": ("later papers building on them",),
    },
    "linked": {
        "single": ("the {T} with a citation tie to {x}", "the {T} tied to {x} by citation"),
        "many": ("the {T} with a citation tie to any of {x}",),
        "noun": ("citation ties",),
    },
    "listened_by": {
        "single": ("the people who have {x} on their playlists", "the {T} who listen to {x}"),
        "many": ("the people who have any of {x} on their playlists",),
        "noun": ("people playing them",),
    },
    "listened": {
        "single": ("the {T} on {x}'s playlists", "the {T} {x} listens to"),
        "many": ("the {T} on the playlists of any of {x}",),
        "noun": ("playlist entries",),
    },
    "tagged": {
        "single": ("the {T} people have put on {x}", "the descriptive {T} of {x}"),
        "many": ("the {T} people have put on any of {x}",),
        "noun": ("descriptive tags",),
    },
    "tag_of": {
        "single": ("the {T} people describe with {x}", "the {T} that carry the descriptor {x}"),
        "many": ("the {T} people describe with any of {x}",),
        "noun": ("artists described by them",),
    },
    "friend": {
        "single": ("the {T} {x} is friends with", "{x}'s pals"),
        "many": ("the {T} any of {x} is friends with",),
        "noun": ("pals",),
    },
    "links_to": {
        "single": ("the {T} you can reach from {x} in one click", "the {T} {x} mentions with a link"),
        "many": ("the {T} you can reach in one click from any of {x}",),
        "noun": ("pages reachable in one click",),
    },
    "linked_from": {
        "single": ("the {T} from which one click reaches {x}", "the {T} that mention {x} with a link"),
        "many": ("the {T} from which one click reaches any of {x}",),
        "noun": ("pages one click away that lead to them",),
    },
}

# Relation phrases only the ``chat`` family uses: how someone typing a quick message names an edge ("the stuff in X's
# refs", "the ppl who listen to X", "the pages u get to from X"); written with its frames.
_CHAT_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} {x} has in its refs", "the {T} {x} cites"),
        "many": ("the {T} in the refs of any of {x}",),
        "noun": ("refs",),
    },
    "cited_by": {
        "single": ("the {T} that have {x} in their refs", "the {T} citing {x}"),
        "many": ("the {T} that have any of {x} in their refs",),
        "noun": ("papers citing em",),
    },
    "linked": {
        "single": ("the {T} hooked up to {x} by a citation", "the {T} {x} is linked w/ by citation"),
        "many": ("the {T} hooked up by citation to any of {x}",),
        "noun": ("citation links",),
    },
    "listened_by": {
        "single": ("the ppl who listen to {x}", "{x}'s listeners"),
        "many": ("the ppl who listen to any of {x}",),
        "noun": ("listeners",),
    },
    "listened": {
        "single": ("the {T} {x} listens to", "the {T} {x} has on repeat"),
        "many": ("the {T} any of {x} listen to",),
        "noun": ("artists they listen to",),
    },
    "tagged": {
        "single": ("the {T} on {x}", "the {T} ppl slapped on {x}"),
        "many": ("the {T} on any of {x}",),
        "noun": ("tags",),
    },
    "tag_of": {
        "single": ("the {T} tagged w/ {x}", "the {T} w/ the {x} tag"),
        "many": ("the {T} tagged w/ any of {x}",),
        "noun": ("artists w/ that tag",),
    },
    "friend": {
        "single": ("{x}'s friends", "the {T} {x} is friends w/"),
        "many": ("the friends of any of {x}",),
        "noun": ("friends",),
    },
    "links_to": {
        "single": ("the {T} {x} links out to", "the {T} u get to from {x}"),
        "many": ("the {T} any of {x} link out to",),
        "noun": ("outlinks",),
    },
    "linked_from": {
        "single": ("the {T} linking to {x}", "the {T} u can get to {x} from"),
        "many": ("the {T} linking to any of {x}",),
        "noun": ("inlinks",),
    },
}

# Relation phrases only the ``search`` family uses: how a query typed into a search box names an edge ("X references",
# "X listeners", "backlinks of X", "X friends list"); written with its frames.
_SEARCH_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} cited in {x}", "{x} references"),
        "many": ("the {T} cited in any of {x}",),
        "noun": ("outgoing references",),
    },
    "cited_by": {
        "single": ("the {T} citing {x}", "{x} citations"),
        "many": ("the {T} citing any of {x}",),
        "noun": ("incoming citations",),
    },
    "linked": {
        "single": ("the {T} citation-linked to {x}", "{x} citation neighbours"),
        "many": ("the {T} citation-linked to any of {x}",),
        "noun": ("citation links",),
    },
    "listened_by": {
        "single": ("{x} listeners", "the {T} listening to {x}"),
        "many": ("listeners of any of {x}",),
        "noun": ("listeners",),
    },
    "listened": {
        "single": ("{x} listening history", "the {T} played by {x}"),
        "many": ("the {T} played by any of {x}",),
        "noun": ("artists played",),
    },
    "tagged": {
        "single": ("{x} tags", "the {T} assigned to {x}"),
        "many": ("the {T} assigned to any of {x}",),
        "noun": ("tags",),
    },
    "tag_of": {
        "single": ("the {T} tagged {x}", "{x} tagged {T}"),
        "many": ("the {T} tagged any of {x}",),
        "noun": ("tagged artists",),
    },
    "friend": {
        "single": ("{x} friends list", "friends of {x}"),
        "many": ("friends of any of {x}",),
        "noun": ("friends",),
    },
    "links_to": {
        "single": ("outgoing links of {x}", "the {T} linked from {x}"),
        "many": ("the {T} linked from any of {x}",),
        "noun": ("outgoing links",),
    },
    "linked_from": {
        "single": ("backlinks of {x}", "the {T} linking to {x}"),
        "many": ("the {T} linking to any of {x}",),
        "noun": ("backlinks",),
    },
}

# Relation phrases only the ``email`` family uses: how someone writing a polite request names an edge ("the papers
# referenced by X", "the tags attached to X", "the articles containing a link to X"); written with its frames.
_EMAIL_LEXICON: dict[str, dict[str, tuple[str, ...]]] = {
    "cites": {
        "single": ("the {T} referenced by {x}", "the {T} that {x} cites in its bibliography"),
        "many": ("the {T} referenced by any of {x}",),
        "noun": ("references",),
    },
    "cited_by": {
        "single": ("the {T} that reference {x}", "the {T} citing {x}"),
        "many": ("the {T} that reference any of {x}",),
        "noun": ("citations received",),
    },
    "linked": {
        "single": ("the {T} connected to {x} through a citation", "the {T} sharing a citation link with {x}"),
        "many": ("the {T} connected through a citation to any of {x}",),
        "noun": ("citation connections",),
    },
    "listened_by": {
        "single": ("the {T} who have listened to {x}", "the listeners of {x}"),
        "many": ("the {T} who have listened to any of {x}",),
        "noun": ("listeners",),
    },
    "listened": {
        "single": ("the {T} that {x} has listened to", "the {T} in the listening history of {x}"),
        "many": ("the {T} that any of {x} have listened to",),
        "noun": ("artists listened to",),
    },
    "tagged": {
        "single": ("the {T} attached to {x}", "the {T} applied to {x}"),
        "many": ("the {T} attached to any of {x}",),
        "noun": ("tags attached",),
    },
    "tag_of": {
        "single": ("the {T} labelled with the tag {x}", "the {T} carrying the tag {x}"),
        "many": ("the {T} labelled with any of {x}",),
        "noun": ("artists labelled",),
    },
    "friend": {
        "single": ("the friends of {x}", "the {T} in {x}'s friend list"),
        "many": ("the friends of any of {x}",),
        "noun": ("friends",),
    },
    "links_to": {
        "single": ("the {T} that {x} links out to", "the {T} linked from the page {x}"),
        "many": ("the {T} linked from any of {x}",),
        "noun": ("outgoing links",),
    },
    "linked_from": {
        "single": ("the {T} containing a link to {x}", "the {T} that link to {x}"),
        "many": ("the {T} containing a link to any of {x}",),
        "noun": ("incoming links",),
    },
}

# The families that phrase relations their own way: a question of one of them takes its relation phrases
# from the family's lexicon where it has an entry, from :data:`_LEXICON` otherwise.
OWN_LEXICONS: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {
    "fresh": _FRESH_LEXICON, "kgqa": _KGQA_LEXICON, "walk": _WALK_LEXICON, "learner": _LEARNER_LEXICON,
    "quiz": _QUIZ_LEXICON, "prompt": _PROMPT_LEXICON, "analyst": _ANALYST_LEXICON,
    "context": _CONTEXT_LEXICON, "chat": _CHAT_LEXICON, "search": _SEARCH_LEXICON,
    "email": _EMAIL_LEXICON,
}


def _words(relation: str) -> str:
    return re.sub(r"[_\-]+", " ", relation).strip()


# Labels with a number in them: a rating relation (``rated_4``, ``rated_4_by``).
_RATED = re.compile(r"rated_(\d+)(_by)?$")


def relation_phrases(relation: str, family: str | None = None) -> dict[str, tuple[str, ...]]:
    """The phrase forms of ``relation``: the lexicon's, else ones made from the label's words. ``family``: a
    wording family with phrases of its own (:data:`OWN_LEXICONS`) uses them where it has some."""
    own = OWN_LEXICONS.get(family or "", {})
    known = own.get(relation.lower()) or _LEXICON.get(relation.lower())
    if known:
        return known
    rated = _RATED.match(relation.lower())
    if rated:
        stars = rated.group(1)
        if rated.group(2):
            return {
                "single": (f"the {{T}} who gave {{x}} {stars} stars", f"the {{T}} that rated {{x}} {stars} out of 5"),
                "many": (f"the {{T}} who gave any of {{x}} {stars} stars",),
                "noun": (f"{stars}-star ratings",),
            }
        return {
            "single": (f"the {{T}} {{x}} gave {stars} stars", f"the {{T}} that {{x}} rated {stars} out of 5"),
            "many": (f"the {{T}} any of {{x}} gave {stars} stars",),
            "noun": (f"{stars}-star ratings given",),
        }
    words = _words(relation)
    return {
        "single": (f"the {{T}} linked to {{x}} by {words}", f"the {words} neighbours of {{x}}", f"the {{T}} {{x}} has as {words}"),
        "many": (f"the {{T}} linked by {words} to any of {{x}}", f"the {words} neighbours of {{x}}"),
        "noun": (f"{words} links", f"{words} neighbours"),
    }


def plural(node_type: str) -> str:
    """The plural noun of a node type's name (``paper`` -> ``papers``, ``category`` -> ``categories``)."""
    words = _words(node_type)
    if words.endswith("y") and not words.endswith(("ay", "ey", "oy", "uy")):
        return words[:-1] + "ies"
    if words.endswith(("s", "x", "ch", "sh")):
        return words + "es"
    return words + "s"


# ------------------------------------------------------------------------------------- wordings
# Two per family and shape. {set}: a node set's phrase; {set2}: the second subject's set; {s}, {s2}:
# the named nodes; {key}, {value}: a feature and one of its values; {noun}: what "most" counts.
# ``filter_names`` (a filtered list's members named) came after every other shape, its 38 wordings written in one
# sitting before any question of it was asked, when the operation planner had no class for it. Its first measurement
# (commit 397e2d9, seed 5, 30 questions per graph over all 19 families: citeseer 27/30, cora 21/30, movielens 24/30;
# 72/90 = 80.0) came before any rule read its failures; rules were then written from them (80e27a2).
# ``shared_names`` (two nodes' common neighbours named) came after it the same way. Its first measurement (commit
# 630a8de, seed 5, 30 questions per graph over all 19 families: citeseer 19/30, last-fm 28/30, wikispeedia 26/30;
# 73/90 = 81.1) came before any rule read its failures; rules were then written from them, read on seeds 1-2.
# ``extreme_feature``, ``extreme_count`` (a value of the member a superlative picks) and ``neighbour_feature`` (a
# feature of the one node a link reaches) came last, their 40 wordings each written in one sitting before any question
# of them was asked. Rules were written from the offline check of seed 1; the first look of the tuned reasoner (seed 5,
# 30 per shape and graph, all 20 families) came after those rules and before any rule read its failures: the
# picked-member shapes 179/180 (commit aa79b26: citeseer 60/60, last-fm 30/30, wikispeedia 30/30, cora 59/60),
# neighbour_feature 110/117 (15ff193: citeseer 30/30, last-fm 29/30, wikispeedia 24/27, cora 27/30).
WORDINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "lookup": (
        ("ask", "What is the {key} of {s}?"), ("ask", "Which {key} does {s} have?"),
        ("tell", "Tell me the {key} of {s}."), ("tell", "Give the {key} of {s}."),
        ("curious", "I wonder what {key} {s} has. Do you know?"), ("curious", "Any idea what the {key} of {s} is?"),
        ("terse", "{key} of {s}?"), ("terse", "{s}: {key}?"),
        ("formal", "Please state the {key} recorded for {s}."), ("formal", "Determine the {key} associated with {s}."),
        ("others", "For {s}, what {key} is on record?"), ("others", "Do you happen to know {s}'s {key}?"),
        ("later", "Look up {s} and tell me its {key}."), ("later", "{s} is listed with which {key}?"),
        ("fresh", "Remind me: {s} has what {key}?"), ("fresh", "I'm after the {key} that goes with {s}."),
        ("spoken", "Quick question about {s}: what's its {key}?"),
        ("spoken", "What {key} is given for {s}?"),
        ("kgqa", "Could you specify the {key} of {s}?"),
        ("kgqa", "Can you inform me which {key} {s} is recorded under?"),
        ("walk", "Open the record of {s}: what does it give as {key}?"),
        ("walk", "Go to {s} and read off its {key}."),
        ("learner", "What is {key} of {s}?"),
        ("learner", "Please tell me {s} {key} is what?"),
        ("quiz", "Report the value of the attribute {key} at node {s}."),
        ("quiz", "Given the node {s}, return its {key}."),
        ("prompt", 'Task: look up the {key} of {s}. Output only the value.'),
        ("prompt", 'Return the {key} field for node {s}. No explanation.'),
        ("analyst", "Pull the {key} on file for {s}."),
        ("analyst", "Quick lookup, {s}: which {key} is it filed with?"),
        ("context", "I'm preparing notes on {s}. What {key} does it have?"),
        ("context", "My colleague asked me about {s}. Could you find its {key}?"),
        ("chat", "whats the {key} of {s}"),
        ("chat", "{s} - {key}??"),
        ("search", "{key} of {s}"),
        ("search", "{s} {key}"),
        ("email", "Hello, I am updating our records. Could you tell me the {key} of {s}? Thank you."),
        ("email", "Hi there, one detail please: what {key} does {s} have? Best regards."),
        ("indirect", "I'd like to know the {key} of {s}."),
        ("indirect", "What I need is {s}'s {key}."),
    ),
    "count": (
        ("ask", "How many are there of {set}?"), ("ask", "What is the number of {set}?"),
        ("tell", "Count {set}."), ("tell", "Tell me how many of {set} there are."),
        ("curious", "I'd like to know how many of {set} exist."), ("curious", "How many would you count among {set}?"),
        ("terse", "Number of {set}?"), ("terse", "Count: {set}."),
        ("formal", "Determine the number of {set}."), ("formal", "Please report how many of {set} the graph holds."),
        ("others", "What's the total count of {set}?"), ("others", "Give me a count of {set}, please."),
        ("later", "Could you work out how many there are of {set}?"), ("later", "I need the size of {set}."),
        ("fresh", "How many items are in {set}?"), ("fresh", "What count do you get for {set}?"),
        ("spoken", "Can you tell me the number of {set}?"),
        ("spoken", "How many of {set} are there in total?"),
        ("kgqa", "What is the quantity of {set}?"),
        ("kgqa", "Could you determine the total number of {set}?"),
        ("walk", "Take {set}. How many is that?"),
        ("walk", "Collect {set} and count them."),
        ("learner", "How much are {set}?"),
        ("learner", "There is how many {set}?"),
        ("quiz", "Let S be {set}. Compute |S|."),
        ("quiz", "What is the cardinality of {set}?"),
        ("prompt", 'Task: count {set}. Respond with a single integer.'),
        ("prompt", 'Output the number of {set} and nothing else.'),
        ("analyst", "What's the headcount of {set}?"),
        ("analyst", "Run a count on {set} and give me the figure."),
        ("context", "For my thesis I need one number: how many are {set}?"),
        ("context", "Before our meeting tomorrow I want to know the count of {set}."),
        ("chat", "how many r {set}"),
        ("chat", "quick q: # of {set}?"),
        ("search", "number of {set}"),
        ("search", "{set} count"),
        ("email", "Dear team, I need to know how many {set} there are. Many thanks."),
        ("email", "Hi, could you count {set} for me? Kind regards."),
        ("indirect", "I'm trying to find out how many {set} there are."),
        ("indirect", "I'd like to know the number of {set}."),
    ),
    "names": (
        ("ask", "Which are {set}?"), ("ask", "What are {set}? Name them."),
        ("tell", "List {set}."), ("tell", "Name all of {set}."),
        ("curious", "Could you tell me what {set} are?"), ("curious", "I'm curious which ones are {set}."),
        ("terse", "{set}: list them."), ("terse", "All of {set}?"),
        ("formal", "Enumerate {set} by name."), ("formal", "Please provide the names of {set}."),
        ("others", "Which ones make up {set}? Give their names."), ("others", "Show me the names of {set}."),
        ("later", "Can you list every one of {set}?"), ("later", "Give me all of {set} by name."),
        ("fresh", "Spell out {set} for me."), ("fresh", "What do {set} consist of? Names please."),
        ("spoken", "Who or what are {set}? Just the names."),
        ("spoken", "Show me {set}."),
        ("kgqa", "Could you enumerate {set}?"),
        ("kgqa", "Name every member of {set}, please."),
        ("walk", "Collect {set}; what are they called?"),
        ("walk", "Gather {set} and write down each one."),
        ("learner", "Please give me name of all {set}."),
        ("learner", "I want know who are {set}."),
        ("quiz", "Enumerate the elements of {set}."),
        ("quiz", "Let S be {set}. List every element of S by name."),
        ("prompt", 'Return {set} as a list of names.'),
        ("prompt", 'Task: retrieve {set}. Answer with their names, comma-separated.'),
        ("analyst", "Pull the full list of {set}."),
        ("analyst", "Break out {set} by name, one per line."),
        ("context", "I'm building a reading list. Please name {set}."),
        ("context", "My team wants a list from me. Which are {set}?"),
        ("chat", "can u list {set}"),
        ("chat", "who or what r {set}? names pls"),
        ("search", "list of {set}"),
        ("search", "{set} names"),
        ("email", "Hello, could you send me the list of {set}? Thanks in advance."),
        ("email", "Dear support, please list {set} in your reply. Best."),
        ("indirect", "I'd like to know what {set} are."),
        ("indirect", "I'm trying to find out which nodes {set} are."),
    ),
    "two_hop_count": (
        ("ask", "How many are there of {set}?"), ("ask", "What is the number of {set}?"),
        ("tell", "Count {set}."), ("tell", "Tell me how many of {set} there are."),
        ("curious", "I'd like to know how many of {set} exist."), ("curious", "How many would you find among {set}?"),
        ("terse", "Number of {set}?"), ("terse", "Count: {set}."),
        ("formal", "Determine the number of distinct nodes among {set}."), ("formal", "Please report the size of {set}."),
        ("others", "What's the total of {set}, each counted once?"), ("others", "Give me a count of {set}, please."),
        ("later", "How big is {set}, without counting anything twice?"), ("later", "Tally up {set}, counting each only once."),
        ("fresh", "How many unique ones are there in {set}?"), ("fresh", "Without duplicates, how many are {set}?"),
        ("spoken", "Counting each one a single time, how many of {set} are there?"),
        ("spoken", "How many different ones are {set}?"),
        ("kgqa", "What is the number of distinct entries among {set}?"),
        ("kgqa", "Could you determine how many unique nodes make up {set}?"),
        ("walk", "Collect {set}, dropping repeats. How many remain?"),
        ("walk", "Gather {set} with no repeats and report how many there are."),
        ("learner", "How many different is {set}? Count one time each."),
        ("learner", "Count {set} but not the same one two times."),
        ("quiz", "Let S be {set}, taken as a set with duplicates removed. Compute |S|."),
        ("quiz", "How many distinct elements does {set} contain?"),
        ("prompt", 'Return the number of unique results in {set} (deduplicate first).'),
        ("prompt", 'Task: count {set}, each node at most once. Output an integer.'),
        ("analyst", "What's the unique count of {set}?"),
        ("analyst", "Dedupe {set} and give me the total."),
        ("context", "I'm sizing up a corner of the graph: how many distinct nodes are {set}?"),
        ("context", "For a slide I need the number of {set}, with no node counted twice."),
        ("chat", "how many diff ones r {set} (no dupes)"),
        ("chat", "count {set} w/o dupes pls"),
        ("search", "{set}: distinct count"),
        ("search", "count of {set} without duplicates"),
        ("email", "Hi, I would like the number of distinct items among {set}, each counted once. Thanks."),
        ("email", "Hello, how many different ones are {set}, without counting any twice? Cheers."),
        ("indirect", "I'd like to know how many different nodes there are among {set}."),
        ("indirect", "I'm trying to work out how many distinct ones {set} come to."),
    ),
    "most": (
        ("ask", "Which of {set} has the most {noun}?"), ("ask", "Among {set}, which one has the most {noun}?"),
        ("tell", "Find which of {set} has the most {noun}."), ("tell", "Name the one of {set} with the most {noun}."),
        ("curious", "Of {set}, I wonder which has the most {noun}."), ("curious", "Which of {set} would have the most {noun}?"),
        ("terse", "Most {noun} among {set}?"), ("terse", "{set}: most {noun}?"),
        ("formal", "Identify the member of {set} with the greatest number of {noun}."),
        ("formal", "Determine which of {set} has the highest count of {noun}."),
        ("others", "Out of {set}, which one tops the list for {noun}?"),
        ("others", "Looking at {set}, which has the largest number of {noun}?"),
        ("later", "Who among {set} has the biggest count of {noun}?"), ("later", "Point me to the one of {set} with more {noun} than any other."),
        ("fresh", "Which single one of {set} leads in {noun}?"), ("fresh", "Of all {set}, whose {noun} are the most numerous?"),
        ("spoken", "Of {set}, which one has got the most {noun}?"),
        ("spoken", "Which of {set} is ahead on {noun}?"),
        ("kgqa", "Among {set}, which has the highest number of {noun}?"),
        ("kgqa", "Could you identify the one of {set} with the largest count of {noun}?"),
        ("walk", "Take {set} and rank them by {noun}. Which comes first?"),
        ("walk", "Go through {set} one by one, counting {noun}: which one ends with the biggest count?"),
        ("learner", "In {set}, who have most {noun}?"),
        ("learner", "Which one in {set} is having biggest number of {noun}?"),
        ("quiz", "Let S be {set}. Which element of S has the largest number of {noun}?"),
        ("quiz", "Find the argmax over {set} of the number of {noun}."),
        ("prompt", 'Return the item from {set} with the highest count of {noun}.'),
        ("prompt", 'Task: among {set}, select the one ranking top by {noun}. Output its name only.'),
        ("analyst", "Rank {set} by {noun}: who comes out number one?"),
        ("analyst", "Which of {set} is the top performer on {noun}?"),
        ("context", "We want to feature one of them. Of {set}, which has the most {noun}?"),
        ("context", "Help me pick a highlight: which of {set} has the greatest number of {noun}?"),
        ("chat", "which of {set} has the most {noun}"),
        ("chat", "out of {set} who's got the most {noun}?"),
        ("search", "{set} with most {noun}"),
        ("search", "top of {set} by {noun}"),
        ("email", "Dear team, of {set}, which one has the most {noun}? Thank you."),
        ("email", "Hi, I am trying to find the one among {set} with the greatest number of {noun}. Can you help? Thanks."),
        ("indirect", 'I need to know which of {set} has the most {noun}.'),
        ("indirect", 'It would help to learn which one among {set} has the most {noun}.'),
    ),
    "fewest": (
        ("ask", "Which of {set} has the fewest {noun}?"), ("ask", "Among {set}, which one has the fewest {noun}?"),
        ("tell", "Find which of {set} has the fewest {noun}."), ("tell", "Name the one of {set} with the fewest {noun}."),
        ("curious", "Of {set}, I wonder which has the fewest {noun}."), ("curious", "Which of {set} would have the fewest {noun}?"),
        ("terse", "Fewest {noun} among {set}?"), ("terse", "{set}: fewest {noun}?"),
        ("formal", "Identify the member of {set} with the smallest number of {noun}."),
        ("formal", "Determine which of {set} has the lowest count of {noun}."),
        ("others", "Out of {set}, which one has the least {noun}?"),
        ("others", "Looking at {set}, which has the smallest number of {noun}?"),
        ("later", "Who among {set} has the lowest count of {noun}?"), ("later", "Point me to the one of {set} with fewer {noun} than all the others."),
        ("fresh", "Which one of {set} trails everyone in {noun}?"), ("fresh", "Of all {set}, whose {noun} are the fewest?"),
        ("spoken", "Of {set}, which one has got the fewest {noun}?"),
        ("spoken", "Which of {set} is lowest on {noun}?"),
        ("kgqa", "Among {set}, which has the lowest number of {noun}?"),
        ("kgqa", "Could you identify the one of {set} with the smallest count of {noun}?"),
        ("walk", "Take {set} and rank them by {noun}, lowest first. Which comes first?"),
        ("walk", "Go through {set} one by one, counting {noun}: which one ends with the smallest count?"),
        ("learner", "In {set}, who have least {noun}?"),
        ("learner", "Which one in {set} is having smallest number of {noun}?"),
        ("quiz", "Let S be {set}. Which element of S has the smallest number of {noun}?"),
        ("quiz", "Find the argmin over {set} of the number of {noun}."),
        ("prompt", 'Return the item from {set} with the lowest count of {noun}.'),
        ("prompt", 'Task: among {set}, select the one ranking last by {noun}. Output its name only.'),
        ("analyst", "Rank {set} by {noun}: who sits at the bottom?"),
        ("analyst", "Which of {set} is the weakest performer on {noun}?"),
        ("context", "We are looking for an overlooked one. Of {set}, which has the fewest {noun}?"),
        ("context", "Help me find the least connected one: which of {set} has the smallest number of {noun}?"),
        ("chat", "which of {set} has the least {noun}"),
        ("chat", "out of {set} who's got the fewest {noun}?"),
        ("search", "{set} with fewest {noun}"),
        ("search", "{set} ranked by {noun}, lowest"),
        ("email", "Hello, which of {set} has the fewest {noun}? Regards."),
        ("email", "Hi team, please identify the one among {set} with the smallest number of {noun}. Thanks a lot."),
        ("indirect", 'I need to know which of {set} has the fewest {noun}.'),
        ("indirect", 'It would help to learn which one among {set} has the fewest {noun}.'),
    ),
    "mode": (
        ("ask", "What is the most common {key} among {set}?"), ("ask", "Which {key} occurs most often among {set}?"),
        ("tell", "Tell me the most frequent {key} of {set}."), ("tell", "Find the {key} that most of {set} share."),
        ("curious", "I wonder which {key} dominates among {set}."), ("curious", "Among {set}, which {key} shows up most?"),
        ("terse", "Most common {key} of {set}?"), ("terse", "{set}: usual {key}?"),
        ("formal", "Determine the modal {key} across {set}."), ("formal", "State the {key} held by the largest share of {set}."),
        ("others", "Looking at {set}, what {key} appears most frequently?"), ("others", "What {key} is most typical of {set}?"),
        ("later", "Across {set}, which {key} comes up the most?"), ("later", "What's the {key} you see most often in {set}?"),
        ("fresh", "Which {key} is the commonest among {set}?"), ("fresh", "If you tally the {key} over {set}, which wins?"),
        ("spoken", "What {key} do most of {set} have?"),
        ("spoken", "Which {key} is the most popular among {set}?"),
        ("kgqa", "What is the predominant {key} among {set}?"),
        ("kgqa", "Across {set}, which {key} appears the most?"),
        ("walk", "Take {set} and group them by {key}. Which group is biggest?"),
        ("walk", "Sort {set} into piles by {key}: which {key} has the tallest pile?"),
        ("learner", "Most of {set} have which {key}?"),
        ("learner", "What {key} is more common in {set}?"),
        ("quiz", "Let S be {set}. Which value of {key} occurs most frequently in S?"),
        ("quiz", "Compute the modal {key} over {set}."),
        ("prompt", 'Return the most frequent {key} value across {set}.'),
        ("prompt", 'Task: compute which {key} is most common in {set}. Output the value.'),
        ("analyst", "Break {set} down by {key}: which bucket is the biggest?"),
        ("analyst", "What's the dominant {key} across {set}?"),
        ("context", "I'm summarising {set} for a talk. Which {key} comes up most among them?"),
        ("context", "In a nutshell, what is the usual {key} of {set}?"),
        ("chat", "most common {key} among {set}?"),
        ("chat", "whats the {key} most of {set} have"),
        ("search", "most frequent {key} in {set}"),
        ("search", "{set} {key} breakdown top value"),
        ("email", "Dear colleagues, what is the most common {key} among {set}? Thanks."),
        ("email", "Hi, among {set}, which {key} occurs most often? Best wishes."),
        ("indirect", "I'd like to know which {key} is most common among {set}."),
        ("indirect", 'What I want to find out is the {key} that most of {set} have.'),
    ),
    "most_reached": (
        ("ask", "Which {t} is the most common among the {noun} of {set}?"), ("ask", "Across {set}, which {t} occurs most often in their {noun}?"),
        ("tell", "Tell me the {t} that comes up most in the {noun} of {set}."), ("tell", "Find the most frequent {t} across the {noun} of {set}."),
        ("curious", "I wonder which {t} is most common in the {noun} of {set}."), ("curious", "Which {t} would show up most across the {noun} of {set}?"),
        ("terse", "Most common {t} across the {noun} of {set}?"), ("terse", "{set}: commonest {t} in their {noun}?"),
        ("formal", "Determine the {t} occurring most frequently among the {noun} of {set}."),
        ("formal", "Identify the {t} that recurs most often across the {noun} of {set}."),
        ("others", "Looking at {set}, which {t} appears most frequently in their {noun}?"), ("others", "Which {t} is most typical of the {noun} of {set}?"),
        ("later", "Across {set}, which {t} comes up the most in their {noun}?"), ("later", "What's the {t} you see most often in the {noun} of {set}?"),
        ("fresh", "If you tally the {noun} of {set}, which {t} wins?"), ("fresh", "Which {t} recurs most in the {noun} of {set}?"),
        ("spoken", "Which {t} turns up most often when you look at the {noun} of {set}?"),
        ("spoken", "Going through the {noun} of {set}, which {t} is the most frequent?"),
        ("kgqa", "Which {t} occurs the highest number of times among the {noun} of {set}?"),
        ("kgqa", "What is the most prevalent {t} in the {noun} of {set}?"),
        ("walk", "Take {set}, follow each one's {noun}, and keep a tally. Which {t} gets the most votes?"),
        ("walk", "From each of {set}, go to their {noun}; which {t} do you arrive at most often?"),
        ("learner", "Looking {noun} of {set}, which {t} is coming most times?"),
        ("learner", "Which {t} appear more often in {noun} of {set}?"),
        ("quiz", "Let S be {set}. Across the {noun} of the elements of S, which {t} has the highest multiplicity?"),
        ("quiz", "Over all elements of {set}, tally their {noun}; which {t} attains the maximum tally?"),
        ("prompt", 'For each of {set}, collect their {noun}; return the {t} that occurs most often.'),
        ("prompt", 'Task: aggregate the {noun} of {set} and output the top {t} by frequency.'),
        ("analyst", "Roll up the {noun} of {set}: which {t} comes out on top?"),
        ("analyst", "Across {set}, which {t} shows up most often in their {noun}?"),
        ("context", "Looking at the {noun} of {set}, which {t} is shared by the largest number of them?"),
        ("context", "I want to know what {set} have in common: of all their {noun}, which {t} turns up most?"),
        ("chat", "across the {noun} of {set}, which {t} shows up the most"),
        ("chat", "if u pool the {noun} of {set}, which {t} comes up most?"),
        ("search", "{noun} of {set}: most frequent {t}"),
        ("search", "top {t} among {noun} of {set}"),
        ("email", "Hello, looking at the {noun} of {set}, which {t} appears most often? Thank you."),
        ("email", "Hi, across the {noun} of {set}, could you tell me the {t} that comes up the most? Regards."),
        ("indirect", "I'd like to know which {t} comes up most often in the {noun} of {set}."),
        ("indirect", 'What I need is the {t} that appears most among the {noun} of {set}.'),
    ),
    "filter_count": (
        ("ask", "How many of {set} have {key} {value}?"), ("ask", "Of {set}, how many have the {key} {value}?"),
        ("tell", "Count how many of {set} have {key} {value}."), ("tell", "Tell me how many of {set} have {key} {value}."),
        ("curious", "I'd like to know how many of {set} have {key} {value}."), ("curious", "How many among {set} come with {key} {value}?"),
        ("terse", "{set} with {key} {value}: how many?"), ("terse", "Count of {set} whose {key} is {value}?"),
        ("formal", "Determine how many of {set} have {value} as their {key}."),
        ("formal", "Please report the number of {set} whose {key} equals {value}."),
        ("others", "Among {set}, count the ones whose {key} is {value}."),
        ("others", "How many of {set} are marked with the {key} {value}?"),
        ("later", "How many of {set} fall under the {key} {value}?"), ("later", "Of all {set}, what number have {value} for {key}?"),
        ("fresh", "How many of {set} are listed under {key} {value}?"), ("fresh", "Among {set}, what's the number with {key} set to {value}?"),
        ("spoken", "How many of {set} have {value} as {key}?"),
        ("spoken", "Of {set}, how many have a {key} of {value}?"),
        ("kgqa", "What is the number of {set} whose {key} is {value}?"),
        ("kgqa", "Could you determine how many of {set} carry the {key} {value}?"),
        ("walk", "Take {set} and keep only those with {key} {value}. How many are left?"),
        ("walk", "Filter {set} down to {key} = {value} and count what remains."),
        ("learner", "How many of {set} is having {key} {value}?"),
        ("learner", "In {set}, how much have the {key} is {value}?"),
        ("quiz", "Let S be {set}. How many elements of S satisfy {key} = {value}?"),
        ("quiz", "Compute the size of the subset of {set} whose {key} equals {value}."),
        ("prompt", 'Return how many of {set} have {key} set to {value}.'),
        ("prompt", 'Task: filter {set} where {key} == {value}, then output the count.'),
        ("analyst", "Slice {set} to {key} {value}: how many are left?"),
        ("analyst", "Of {set}, what's the count in the {key} = {value} segment?"),
        ("context", "I only care about {value}. How many of {set} have {key} {value}?"),
        ("context", "Counting only those with {key} {value}, how many are {set}?"),
        ("chat", "how many of {set} r {value} ({key})"),
        ("chat", "# of {set} w/ {key} {value}?"),
        ("search", "number of {set} with {key} {value}"),
        ("search", "{set} where {key} = {value}, count"),
        ("email", "Hi, how many of {set} have {key} {value}? Thanks."),
        ("email", "Dear team, please count the ones among {set} whose {key} is {value}. Kind regards."),
        ("indirect", "I'd like to find out the count of {set} with the {key} {value}."),
        ("indirect", "I'm trying to work out the number of {set} whose {key} is {value}."),
    ),
    "filter_names": (
        ("ask", "Which of {set} have {key} {value}?"), ("ask", "What are the names of {set} whose {key} is {value}?"),
        ("tell", "List {set} that have {key} {value}."), ("tell", "Name each of {set} with the {key} {value}."),
        ("curious", "I'd like to know which of {set} have {key} {value}."),
        ("curious", "Which among {set} come with {key} {value}, I wonder?"),
        ("terse", "{set} with {key} {value}?"), ("terse", "{set} whose {key} is {value}: which?"),
        ("formal", "Identify those of {set} whose {key} is {value}."),
        ("formal", "Please list the members of {set} that have {value} as their {key}."),
        ("others", "Among {set}, which ones have the {key} {value}?"),
        ("others", "Which of {set} are marked with the {key} {value}?"),
        ("later", "Which of {set} fall under the {key} {value}?"), ("later", "Of all {set}, which have {value} for {key}?"),
        ("fresh", "Which of {set} are listed under {key} {value}?"),
        ("fresh", "Among {set}, which are the ones with {key} set to {value}?"),
        ("spoken", "So which of {set} have {value} as {key}?"),
        ("spoken", "Of {set}, which ones have a {key} of {value}?"),
        ("kgqa", "What are {set} whose {key} is {value}?"),
        ("kgqa", "Could you list {set} that carry the {key} {value}?"),
        ("walk", "Take {set} and keep only those with {key} {value}. Which are left?"),
        ("walk", "Filter {set} down to {key} = {value} and name what remains."),
        ("learner", "Which of {set} is having {key} {value}?"),
        ("learner", "In {set}, which ones the {key} is {value}?"),
        ("quiz", "Let S be {set}. List the elements of S with {key} = {value}."),
        ("quiz", "Give the subset of {set} whose {key} equals {value}, by name."),
        ("prompt", "Return the names of {set} that have {key} set to {value}."),
        ("prompt", "Task: filter {set} where {key} == {value}, then output the names."),
        ("analyst", "Slice {set} to {key} {value}: which are left?"),
        ("analyst", "Of {set}, which ones are in the {key} = {value} segment?"),
        ("context", "I only care about {value}. Which of {set} have {key} {value}?"),
        ("context", "Looking only at {key} {value}, which of {set} qualify?"),
        ("chat", "which of {set} r {value} ({key})"),
        ("chat", "{set} w/ {key} {value}?? list pls"),
        ("search", "{set} with {key} {value}"),
        ("search", "{set} where {key} = {value}, list"),
        ("email", "Hi, which of {set} have {key} {value}? Thanks."),
        ("email", "Dear team, please list the ones among {set} whose {key} is {value}. Kind regards."),
        ("indirect", "I'd like to hear which ones among {set} have the {key} {value}."),
        ("indirect", "I'm trying to work out what {set} with the {key} {value} are."),
    ),
    "same_as_subject": (
        ("ask", "How many of {set} have the same {key} as {s}?"), ("ask", "Of {set}, how many share the {key} of {s}?"),
        ("tell", "Count how many of {set} share {s}'s {key}."), ("tell", "Tell me how many of {set} match {s} in {key}."),
        ("curious", "I wonder how many of {set} have the same {key} as {s}."), ("curious", "How many among {set} agree with {s} on {key}?"),
        ("terse", "{set} with the {key} of {s}: how many?"), ("terse", "Same {key} as {s}, among {set}: count?"),
        ("formal", "Determine how many of {set} have a {key} equal to that of {s}."),
        ("formal", "Please report the number of {set} sharing the {key} of {s}."),
        ("others", "Among {set}, count those whose {key} matches that of {s}."),
        ("others", "How many of {set} carry {s}'s {key} too?"),
        ("later", "For how many of {set} is the {key} identical to {s}'s?"), ("later", "Count the members of {set} that have {s}'s {key} as well."),
        ("fresh", "How many of {set} are in the same {key} as {s}?"), ("fresh", "How many of {set} have a {key} like {s}'s?"),
        ("spoken", "Of {set}, how many are the same {key} as {s}?"),
        ("spoken", "How many of {set} share a {key} with {s}?"),
        ("kgqa", "What is the number of {set} sharing the same {key} as {s}?"),
        ("kgqa", "Could you determine how many of {set} have an identical {key} to {s}?"),
        ("walk", "Take {set} and keep the ones whose {key} matches {s}'s. How many are left?"),
        ("walk", "Check each of {set} against {s} on {key}: how many agree?"),
        ("learner", "How many of {set} have {key} same like {s}?"),
        ("learner", "In {set}, how much is same {key} with {s}?"),
        ("quiz", "Let S be {set}. Count the elements of S whose {key} equals that of {s}."),
        ("quiz", "How many elements of {set} have the same {key} as {s}, as a number?"),
        ("prompt", "Return how many of {set} share {s}'s {key}."),
        ("prompt", 'Task: count {set} whose {key} matches the {key} of {s}. Integer only.'),
        ("analyst", "How many of {set} match {s} on {key}?"),
        ("analyst", "Count {set} that sit in the same {key} bucket as {s}."),
        ("context", "I'm comparing everything with {s}. How many of {set} have the same {key} as it?"),
        ("context", "Staying within {s}'s {key}, how many of {set} qualify?"),
        ("chat", "how many of {set} have the same {key} as {s}"),
        ("chat", "# of {set} w/ {s}'s {key}?"),
        ("search", "number of {set} with same {key} as {s}"),
        ("search", "{set} matching {s} on {key}, count"),
        ("email", "Hello, how many of {set} share the {key} of {s}? Thanks in advance."),
        ("email", "Hi, I need the number of {set} whose {key} is the same as that of {s}. Best."),
        ("indirect", "I'd like to know how many of {set} share {s}'s {key}."),
        ("indirect", "I'm trying to work out the number of {set} that have the same {key} as {s}."),
    ),
    "differ_from_subject": (
        ("ask", "How many of {set} have a different {key} from {s}?"), ("ask", "Of {set}, how many differ from {s} in {key}?"),
        ("tell", "Count how many of {set} do not share {s}'s {key}."), ("tell", "Tell me how many of {set} differ from {s} in {key}."),
        ("curious", "I wonder how many of {set} have another {key} than {s}."), ("curious", "How many among {set} disagree with {s} on {key}?"),
        ("terse", "{set} with a {key} other than {s}'s: how many?"), ("terse", "Different {key} from {s}, among {set}: count?"),
        ("formal", "Determine how many of {set} have a {key} unlike that of {s}."),
        ("formal", "Please report the number of {set} whose {key} differs from that of {s}."),
        ("others", "Among {set}, count those whose {key} is not the one {s} has."),
        ("others", "How many of {set} don't have {s}'s {key}?"),
        ("later", "For how many of {set} is the {key} different from {s}'s?"), ("later", "Count the members of {set} whose {key} isn't {s}'s."),
        ("fresh", "How many of {set} are outside {s}'s {key}?"), ("fresh", "In {set}, how many have a {key} that is not {s}'s?"),
        ("spoken", "How many of {set} have some {key} other than {s}'s?"),
        ("spoken", "Of {set}, how many don't match {s} on {key}?"),
        ("kgqa", "What is the number of {set} whose {key} is not the same as that of {s}?"),
        ("kgqa", "Could you determine how many of {set} have a {key} unlike {s}'s?"),
        ("walk", "Take {set} and drop the ones whose {key} matches {s}'s. How many are left?"),
        ("walk", "Check each of {set} against {s} on {key}: how many disagree?"),
        ("learner", "How many of {set} have {key} not same like {s}?"),
        ("learner", "In {set}, how much is different {key} from {s}?"),
        ("quiz", "Let S be {set}. Count the elements of S whose {key} differs from that of {s}."),
        ("quiz", "How many elements of {set} have a {key} unequal to that of {s}?"),
        ("prompt", "Return how many of {set} have a {key} other than {s}'s."),
        ("prompt", 'Task: count {set} whose {key} does not match the {key} of {s}. Integer only.'),
        ("analyst", "How many of {set} fall outside {s}'s {key} bucket?"),
        ("analyst", "Count {set} that don't match {s} on {key}."),
        ("context", "I'm looking for variety. How many of {set} have a {key} different from {s}'s?"),
        ("context", "Leaving out the ones that share {s}'s {key}, how many of {set} remain?"),
        ("chat", "how many of {set} have a diff {key} than {s}"),
        ("chat", "# of {set} w/o {s}'s {key}?"),
        ("search", "number of {set} with {key} other than {s}'s"),
        ("search", "{set} not sharing {s}'s {key}, count"),
        ("email", "Hello, how many of {set} have a {key} different from that of {s}? Thanks."),
        ("email", "Hi team, please count {set} whose {key} does not match the {key} of {s}. Regards."),
        ("indirect", "I'd like to know how many of {set} have a {key} different from {s}'s."),
        ("indirect", "I'm trying to work out the number of {set} whose {key} is not that of {s}."),
    ),
    "shared": (
        ("ask", "How many are both {set} and {set2}?"), ("ask", "How many nodes are among {set} and also among {set2}?"),
        ("tell", "Count what {set} and {set2} have in common."), ("tell", "Tell me how many are in both {set} and {set2}."),
        ("curious", "I wonder how many of {set} are also {set2}."), ("curious", "How much overlap is there between {set} and {set2}?"),
        ("terse", "Overlap of {set} and {set2}: count?"), ("terse", "In both {set} and {set2}: how many?"),
        ("formal", "Determine the size of the intersection of {set} and {set2}."),
        ("formal", "Please report how many nodes belong to both {set} and {set2}."),
        ("others", "What number of nodes do {set} and {set2} share?"), ("others", "Count the common members of {set} and {set2}."),
        ("later", "How many nodes appear in {set} as well as in {set2}?"), ("later", "Find the number of nodes that {set} and {set2} have in common."),
        ("fresh", "How many of {set} show up again among {set2}?"), ("fresh", "What is the count of nodes found in {set} and in {set2} alike?"),
        ("spoken", "How many are in common between {set} and {set2}?"),
        ("spoken", "How many nodes are shared by {set} and {set2}?"),
        ("kgqa", "What is the number of nodes appearing both in {set} and in {set2}?"),
        ("kgqa", "Could you determine the size of the overlap between {set} and {set2}?"),
        ("walk", "Collect {set}, then collect {set2}. How many show up on both lists?"),
        ("walk", "Put {set} next to {set2}: how many appear on both?"),
        ("learner", "How many is in {set} and also in {set2}?"),
        ("learner", "{set} and {set2}, how many they have common?"),
        ("quiz", "Let A be {set} and B be {set2}. Compute |A ∩ B|."),
        ("quiz", "What is the size of the intersection of {set} with {set2}?"),
        ("prompt", 'Return the count of nodes found in both {set} and {set2}.'),
        ("prompt", 'Task: intersect {set} with {set2} and output the size of the result.'),
        ("analyst", "What's the overlap between {set} and {set2}, as a headcount?"),
        ("analyst", "How many show up both in {set} and in {set2}?"),
        ("context", "I'm looking for overlap. How many are both {set} and {set2}?"),
        ("context", "Counting only what they have in common, how many nodes do {set} and {set2} share?"),
        ("chat", "how many r in both {set} and {set2}"),
        ("chat", "overlap btwn {set} and {set2}? just the #"),
        ("search", "overlap of {set} and {set2}, count"),
        ("search", "number of common items in {set} and {set2}"),
        ("email", "Hi, how many items are in both {set} and {set2}? Thank you."),
        ("email", "Dear support, could you count what {set} and {set2} have in common? Best regards."),
        ("indirect", "I'd like to know how many nodes are both {set} and {set2}."),
        ("indirect", "I'm trying to work out the size of the overlap of {set} and {set2}."),
    ),
    "shared_names": (
        ("ask", "Which are both {set} and {set2}?"), ("ask", "What nodes are among {set} and also among {set2}?"),
        ("tell", "List what {set} and {set2} have in common."), ("tell", "Name the ones that are in both {set} and {set2}."),
        ("curious", "I wonder which of {set} are also {set2}."), ("curious", "Which ones do {set} and {set2} share, I wonder?"),
        ("terse", "Overlap of {set} and {set2}: which?"), ("terse", "In both {set} and {set2}?"),
        ("formal", "Identify the members of the intersection of {set} and {set2}."),
        ("formal", "Please list the nodes that belong to both {set} and {set2}."),
        ("others", "Which nodes do {set} and {set2} share?"), ("others", "Name the common members of {set} and {set2}."),
        ("later", "Which nodes appear in {set} as well as in {set2}?"),
        ("later", "Find the nodes that {set} and {set2} have in common."),
        ("fresh", "Which of {set} show up again among {set2}?"),
        ("fresh", "What are the nodes found in {set} and in {set2} alike?"),
        ("spoken", "So which ones are in common between {set} and {set2}?"),
        ("spoken", "Which nodes are shared by {set} and {set2}?"),
        ("kgqa", "What are the nodes appearing both in {set} and in {set2}?"),
        ("kgqa", "Could you enumerate the overlap between {set} and {set2}?"),
        ("walk", "Collect {set}, then collect {set2}. Which show up on both lists?"),
        ("walk", "Put {set} next to {set2} and name the ones that appear on both."),
        ("learner", "Which is in {set} and also in {set2}?"),
        ("learner", "{set} and {set2}, which ones they have common?"),
        ("quiz", "Let A be {set} and B be {set2}. List the elements of A ∩ B."),
        ("quiz", "Give the intersection of {set} with {set2}, by name."),
        ("prompt", "Return the names of the nodes found in both {set} and {set2}."),
        ("prompt", "Task: intersect {set} with {set2} and output the names in the result."),
        ("analyst", "Who shows up both in {set} and in {set2}?"),
        ("analyst", "Break out the overlap between {set} and {set2}: which are in it?"),
        ("context", "I'm looking for overlap. Which are both {set} and {set2}?"),
        ("context", "Looking only at what they have in common, which nodes do {set} and {set2} share?"),
        ("chat", "which ones r in both {set} and {set2}"),
        ("chat", "overlap btwn {set} and {set2}? names pls"),
        ("search", "overlap of {set} and {set2}, list"),
        ("search", "common items in {set} and {set2}"),
        ("email", "Hi, which items are in both {set} and {set2}? Thank you."),
        ("email", "Dear support, could you list what {set} and {set2} have in common? Best regards."),
        ("indirect", "I'd like to know which nodes are both {set} and {set2}."),
        ("indirect", "I'm trying to work out what is in both {set} and {set2}."),
    ),
    "either": (
        ("ask", "How many are {set} or {set2}?"), ("ask", "How many distinct nodes are among {set} or {set2}?"),
        ("tell", "Count {set} together with {set2}, each once."), ("tell", "Tell me how many are in {set} or in {set2}."),
        ("curious", "I wonder how many there are of {set} and {set2} put together."), ("curious", "Taken together, how many are {set} or {set2}?"),
        ("terse", "{set} or {set2}: how many?"), ("terse", "Union of {set} and {set2}: count?"),
        ("formal", "Determine the size of the union of {set} and {set2}."),
        ("formal", "Please report how many distinct nodes belong to {set} or {set2}."),
        ("others", "If you combine {set} with {set2}, how many distinct ones do you get?"),
        ("others", "Count everything that is in {set}, in {set2}, or in both."),
        ("later", "Merging {set} and {set2}, how many different nodes are there?"), ("later", "How many nodes are in at least one of {set} and {set2}?"),
        ("fresh", "Pooling {set} with {set2}, how many distinct nodes result?"), ("fresh", "How many nodes belong to {set}, to {set2}, or to both?"),
        ("spoken", "How many are {set} plus {set2}, without double counting?"),
        ("spoken", "What's the total of {set} and {set2} combined, each node once?"),
        ("kgqa", "What is the number of nodes appearing in {set} or in {set2} (or in both)?"),
        ("kgqa", "Could you determine the combined count of {set} and {set2}, with duplicates removed?"),
        ("walk", "Collect {set}, then add {set2}, skipping any already there. How many in all?"),
        ("walk", "Merge {set} with {set2}, no repeats: what's the final count?"),
        ("learner", "How many is in {set} or in {set2}, count one time each?"),
        ("learner", "Put together {set} and {set2}, how many is it without double?"),
        ("quiz", "Let A be {set} and B be {set2}. Compute |A ∪ B|."),
        ("quiz", "What is the size of the union of {set} and {set2}?"),
        ("prompt", 'Return the count of distinct nodes in {set} plus {set2}, deduplicated.'),
        ("prompt", 'Task: take the union of {set} and {set2}; output how many nodes it has.'),
        ("analyst", "Combine {set} with {set2}, dedupe, and give me the total."),
        ("analyst", "What's the combined unique count of {set} and {set2}?"),
        ("context", "Putting the two together, how many distinct nodes are {set} or {set2}?"),
        ("context", "If I merge {set} with {set2}, how many nodes do I end up with?"),
        ("chat", "how many r in {set} or {set2} (either one)"),
        ("chat", "{set} + {set2} together, how many w/o dupes?"),
        ("search", "{set} plus {set2}, distinct count"),
        ("search", "size of union of {set} and {set2}"),
        ("email", "Hello, how many distinct items are in {set} or in {set2}? Thanks."),
        ("email", "Hi, please count {set} and {set2} together, each item once. Kind regards."),
        ("indirect", "I'd like to know how many nodes are {set} or {set2}, each counted once."),
        ("indirect", "I'm trying to work out how many distinct nodes {set} and {set2} make together."),
    ),
    "exists": (
        ("ask", "Is {s2} one of {set}?"), ("ask", "Is {s2} among {set}?"),
        ("tell", "Tell me whether {s2} is one of {set}."), ("tell", "Check if {s2} is among {set}."),
        ("curious", "I wonder whether {s2} is one of {set}."), ("curious", "Would {s2} be among {set}?"),
        ("terse", "{s2} in {set}?"), ("terse", "{set}: includes {s2}?"),
        ("formal", "Determine whether {s2} belongs to {set}."), ("formal", "Please confirm whether {s2} is among {set}."),
        ("others", "Can {s2} be found among {set}?"), ("others", "Is it true that {s2} is one of {set}?"),
        ("later", "Do {set} include {s2}?"), ("later", "Would I find {s2} if I looked through {set}?"),
        ("fresh", "Do {set} contain {s2}?"), ("fresh", "Is {s2} part of {set}?"),
        ("spoken", "Am I right that {s2} is among {set}?"),
        ("spoken", "Is {s2} included in {set}?"),
        ("kgqa", "Can you confirm whether {s2} belongs to {set}?"),
        ("kgqa", "Is it true that {s2} is part of {set}?"),
        ("walk", "Collect {set}. Is {s2} on the list?"),
        ("walk", "Walk through {set}: do you come across {s2}?"),
        ("learner", "{s2} is in {set} or not?"),
        ("learner", "Is {s2} is one of {set}?"),
        ("quiz", "Let S be {set}. Is {s2} an element of S?"),
        ("quiz", "True or false: {s2} is a member of {set}."),
        ("prompt", 'Check whether {s2} is among {set}. Answer yes or no.'),
        ("prompt", 'Task: verify that {s2} appears in {set}. Output yes/no.'),
        ("analyst", "Sanity check: is {s2} part of {set}?"),
        ("analyst", "Does {set} include {s2}? A yes or no is fine."),
        ("context", "I have a hunch about {s2}. Is it one of {set}?"),
        ("context", "Just to double-check my notes: is {s2} among {set}?"),
        ("chat", "is {s2} one of {set}"),
        ("chat", "{s2} in {set}? y/n"),
        ("search", "{s2} among {set}?"),
        ("search", "is {s2} in {set}"),
        ("email", "Hi, is {s2} one of {set}? Thanks."),
        ("email", "Dear team, could you check whether {s2} is among {set}? Best."),
        ("indirect", "I'd like to know whether {s2} is one of {set}."),
        ("indirect", "I'm trying to work out if {s2} is among {set}."),
    ),
    "any_with": (
        ("ask", "Does any of {set} have {key} {value}?"), ("ask", "Is there one of {set} with the {key} {value}?"),
        ("tell", "Tell me whether any of {set} has {key} {value}."), ("tell", "Check if one of {set} has {key} {value}."),
        ("curious", "I wonder whether any of {set} has {key} {value}."), ("curious", "Would any of {set} come with {key} {value}?"),
        ("terse", "{set}: any with {key} {value}?"), ("terse", "Any of {set} with {key} {value}?"),
        ("formal", "Determine whether at least one of {set} has {value} as its {key}."),
        ("formal", "Please confirm whether some member of {set} has the {key} {value}."),
        ("others", "Can you find any of {set} whose {key} is {value}?"),
        ("others", "Is at least one of {set} marked with the {key} {value}?"),
        ("later", "Are there any among {set} with {value} as their {key}?"), ("later", "Does even one of {set} have the {key} {value}?"),
        ("fresh", "Is there a single one of {set} whose {key} is {value}?"), ("fresh", "Do any of {set} carry the {key} {value}?"),
        ("spoken", "Do any of {set} have a {key} of {value}?"),
        ("spoken", "Is there anything among {set} with {key} {value}?"),
        ("kgqa", "Is there any of {set} whose {key} is {value}?"),
        ("kgqa", "Can you confirm whether at least one of {set} has {key} {value}?"),
        ("walk", "Collect {set}. Does any of them have {key} {value}?"),
        ("walk", "Walk through {set}: do you meet one whose {key} is {value}?"),
        ("learner", "Someone of {set} have {key} {value}, yes or no?"),
        ("learner", "Is there one in {set} who has {key} {value}?"),
        ("quiz", "Let S be {set}. Does there exist an element of S with {key} = {value}?"),
        ("quiz", "Is there at least one element of {set} whose {key} is {value}?"),
        ("prompt", 'Check whether any of {set} has {key} equal to {value}. Answer yes or no.'),
        ("prompt", 'Task: determine if {set} contains a node with {key} {value}. Output yes/no.'),
        ("analyst", "Do any of {set} come in with {key} {value}?"),
        ("analyst", "Sanity check: is there anything in {set} with {key} = {value}?"),
        ("context", "I'm hoping to find a {value} one. Is any of {set} of {key} {value}?"),
        ("context", "Just checking: do any of {set} have {key} {value}?"),
        ("chat", "r any of {set} {key} {value}?"),
        ("chat", "any of {set} w/ {key} {value}? y/n"),
        ("search", "any of {set} with {key} {value}?"),
        ("search", "{set} with {key} {value}: any?"),
        ("email", "Hello, do any of {set} have {key} {value}? Thank you."),
        ("email", "Hi, I wonder if there is any item among {set} with {key} {value}. Could you confirm? Regards."),
        ("indirect", "I'd like to know whether any of {set} has {key} {value}."),
        ("indirect", "I'm trying to work out if there is one of {set} with {key} {value}."),
    ),
    "which_of_two": (
        ("ask", "Which has {more} {noun}, {s} or {s2}?"), ("ask", "Between {s} and {s2}, which one has {more} {noun}?"),
        ("tell", "Tell me which of {s} and {s2} has {more} {noun}."), ("tell", "Find out whether {s} or {s2} has {more} {noun}; name that one."),
        ("curious", "I wonder which has {more} {noun}: {s} or {s2}?"), ("curious", "Of {s} and {s2}, which would have {more} {noun}?"),
        ("terse", "{s} or {s2}: {more} {noun}?"), ("terse", "{more} {noun}: {s} or {s2}?"),
        ("formal", "Determine which of {s} and {s2} has {more} {noun}."),
        ("formal", "Of the two nodes {s} and {s2}, identify the one with {more} {noun}."),
        ("others", "Comparing {s} with {s2}, which has {more} {noun}?"),
        ("others", "Does {s} or {s2} have {more} {noun}? Name the one."),
        ("later", "Which one of these two has {more} {noun}: {s} or {s2}?"),
        ("later", "Put {s} next to {s2}: which comes with {more} {noun}?"),
        ("fresh", "Who ends up with {more} {noun}, {s} or {s2}?"),
        ("fresh", "Weighing {s} against {s2}, which has {more} {noun}?"),
        ("spoken", "So which has got {more} {noun}, {s} or {s2}?"),
        ("spoken", "Out of {s} and {s2}, which one's got {more} {noun}?"),
        ("kgqa", "Which entity has {more} {noun}: {s} or {s2}?"),
        ("kgqa", "Between {s} and {s2}, could you identify the one that has {more} {noun}?"),
        ("walk", "Count the {noun} of {s}, then those of {s2}. Which of the two has {more} {noun}?"),
        ("walk", "Look at {s} and at {s2} in turn: which one has {more} {noun}?"),
        ("learner", "Who is having {more} {noun}, {s} or {s2}?"),
        ("learner", "{s} and {s2}, which one have {more} {noun}?"),
        ("quiz", "Let a = {s} and b = {s2}. Which of a and b has {more} {noun}?"),
        ("quiz", "Of {s} and {s2}, which has {more} {noun}? Give its name."),
        ("prompt", "Compare {s} and {s2} and return the one with {more} {noun}."),
        ("prompt", "Task: between {s} and {s2}, output the name of the node with {more} {noun}."),
        ("analyst", "Head to head, {s} vs {s2}: which has {more} {noun}?"),
        ("analyst", "{s} versus {s2}: which one has {more} {noun}?"),
        ("context", "I can only keep one of them. Which has {more} {noun}, {s} or {s2}?"),
        ("context", "For a comparison in my notes: between {s} and {s2}, which has {more} {noun}?"),
        ("chat", "which has {more} {noun}, {s} or {s2}"),
        ("chat", "{s} vs {s2}, who's got {more} {noun}?"),
        ("search", "{s} vs {s2} {more} {noun}"),
        ("search", "{s} or {s2}, {more} {noun}"),
        ("email", "Hi, which has {more} {noun}: {s} or {s2}? Thanks."),
        ("email", "Dear team, could you tell me whether {s} or {s2} has {more} {noun}? Best regards."),
        ("indirect", "I'd like to know which of {s} and {s2} has {more} {noun}."),
        ("indirect", "I'm trying to work out whether {s} or {s2} has {more} {noun}."),
    ),
    # more_than and how_many_more: written in one sitting, two per family, before any question of them was asked. Their
    # first look (commit cf093cf, seed 5, 30 per shape and graph over all 20 families): citeseer 59/60, last-fm 60/60,
    # wikispeedia 56/60, cora 59/60. Rules were then written from the failures of that look and of seed 1's offline
    # reading ("the first" compares, "links in does X", a compared node written as an id keeps its place).
    "more_than": (
        ("ask", "Does {s} have {more} {noun} than {s2}?"), ("ask", "Has {s} got {more} {noun} than {s2} has?"),
        ("tell", "Tell me whether {s} has {more} {noun} than {s2}."), ("tell", "Say if {s} has {more} {noun} than {s2} does."),
        ("curious", "I wonder if {s} has {more} {noun} than {s2}?"), ("curious", "Would {s} have {more} {noun} than {s2}?"),
        ("terse", "{s} {more} {noun} than {s2}?"), ("terse", "{more} {noun} for {s} than for {s2}?"),
        ("formal", "Determine whether {s} has {more} {noun} than {s2}."),
        ("formal", "Please confirm whether {s} has {more} {noun} than {s2} has."),
        ("others", "Compared with {s2}, does {s} have {more} {noun}?"),
        ("others", "Is it true that {s} has {more} {noun} than {s2}?"),
        ("later", "Does {s} come with {more} {noun} than {s2}?"), ("later", "Relative to {s2}, has {s} got {more} {noun}?"),
        ("fresh", "Does {s} end up with {more} {noun} than {s2}?"), ("fresh", "Against {s2}, does {s} have {more} {noun}?"),
        ("spoken", "So does {s} have {more} {noun} than {s2}?"), ("spoken", "{s} has got {more} {noun} than {s2}, right?"),
        ("kgqa", "Does the entity {s} have {more} {noun} than {s2}?"),
        ("kgqa", "Can you confirm whether {s} has {more} {noun} than {s2}?"),
        ("walk", "Count the {noun} of {s}, then those of {s2}. Does the first have {more}?"),
        ("walk", "Look at {s} and then at {s2}: does the first have {more} {noun} than the second?"),
        ("learner", "{s} have {more} {noun} than {s2}, yes or no?"), ("learner", "Is {s} having {more} {noun} than {s2}?"),
        ("quiz", "Let a = {s} and b = {s2}. Does a have {more} {noun} than b?"),
        ("quiz", "True or false: {s} has {more} {noun} than {s2}."),
        ("prompt", "Check whether {s} has {more} {noun} than {s2}. Answer yes or no."),
        ("prompt", "Task: answer yes or no. Does {s} have {more} {noun} than {s2}?"),
        ("analyst", "Sanity check: {s} has {more} {noun} than {s2}?"),
        ("analyst", "Do the numbers show {s} with {more} {noun} than {s2}?"),
        ("context", "I'm choosing between two. Does {s} have {more} {noun} than {s2}?"),
        ("context", "For my notes: has {s} got {more} {noun} than {s2}?"),
        ("chat", "does {s} have {more} {noun} than {s2}"), ("chat", "{s} got {more} {noun} than {s2}? y/n"),
        ("search", "{s} {more} {noun} than {s2}"), ("search", "{more} {noun} {s} than {s2}"),
        ("email", "Hi, does {s} have {more} {noun} than {s2}? Thanks."),
        ("email", "Dear team, could you confirm whether {s} has {more} {noun} than {s2}? Best regards."),
        ("indirect", "I'd like to know whether {s} has {more} {noun} than {s2}."),
        ("indirect", "I'm trying to work out if {s} has {more} {noun} than {s2} does."),
    ),
    "how_many_more": (
        ("ask", "How many {more} {noun} does {s} have than {s2}?"), ("ask", "{s} has {more} {noun} than {s2}; by how many?"),
        ("tell", "Tell me how many {more} {noun} {s} has than {s2}."),
        ("tell", "Work out how many {more} {noun} {s} has than {s2} and tell me."),
        ("curious", "I wonder how many {more} {noun} {s} has than {s2}?"),
        ("curious", "How many {more} {noun} would {s} have than {s2}?"),
        ("terse", "{s} vs {s2}: how many {more} {noun}?"), ("terse", "How many {more} {noun}, {s} than {s2}?"),
        ("formal", "Determine how many {more} {noun} {s} has than {s2}."),
        ("formal", "State the difference between the number of {noun} of {s} and that of {s2}."),
        ("others", "Compared with {s2}, how many {more} {noun} does {s} have?"),
        ("others", "What is the gap in {noun} between {s} and {s2}?"),
        ("later", "How many {more} {noun} has {s} got than {s2}?"),
        ("later", "Relative to {s2}, how many {more} {noun} does {s} have?"),
        ("fresh", "How big is the gap in {noun} between {s} and {s2}?"),
        ("fresh", "{s} has how many {more} {noun} than {s2}?"),
        ("spoken", "So how many {more} {noun} has {s} got than {s2}?"),
        ("spoken", "How many {more} {noun} does {s} have compared to {s2}?"),
        ("kgqa", "How many {more} {noun} does the entity {s} have than {s2}?"),
        ("kgqa", "What is the difference in the number of {noun} between {s} and {s2}?"),
        ("walk", "Count the {noun} of {s}, then those of {s2}; how many {more} does the first have?"),
        ("walk", "Look at {s} and then at {s2}: how many {more} {noun} does the first have?"),
        ("learner", "How many {more} {noun} {s} have than {s2}?"), ("learner", "{s} have how many {more} {noun} than {s2}?"),
        ("quiz", "Let a = {s} and b = {s2}. How many {more} {noun} does a have than b?"),
        ("quiz", "Give the difference between the numbers of {noun} of {s} and {s2}."),
        ("prompt", "Compute how many {more} {noun} {s} has than {s2}. Output a number."),
        ("prompt", "Task: return the difference in {noun} between {s} and {s2} as a number."),
        ("analyst", "{s} vs {s2}: what is the {noun} gap?"), ("analyst", "How wide is the gap in {noun}, {s} against {s2}?"),
        ("context", "I know {s} has {more} {noun} than {s2}. By how many?"),
        ("context", "For a comparison in my notes: how many {more} {noun} does {s} have than {s2}?"),
        ("chat", "how many {more} {noun} does {s} have than {s2}"), ("chat", "{s} vs {s2} {noun} diff?"),
        ("search", "{s} {s2} {noun} difference"), ("search", "how many {more} {noun} {s} than {s2}"),
        ("email", "Hi, how many {more} {noun} does {s} have than {s2}? Thanks."),
        ("email", "Dear team, could you tell me the difference in {noun} between {s} and {s2}? Best regards."),
        ("indirect", "I'd like to know how many {more} {noun} {s} has than {s2}."),
        ("indirect", "I'm trying to work out the gap in {noun} between {s} and {s2}."),
    ),
    # a feature of the one node a relation reaches ({one}: "the paper that X cites", a single node's phrase)
    "neighbour_feature": (
        ("ask", "What is the {key} of {one}?"), ("ask", "Which {key} does {one} have?"),
        ("tell", "Tell me the {key} of {one}."), ("tell", "Give the {key} of {one}."),
        ("curious", "I wonder what the {key} of {one} is."), ("curious", "Any idea which {key} {one} has?"),
        ("terse", "{key} of {one}?"), ("terse", "{one}: {key}?"),
        ("formal", "State the {key} of {one}."), ("formal", "Determine the {key} recorded for {one}."),
        ("others", "Do you know the {key} of {one}?"), ("others", "For {one}, what {key} is on record?"),
        ("later", "Look up {one} and tell me its {key}."), ("later", "{one} has which {key}?"),
        ("fresh", "Remind me: {one} has what {key}?"), ("fresh", "I'm after the {key} that goes with {one}."),
        ("spoken", "Quick one: what's the {key} of {one}?"), ("spoken", "What {key} is given for {one}?"),
        ("kgqa", "Could you specify the {key} of {one}?"), ("kgqa", "Which {key} is associated with {one}?"),
        ("walk", "Follow the way to {one} and read off its {key}."), ("walk", "Step over to {one}: what does it give as {key}?"),
        ("learner", "What is {key} of {one}?"), ("learner", "Please tell me {one} {key} is what?"),
        ("quiz", "Let v be {one}. Report the {key} of v."), ("quiz", "Given {one}, return its {key}."),
        ("prompt", "Task: look up the {key} of {one}. Output only the value."),
        ("prompt", "Return the {key} field of {one}. No explanation."),
        ("analyst", "Pull the {key} for {one}."), ("analyst", "What does {one} show under {key}?"),
        ("context", "I'm following up one lead: what is the {key} of {one}?"),
        ("context", "For my notes, which {key} does {one} have?"),
        ("chat", "whats the {key} of {one}"), ("chat", "{one} {key}?"),
        ("search", "{key} of {one}"), ("search", "{one} {key}"),
        ("email", "Hi, could you tell me the {key} of {one}? Thanks."), ("email", "Dear team, what {key} does {one} have? Best regards."),
        ("indirect", "I'd like to know the {key} of {one}."), ("indirect", "I'm trying to find out which {key} {one} has."),
    ),
    # a value of the member a superlative picks: its feature, or its own count of the links it was picked by
    # ({most}, {top}, {big}: "most", "highest", "largest" or "fewest", "lowest", "smallest")
    "extreme_feature": (
        ("ask", "What is the {key} of the one of {set} with the {most} {noun}?"),
        ("ask", "Among {set}, what {key} does the one with the {most} {noun} have?"),
        ("tell", "Tell me the {key} of whichever of {set} has the {most} {noun}."),
        ("tell", "Find the one of {set} with the {most} {noun} and give its {key}."),
        ("curious", "I wonder what {key} the one of {set} with the {most} {noun} has."),
        ("curious", "Of {set}, the one with the {most} {noun}: what would its {key} be?"),
        ("terse", "{key} of the one of {set} with the {most} {noun}?"), ("terse", "{set}: {key} of the one with the {most} {noun}?"),
        ("formal", "Determine the {key} of the member of {set} having the {big} number of {noun}."),
        ("formal", "State the {key} of whichever member of {set} has the {top} count of {noun}."),
        ("others", "Looking at {set}, what is the {key} of the one with the {most} {noun}?"),
        ("others", "Out of {set}, pick the one with the {most} {noun}. What is its {key}?"),
        ("later", "Of {set}, the one with the {top} number of {noun} has which {key}?"),
        ("later", "What's the {key} of whichever of {set} has the {most} {noun}?"),
        ("fresh", "For whichever of {set} stands out with the {most} {noun}, what {key} does it carry?"),
        ("fresh", "Single out the member of {set} with the {most} {noun}; report its {key}."),
        ("spoken", "So of {set}, the one that's got the {most} {noun}, what's its {key}?"),
        ("spoken", "What {key} has the one of {set} with the {most} {noun} got?"),
        ("kgqa", "What is the {key} of the entity among {set} with the {big} number of {noun}?"),
        ("kgqa", "Among {set}, which {key} is held by the one with the {top} count of {noun}?"),
        ("walk", "Go through {set}, find the one with the {most} {noun}, then read off its {key}."),
        ("walk", "First pick the one of {set} with the {most} {noun}; next, what is its {key}?"),
        ("learner", "The one in {set} with {most} {noun}, what {key} it has?"),
        ("learner", "Which is {key} of the one in {set} that having {most} {noun}?"),
        ("quiz", "Let S be {set} and let m be the element of S with the {most} {noun}. What is the {key} of m?"),
        ("quiz", "Give the {key} of the element of {set} that has the {top} number of {noun}."),
        ("prompt", "Return the {key} of the item from {set} with the {top} count of {noun}."),
        ("prompt", "Task: among {set}, find the one with the {most} {noun}. Output its {key} only."),
        ("analyst", "Of {set}, what's the {key} of the {top} scorer on {noun}?"),
        ("analyst", "Which {key} does the {top}-ranked of {set} by {noun} have?"),
        ("context", "I'm writing about the one of {set} with the {most} {noun}. What {key} does it have?"),
        ("context", "For a summary of {set}: what is the {key} of the one with the {most} {noun}?"),
        ("chat", "whats the {key} of whichever of {set} has the {most} {noun}"), ("chat", "{set} -> one with the {most} {noun} -> {key}?"),
        ("search", "{key} of {set} with {most} {noun}"), ("search", "{set} {most} {noun} {key}"),
        ("email", "Hi, could you tell me the {key} of the one of {set} with the {most} {noun}? Thanks."),
        ("email", "Dear team, among {set}, what {key} does the one with the {most} {noun} have? Best regards."),
        ("indirect", "I'd like to know the {key} of the one of {set} with the {most} {noun}."),
        ("indirect", "I'm trying to find out what {key} the one of {set} with the {most} {noun} has."),
    ),
    "extreme_count": (
        ("ask", "How many {noun} does the one of {set} with the {most} {noun} have?"),
        ("ask", "Among {set}, how many {noun} has the one with the {most} of them?"),
        ("tell", "Tell me how many {noun} the one of {set} with the {most} {noun} has."),
        ("tell", "Find the one of {set} with the {most} {noun} and count its {noun}."),
        ("curious", "I wonder how many {noun} the one of {set} with the {most} {noun} has."),
        ("curious", "Of {set}, the one with the {most} {noun}: how many would it have?"),
        ("terse", "{noun} of the one of {set} with the {most} {noun}: how many?"), ("terse", "{set}: the {top} count of {noun}?"),
        ("formal", "Determine the number of {noun} of the member of {set} having the {big} number of them."),
        ("formal", "State how many {noun} belong to whichever member of {set} has the {top} count of them."),
        ("others", "Looking at {set}, how many {noun} does the one with the {most} {noun} have?"),
        ("others", "What is the {top} number of {noun} any one of {set} has?"),
        ("later", "Of {set}, the one with the {top} number of {noun} has how many?"),
        ("later", "How many {noun} for whichever of {set} has the {most}?"),
        ("fresh", "Whichever of {set} stands out with the {most} {noun}: how many does it carry?"),
        ("fresh", "Single out the member of {set} with the {most} {noun}; report how many it has."),
        ("spoken", "So of {set}, the one that's got the {most} {noun}, how many has it got?"),
        ("spoken", "How many {noun} has the one of {set} with the {most} {noun} got?"),
        ("kgqa", "What is the number of {noun} of the entity among {set} with the {big} number of {noun}?"),
        ("kgqa", "Among {set}, what is the {top} count of {noun}?"),
        ("walk", "Go through {set}, find the one with the {most} {noun}, then count its {noun}."),
        ("walk", "First pick the one of {set} with the {most} {noun}; next, how many {noun} does it have?"),
        ("learner", "The one in {set} with {most} {noun}, how many {noun} it has?"),
        ("learner", "How much {noun} is having the one in {set} with {most} {noun}?"),
        ("quiz", "Let S be {set} and let m be the element of S with the {most} {noun}. How many {noun} does m have?"),
        ("quiz", "What is the {top} number of {noun} over the elements of {set}?"),
        ("prompt", "Return the count of {noun} of the item from {set} with the {top} count of {noun}."),
        ("prompt", "Task: among {set}, find the one with the {most} {noun}. Output its number of {noun} only."),
        ("analyst", "Of {set}, how many {noun} does the {top} scorer on {noun} have?"),
        ("analyst", "What's the {top} {noun} count across {set}?"),
        ("context", "I'm writing about the one of {set} with the {most} {noun}. How many {noun} does it have?"),
        ("context", "For a summary of {set}: how many {noun} has the one with the {most}?"),
        ("chat", "how many {noun} does the one of {set} with the {most} {noun} have"), ("chat", "{set}: {top} {noun} count?"),
        ("search", "{top} number of {noun} among {set}"), ("search", "{set} {most} {noun} count"),
        ("email", "Hi, could you tell me how many {noun} the one of {set} with the {most} {noun} has? Thanks."),
        ("email", "Dear team, among {set}, what is the {top} number of {noun}? Best regards."),
        ("indirect", "I'd like to know how many {noun} the one of {set} with the {most} {noun} has."),
        ("indirect", "I'm trying to find out the {top} count of {noun} among {set}."),
    ),
}  # fmt: skip

SHAPES = tuple(WORDINGS)
# A superlative no single node wins, asked as a user would ask it, unaware of the tie: in the wordings of the shape
# that asks it where one node wins, the answer every tied node (:class:`TiedPick`). Asked only when named: a user's
# question may tie, but no Action answers it in one call (the tie is an error observation), so these are never
# training data and stay out of the default mix, which earlier runs are compared against question by question.
TIE_SHAPES: dict[str, str] = {
    "most_tied": "most", "fewest_tied": "fewest", "extreme_feature_tied": "extreme_feature",
    "extreme_count_tied": "extreme_count",
}  # fmt: skip
ALL_SHAPES = SHAPES + tuple(TIE_SHAPES)
_LEVELS = {"lookup": "easy", "count": "easy", "names": "easy", "exists": "easy", "neighbour_feature": "easy", "mode": "hard", "most_reached": "hard",
           "extreme_feature": "hard", "extreme_count": "hard", "most_tied": "hard", "fewest_tied": "hard",
           "extreme_feature_tied": "hard", "extreme_count_tied": "hard"}


@dataclass(frozen=True)
class _Draft:
    program: Program
    phrases: dict[str, str]


def reference_action(program: Program, graph: PlainGraph, schema: dict[str, TypeSchema]) -> tuple[str, str] | None:
    """One Counselor action whose observation holds the program's answer, and the answer rule that reads it.

    Every shape is one (nested) call: what is worked out over lists (the fewest, the members that
    share the subject's value, two sets' overlap or union, membership, existence) is a function of
    its own (:mod:`graphreason.tools.counselor.registry`), so the reasoner copies the answer from
    the observation instead of computing it. A filter by a value the question names keeps the
    matching nodes with ``Matching``. ``None`` where no action reads the answer (a set whose
    members have no name feature to read): those questions still have golds.
    """
    op = program.operation
    subject = f"Retrieve[{graph.names[program.bound[0]]}]"

    def name_key(relation: str) -> str | None:
        ends = schema[graph.types[program.bound[0]]].relations.get(relation, ())
        return schema[ends[0]].name_key if len(ends) == 1 else None

    if isinstance(op, Lookup):
        return f"Feature[{subject}, {op.key}]", "value"
    if isinstance(op, Count) and isinstance(op.source, Hop) and isinstance(op.source.source, Subject):
        return f"Degree[{subject}, {op.source.relation}]", "count"
    if isinstance(op, Count) and isinstance(op.source, Hop) and isinstance(op.source.source, Hop):
        inner = op.source.source
        return f"Count[Neighbour[Neighbour[{subject}, {inner.relation}], {op.source.relation}]]", "count"
    if isinstance(op, Names) and isinstance(op.source, Hop) and isinstance(op.source.source, Subject):
        key = name_key(op.source.relation)
        return (f"Feature[Neighbour[{subject}, {op.source.relation}], {key}]", "list") if key else None
    if isinstance(op, Extreme) and isinstance(op.source, Pair):
        key = schema[graph.types[program.bound[0]]].name_key
        if key is None:
            return None
        pick = "MaxDegree" if op.most else "MinDegree"
        other = f"Retrieve[{graph.names[program.bound[1]]}]"
        return f"Feature[{pick}[Union[{subject}, {other}], {op.relation}], {key}]", "value"
    if isinstance(op, (MoreThan, Gap)):  # two named nodes compared by their links: the first as the question asks
        other = f"Retrieve[{graph.names[program.bound[1]]}]"
        compare = "Difference" if isinstance(op, Gap) else "MoreThan" if op.more else "FewerThan"
        return f"{compare}[{subject}, {other}, {op.relation}]", "count" if isinstance(op, Gap) else "value"
    if isinstance(op, Extreme) and isinstance(op.source, Hop):
        key = name_key(op.source.relation)
        if key is None:
            return None
        pick = "MaxDegree" if op.most else "MinDegree"
        return f"Feature[{pick}[Neighbour[{subject}, {op.source.relation}], {op.relation}], {key}]", "value"
    if isinstance(op, OnlyMember) and _one_hop(op.source):  # the one node the relation reaches
        return f"Feature[Neighbour[{subject}, {op.source.relation}], {op.key}]", "list"  # a list of one
    if isinstance(op, OfExtreme) and _one_hop(op.source):  # a value of the member picked by its links
        picked = f"{'MaxDegree' if op.most else 'MinDegree'}[Neighbour[{subject}, {op.source.relation}], {op.relation}]"
        return (f"Feature[{picked}, {op.key}]", "value") if op.key else (f"Degree[{picked}, {op.relation}]", "count")
    if isinstance(op, MostReached) and isinstance(op.source, Hop) and isinstance(op.source.source, Subject):
        ends = schema[graph.types[program.bound[0]]].relations.get(op.source.relation, ())
        reached = schema[ends[0]].relations.get(op.relation, ()) if len(ends) == 1 else ()
        key = schema[reached[0]].name_key if len(reached) == 1 else None
        if key is None:
            return None
        return f"Feature[MostLinked[Neighbour[{subject}, {op.source.relation}], {op.relation}], {key}]", "value"
    if isinstance(op, Mode) and isinstance(op.source, Hop):
        return f"Mode[Feature[Neighbour[{subject}, {op.source.relation}], {op.key}]]", "value"
    if isinstance(op, CompareToSubject) and isinstance(op.source, Hop):
        compare = "Same" if op.same else "Differing"
        return f"{compare}[{subject}, {op.source.relation}, {op.key}]", "value"
    if isinstance(op, Names) and isinstance(op.source, Join) and op.source.how == "both":
        key = name_key(op.source.left.relation)
        if key is None:
            return None
        other = f"Retrieve[{graph.names[program.bound[1]]}]"
        left, right = op.source.left.relation, op.source.right.relation
        return f"Feature[Intersect[Neighbour[{subject}, {left}], Neighbour[{other}, {right}]], {key}]", "list"
    if isinstance(op, Count) and isinstance(op.source, Join):
        other = f"Retrieve[{graph.names[program.bound[1]]}]"
        combine = "Intersect" if op.source.how == "both" else "Union"
        left, right = op.source.left.relation, op.source.right.relation
        return f"Count[{combine}[Neighbour[{subject}, {left}], Neighbour[{other}, {right}]]]", "count"
    if isinstance(op, Count) and isinstance(op.source, Filter) and _one_hop(op.source.source):
        if not _call_safe(op.source.value):
            return None
        kept = f"Matching[Neighbour[{subject}, {op.source.source.relation}], {op.source.key}, {op.source.value}]"
        return f"Count[{kept}]", "count"
    if isinstance(op, Names) and isinstance(op.source, Filter) and _one_hop(op.source.source):
        key = name_key(op.source.source.relation)
        if key is None or not _call_safe(op.source.value):
            return None
        kept = f"Matching[Neighbour[{subject}, {op.source.source.relation}], {op.source.key}, {op.source.value}]"
        return f"Feature[{kept}, {key}]", "list"
    if isinstance(op, AnyWith) and _one_hop(op.source):
        if not _call_safe(op.value_):
            return None
        return f"Exists[Matching[Neighbour[{subject}, {op.source.relation}], {op.key}, {op.value_}]]", "value"
    if isinstance(op, Contains) and isinstance(op.source, Hop):
        other = f"Retrieve[{graph.names[program.bound[1]]}]"
        return f"Contains[Neighbour[{subject}, {op.source.relation}], {other}]", "value"
    return None


def _reads_as_one(form: str) -> bool:
    """Whether a set's phrase (``"the {T} that {x} cites"``) reads as one node when ``{T}`` is singular: it names the
    type (not "the tags of {x}"), and no verb after "that" or "who" agrees with a plural ("the {T} that cite {x}")."""
    return "{T}" in form and not re.search(r"\b(?:that|who|which) (?!\{x\})[a-z]+(?<!s) ", form)


def _call_safe(value: str) -> bool:
    """Whether a value can be one argument of a call: no brackets, no argument separator."""
    return not _UNSAFE.search(value) and ", " not in value


def _one_hop(source: object) -> bool:
    """A set one relation away from the question's (first) subject."""
    return isinstance(source, Hop) and isinstance(source.source, Subject)


class _Sampler:
    """Draws programs of one shape over one graph's schema."""

    def __init__(self, graph: PlainGraph, schema: dict[str, TypeSchema], rng: random.Random, quote: bool = True) -> None:
        self.graph, self.schema, self.rng, self.quote = graph, schema, rng, quote
        self.family: str | None = None  # phrase relations as this family does (OWN_LEXICONS), when it has phrases
        # a name must be unique as Retrieve reads names: case, spaces and punctuation aside ("Priest", "priest")
        counts = Counter(normalise(name) for name in graph.names.values())
        # subjects: nodes named by a unique, safe name, per type
        self.subjects: dict[str, list[str]] = {}
        for node, node_type in graph.types.items():
            name = graph.names[node]
            if node in graph.named and counts[normalise(name)] == 1 and not _UNSAFE.search(name) and 3 <= len(name) <= 120:
                self.subjects.setdefault(node_type, []).append(node)

    def name(self, node: str) -> str:
        return f'"{self.graph.names[node]}"' if self.quote else self.graph.names[node]

    def phrase(self, relation: str, anchor: str, many: bool = False) -> str:
        """A node set's phrase: the nodes ``relation`` reaches from ``anchor`` (one node, or a set's phrase)."""
        forms = relation_phrases(relation, self.family)["many" if many else "single"]
        return self.rng.choice(forms).format(x=anchor, T=self._target_noun(relation))

    def _target_noun(self, relation: str) -> str:
        target = self._target_type(relation)
        return plural(target) if target is not None else "nodes"

    def _target_type(self, relation: str) -> str | None:
        """The one node type ``relation`` reaches in the schema (None: several or none)."""
        ends = sorted({t for ts in self.schema.values() for r, targets in ts.relations.items() if r == relation for t in targets})
        return ends[0] if len(ends) == 1 else None

    def _relations(self, node_type: str) -> list[str]:
        return list(self.schema[node_type].relations)

    def _subject(self, types: Sequence[str]) -> str | None:
        pool = [t for t in types if self.subjects.get(t)]
        if not pool:
            return None
        return self.rng.choice(self.subjects[self.rng.choice(pool)])

    def draw(self, shape: str) -> _Draft | None:
        """One program of ``shape`` with its phrases, or ``None`` when this draw found nothing usable."""
        rng, schema = self.rng, self.schema
        types = [t for t, ts in schema.items() if ts.relations] if shape != "lookup" else [t for t, ts in schema.items() if ts.categories]
        subject = self._subject(types)
        if subject is None:
            return None
        node_type = self.graph.types[subject]
        own = schema[node_type]
        s = self.name(subject)
        if shape == "lookup":
            key = rng.choice(own.categories)
            return _Draft(Program(shape, Lookup(key), (subject,)), {"s": s, "key": _words(key)})
        present = sorted(self.graph.arcs[subject])
        if shape == "count" and (not present or rng.random() < 0.1):  # now and then a relation it has none of
            relation = rng.choice(self._relations(node_type))
        elif present:
            relation = rng.choice(present)
        else:
            return None
        targets = own.relations[relation]
        target = schema[targets[0]] if len(targets) == 1 else None
        hop = Hop(Subject(0), relation)
        one = self.phrase(relation, s)
        if shape in ("which_of_two", "more_than", "how_many_more"):  # the subject and another node of its type
            return self._two_named(shape, subject, relation)
        if shape == "count":
            return _Draft(Program(shape, Count(hop), (subject,)), {"set": one, "s": s})
        if shape == "names":
            return _Draft(Program(shape, Names(hop), (subject,)), {"set": one, "s": s})
        if target is None:
            return None
        reached = sorted({r for n in hop.nodes(self.graph, (subject,)) for r in self.graph.arcs[n]})
        if shape == "two_hop_count":
            if not reached:
                return None
            second = rng.choice(reached)
            return _Draft(Program(shape, Count(Hop(hop, second)), (subject,)), {"set": self.phrase(second, one, many=True), "s": s})
        if shape == "most_reached":
            ends = {second: own_ends for second in reached if len(own_ends := target.relations.get(second, ())) == 1}
            named = [second for second, ends_ in ends.items() if self.schema[ends_[0]].name_key]
            if not named:
                return None
            second = rng.choice(named)
            op = MostReached(hop, second)
            nouns = [noun for noun in relation_phrases(second, self.family)["noun"] if " it" not in noun]  # "movies in it"
            noun = rng.choice(nouns) if nouns else f"{_words(second)} neighbours"
            phrases = {"set": one, "noun": noun, "t": _words(ends[second][0]), "s": s}
            return _Draft(Program(shape, op, (subject,)), phrases)
        if shape in ("most", "fewest", "most_tied", "fewest_tied"):
            if not reached:
                return None
            second = rng.choice(reached)
            noun = rng.choice(relation_phrases(second, self.family)["noun"])
            most = shape.startswith("most")
            op = Extreme(hop, second, most=most) if shape in ("most", "fewest") else TiedPick(hop, second, most=most)
            return _Draft(Program(shape, op, (subject,)), {"set": one, "noun": noun, "s": s})
        if shape == "neighbour_feature":
            return self._only_member(subject, relation, target)
        if shape in ("extreme_feature", "extreme_count", "extreme_feature_tied", "extreme_count_tied"):
            return self._of_extreme(shape, subject, hop, one, reached, target)
        if shape in ("mode", "filter_count", "filter_names", "any_with"):
            if not target.categories:
                return None
            key = rng.choice(target.categories)
            if shape == "mode":
                return _Draft(Program(shape, Mode(hop, key), (subject,)), {"set": one, "key": _words(key), "s": s})
            members = sorted(hop.nodes(self.graph, (subject,)))
            values = sorted({self.graph.features[n][key] for n in members if key in self.graph.features[n]})
            if not values:
                return None
            present = shape in ("filter_count", "filter_names") or rng.random() < 0.5
            value = rng.choice(values) if present else self._other_value(targets[0], key, values)
            if value is None:
                return None
            kept = Filter(hop, key, value)
            op = Count(kept) if shape == "filter_count" else Names(kept) if shape == "filter_names" else AnyWith(hop, key, value)
            return _Draft(Program(shape, op, (subject,)), {"set": one, "key": _words(key), "value": value, "s": s})
        if shape in ("same_as_subject", "differ_from_subject"):
            shared = [k for k in own.categories if k in target.categories]
            if not shared:
                return None
            key = rng.choice(shared)
            op = CompareToSubject(hop, key, same=shape == "same_as_subject")
            return _Draft(Program(shape, op, (subject,)), {"set": one, "key": _words(key), "s": s})
        if shape in ("shared", "shared_names", "either"):
            peer = self._peer(subject, relation)
            if peer is None:
                return None
            join = Join(hop, Hop(Subject(1), relation), how="either" if shape == "either" else "both")
            op = Names(join) if shape == "shared_names" else Count(join)
            return _Draft(Program(shape, op, (subject, peer)),
                          {"set": one, "set2": self.phrase(relation, self.name(peer)), "s": s})  # fmt: skip
        if shape == "exists":
            members = sorted(hop.nodes(self.graph, (subject,)))
            named = [m for m in members if m in self._named(targets[0])]
            if rng.random() < 0.5 and named:
                other = rng.choice(named)
            else:
                other = self._subject([targets[0]])
            if other is None or other == subject:
                return None
            return _Draft(Program(shape, Contains(hop, 1), (subject, other)), {"set": one, "s": s, "s2": self.name(other)})
        raise KeyError(f"unknown shape {shape!r}; choose one of {', '.join(ALL_SHAPES)}")

    def _only_member(self, subject: str, relation: str, target: TypeSchema) -> _Draft | None:
        """A feature (a category, or the name) of the one node ``relation`` reaches from the subject, worded as one
        node ("the paper that X cites"): None where it reaches several, or the phrase would not read as one."""
        reached = self.graph.arcs[subject].get(relation, frozenset())
        keys = [*target.categories, *([target.name_key] if target.name_key else [])]
        if len(reached) != 1 or not keys:
            return None
        forms = [form for form in relation_phrases(relation, self.family)["single"] if _reads_as_one(form)]
        if not forms:
            return None
        key = self.rng.choice(keys)
        one = self.rng.choice(forms).format(x=self.name(subject), T=_words(self._target_type(relation) or "node"))
        return _Draft(Program("neighbour_feature", OnlyMember(Hop(Subject(0), relation), key), (subject,)),
                      {"one": one, "key": _words(key), "s": self.name(subject)})  # fmt: skip

    def _of_extreme(
        self, shape: str, subject: str, hop: Hop, one: str, reached: list[str], target: TypeSchema
    ) -> _Draft | None:
        """The member of the subject's ``hop`` set (worded ``one``) with the most (fewest) links along a relation its members have: its
        feature (``extreme_feature``, of the member's type) or its own count of those links (``extreme_count``); of
        each ``_tied`` shape, the same of the members that tie for it (:class:`TiedPick`)."""
        wants_key = shape.startswith("extreme_feature")
        if not reached or (wants_key and not target.categories):
            return None
        second = self.rng.choice(reached)
        nouns = [noun for noun in relation_phrases(second, self.family)["noun"] if " it" not in noun]
        if not nouns:
            return None
        more = self.rng.random() < 0.5
        key = self.rng.choice(target.categories) if wants_key else None
        phrases = {
            "set": one, "noun": self.rng.choice(nouns), "s": self.name(subject),
            "most": "most" if more else "fewest", "top": "highest" if more else "lowest", "big": "largest" if more else "smallest",
        }  # fmt: skip
        if key is not None:
            phrases["key"] = _words(key)
        tied = shape in TIE_SHAPES
        op = TiedPick(hop, second, most=more, key=key, count=key is None) if tied else OfExtreme(hop, second, most=more, key=key)
        return _Draft(Program(shape, op, (subject,)), phrases)

    def _two_named(self, shape: str, subject: str, relation: str) -> _Draft | None:
        """The subject and another named node of its type, either named first, by their ``relation`` neighbours: set
        side by side, the one with more (fewer) picked (``which_of_two``); or one against the other, whether the first
        has more (fewer), or how many more (fewer) the one with more (fewer) has, named first. A tie is not asked."""
        peers = [n for n in self.subjects.get(self.graph.types[subject], ()) if n != subject]
        nouns = [noun for noun in relation_phrases(relation, self.family)["noun"] if " it" not in noun]
        if not peers or not nouns:
            return None
        peer, more = self.rng.choice(peers), self.rng.random() < 0.5
        first, second = (subject, peer) if self.rng.random() < 0.5 else (peer, subject)
        if shape == "which_of_two":
            op: Operation = Extreme(Pair(), relation, most=more)
        else:
            degree = {n: len(self.graph.arcs[n].get(relation, ())) for n in (first, second)}
            if degree[first] == degree[second]:
                return None
            if shape == "how_many_more" and (degree[first] > degree[second]) != more:
                first, second = second, first
            op = Gap(relation, more) if shape == "how_many_more" else MoreThan(relation, more)
        phrases = {"s": self.name(first), "s2": self.name(second), "noun": self.rng.choice(nouns), "more": "more" if more else "fewer"}
        return _Draft(Program(shape, op, (first, second)), phrases)

    def _named(self, node_type: str) -> set[str]:
        return set(self.subjects.get(node_type, ()))

    def _other_value(self, node_type: str, key: str, present: list[str]) -> str | None:
        """A value of ``key`` some node of ``node_type`` has, but none of ``present``'s (a "no" question)."""
        seen = {f[key] for n, f in self.graph.features.items() if self.graph.types[n] == node_type and key in f}
        others = sorted(seen - set(present))
        return self.rng.choice(others) if others else None

    def _peer(self, subject: str, relation: str) -> str | None:
        """Another named node of the subject's type with at least one ``relation`` neighbour in common."""
        mine = self.graph.arcs[subject].get(relation, frozenset())
        if not mine:
            return None
        node_type = self.graph.types[subject]
        candidates = [n for n in self.subjects.get(node_type, ()) if n != subject and self.graph.arcs[n].get(relation, frozenset()) & mine]
        return self.rng.choice(candidates) if candidates else None


def check_trainable(graph_name: str) -> None:
    """Refuse to build training data from an unseen graph (:data:`UNSEEN_GRAPHS`) or an evaluation-only copy of one
    (``EVALUATION_RENAMINGS``): they are for evaluation only.

    ``graph_name`` is a graph's name or a path to one: a path is refused when any of its parts, or its
    file's stem, names an unseen graph or such a copy (``data/last-fm/graph.json``).
    """
    parts = {part.lower() for part in PurePath(graph_name.strip()).parts} | {PurePath(graph_name.strip()).stem.lower()}
    if parts & (UNSEEN_GRAPHS | set(EVALUATION_RENAMINGS)):
        raise ValueError(
            f"{graph_name!r} is an unseen graph: it is for evaluation only, never for training data "
            f"(unseen: {', '.join(sorted(UNSEEN_GRAPHS | set(EVALUATION_RENAMINGS)))})"
        )


def wording_families(families: Sequence[str] | None = None) -> tuple[str, ...]:
    """The wording families to ask (the trainable ones when none are named: :data:`EVAL_ONLY_FAMILIES` only when
    named); KeyError names an unknown one."""
    for name in families or ():
        if name not in ALL_FAMILIES:
            raise KeyError(f"unknown wording family {name!r}; choose one of {', '.join(ALL_FAMILIES)}")
    return tuple(families or FAMILIES)


def program_questions(
    store: Any,
    n: int,
    seed: int = 0,
    shapes: Sequence[str] | None = None,
    families: Sequence[str] | None = None,
    max_tries: int = 60,
    for_training: bool = False,
    graph_spec: str | None = None,
    bare_names: bool = False,
) -> list[QAItem]:
    """Up to ``n`` questions over ``store``'s schema, round-robin over ``shapes`` (default :data:`SHAPES`; the
    :data:`TIE_SHAPES` only when named, never for training), worded in ``families``.

    Deterministic for a seed; a shape's questions depend on its own share of ``n`` only, not on which other
    shapes are asked. Each item's ``meta`` holds the program, its shape, depth and wording family.
    ``for_training`` refuses an unseen graph (:func:`check_trainable`) and draws from the training
    stream: an evaluation with the same seed asks other questions. Items name their graph by
    ``graph_spec`` (what loads it again: a name or a path), else by the graph's own name.
    ``bare_names`` writes the nodes' names without the double quotes around them (the same questions
    otherwise: a reader must find where a name starts and ends).
    """
    if for_training:
        check_trainable(str(getattr(store, "name", "")))
    chosen_shapes = tuple(shapes or SHAPES)
    chosen_families = wording_families(families)
    if for_training and set(chosen_families) & set(EVAL_ONLY_FAMILIES):
        raise ValueError(f"the wording families {', '.join(EVAL_ONLY_FAMILIES)} are for evaluation only, never training")
    for name in chosen_shapes:
        if name not in ALL_SHAPES:
            raise KeyError(f"unknown shape {name!r}; choose one of {', '.join(ALL_SHAPES)}")
    if for_training and set(chosen_shapes) & set(TIE_SHAPES):
        raise ValueError(f"the shapes {', '.join(TIE_SHAPES)} are for evaluation only, never training")
    graph = PlainGraph.from_store(store)
    schema = schema_of(graph, getattr(store, "text_keys", None))
    # training and evaluation draw from streams of their own, so one seed never gives both the same questions;
    # each shape draws from a stream of its own too, so adding or dropping a shape leaves the others' questions
    stream = "train" if for_training else "eval"
    streams = {shape: random.Random(f"{graph.name}:{seed}:{stream}:{shape}") for shape in chosen_shapes}
    sampler = _Sampler(graph, schema, streams[chosen_shapes[0]], quote=not bare_names)
    items: list[QAItem] = []
    seen: set[tuple[str, tuple[str, ...], str]] = set()
    for index in range(n):  # each slot tries its shape up to max_tries times: rare shapes keep their share
        shape = chosen_shapes[index % len(chosen_shapes)]
        rng = sampler.rng = streams[shape]
        wordings = [w for w in WORDINGS[TIE_SHAPES.get(shape, shape)] if w[0] in chosen_families]
        wording = None
        if set(chosen_families) & set(OWN_LEXICONS):  # their relation phrases are their own: the wording comes first
            wording = rng.choice(wordings)
            sampler.family = wording[0]
        for _ in range(max_tries):
            draft = sampler.draw(shape)
            if draft is None:
                continue
            key = (shape, draft.program.bound, repr(draft.program.operation))
            gold = draft.program.evaluate(graph)
            if gold is not None and key not in seen:
                break
        else:
            continue  # this graph offers no new program of the shape now
        seen.add(key)
        family, text = wording or rng.choice(wordings)
        question = text.format(**draft.phrases)
        question = question[0].upper() + question[1:]
        answers = gold if isinstance(gold, list) else None
        reference = reference_action(draft.program, graph, schema)
        action, rule = reference or (None, None)
        items.append(QAItem(
            qid=f"{graph.name}-program-{len(items)}", question=question,
            answer=", ".join(gold) if isinstance(gold, list) else gold, answers=answers,
            level=_LEVELS.get(shape, "medium"), template=f"program:{shape}", graph=graph_spec or graph.name,
            reference_action=action,
            meta={"program": repr(draft.program.operation), "shape": shape, "depth": draft.program.depth,
                  "family": family, "bound": list(draft.program.bound), **({"bare_names": True} if bare_names else {}),
                  **({"reference_answer_rule": rule} if rule else {})},
        ))  # fmt: skip
    return items
