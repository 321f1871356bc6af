"""How a question words what it asks about, read against one graph's names: the layer under Graph Counselor's call
grammar (:mod:`graphreason.tools.counselor.constraint`) that works out, once per question,

* the nodes it names: the names it puts in double quotes or, where it quotes none, runs of its words that are
  some node's whole name (:func:`question_names`);
* the relations and features it writes out whole ("member meronym", "part of speech": :func:`spelled_places`),
  and the content words it shares with a relation's name (:func:`content_words`);
* the voice and word order around a relation's mentions ("the papers that cite X", "X is cited by"), and which
  relations lead back from which (:func:`reverse_relations`: ``cites`` and ``cited_by``);
* a feature's values as the question or an observation writes them (:func:`feature_values`).

:class:`QuestionWording` holds those for one question; the grammar asks it which relations a hop may take.
It reads the graph's names, arcs and values to understand the question's words; it never answers the question.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Container, Iterator, Sequence
from functools import lru_cache
from typing import Any

from graphreason.tools.core.retrieval.lexical import normalise, word_stems
from graphreason.tools.core.store import GraphStore, per_store

MAX_TEXT_CHARS = 200  # a search text or a value: a title, a name, keywords
_QUOTED = re.compile(r'"([^"\n]{1,2000})"|\u201c([^\u201d\n]{1,2000})\u201d')  # CiteSeer has titles of 1,781 characters
_WORD = re.compile(r"[a-z0-9]+")
_NAME_WORD = re.compile(r"[^\W_]+")  # a word as normalise() splits a name
MAX_NAME_WORDS = 40  # the longest run of question words looked up as a node's name
_BACKWARD = frozenset({"by", "from", "of"})  # "cited by", "linked from": the words that mark the backward direction
_FUNCTION_WORDS = frozenset(
    "a an the of by to from in on at as for with and or is are was were be been has have had its their this that "
    "these those which who whom what how many much any all".split()
)
_RANGE = frozenset({"to", "of", "from", "between", "and", "through"})
_SUPERLATIVES = frozenset({"most", "fewest", "least", "greatest", "highest", "lowest", "smallest", "largest"})
_PASSIVE_BEFORE = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "most", "least"})
# "X cites by name", "by title": a way to show the list, not the agent of a passive
_BY_FEATURE = [["by", word] for word in ("name", "names", "title", "titles")]
_OF_NAME = re.compile(r"\s*of\s*[\"\u201c]?")  # what stands between "friends" and the name in 'friends of "X"'
# a relation numbered after its base (``rated_4``, ``rated_4_by``; ``rated`` and ``rated_by`` have no number)
_NUMBERED = re.compile(r"([a-z]+)(?:_(\d+))?(?:_by)?")
# "write down each one", "write them out", "write it up": the answer written out, not a link ("X wrote Y")
_WRITTEN_OUT = frozenset("down out up them it these those each every all me us back".split())
_ADDRESSED = frozenset({"me", "us", "out"})  # "point me to", "point out", "send me": no link is meant (a link "points to")
# Words for a link that do not share its relation's root, by the roots they may stand for (whichever the graph's
# relations have): "X points to" links, "the papers X references" cites. English, not any one graph's wording.
# and in a graph with no relation of its own for links, "X links to" cites.
_GET_TO = "get to"  # the root "get" has where "to" follows it (no word's own root: those are four letters)
# "X draws on", "the works X builds on": a verb that with "on" after it cites (roots of their own, as "get to")
_ON_PARTICIPLES = frozenset({"drawn", "built"})
_ON_VERBS = {
    **dict.fromkeys(("draw", "draws", "drew", "drawn", "drawing"), "draw on"),
    **dict.fromkeys(("build", "builds", "built", "building"), "build on"),
}
_ON_ROOTS = frozenset(_ON_VERBS.values())
# Verbs whose past forms do not start as their base does, by those forms: "X wrote", "written by X" and "the
# writers of X" name one link (FB15k-237's ``written_by``). English; the verbs a link is likely to be named by.
_VERB_FORMS = (
    ("write", "wrote", "written"), ("make", "made"), ("sing", "sang", "sung"), ("teach", "taught"), ("lead", "led"),
    ("hold", "held"), ("give", "gave", "given"), ("take", "took", "taken"), ("know", "knew", "known"),
    ("choose", "chose", "chosen"), ("speak", "spoke", "spoken"), ("drive", "drove", "driven"), ("bring", "brought"),
    ("sell", "sold"), ("fight", "fought"), ("buy", "bought"), ("think", "thought"), ("draw", "drew", "drawn"),
    ("build", "built"), ("begin", "began", "begun"), ("grow", "grew", "grown"), ("fly", "flew", "flown"),
)  # fmt: skip
_VERB_BASES = {form: base for base, *forms in _VERB_FORMS for form in forms}
_ROOT_SYNONYMS = {
    "poin": ("link",), "clic": ("link",), "refe": ("cite", "link"), "cita": ("cite",), "link": ("cite",),
    "traf": ("link",), "send": ("link",), "stre": ("list",), "audi": ("list",),  # "X sends readers to", "X streams"
    "ment": ("link", "cite"), "play": ("list",),  # "the articles that mention X with a link", "X's playlists"
    _GET_TO: ("link",),  # "the articles you get to from X" (_reach_root)
    "draw on": ("cite", "link"), "build on": ("cite", "link"),  # "the papers X draws on", "the works X builds on"
    "bibl": ("cite",), "refs": ("cite",),  # "the bibliography of X", "X's refs"
}  # fmt: skip
# "the articles you get to from X", "the pages you can get to X from": "get to" moves along a link
_GETTING = frozenset({"get", "gets", "got", "gotten", "getting"})
# what stands between a link word and the name that is its object: prepositions alone ("linking to X", "get to from X")
_INTO_NAME = re.compile(
    r"\s+(?:(?:to|from|by|on|of|into|onto|at)\s+){1,3}[\"\u201c']?"
    r"|\s+(?:includes?|lists?|contains?)\s+[\"\u201c']?"  # "the papers whose bibliography includes X"
)
# A link's own way round, whatever the voice and word order: "incoming links", "links in", "citations" (what cite
# a paper) run backward; "outgoing links", "links out", "outgoing citations" forward.
_MOVING = frozenset({"coming", "going", "pointing", "leading", "running"})  # "links coming in", "links going out"
_INWARD, _OUTWARD = frozenset({"incoming", "inbound", "inward"}), frozenset({"outgoing", "outbound", "outward"})
# A way round written onto a graph word: "in-neighbours", "out-degree", "in-links" (joined to "in" or "out" by a
# hyphen), "indegree", "predecessors": what leads into a node runs backward, what leaves it forward. The nouns such a
# word may be ("neighbours", "degree") name no relation, so they stand for the one link a graph has both ways of.
_HYPHEN_WAYS = {"in": "back", "out": "forward"}
_MARKED_NOUNS = frozenset(
    "neighbour neighbours neighbor neighbors neighbourhood neighborhood degree degrees edge edges arc arcs".split()
)
_JOINED_WAYS = {
    "indegree": "back", "outdegree": "forward", "inlinks": "back", "outlinks": "forward",
    "predecessor": "back", "predecessors": "back", "successor": "forward", "successors": "forward",
}  # fmt: skip
# the graph a marked word walks, named after it: "the in-neighbours of X in the link graph", "the out-neighbours of X
# under citation" (one mention with it: the marked word gives the way)
_GRAPH_NOUNS = frozenset({"graph", "network", "digraph"})
# the end of a link a noun after the link word names: "the link targets of X" are what X links to, "the citation
# sources of X" what cite it
_LINK_ENDS = {
    "target": "forward", "targets": "forward", "destination": "forward", "destinations": "forward",
    "source": "back", "sources": "back", "origin": "back", "origins": "back",
}  # fmt: skip
# the words for a paper's own list of what it cites ("bibliography", "refs"; "reference list" with "list" after it)
_LIST_WORDS = ("bibl", "refs")
_OWN_LISTS = (*_LIST_WORDS, "reference")  # "X cites in its references": where it cites them
_HAVE = re.compile(r"\b(?:have|has|had|having|include|includes|including)\b")  # "the papers that have X in their refs"
_BACKWARD_NOUNS = frozenset({"cita", "audi"})  # a citation of X is a paper citing X; X's audience listen to X
_FORWARD_NOUNS = frozenset({"refe"})  # counted ("the most references", "how many references"), what X cites
_COUNTING = _SUPERLATIVES | frozenset({"many", "few", "fewer", "more"})
# The two ways a superlative picks a node: a question that words only one of them never asks for the other pick
_MOST_WORDS = frozenset(
    {"most", "greatest", "highest", "largest", "biggest", "maximum", "top", "tops", "argmax", "strongest", "widest",
     "broadest", "busiest", "richest", "longest"}  # "the widest range of artists", "the longest reference list"
)
_FEWEST_WORDS = frozenset(
    {"fewest", "least", "lowest", "smallest", "minimum", "bottom", "trails", "trailing", "argmin", "weakest", "worst",
     "narrowest", "quietest", "shortest"}
)
# Two named nodes set side by side ("which has more citations, X or Y?", "X vs Y: ...", "look at X and at Y in turn",
# "let a = X and b = Y"): in the question outside its names (each cut out to a line break), the two names with only
# joining words between them (a name written bare may leave its last full stop outside: "X Abstract. and Y");
# comparatives then pick one of the two
_PAIR_JOIN = re.compile(
    r"\n[\s,:;=.]*(?:(?:or|and|vs|versus|against|with|next|to|compared|at|then|those|of|[a-z])\b[\s,:;=.]*){0,4}\n"
)
# words just before the first name or just after the second, with no stop between: a link word there makes the two
# names a list's ("the papers cited by X or Y", "the papers X and Y cite"), not the two compared
_BEFORE_PAIR = re.compile(r"((?:[a-z0-9]+ )?[a-z0-9]+) *$")
_AFTER_PAIR = re.compile(r"^ *([a-z0-9]+)")
# what may follow a noun's particle ("links in") that ends its phrase: a comparison's "than", a question's verb, the
# "for" before the node it is counted for, the "of", "between" or "among" before the nodes ("the links in of X",
# "fewest links out among the articles ...")
_CLAUSE_AFTER = frozenset(
    {"than", "does", "do", "did", "would", "will", "has", "have", "had", "got", "is", "are", "for", "of", "between", "among",
     "and"}
)
_THE_TWO = re.compile(r"\b(?:the|these|those) two\b")  # "which of the two": the pair named again
_NOT_A_PAIR = re.compile(r"\b(?:both|neither|common|than)\b")  # "cited by both X and Y", "more than X"
_MORE_WORDS = _MOST_WORDS | frozenset({"more", "greater", "higher", "bigger", "larger", "ahead", "leads", "better"})
_FEWER_WORDS = _FEWEST_WORDS | frozenset({"fewer", "less", "lower", "smaller", "behind", "worse"})
# a question whose asked node is the object of its verb ("which do more papers cite, X or Y?")
# what may stand between two names joined as one ("X or Y", "both X and Y", "X than to Y", "X, Y")
_COORDINATED = re.compile(r"[\s\"\u201c\u201d',]*(?:and|or|nor|plus|than(?: to| from| by| of)?|vs\.?|versus|&|,)[\s\"\u201c\u201d',]*")
# what may stand between a link word and a name right after it ("link to X", "cite, X"), or a name and a link word
# right after it ("X links to", "X is cited by")
_RIGHT_BEFORE = re.compile(r"[\s\"\u201c,:]*(?:to|from|by|on|into)[\s\"\u201c,:]*")
_RIGHT_AFTER = re.compile(r"[\s\"\u201d]*(?:(?:is|was|are|were|gets|got|has been|have been|had been)\s+)?")
# numbers written as words, read as digits where a rating's number is asked ("gave X five stars")
_NUMBER_WORDS = dict(zip("one two three four five six seven eight nine ten".split(), map(str, range(1, 11)), strict=True))
# words that stand for a feature's one word without sharing its stem ("what does X do for a living": occupation)
_FEATURE_SYNONYMS = {
    "job": "occupation", "profession": "occupation", "living": "occupation", "career": "occupation",
    "old": "age", "sex": "gender", "postcode": "zip", "postal": "zip",
}  # fmt: skip
_DATE_WORDS = frozenset({"date", "year", "day", "time"})
_WHEN_ASKED = re.compile(r"\bwhen\b|\b(?:what|which) (?:date|year|day)\b")
# a thing asked for by what, who or where ("What is the capital of X?", "Where was X born?"), with no measure named
# ("What is the degree of X?", "what is X's popularity?" ask numbers)
_ASKS_THING = re.compile(r"^\W*(?:what|who|whom|where)\b")
_MEASURE = re.compile(
    r"\b(?:(?:in|out)?-?degrees?|popularity|connectivity|size|amount|total|count|counts|number|numbers|tally|many|much"
    r"|sum|difference|gap|score|rank|ranking)\b"
)
_OBJECT_ASKED = re.compile(r"^\W*(?:which|who|what)(?: one)?\s+(?:do|does|did)\b")
# Superlatives in other words: "leads in links" (not "leads to"), "more links than any other", "fewer ... than the rest"
# "is ahead on links", "the best-connected neighbour", "the best cited": the most
_LEADS = re.compile(
    r"\blead(?:s|ing)? in\b|\bahead (?:in|on)\b|\bbest[- ](?=(?:connected|linked|cited|referenced|networked)\b)"
)
# "rank them by ... which comes first": the most, unless they are ranked lowest first
_RANKED, _FIRST = re.compile(r"\brank\w*\b"), re.compile(r"\bfirst\b")
_LAST = re.compile(r"\blast\b")  # "the one ranking last by ...": the fewest
_NUMBER_ONE = re.compile(r"\bnumber one\b|\bno\. ?1\b|#1\b")  # "who comes out number one?": the most
_LOW_FIRST = re.compile(r"\b(?:lowest|fewest|smallest|least|bottom) first\b")
# a sentence's end: where a question told in several sentences starts a new one ("Collect ... Is X on the list?")
_SENTENCE_END = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z])")  # not the "." or "?" a bare title ends in ("What? has")
_CLAUSE_END = re.compile(r"(?<=[:;])[ \t]+(?=\S)")
# "do you come across X?" asks yes or no; "do you know ...", "can you tell me ..." ask for something
_REQUEST_VERBS = frozenset(
    "know tell give list name find show say determine identify work happen help let spell mind want think have".split()
)
# "the articles you click through to from X", "a link on X": the words after a link word that make X its source
_SOURCE_AFTER = frozenset({"from", "on"})
# what a named node holds ("the citations in X", "how many links does the page X contain"): X's own links
_HELD_NOUNS = frozenset({"link", "cita"})
_IN_PLACES, _DOES = frozenset({"in", "on", "inside", "within"}), frozenset({"does", "do", "did"})
_HOLDER_WORDS = frozenset({"the", "this", "that", "its", "page", "article", "paper", "document", "entry", "node"})
_HOLDING = frozenset({"have", "has", "contain", "contains", "include", "includes", "hold", "holds", "carry", "carries"})
_GETTING = frozenset({"had", "get", "gets", "got", "receive", "receives", "received", "does", "do", "did"})
_SOURCE_SKIPPED = frozenset({"through", "to", "out", "off"})
_SET_OPENERS = frozenset({"any", "each", "every", "all", "one"})  # "from any of the articles ..."
# two words for one link, a few words apart ("clicking a link on X", "referenced by hyperlink from X")
_ONE_LINK_FILLER = frozenset({"a", "an", "the", "by", "via", "with", "using"})
_MEMBERS_PRONOUNS = frozenset({"them", "em", "it", "those", "these"})  # "links to them": into the members
_LEADING = frozenset({"lead", "leads", "go", "goes"})  # "pages that lead to them" (a link word there is a mention)
_Mention = tuple[int, int, str, bool, "str | None"]  # a link word's (start, stop, root, passive, way round)
_THAN_ALL = r"\b{}\b[^?.]{{0,80}}?\bthan (?:any|all|every|each)(?: of the| the)? (?:other|others|one else|the rest)\b"
_MORE_THAN_ALL, _FEWER_THAN_ALL = re.compile(_THAN_ALL.format("more")), re.compile(_THAN_ALL.format("(?:fewer|less)"))
_MOST_OF = re.compile(r"(?<!the )\bmost of (?=the|them|these|those)\b")  # "most of the papers have ...": a majority
_BOUND = re.compile(r"\bat (?:least|most)\b")  # "at least one of", "at most two": a bound, not a pick
_MODE = re.compile(  # a value's count, not a pick; "which bucket is the biggest": the largest group of one value
    r"\bmost (?:common|frequent|frequently|often|usual|typical|shared)\b|\b(?:usual|commonest|predominant|prevailing|dominant)\b"
    r"|\b(?:bucket|group|segment|bin)s? (?:is|are) (?:the )?(?:biggest|largest)\b"
    r"|\btop value\b|\b(?:breakdown|distribution)\b[^.?!]{0,30}\btop\b"  # "label breakdown top value"
    r"|\b(?:shows?|turns?|comes?|crops?) up (?:the )?most\b|\brecurs? (?:the )?most\b|\bmost prevalent\b"  # "which label
)  # shows up most"
# "most" as a determiner, not a superlative: "most papers ...", "most of the papers ...", never "the most papers"
# ("most citations among ...", "most cites in?" pick one member by its links)
_MOST_DETERMINER = re.compile(
    r"(?:^|[,;:]\s*|\b(?:do|does|did|are|were|have|has|would|will|can|which|what|where)\s+)most [a-z]+s\b"  # "do most papers"
    r"(?!\s+(?:among|in|out|of all)\b)"
    r"|\bmost of (?:the |its |their |his |her |these |those )?[a-z]+s\b|\bmost of them\b"  # "most of X's friends"
)
# What form a question's answer takes, read off its words (see answer_form)
_YES_NO_TAIL = re.compile(r"\b(?:or not|yes or no)\W*$")  # "X is in ... or not?", "..., yes or no?"
# words that ask whether something exists ("any of ... with ...", "is there one ..."), where no yes/no opener does
_EXISTENCE = re.compile(r"\b(?:any|anything|anyone|anybody|some|at least one|there (?:is|are|exists?)|exists?)\b")
# a yes/no question asked as a request to find out: "could you check whether Y is in X's friend list?"
_ASKS_WHETHER = re.compile(r"\b(?:check|verify|confirm|see|know|tell (?:me|us)|find out|wonder|determine)\w*,? (?:whether|if)\b")
_YES_NO_START = frozenset("is are am does do did can could has have was were will would should".split())
_PICK_WORDS = frozenset({"which", "who", "whose"})
_WHICH = re.compile(r"\b(which|who|whose)\b[ \t]*([a-z]*)")  # the word after it, not one past a name cut out
_ASKING_BEFORE = frozenset("find determine wonder know tell identify name see show so".split())  # "find which ..."
# the answer's form asked for ("Kindly respond with True or False", "yes or no?"): its "or" joins no two lists
TRUE_OR_FALSE = r"true\s*(?:or|/)\s*false|false\s*(?:or|/)\s*true"  # "True or False", "true/false"
_ANSWER_WANTED = re.compile(rf"\b(?:{TRUE_OR_FALSE}|yes\s*(?:or|/)\s*no)\b", re.IGNORECASE)
# "what" asking which node or value by a noun ("What item tagged X is also liked by Y?", "What genre is X?"), not a
# count ("what number of", "what count of") nor "what is ..."
_WHAT_NOUN = re.compile(
    r"(?:^|[.?!:;,]\s*)what\s+(?!(?:is|are|was|were|do|does|did|can|could|would|will|has|have|had|should|number|count"
    r"|amount|quantity|total|percentage|proportion|fraction|share|about|if|else|of|kind of number)\b)[a-z]+"
)
_ASKING_AFTER = frozenset("of one ones among has have would is was".split())  # "which of", "who among", "which has"
# a count a superlative picks by ("the highest number of", "the largest count of"): the node is asked, not the count
_SUPERLATIVE_NUMBER = re.compile(
    r"\b(?:most|fewest|least|greatest|highest|lowest|smallest|largest|biggest) (?:number|count|total|amount|quantity) of\b"
)
# a search query's pick: "X friends list with fewest friends", "top of X tags by tagged artists", "the articles linking
# to X ranked by backlinks, lowest" (where nothing asks for a number)
_QUERY_PICK = re.compile(
    r"\bwith (?:the )?(?:most|fewest|least|highest|lowest|largest|smallest|greatest)\b|(?:^|[.:;!?]\s*)top (?:of|among)\b"
    r"|\branked by\b[^.?!]{0,60}, (?:lowest|highest|top|bottom)\b"
)
# "identify the one of X with the most Y", "the argmax over X of Y", "select the one ranking top by Y", "the item from
# X with the highest count of Y": a node asked
_THE_ONE = re.compile(
    r"\bthe (?:single )?one (?:of|among)\b|\barg(?:max|min) over\b|\b(?:select|pick|choose) the (?:single )?one\b"
    r"|\bthe (?:item|element|member|entry) (?:of|from|among|in)\b"
    r"|\b(?:of|for) whichever\b"  # "the title of whichever neighbour of X has the fewest links"
)
# "which tag", "what user": the node type a question asks for (its word as :func:`_cut` cuts it follows)
_WHICH_TYPE = re.compile(r"\b(?:which|what)\s+([a-z]+)")
# "how many different tags", "count the users", "the number of distinct items": the type of the nodes counted
_COUNTED_TYPE = re.compile(
    r"\b(?:how many|number of|count(?:ing)?(?: up)?(?: all)?(?: the)?|total of)\s+"
    r"(?:(?:different|distinct|unique|separate|individual|other)\s+)?([a-z]+)"
)
# a count asked of what a request finds: "Search for other artists ...: how many are there?"
_COUNT_OF_FOUND = re.compile(r"\bhow many (?:are there|of them are there|of them|in all|in total)\b|\bcount them\b")
_FOUND_TYPE = re.compile(r"\b(?:search(?:ing)? for|find|look(?:ing)? for|list)\s+(?:all\s+)?(?:the\s+)?(?:other\s+)?([a-z]+)")
# "how many different tags": each counted once, not tags unlike something
_DIFFERENT_COUNTED = re.compile(r"\b(?:how many|number of|count(?: the)?) different\b")
# "the user that occurs most often", "which tag is the most common", "which entity occurs the highest number of
# times": where the word is a node type (not a feature), a node the members reach most often is asked, as "the most
# votes" asks it, not a feature's most common value
_NODE_OFTEN = re.compile(
    r"\b(?:the|which|what)\s+([a-z]+)\s+(?:(?:that|which|who)\s+)?(?:(?:occurs?|appears?|(?:show|come|turn)s?\s+up|is|are)"
    r"\s+(?:the\s+)?most\s+(?:often|frequently|frequent|common|typical|usual)\b"
    r"|(?:occurs?|appears?|(?:show|come|turn)s?\s+up)\s+most\b(?=\s+(?:among|in|across|within)\b)"  # "appears most among"
    # "which entity occurs the highest number of times among ...", "turns up the most times"
    r"|(?:occurs?|appears?|(?:show|come|turn)s?\s+up)\s+(?:the\s+)?(?:(?:highest|greatest|largest)\s+number\s+of|most)"
    r"\s+times\b)"
    r"|\bmost (?:frequent|frequently occurring|prevalent)\s+([a-z]+)\b"  # "tags of the artists X plays: most frequent tag"
    r"|\btop ([a-z]+) among (?:the )?(?:\3|\3s|\3es) of\b"  # "top tag among tags of the artists X plays"
    # "the tag found on most of the items they like": the one most of them carry
    r"|\bthe\s+([a-z]+)\s+(?:(?:that|which)\s+(?:is|are)\s+)?(?:found|used|seen|present|put|given|carried|attached|applied)"
    r"\s+(?:on|in|to|by|among|across)\s+most\s+of\b"
    # "the fans of X also like which other item the most?"
    r"|\balso\s+(?:[a-z]+\s+){0,2}(?:which|what)\s+other\s+([a-z]+)\b(?:\s+[a-z]+){0,4}?\s+(?:the\s+)?most\b"
    # "which tag do the items X likes most often carry?"
    r"|\b(?:which|what)\s+([a-z]+)\s+(?:do|does|did)\b[^?.!]*?\bmost\s+(?:often|frequently|commonly)\b"
    # "the most frequently carried tag among the items X likes", "the most often given tag" (not "the most frequently
    # cited paper": the member with the most citations)
    r"|\bmost (?:frequently|often|commonly) (?!(?:cited|referenced|quoted|linked|rated|tagged|followed)\b)"
    r"(?:[a-z]+ed|given|seen|worn|shown|put)\s+([a-z]+)\b"
)
# a node asked for besides the one the question names ("which other item", "what else do they like")
_OTHERS = re.compile(r"\bother\b|\belse\b|\bbesides\b|\bapart from\b")
# the two ways round of one link, not two lists: "adjacent by a citation edge in either direction", "both ways"
_LINK_BOTH_WAYS = re.compile(r"\b(?:in )?(?:either|both|any|each) (?:direction|directions|way|ways)\b")
# Two lists taken together or their overlap, as a question words it (a question with both words decides nothing)
_UNION_WAY = re.compile(  # "A ∪ B", "A plus B"
    r"\beither\b|\bor\b|\bat least one of\b|\bcombin\w*|\bmerg\w*|\bpool\w*|\b(?:al)?together\b|\bunion\b|\bplus\b"
    r"|\bbetween (?:them|the two)\b|\bin (?:total|all)\b|\ball told\b|\u222a"
    # "then add ..., skipping any already there"
    r"|\bthen add\b|\balready (?:there|in|on|listed|counted|included|present)\b"
)
_OR_BOTH = re.compile(r"\bor (?:\w+ )?both\b")  # "in A, in B, or in both": the union, though it says "both"
_BOTH_WAY = re.compile(
    r"\bboth\b|\bas well as\b|\bin common\b|\bshar\w*|\boverlap\w*|\bintersect\w*|\u2229"  # "A ∩ B"
    r"|\b(?:show|shows|turn|turns) up again\b|\bagain (?:among|in)\b|\balso (?:appear\w*|show\w* up|among|in)\b"
)
# A value compared with the subject's and found unlike it
_UNLIKE = re.compile(
    r"n't\b|\bnot\b|\boutside\b|\bdiffer\w*|\bother than\b|\bunlike\b|\banother\b|\bdisagree\w*|\bmismatch\w*"
    r"|\bunequal\b|\u2260"  # "a label unequal to X's", "label ≠ X's"
    r"|\bwithout (?:the same|its|their|\n's)\b"  # "the papers X cites without X's label" (X cut out: a line break)
    r"|\b(?:drop|remov|exclud|discard)\w* (?:the ones|those|any|all)\b"  # "drop the ones whose label matches X's"
    r"|\b(?:leav\w*|left|set\w*) (?:out|aside) (?:the ones|those|any|all)\b"  # "leaving out the ones that share X's"
)
# a named node left out of what is counted or listed ("not counting X itself", "other than X", "except X"), the name
# cut out (a line break): no value unlike the subject's ("X's label" is, so "other than X's" stays unlike)
_LEAVING_OUT = r"\b(?:not counting|other than|except(?: for)?|excluding|besides|apart from|leaving out|aside from)"
# ... or after it: "X excluded", "with X itself left out"
_LEFT_OUT_AFTER = r",?\s+(?:itself\s+|himself\s+|herself\s+)?(?:excluded|not included|left out|set aside)\b"
_NAME_LEFT_OUT = re.compile(rf"{_LEAVING_OUT}\s*\n(?!\s*['\u2019]s\b)(?:\s*itself\b)?|\n{_LEFT_OUT_AFTER}")
# One list less another, as a question words it (a name cut out: a line break): a list of the named node's own left out
# ("not counting X and their friends", "excluding X's own friends", "other than their existing friends", "leaving out
# those they already follow"), or nodes not yet linked to it ("who are not already friends with X", "that X doesn't
# listen to", "does X not cite", "but not by X")
_WITHOUT_WAY = re.compile(
    rf"(?:{_LEAVING_OUT}|\bminus|\bnot including|\bwithout)\s+(?:\n\s*(?:,\s*)?(?:and|or|nor|plus)\s+)?"
    r"(?:(?:their|his|her|its)|\n\s*['\u2019]s)\s+(?:own\s+|current\s+|existing\s+|direct\s+)?[a-z]+s\b"
    rf"|(?:{_LEAVING_OUT}|\bminus|\bnot including|\bwithout)\s+(?:\n\s*(?:,\s*)?(?:and|or|nor|plus)\s+)?"
    r"(?:those|the ones|the [a-z]+s|any(?:one)?|anybody|everyone)\b[^?.!]{0,60}?\balready\b"
    r"|\bneither\s+\n\s*nor\s+(?:(?:their|his|her|its)|\n\s*['\u2019]s)\s+(?:own\s+)?"  # "neither X nor its own"
    r"|(?:\bnot|n't|\bnever)\s+(?:[a-z]+\s+)?(?:already|yet)\b"  # "not already friends with X"
    # a name a link is denied to ("do not cite X", "not cited directly by X", "but not X"), not a value compared
    # ("don't match X on label", "not in X's area") nor the one name left out ("not counting X")
    r"|(?:\bnot|n't|\bnever)\s+(?!counting\b|including\b|match|shar|agree|equal|same\b|like\b|as\b|in\b)"
    r"(?!(?:the\s+)?(?:one|ones|that|those|same)\b)"  # "whose label is not the one X has", "not that of X"
    r"(?:[a-z]+\s+){0,3}?\n(?!\s*['\u2019]s\b)"
    r"|\n\s*(?:does|do|did|has|have|had)\s*(?:n't\b|not\b|never\b)"  # "that X doesn't", "X has never rated"
    r"|[a-z,]\s+(?:does|do|did|has|have)\s+\n\s*(?:not|never)\b"  # "which of them does X not cite"
)
# the nodes one or two links from a node, asked as one list: "within two citation links of X", "at most two hops
# away", "in up to two clicks", "X's two-hop neighbourhood"
_WITHIN_TWO = re.compile(
    r"\b(?:within|(?:in |at )?(?:up to|at most|no more than))\s+(?:two|2)\s+(?:[a-z-]+\s+)?"
    r"(?:links?|hops?|steps?|clicks?|edges?|jumps?)\b|\b(?:two|2)[- ]hop neighbou?rhood\b"
)
# the others asked for, the one node named among them left out: "how many other movies ...", "which other artists ..."
_OTHERS_ASKED = re.compile(
    r"\b(?:how many|number of|count of|count(?: up)? the|which|what|search(?:ing)? for|find|look(?:ing)? for|list)"
    r"(?: all| the)? other\b"
)
# the one node named, left out by a pronoun: "apart from that paper itself", "not counting itself", "other than it"
_SELF_LEFT_OUT = re.compile(rf"{_LEAVING_OUT}\s+(?:(?:that|this|the)\s+[a-z]+\s+itself|itself|it)\b(?!\s*['\u2019]s)")
_ALIKE = re.compile(r"\bsame\b|\bshar\w*|\bmatch\w*|\bidentical\b|\blike\b|\bagree\w*|\bequal\w*|\bas well\b|\btoo\b")
# A list asked for by name ("list", "name them", "spell out"), where nothing asks for a count or a pick
_LIST_PHRASE = re.compile(
    r"\blist\b(?! neighbou?rs?\b)|\bnames\b|\bname (?:of )?(?:them|all|each|every|what|those|the ones)\b|\benumerate\b|\bspell out\b"
    r"|\bevery one of\b|\bby name\b|\bidentify (?:those|the ones|the members|all|each|every)\b"  # "identify those of"
    r"|(?:^|[.?!:,]\s*)name the\b|\b(?:what|find the) (?:nodes|ones|items|entities|elements|members)\b"  # "Name the common members"
    r"|\bwhat (?:are|were) (?:the|all)\b"  # "What are the papers X cites whose label is L?"
    r"|(?:^|[.?!:]\s+)all of\b"  # "All of the papers X cites?": a sentence that opens with it
    r"|\bwhat\b[^.?!]*\b(?:are|were)[\s.?!]*$"  # "I'd like to know what the listeners of X are."
)
_SHOW_ME = re.compile(r"^\W*show me\b")  # a list asked for, where no superlative picks one node of it
# Counted once each: what one node's arcs never need ("distinct", "unique", "without duplicates", "counted once")
_DISTINCT = re.compile(
    r"\bdistinct\b|\bunique\b|\bduplicat\w*|\bonce\b|\btwice\b"
    r"|\bone time\b|\btwo times\b|\bwithout doubles?\b|\bno doubles?\b"  # "count one time each", "not ... two times"
)
# Words for a link that share no stem with its relation's label, and the words they stand for (stemmed as the
# question's are): "the fans of X", "X plays" are listeners; "labels" are tags; a "buddy" is a friend. English.
_STEM_SYNONYMS = {
    "fan": ("listen", "liked", "likes"), "fans": ("listen", "liked", "likes"),  # an item's fans like it too
    "play": ("listen",), "plays": ("listen",), "playe": ("listen",), "playi": ("listen",), "hear": ("listen",), "heard": ("listen",), "label": ("tag", "tags", "tagged"),
    "bibli": ("cite", "cites"), "buddy": ("friend",), "buddi": ("friend",), "befri": ("friend",),
    # "X streams", "X's audience", "X's playlists", "filed under", "X sends traffic to", "the pages X mentions",
    # "X's connections", "X's network", "X's pals", "X's history"
    "strea": ("listen",), "audie": ("listen",), "playl": ("listen",), "filed": ("tag", "tags", "tagged"),
    "traff": ("link", "links"), "send": ("link", "links"), "sends": ("link", "links"),
    "menti": ("link", "links", "cite", "cites"), "conne": ("friend", "follow"), "netwo": ("friend", "follow"),
    "pal": ("friend",), "favou": ("listen", "like", "likes"), "favor": ("listen", "like", "likes"),
    "pals": ("friend",), "histo": ("listen",),  # "the users in whose (listening) history X appears"
    # "where was X born", "where did X die", "who is X married to"
    "born": ("birth",), "die": ("death",), "died": ("death",), "dies": ("death",), "burie": ("burial",),
    "marri": ("spouse",), "wife": ("spouse",), "husba": ("spouse",),
    "citiz": ("nationality",),  # "what country is X a citizen of", "X's citizenship"
}  # fmt: skip
# English words made of a prefix and a word that may name a relation ("hyperlinks", "backlinks", "subgenres",
# "hashtags"): the second part is read as a word of its own as well, at the same place. English.
_COMPOUND = re.compile(r"(hyper|back|inter|cross|sub|hash|web)([a-z]{4,})")
# A node asked for among a list's own members ("which one of", "of the X, which", "the single one of"): the member
# with the most links, never a node the members link to
_MEMBER = re.compile(
    r"\b(?:one|which|who|whichever) of\b|\bsingle one\b|^\s*(?:of|out of|among|in) [^,?]{1,200}, (?:which|who|whose)\b"
    r"|\brank(?:s|ed)? (?:them|those|these)\b"  # "rank them by ...: which comes first?"
    r"|(?:^|[.:;!?]\s)\s*rank\b"  # "Rank the papers X cites by citations: who comes out number one?"
    r"|\barg(?:max|min) over\b"  # "the argmax over X of its in-degree": one of X
    r"|(?:^|[.:;!?]\s)\s*top of\b"  # a search query: "top of the articles linking to X by backlinks"
    r"|^[^?]*\bwith (?:the )?(?:most|fewest|least)\b[^?]*$"  # and "the items tagged X with most fans" (no "?")
    r"|\branked by\b"  # "the articles linking to X ranked by backlinks, lowest"
    # "Most listens among the users that listen to X?": the user with the most listens of its own; so with the links
    # named by several words, then their noun ("Most tv program genre of neighbours among the ...")
    r"|^\W*(?:the )?(?:most|fewest|least) (?!common\b|frequent\w*|popular\b|often\b|usual\b)"
    r"(?:\w+|(?:\w+ ){1,12}(?:neighbou?rs|links|connections)) among\b"
    # "The entities linked to X by R: most S links?": the list first, then its member with the most links
    r"|:\s*(?:the )?(?:most|fewest|least) (?!common\b|frequent\w*|popular\b|often\b|usual\b)"
    r"(?:\w+ ){0,12}(?:neighbou?rs|links|connections)\W*$"
    r"|\b(?:select|pick|choose) the (?:single )?one\b|\bthe (?:item|element|member|entry) (?:of|from|among|in)\b"
)
# words between a superlative and the link it counts ("the largest number of outgoing references"); not "the most
# popular among the linked ...", nor "most of the papers citing X" (a majority)
_COUNTING_LINKS = frozenset(
    {"number", "count", "total", "amount", "of", "the", "outgoing", "incoming", "inbound", "outbound", "in", "out"}
)
# words asking for a node's category, not its name, where the question spells no feature ("the research area of the
# most cited of them", "which topic does ... belong to")
_CATEGORY_ASKED = re.compile(r"\b(?:area|topic|category|categories|class|classes|field|subject|label)s?\b")
# Each member of a list votes for the nodes it links to: the node with the most votes is one they link to; so is the
# one with the highest tally or multiplicity (how often the members reach it)
_VOTES = re.compile(r"\bvotes?\b|\btall(?:y|ies|ied)\b|\bmultiplicity\b")
# words that word what is asked or counted, never the name asked about (a tag may be called "find" or "common")
_ASKING_WORDS = _FUNCTION_WORDS | _ASKING_BEFORE | _COUNTING | _MOST_WORDS | _FEWEST_WORDS | frozenset(
    "count number list enumerate give please confirm whether would could should does do did can like across each "
    "one ones some every none also both either together common frequent often usual typical shared popular size "
    "total".split()
)
# "the artists tagged with any of the tags given to X": what is asked about is reached from a list of X's
# neighbours, two hops away; not after a word that opens a yes/no ("does any of the papers ... have ...") or that
# asks ("can you find any of the papers ... whose label is ...")
_NOT_THROUGH = _YES_NO_START | frozenset("whether would if will had there find see name show tell know".split())
_THROUGH_ANY = re.compile(  # "the friends of any of X's friends" too (X cut out: a line break)
    rf"\b(?!(?:{'|'.join(sorted(_NOT_THROUGH))})\b)[a-z]+ any (?:one )?of (?:the\b|\n['\u2019]s\b)"
)
# "the papers citing the papers that X cites": a link from the members of a list the clause after it names
_THROUGH_CLAUSE = re.compile(
    r"\b[a-z]+(?:ing|ed)\s+(?:(?:by|to|from|on)\s+){0,2}the\s+[a-z]+\s+(?:that|which|who)\s+\n"
    # "the users who are friends with someone who listens to X", "follow someone who likes X": linked to any one of a
    # list (not "is there anyone who ...": a yes/no)
    r"|\b(?!(?:is|are|was|were|there|does|do|did)\b)[a-z]+\s+(?:someone|somebody|anyone|anybody|at least one"
    r"(?: user| person)?)\s+(?:who|that|which)\b"
)
# two hops written as a distance: "two citation steps away from X", "2 hops out", "at distance two from X",
# "reached through one of its neighbours"
_TWO_STEPS = re.compile(
    r"\b(?:two|2)(?:[ -][a-z]+)?[ -](?:steps?|hops?|jumps?|clicks?|links?|moves?)\b(?! (?:back|up|down))"
    r"|\b(?:at )?(?:a )?distance (?:of )?(?:two|2)\b"
    r"|\b(?:through|via|by way of) (?:one|any|some) of (?:its|their|his|her|\n['\u2019]s) [a-z]+"
)
# "link to the articles that link to X", "cite the papers that cite X": a link word, then a list named by a clause
# whose own link word takes the name
_LINK_TO_CLAUSE = re.compile(
    r"\b([a-z]+)\s+(?:(?:to|from|by|on)\s+)?the\s+[a-z]+\s+(?:that|which|who)\s+([a-z]+)\s+(?:(?:to|from|by|on)\s+)?\n"
)
# "the friends of X's friends", "friends of friends of X", "the listeners of the tags of X"
_LINK_OF_LINKS = re.compile(r"\b([a-z]+) of \n['\u2019]s ([a-z]+)|\b([a-z]+) of (?:the |their |its )?([a-z]+) of \n")
_HOW_ASKED = re.compile(r"\bhow (?:many|much)\b")  # not "the highest number of times": a pick's measure
_HOW_MANY = re.compile(rf"{_HOW_ASKED.pattern}|\bnumber of\b")  # a count asked for, even beside "which"
# "|S|", "|A ∩ B|": a set's size as mathematics writes it (between bars, with no space inside either bar)
_CARDINALITY = r"\|(?! )[^|\n]{1,40}(?<! )\||\bcardinality\b"
_COUNT_PHRASE = re.compile(
    rf"{_HOW_MANY.pattern}|\bcount\b|\btotal\b|\btally\b|\b(?:size|amount|quantity) of\b|{_CARDINALITY}"
    r"|\bwhat(?:'s| is)?(?: the)? number\b"  # "what's the number with label L?", "what number have L for label?"
    r"|\bheadcount\b|\bjust the (?:#|number\b)"  # "the overlap ..., as a headcount?", "overlap btwn X and Y? just the #"
)
MAX_VALUES = 500  # a feature with more distinct values than this (titles, names) is not listed as a value choice
@per_store
def name_types(store: GraphStore) -> dict[str, frozenset[str]]:
    """``normalised name -> the types of the nodes with that name`` (:func:`name_nodes`), read once per store (again
    when it grows)."""
    return {name: frozenset(map(store.node_type, nodes)) for name, nodes in name_nodes(store).items()}


@per_store
def name_nodes(store: GraphStore) -> dict[str, tuple[str, ...]]:
    """``normalised name -> the nodes with that name``, read once per store (again when it grows)."""
    found: dict[str, list[str]] = {}
    for node in store.nodes():
        text = store.text(node)
        # a node without a name of its own is retrieved by its id only where the id reads as a name ("Carbon";
        # not "u40" or "1131348")
        if text != node or any(ch.isupper() for ch in text):
            found.setdefault(normalise(text), []).append(node)
    return {name: tuple(nodes) for name, nodes in found.items()}


REVERSE_SAMPLE = 64  # arcs of each relation read to tell which relations lead back


@per_store
def reverse_relations(store: GraphStore) -> dict[str, frozenset[str]]:
    """``relation -> the relations that lead back`` (``cites`` -> ``cited_by``; a symmetric one to itself), read
    once per store (again when it grows) from up to :data:`REVERSE_SAMPLE` arcs of each relation, one per node
    from nodes taken in a fixed shuffled order: a relation leads back only where it reverses every arc read.
    Where many links run both ways (Wikispeedia), the arcs of the first few nodes read ``linked_from`` as its
    own reverse."""
    nodes = list(store.nodes())
    random.Random(0).shuffle(nodes)
    arcs: dict[str, list[tuple[str, str]]] = {}
    for node in nodes:
        for relation in store.relations(node):
            if len(arcs.setdefault(relation, [])) < REVERSE_SAMPLE:
                arcs[relation] += [(node, other) for other in store.neighbors(node, relation)[:1]]
    found: dict[str, frozenset[str]] = {}
    for relation, pairs in arcs.items():
        if pairs:
            back = set(store.relations(pairs[0][1]))
            for source, target in pairs:
                back = {r for r in back if source in store.neighbors(target, r)}
            found[relation] = frozenset(back)
    return found


@per_store
def feature_values(store: GraphStore) -> dict[str, frozenset[str]]:
    """``feature -> its distinct values`` (as text) for the features with at most :data:`MAX_VALUES` of them (a
    label, a genre; not a title), read once per store (again when it grows)."""
    found: dict[str, set[str]] = {}
    for node in store.nodes():
        for key, value in store.features(node).items():
            if key in found and len(found[key]) > MAX_VALUES:
                continue
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if item is not None and str(item).strip():
                    found.setdefault(key, set()).add(str(item))
    return {key: frozenset(values) for key, values in found.items() if len(values) <= MAX_VALUES}


@per_store
def shared_features(store: GraphStore) -> frozenset[str]:
    """The features whose values nodes share (a label, a genre): at most :data:`MAX_VALUES` of them, and at most half
    as many as the nodes that have the feature; not a title or an abstract, each node's own. A most common value is
    counted over these."""
    holders: dict[str, int] = {}
    for node in store.nodes():
        for key, value in store.features(node).items():
            if value is not None and str(value).strip():
                holders[key] = holders.get(key, 0) + 1
    return frozenset(key for key, values in feature_values(store).items() if 2 * len(values) <= holders.get(key, 0))


def quoted_names(question: str) -> tuple[str, ...]:
    """The names ``question`` puts in double quotes (straight or curly), each once, that the call language can
    carry (no brackets); empty when it quotes none."""
    found = (a or b for a, b in _QUOTED.findall(question))
    return tuple(dict.fromkeys(name for name in found if name.strip() and not set(name) & set("[]")))


def question_names(store: GraphStore, question: str) -> tuple[str, ...]:
    """The names ``question`` gives as names, as it writes them: those it puts in double quotes or, where it quotes
    none, the runs of its words that are some node's whole name and hold two words or more besides "the", "of"
    and the like (case, spacing and punctuation aside; the longest run first, left to right), and the single
    words that are, written with a capital inside a sentence ("the articles Carbon links to"). A question that
    quotes names has said where they are ("the union" is a tag on Last.fm, and a phrase of many questions), but
    for a numbered or proper name it writes bare beside them (:func:`_bare_names`: "Is "Airbourne" liked by user 85?")."""
    quoted = quoted_names(question)
    if quoted:
        return _bare_names(store, question, quoted)
    if not question:
        return quoted
    named = name_types(store)
    words = _name_words(question)
    values = [(m.start(), m.end()) for m in _value_pattern(store).finditer(question.lower())] if words else []

    def inside_value(start: int, end: int) -> bool:  # "Information" in the label "Information Retrieval"
        return any(a <= start and end <= b and b - a > end - start for a, b in values)

    found = []
    for start, stop in _name_runs(words, named, lambda a, b: not inside_value(words[a][0], words[b - 1][1])):
        if stop > start + 1:
            found.append(_closed(question, words[start][0], words[stop - 1][1]))
            continue
        begin, end, word = words[start]
        if (
            word in named and _capitalised_inside(question, begin, end) and word not in _FUNCTION_WORDS
            and not inside_value(begin, end)
        ):  # fmt: skip
            found.append(question[begin:end])
    return tuple(dict.fromkeys(found))


def left_out_names(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """Those of ``names`` (the question's, :func:`question_names`) that ``question`` leaves out of what it counts or
    lists: written right after "not counting", "other than", "except", "excluding", "besides" and the like, quoted or
    not, and not as an owner ("other than X's label" compares a value); the one name there is, where a pronoun
    leaves it out ("apart from that paper itself", "other than it") or the question asks for the others ("how many
    other movies share a genre with X", "which other artists")."""
    if len(names) == 1 and (_SELF_LEFT_OUT.search(question.lower()) or _OTHERS_ASKED.search(question.lower())):
        return tuple(names)  # "apart from that paper itself", "how many other movies share a genre with X": X aside
    return tuple(
        name for name in names
        if re.search(rf"{_LEAVING_OUT}\s+[\"\u201c]?{re.escape(name)}(?![\"\u201d]?['\u2019]s\b)", question, re.IGNORECASE)
        or re.search(rf"{re.escape(name)}[\"\u201d]?{_LEFT_OUT_AFTER}", question, re.IGNORECASE)
    )  # fmt: skip


def _bare_names(store: GraphStore, question: str, quoted: tuple[str, ...]) -> tuple[str, ...]:
    """``quoted``, with the names ``question`` writes bare beside them, all in the order it writes them: a run of
    words that is some node's whole name and is numbered ("user 85", a Last.fm user: two words or more besides
    "the", "of" and the like, one of them holding a digit) or written as a proper name where no sentence starts
    (each word but "the", "of" and the like capitalised: "The Bluetones", "Madonna"); the longest first; never a
    feature's value nor inside one ("whose label is Information Retrieval"). A run of plain words stays no name where
    names are quoted ("the union", "love songs" are Last.fm tags)."""
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(question)]
    spans += [(m.start(), m.end()) for m in _value_pattern(store).finditer(question.lower())]  # no name in a value
    words = [word for word in _name_words(question) if not any(a <= word[0] < b for a, b in spans)]
    named = name_types(store)
    found = [(question.find(f'"{name}"'), name) for name in quoted]

    def proper(a: int, b: int) -> bool:
        return _capitalised_inside(question, words[a][0], words[a][1]) and all(
            question[start].isupper() or word in _FUNCTION_WORDS for start, _, word in words[a:b]
        )

    labels = _label_values(store)  # "whose label is Agents": a value, though a paper may be called so

    def bare(a: int, b: int) -> bool:
        text = question[words[a][0] : words[b - 1][1]]
        if '"' in text or normalise(text) in labels:
            return False
        numbered = b - a > 1 and sum(word not in _FUNCTION_WORDS for _, _, word in words[a:b]) >= 2
        return (numbered and any(c.isdigit() for c in text)) or proper(a, b)

    for a, b in _name_runs(words, named, bare, least=1):
        if b > a + 1 or (words[a][2] in named and words[a][2] not in _FUNCTION_WORDS and bare(a, b)):
            found.append((words[a][0], question[words[a][0] : words[b - 1][1]]))
    return tuple(dict.fromkeys(name for _, name in sorted(found, key=lambda pair: pair[0])))


def _name_runs(
    words: Sequence[tuple[int, int, str]], named: Container[str], accept: Callable[[int, int], bool], least: int = 2
) -> Iterator[tuple[int, int]]:
    """Walk ``words`` (:func:`_name_words`) left to right: at each, the longest run of two words or more, ``least``
    of them besides "the", "of" and the like, that is some node's whole name (in ``named``) and that
    ``accept(start, stop)`` allows, as ``(start, stop)``, going on after it; where none begins, ``(start, start + 1)``
    for the one word."""
    index = 0
    while index < len(words):
        for stop in range(min(len(words), index + MAX_NAME_WORDS), index + 1, -1):
            run = [word for _, _, word in words[index:stop]]
            if " ".join(run) in named and sum(word not in _FUNCTION_WORDS for word in run) >= least and accept(index, stop):
                yield index, stop
                index = stop
                break
        else:
            yield index, index + 1
            index += 1


@per_store
def _value_pattern(store: GraphStore) -> re.Pattern[str]:
    """One pattern for the feature values of two words or more that are no node's name (:func:`feature_values`: a
    label "Information Retrieval", not a title), whole words, the longest first; a name is never looked up inside
    one."""
    names = name_types(store)  # a title in a small graph has few values too: a node's name is not a label
    values = {
        v.lower() for found in feature_values(store).values() for v in found
        if len(_WORD.findall(v.lower())) >= 2 and normalise(v) not in names
    }  # fmt: skip
    alternatives = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)) or "(?!)"
    return re.compile(rf"(?<![a-z0-9])(?:{alternatives})(?![a-z0-9])")


def written_name_runs(
    store: GraphStore, question: str, names: Sequence[str], schema: Sequence[str] = ()
) -> tuple[str, ...]:
    """Where ``question`` quotes no name: the runs of its words that are some node's whole name and could be the
    name it asks about, as it writes them: those of :func:`question_names` (``names``), then, left to right, any
    other run outside them, outside the feature values the question writes ("Human-Computer Interaction") and not
    one itself ("Theory"), with a word of two letters or more that is not a function word, a word that words the
    asking ("find", "count", "most", "common") or one of the ``schema``'s words (its relations, features and node
    types, compared by stem). Last.fm's tags are words ("europa", "experimental"): "the artists
    tagged europa" names a node that :func:`question_names` cannot tell from the words around it, while "Find",
    "artists" and "tags" are no candidates. Empty where the question quotes a name."""
    if quoted_names(question):
        return ()
    named = name_types(store)
    stems = {_cut(word) for name in schema for word in _WORD.findall(name.lower().replace("_", " "))}
    taken = [(m.start(), m.end()) for name in names for m in re.finditer(re.escape(name), question)]
    taken += [(m.start(), m.end()) for m in _value_pattern(store).finditer(question.lower())]  # a label's words
    words, values = _name_words(question), _label_values(store)

    def naming(word: str) -> bool:
        return len(word) >= 2 and word not in _ASKING_WORDS and _cut(word) not in stems

    found = list(names)
    for index in range(len(words)):
        for stop in range(index + 1, min(len(words), index + MAX_NAME_WORDS) + 1):
            start, end = words[index][0], words[stop - 1][1]
            run = [word for _, _, word in words[index:stop]]
            text = " ".join(run)
            if any(a < end and start < b for a, b in taken) or text not in named or text in values:
                continue
            if any(naming(word) for word in run):
                found.append(_closed(question, start, end))
    return tuple(dict.fromkeys(found))


def _name_words(question: str) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of each of ``question``'s words as a node's name is compared (:func:`normalise`)."""
    return [(m.start(), m.end(), unicodedata.normalize("NFKC", m.group()).casefold()) for m in _NAME_WORD.finditer(question)]


@per_store
def _label_values(store: GraphStore) -> frozenset[str]:
    """The values, normalised, of the features with few values that are not a name or title (a name is no label,
    however few names a small graph has)."""
    text_keys = set(store.text_keys.values())
    return frozenset(normalise(v) for key, found in feature_values(store).items() if key not in text_keys for v in found)


def _closed(question: str, start: int, end: int) -> str:
    """The name at ``start:end`` with its brackets balanced where the question writes them just outside its words
    ("Henry Wood (conductor)", whose last word is "conductor"; "(LP)2, an Adaptive ...", whose first is "LP")."""
    while end < len(question) and question[end] == ")" and question.count("(", start, end) > question.count(")", start, end):
        end += 1
    while start and question[start - 1] == "(" and question.count(")", start, end) > question.count("(", start, end):
        start -= 1
    return question[start:end]


def _capitalised_inside(question: str, start: int, end: int) -> bool:
    """The word at ``start:end`` is capitalised where a sentence does not start, so it is written as a proper name
    ("the articles Carbon links to"; not "Which ...", nor a word after a full stop), and has two letters or more. A
    word in a script without capitals ("後藤真希") counts as capitalised."""
    before = question[:start].rstrip()
    first = question[start]
    proper = first.isupper() or (first.isalpha() and first.lower() == first.upper())
    return end - start >= 2 and proper and bool(before) and before[-1] not in ".?!"


def extreme_of(text: str) -> str | None:
    """``"most"`` or ``"fewest"`` when ``text`` (a question outside its names) words superlatives one way round only
    ("which has the least ...", "tops the list for", "leads in", "more ... than any other"); None when it words
    both, or neither. "At least" and "at most" bound a count; they pick nothing."""
    lower = _LEADS.sub(" most ", _FEWER_THAN_ALL.sub(" fewest ", _MORE_THAN_ALL.sub(" most ", text.lower())))
    if _RANKED.search(lower) and _FIRST.search(lower) and not _LOW_FIRST.search(lower):  # "rank them by ...": first
        lower += " most "
    elif _RANKED.search(lower) and _LAST.search(lower):  # "select the one ranking last by ..."
        lower += " fewest "
    if _NUMBER_ONE.search(lower):
        lower += " most "
    words = set(_WORD.findall(_MOST_OF.sub(" ", _MODE.sub(" ", _BOUND.sub(" ", lower)))))
    most, fewest = bool(words & _MOST_WORDS), bool(words & _FEWEST_WORDS)
    return "most" if most and not fewest else "fewest" if fewest and not most else None


def pair_way(text: str, names: Sequence[str], relations: Sequence[str]) -> str | None:
    """``"most"`` or ``"fewest"`` where ``text`` (a question outside its ``names``, each cut out to a line break) sets
    its two named nodes side by side to pick one by a comparative going one way ("which has more citations, X or
    Y?", "X vs Y: fewer links?"); None where it does not (other names, other words between them, "both X and Y",
    "more than", comparatives both ways or none, or a word for one of ``relations`` touching the two names:
    "the papers X and Y cite", unless "the two" names them again: "count the references of X, then those of Y;
    which of the two ...")."""
    lower = text.lower()
    joins = list(_PAIR_JOIN.finditer(lower))
    if len(names) != 2 or len(joins) != 1 or _NOT_A_PAIR.search(lower):
        return None
    joined = joins[0]
    before = _BEFORE_PAIR.search(lower[: joined.start()])
    after = _AFTER_PAIR.search(lower[joined.end() :])
    touching = [word for found in (before, after) if found for word in found.group(1).split()]
    # "X or Y has more", "comparing X with Y": the verb and the asking, not ``has_part`` nor a relation of comparison
    touching = " ".join(w for w in touching if w not in _AUXILIARIES and not w.startswith("compar") and w not in _ASKING_WORDS)
    if link_mentions(touching, relations) and not _THE_TWO.search(lower):
        return None
    words = set(_WORD.findall(lower))
    more, fewer = bool(words & _MORE_WORDS), bool(words & _FEWER_WORDS)
    return "most" if more and not fewer else "fewest" if fewer and not more else None


# Two named nodes compared by their links, one against the other ("Does X have more citations than Y?", "How many more
# links does X have than Y?", "the gap in listeners between X and Y"): the words that set the second against the first,
# and those asking by how much they differ
_VERSUS = re.compile(r"\b(?:than|compared|comparing|relative|against|the first|the former)\b")
_VERSUS_GAP = re.compile(r"\b(?:vs|versus)\b")  # "X vs Y: how many more links?" (no more: "X vs Y more links", which)
_GAP = re.compile(r"\b(?:difference|differ by|differs by|gap|by how many|by how much)\b")
_AFTER_THAN = re.compile(r"\b(?:than|compared (?:with|to)|relative to|against)(?: (?:that|those) of| for| at| does| do| the)? *$")


def versus_way(text: str, names: Sequence[str], form: str | None) -> str | None:
    """How ``text`` (a question outside its two ``names``, each cut out to a line break) compares its two named nodes
    by their links, one against the other: ``"more"`` or ``"fewer"`` for a yes or no ("Does X have fewer citations
    than Y?", "Compared with Y, does X have more links?"), ``"gap"`` for by how many ("How many more listeners does X
    have than Y?", "the gap in listeners between X and Y"); None where it does not (one name or three, a
    comparative going both ways or none, no word setting one against the other, or it asks which node: "which has more
    citations, X or Y?" picks one of the two)."""
    lower = text.lower()
    if len(names) != 2 or form in ("which", "pick") or lower.count("\n") < 2:
        return None
    words = set(_WORD.findall(lower))
    more, fewer = bool(words & _MORE_WORDS - _MOST_WORDS), bool(words & _FEWER_WORDS - _FEWEST_WORDS)
    if _GAP.search(lower) or (form == "number" and (more or fewer) and (_VERSUS.search(lower) or _VERSUS_GAP.search(lower))):
        return "gap"
    if more == fewer or not _VERSUS.search(lower) or form == "number":
        return None
    return "more" if more else "fewer"


def versus_order(question: str, names: Sequence[str]) -> tuple[str, str]:
    """The two ``names`` of a ``question`` comparing one against the other, the compared one first: the one "than",
    "compared with", "relative to" or "against" comes just before is the second ("Compared with Y, does X have more
    links?"); else the order they are written in ("Count the links of X, then those of Y: does the first ...")."""
    lower = question.lower()
    at = {name: lower.find(name.lower()) for name in names}
    ordered = sorted(names[:2], key=lambda name: at[name] if at[name] >= 0 else len(lower))
    for index, name in enumerate(ordered):
        if at[name] > 0 and _AFTER_THAN.search(lower[: at[name]].rstrip(" \"'\u201c")):
            return ordered[1 - index], name
    return ordered[0], ordered[1]


# a node asked for as where a link goes: "where does it go?", "where do they lead?"
_WHERE_TO = re.compile(r"\bwhere (?:does|do|did|will|would) (?:it|they|that|this|the link|the \w+ link) (?:go|lead|point|end up|take)\b")


def answer_form(text: str, extreme: str | None, features: Sequence[str] = ()) -> str | None:
    """What ``text`` (a question outside its names) asks for, where its words say it: ``"yes/no"`` (its asking
    sentence, the last with a "?", or that sentence's last clause, opens with "is", "does", "can" ..., not "do you
    know" or "can you"), ``"pick"`` (one node: "which" or "who" with superlatives
    going one way, ``extreme``; not "which label", a value of one of ``features``), ``"number"`` ("how many",
    "number of" but not "the largest number of", "count", "total"), ``"which"`` (it asks which or who, and not
    how many: a node or a value, never a count or a yes/no), ``"list"`` (a set's names: "list", "name them",
    "spell out"); None where they do not."""
    lower = text.lower()
    words = _WORD.findall(lower)
    if not words:
        return None
    # a question told in several sentences asks in its last one that ends in "?" ("Collect ... Is X on the list?"),
    # or in a clause of it after a colon ("Walk through ...: do you meet X?")
    asking = next((part for part in reversed(_SENTENCE_END.split(text)) if "?" in part), text)
    last_clause = [_CLAUSE_END.split(asking)[-1]] if "?" in asking else []
    asked = any(_asks_yes_no(clause) for clause in [asking, *last_clause]) or _YES_NO_TAIL.search(asking)
    if asked or _ASKS_WHETHER.search(asking.lower()):
        return "yes/no"
    # a feature's words that say what it is ("label", "speech" of part_of_speech; not "of": "which of ...")
    keys = {_cut(word) for feature in features for word in _WORD.findall(feature.lower()) if word not in _FUNCTION_WORDS}
    asks_value = any(word in _PICK_WORDS and _cut(after) in keys for word, after in zip(words, words[1:], strict=False))
    asks_which = _asks_which(lower) or bool(_WHERE_TO.search(lower) or _WHAT_NOUN.search(lower))
    picked = asks_which or _THE_ONE.search(lower) or (_QUERY_PICK.search(lower) and not _HOW_MANY.search(lower))
    if extreme is not None and picked and not _HOW_ASKED.search(lower) and not asks_value:
        return "pick"
    if asks_which and not _HOW_MANY.search(lower):  # "If you tally the tags ..., which one wins?": not a count
        return "which"
    if _COUNT_PHRASE.search(_SUPERLATIVE_NUMBER.sub(" ", lower)):
        return "number"
    if _LIST_PHRASE.search(lower) or (extreme is None and _SHOW_ME.search(lower)):  # "Show me the papers X cites."
        return "list"
    return None


# the count of the member a superlative picks, asked beside the pick: "find the one with the most X and count its X",
# "the number of X of the member ... with the most", "report how many it has"
_PICK_COUNTED = re.compile(
    r"\bcount (?:its|it|them|their)\b|\breport how many\b|\b(?:number|count) of (?:[\w'-]+ ){1,8}?of the (?:member|item|one|entity)\b"
)
# the top (bottom) count itself: "the highest number of X among S", "S: highest X count?"; not "the one with the most"
_TOP_COUNT = re.compile(
    r"\b(?:most|fewest|least|greatest|highest|lowest|smallest|largest|biggest|top|maximum|minimum) (?:[\w'-]+ ){0,4}?"
    r"(?:number|count|total)\b(?! of the (?:member|item|one|entity)\b)"
)


def picked_count(text: str, form: str | None, extreme: str | None) -> bool:
    """Whether ``text`` (a question outside its names, whose ``form`` and ``extreme`` :func:`answer_form` and
    :func:`extreme_of` read) asks how many links the member a superlative picks has: "how many citations does the one
    of X's references with the most citations have?", "find the one with the most X and count them", "what is the
    highest number of listeners any of X's artists has?" (the same number: the top count is the picked one's)."""
    if extreme is None:
        return False
    lower = text.lower()
    if form == "number":
        return True
    if form == "pick":
        return bool(_PICK_COUNTED.search(lower))
    if form not in (None, "which") or _asks_which(lower) or _THE_ONE.search(lower) or _QUERY_PICK.search(lower):
        return False  # "identify the paper ... with the greatest number of citations": the paper, not its count
    return bool(_TOP_COUNT.search(lower))


@per_store
def _type_names(store: GraphStore) -> dict[str, str]:
    """``the last word of a node type's name, as :func:`_cut` cuts it -> the type``, for every type of ``store``; read
    once per store."""
    types = store.node_types()
    return {_cut(words[0]): node_type for node_type in types if (words := _WORD.findall(node_type.lower())[-1:])}


@per_store
def _type_words(store: GraphStore) -> dict[str, str]:
    """:func:`_type_names` where ``store`` has several types (none where it has one: a question then never tells types
    apart); read once per store."""
    return _type_names(store) if len(store.node_types()) >= 2 else {}


# a node type's word right before a quoted name: "the tag "duran duran"", "user "u7"", "the item 'X'"
_TYPE_BEFORE_QUOTE = re.compile(r"\b([a-z]+)\s+[\"\u201c']([^\"\u201d\n]+)[\"\u201d']")


def declared_types(store: GraphStore, question: str) -> dict[str, str]:
    """``normalised name -> the node type`` the question writes right before the quoted name ("the tag "duran
    duran"": a tag, though an artist bears that name too), where ``store`` has several types; only names that
    nodes of that type bear."""
    types, named = _type_words(store), name_types(store)
    declared = {}
    for found in _TYPE_BEFORE_QUOTE.finditer(question) if types else ():
        node_type = types.get(_cut(found.group(1).lower()))
        name = normalise(found.group(2))
        if node_type is not None and node_type in named.get(name, ()):
            declared[name] = node_type
    return declared


def counted_type(store: GraphStore, text: str) -> str | None:
    """The node type ``text`` (a question outside its names) counts by name ("how many different tags ...", "count the
    users ...", "the number of items ..."), or the one a request to find some names before "how many are there?"
    ("Search for other artists ...: how many are there?"), where ``store`` has several types; None where it names
    none."""
    return _type_after(store, text, _COUNTED_TYPE) or (
        _type_after(store, text, _FOUND_TYPE) if _COUNT_OF_FOUND.search(text.lower()) else None
    )


def asked_type(store: GraphStore, text: str) -> str | None:
    """The node type ``text`` (a question outside its names) asks for by name right after "which" or "what"
    ("Which tag occurs most ...", "what users ..."), where ``store`` has several types; None where it names none."""
    return _type_after(store, text, _WHICH_TYPE)


def _type_after(store: GraphStore, text: str, pattern: re.Pattern[str]) -> str | None:
    """The first node type ``pattern``'s group 1 writes in ``text`` (lower-cased, each word cut by :func:`_cut`), where
    ``store`` has several types; None where it writes none."""
    types = _type_words(store)
    for found in pattern.finditer(text.lower()) if types else ():
        node_type = types.get(_cut(found.group(1)))
        if node_type is not None:
            return node_type
    return None


def often_type(store: GraphStore, text: str) -> str | None:
    """The node type ``text`` (a question outside its names) asks for as the one occurring most often ("the user that
    occurs most often", "which tag is the most common", "the article that appears most among ..."), where ``store`` has
    no feature of that name; None where it asks none so."""
    types = _type_names(store)  # with one type too: its name words it ("the article that appears most among")
    for found in _NODE_OFTEN.finditer(text.lower()) if types else ():
        word = _cut(next(group for group in found.groups() if group))
        if word in types and word not in _feature_words(store):
            return types[word]
    return None


@per_store
def _feature_words(store: GraphStore) -> frozenset[str]:
    """The words of ``store``'s feature names, as :func:`_cut` cuts them; read once per store."""
    return frozenset(_cut(word) for keys in store.type_features().values() for key in keys for word in _WORD.findall(key.lower()))


def _asks_yes_no(clause: str) -> bool:
    """Whether ``clause`` (outside its names) opens as a yes/no question does: "is", "does", "can" ..., not a request
    ("do you know ...", "can you tell me ..."; "do you come across X?" asks yes or no), and not after a name."""
    opening = _WORD.findall(clause.lower())
    if not opening or opening[0] not in _YES_NO_START or clause.lstrip(" ")[:1] == "\n":  # "X is listed with ..."
        return False
    request = opening[0] not in ("do", "did") or not opening[2:3] or opening[2] in _REQUEST_VERBS
    return not (opening[1:2] == ["you"] and request)


def _asks_which(lower: str) -> bool:
    """Whether ``lower`` asks "which" or "who" ("Which of ...", "Among X, which one ...", "Find which of ..."), not
    a relative clause that says which nodes ("the users who rated X", "the papers which cite X")."""
    text = lower.lstrip()
    for found in _WHICH.finditer(text):
        before = text[: found.start()]
        words = _WORD.findall(before)
        opens_clause = before.rstrip()[-1:] in (",", ".", "?", "!", ":", ";")  # "..., which", "... . Which"
        if not before or opens_clause or (words and words[-1] in _ASKING_BEFORE):
            return True
        if words[-2:-1] == ["the"] and words[-1] != "one":  # "the papers which have ...": says which papers
            continue
        if found.group(2) in _ASKING_AFTER:
            return True
    return False


def set_way(text: str) -> str | None:
    """``"union"`` or ``"intersect"`` when ``text`` (a question outside its names) words two lists' union ("either",
    "or", "at least one of", "merging") or their overlap ("both", "as well as", "in common") and not the other;
    ``"without"`` where it words one list less another ("not counting X and their friends", "that X doesn't listen
    to", "but not by X"); else None."""
    lower = _LINK_BOTH_WAYS.sub(" ", text.lower())  # "by a citation edge in either direction": one list
    if _WITHOUT_WAY.search(lower):  # "the friends of X's friends, not counting X and their friends"
        return "without"
    if _OR_BOTH.search(lower):
        return "union"
    union, both = bool(_UNION_WAY.search(lower)), bool(_BOTH_WAY.search(lower))
    return "union" if union and not both else "intersect" if both and not union else None


def union_worded(text: str) -> bool:
    """Whether ``text`` (a question outside its names) has any word for two lists' union, beside words for their
    overlap or not (:func:`set_way` decides between the two)."""
    return bool(_UNION_WAY.search(_LINK_BOTH_WAYS.sub(" ", text.lower())))


def counted_once(text: str) -> bool:
    """Whether ``text`` (a question outside its names) asks to count each member once ("distinct", "unique",
    "without duplicates"): a list that may hold one node twice, never one node's own arcs."""
    return bool(_DISTINCT.search(text.lower()))


def compound_part(word: str) -> str | None:
    """The second part of a compound ``word`` (``hyperlinks`` -> ``links``, ``backlinks`` -> ``links``; None
    where it is none: :data:`_COMPOUND`)."""
    found = _COMPOUND.fullmatch(word)
    return found.group(2) if found else None


def compound_stems(question: str) -> list[tuple[int, str]]:
    """``(where, stem)`` of the second part of each compound word of ``question`` ("hyperlinks": ``links`` at the
    place of "hyperlinks"), stemmed as :func:`~graphreason.tools.core.retrieval.lexical.word_stems` stems."""
    found = []
    for match in _WORD.finditer(question.lower()):
        part = compound_part(match.group())
        if part is not None:
            found += [(match.start(), stem) for stem in word_stems(part)]
    return found


def _standing_for(stem: str) -> set[str]:
    """The stems of the words a question word (its first five letters, ``stem``) stands for ("fans": ``liste``)."""
    return word_stems(" ".join(_STEM_SYNONYMS.get(stem, ())))


def synonym_stems(positions: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """``positions`` (``(where, stem)`` of a question's words) with, at the same place, the stems of the words a
    word stands for where it shares no stem with them ("fans": ``liste``; "labels": ``tag``, ``tagge``)."""
    found = list(positions)
    for at, stem in positions:
        found += [(at, synonym) for synonym in sorted(_standing_for(stem))]
    return found


# words that only say which or how many, never a value in small letters: "other movies" names no occupation "other"
_NEVER_A_VALUE = frozenset("other others another same different new none no all any each every more most many few such".split())
# words for a category a value names, after a value in small letters: "the agents area", "a theory paper"
_CATEGORY_NOUNS = ("area", "field", "category", "class", "topic", "genre", "label", "group", "kind", "type")


def written_values(store: GraphStore, text: str) -> frozenset[tuple[str, str]]:
    """``(feature, value)`` of each value of a feature with few values (a label, a genre: not titles) that ``text``
    writes as the graph does, a whole word or words ("the label Databases"; in small letters too where it has two
    words or more, "machine learning papers", or stands before a node type's noun, "an agents paper"), or by its initials in capitals where no other value of the feature has
    them ("ML papers": Machine Learning; "HCI": Human-Computer Interaction)."""
    found = set()
    lower, text_keys = text.lower(), set(store.text_keys.values())
    nouns = {*_type_names(store), *map(_cut, _CATEGORY_NOUNS)}
    words = _WORD.findall(lower)
    pairs = list(zip(words, words[1:], strict=False))  # each word and the one after it
    for key, values in feature_values(store).items():
        for value in values:
            # one letter counts where it is a capital code ("gender F"), not a word ("a", "I")
            wordlike = len(value) >= 2 or (value.isupper() and value not in ("A", "I"))
            # "other movies" names no occupation "other" unless the feature is written before it ("occupation other",
            # "whose occupation is other")
            wordlike = wordlike and (value not in _NEVER_A_VALUE or bool(re.search(
                rf"\b{_cut(key)}\w*\W+(?:(?:is|was|are|were|being|as|of|equals?)\W+)?{value}\b", lower)))
            if wordlike and value in text and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text):
                found.add((key, value))
            elif key not in text_keys and wordlike:  # in small letters: never a name or title (a small graph's
                # titles are few values too); of two words or more ("machine learning papers"), or one word, as its
                # stem, right before a node type's noun or a word for a category ("an agents paper", "database papers")
                pattern = rf"(?<!\w){re.escape(value.lower())}(?!\w)"
                parts = _WORD.findall(value.lower())
                if len(parts) >= 2 and value.lower() in lower and re.search(pattern, lower):
                    found.add((key, value))
                elif len(parts) == 1 and any(
                    _cut(word) == _cut(parts[0]) and _cut(after) in nouns for word, after in pairs
                ):
                    found.add((key, value))
        for initials, value in _initials(tuple(values)).items():
            if initials in text and re.search(rf"(?<!\w){initials}(?!\w)", text):
                found.add((key, value))
    return frozenset(found)


@lru_cache(maxsize=64)
def _initials(values: tuple[str, ...]) -> dict[str, str]:
    """The values of two words or more by their initials in capitals ("Human-Computer Interaction": ``HCI``), where
    no other value has the same initials and none is written so."""
    by: dict[str, list[str]] = {}
    for value in values:
        words = re.findall(r"[A-Za-z]+", value)
        if len(words) >= 2:
            by.setdefault("".join(word[0] for word in words).upper(), []).append(value)
    return {initials: found[0] for initials, found in by.items() if len(found) == 1 and initials not in values}


def _outside(question: str, names: Sequence[str]) -> str:
    """``question`` with its quoted spans and each of ``names`` cut out (a line break stands in: text never spans it)."""
    text = _QUOTED.sub("\n", question)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "\n")
    return text


def spelled_names(question: str, names: Sequence[str], nodes: Sequence[str] = ()) -> frozenset[str]:
    """See :func:`spelled_places`: the names only."""
    return frozenset(name for _, _, name in spelled_places(question, names, nodes))


def spelled_places(
    question: str,
    names: Sequence[str],
    nodes: Sequence[str] = (),
    links: Sequence[str] = (),
    nested: list[tuple[int, int, str]] | None = None,
) -> list[tuple[int, int, str]]:
    """Where ``question`` writes out whole one of ``names`` (relations and features): ``(first word, last word + 1,
    name)`` by word index (the question's words as ``_WORD`` splits them). Each of the name's words, in
    order and next to each other (``member_meronym``: "member meronym links"; words compared by :func:`_cut`,
    "genres" for ``genre``). A name written only inside a longer one ("part of" in
    "part of speech"), inside one of the ``nodes`` named, or just before one ("the paper titled X"), does not
    count; except that one of ``links`` (relations) counts just before a name too ("the artists tagged X"). The places
    left out for standing inside a longer one are added to ``nested``, where given ("tags" of ``has_tag`` inside the
    "tags on" of ``tag_on``)."""
    lower = question.lower()
    spans = [(m.start(), m.end()) for node in nodes if node for m in re.finditer(re.escape(node.lower()), lower)]
    starts = {start for start, _ in spans}
    words = list(_WORD.finditer(lower))
    # a name's own words ("Abstract" in a title) are never the question's; a word just before a name is, for a link
    linked = [None if any(a <= m.start() < b for a, b in spans) else _cut(m.group()) for m in words]
    asked = [None if _just_before(lower, m.end(), starts) else word for m, word in zip(words, linked, strict=True)]
    places: list[tuple[int, int, str]] = []
    link_names = set(links)
    for name in names:
        read = linked if name in link_names else asked
        cut = [_cut(word) for word in _WORD.findall(name.lower().replace("_", " "))]
        if name in link_names and len(cut) > 1 and cut[0] in _AUXILIARIES:  # ``has_tag``: "the tags on X", "most tags"
            cut = cut[1:]
        width = len(cut)
        places += [(i, i + width, name) for i in range(len(read) - width + 1) if width and read[i : i + width] == cut]
    inside = [
        any(a <= start and stop <= b and b - a > stop - start for a, b, _ in places) for start, stop, _ in places
    ]
    if nested is not None:
        nested += [place for place, dropped in zip(places, inside, strict=True) if dropped]
    return [place for place, dropped in zip(places, inside, strict=True) if not dropped]


def _letter_for_letter(
    words: Sequence[tuple[int, int, str]], places: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """``places`` (as :func:`spelled_places` gives them) with the names read at the same words as another, that one
    written letter for letter and they not, left out: FB15k-237 has ``location`` and ``locations``, ``location_of``
    and ``locations_of``; "the location of links" spells the first of each."""
    rivals: dict[tuple[int, int], list[str]] = {}
    for first, stop, name in places:  # names of as many words as they are read at (not "has member of": "has" skipped)
        if len(_WORD.findall(name.lower())) == stop - first:
            rivals.setdefault((first, stop), []).append(name)
    kept = []
    for first, stop, name in places:
        written = [word for _, _, word in words[first:stop]]
        exact = [other for other in rivals.get((first, stop), ()) if _WORD.findall(other.lower()) == written]
        if not exact or name in exact or name not in rivals[(first, stop)]:
            kept.append((first, stop, name))
    return kept


# the verb a request opens a sentence with: it asks, it names no link
_OPENING_VERB = re.compile(r"(?:^|[.:;!?]\s+)[\W_]*(state|give|tell|show|return|name|find|report|say)\b")


def _asking_words_aside(
    question: str, words: Sequence[tuple[int, int, str]], places: list[tuple[int, int, str]], relations: Sequence[str]
) -> list[tuple[int, int, str]]:
    """``places`` (as :func:`spelled_places` finds them) without a relation written by the words that ask for a list
    ("Can you list ...", "the full list of", "as a list of names": FB15k-237's ``list`` and ``list_of``) or by the verb
    a request opens with ("State the difference ...": FB15k-237's ``state``) where another relation is written too:
    those words ask, the other names the link."""
    asks = [m.span() for m in _LIST_PHRASE.finditer(question.lower())]
    asks += [m.span(1) for m in _OPENING_VERB.finditer(question.lower())]

    def asking(place: tuple[int, int, str]) -> bool:
        start = words[place[0]][0]  # "the full list of": ``list_of`` begins with the asking word
        return place[2] in relations and any(a <= start < b for a, b in asks)

    if not any(place[2] in relations and not asking(place) for place in places):
        return places
    return [place for place in places if not asking(place)]


_RELATION_LINKS = frozenset({"to", "of", "by", "from", "with", "in", "on"})  # the words of a relation that name no link
# a relation name's leading verb that says nothing of the link (``has_tag``, ``is_a``): its other words name it
_AUXILIARIES = frozenset({"has", "hav", "is", "are", "was"})  # as _cut cuts them
_LINK_FILLER_STEMS = frozenset({"from", "with", "into", "onto", "the", "and"})
_LINK_TARGET_WORDS = frozenset({"to", "from", "on", "into", "in", "at", "towards", "toward"})
_LINK_ROOTS = frozenset({"link", "cite"})


def synonym_places(
    question: str, relations: Sequence[str], nodes: Sequence[str] = (), spelled: Sequence[tuple[int, int, str]] = ()
) -> list[tuple[int, int, str]]:
    """Where ``question`` writes a word that stands for one of ``relations`` without sharing its stem ("streamed" for
    ``listened``, "connections" for ``friend``: :data:`_STEM_SYNONYMS`), as :func:`spelled_places` gives them; a
    relation of several content words where it alone (with its reverse) holds the word stood for ("born":
    ``place_of_birth``); not inside one of the ``nodes`` named, nor where a relation is ``spelled``."""
    content, several = {}, {}
    for relation in relations:
        words = [w for w in _WORD.findall(relation.lower().replace("_", " ")) if w not in _RELATION_LINKS]
        if len(words) == 1:
            content[relation] = words[0][:5]
        elif words:
            several[relation] = {w[:5] for w in words}
    places = []
    for index, word in _free_words(question, nodes, spelled):
        stems = _standing_for(word[:5])
        found = [(index, index + 1, relation) for relation, stem in content.items() if stem in stems]
        if not found and stems:  # "born": place_of_birth, where only it (and its reverse) holds a word of "birth"
            held = [relation for relation, words in several.items() if words & stems]
            found = [(index, index + 1, relation) for relation in held] if 1 <= len(held) <= 2 else []
        places += found
    return places


def _free_words(
    question: str, nodes: Sequence[str], spelled: Sequence[tuple[int, int, str]]
) -> list[tuple[int, str]]:
    """``(index, word)`` of each of ``question``'s words (in small letters, as ``_WORD`` splits them) that stands
    neither inside one of the ``nodes`` named nor at a place ``spelled`` already holds."""
    lower = question.lower()
    spans = [(m.start(), m.end()) for node in nodes if node for m in re.finditer(re.escape(node.lower()), lower)]
    taken = {index for start, stop, _ in spelled for index in range(start, stop)}
    return [
        (index, found.group()) for index, found in enumerate(_WORD.finditer(lower))
        if index not in taken and not any(a <= found.start() < b for a, b in spans)
    ]  # fmt: skip


def feature_synonym_places(
    question: str, features: Sequence[str], nodes: Sequence[str] = (), spelled: Sequence[tuple[int, int, str]] = ()
) -> list[tuple[int, int, str]]:
    """Where ``question`` writes a word that stands for one of ``features`` without sharing its stem ("job", "do for
    a living" for ``occupation``, "how old" for ``age``: :data:`_FEATURE_SYNONYMS`), or, asking when, the one word
    of a dated feature that is not the date ("When was X released?": ``release_date``), as :func:`spelled_places`
    gives them; not inside one of the ``nodes`` named, nor where a feature is ``spelled``."""
    when = bool(_WHEN_ASKED.search(_QUOTED.sub(" ", question.lower())))
    free = _free_words(question, nodes, spelled)
    places = []
    for feature in features:
        words = _WORD.findall(feature.lower().replace("_", " "))
        dated = [word for word in words if word not in _DATE_WORDS] if when and len(words) == 2 else []
        places += [
            (index, index + 1, feature) for index, word in free
            if (len(words) == 1 and _FEATURE_SYNONYMS.get(word) == words[0])
            or (len(dated) == 1 and _cut(word) == _cut(dated[0]))
        ]  # fmt: skip
    return places


def link_mentions(text: str, relations: Sequence[str]) -> int:
    """How many links ``text`` (a question outside its names) mentions: runs of words that name one of ``relations``
    (a word of its label, a word standing for one, "citation" for ``cites``), words next to each other (or with an
    article or "by" between) counted once ("a citation edge", "sends traffic to", "film distribution medium")."""
    return _mention_runs(text, *_words_and_links(text, relations))


def _words_and_links(text: str, relations: Sequence[str]) -> tuple[list[tuple[int, str]], list[int]]:
    """``text``'s words (each with where it starts, lower case) and the indices of those that name one of
    ``relations`` (:func:`_link_words`): read once for every rule that looks at a question's link words."""
    at = [(m.start(), m.group()) for m in _WORD.finditer(text.lower())]
    return at, _link_words(at, relations)


# "the papers linked to X by cites": the general verb before the name and the relation after "by" are one link
_LINKED_TO_NAME_BY = re.compile(r"\s+(?:to|from|with)\s+\n\s*by\s+(?:the\s+|an?\s+)?")
_GENERAL_LINK_VERBS = frozenset({"linked", "connected", "joined", "related", "tied"})


def _mention_runs(text: str, at: list[tuple[int, str]], linked: list[int]) -> int:
    """:func:`link_mentions` over ``text``'s words ``at`` and its link words ``linked``."""
    runs, last, lower = 0, None, text.lower()
    for place, index in enumerate(linked):
        after = linked[place + 1] if place + 1 < len(linked) else None
        if after is not None and at[index][1] in _GENERAL_LINK_VERBS and _LINKED_TO_NAME_BY.fullmatch(
            lower[at[index][0] + len(at[index][1]) : at[after][0]]
        ):
            continue  # "linked to X by linked": the relation after "by" is the one link
        between = [word for _, word in at[last + 1 : index]] if last is not None else None
        # a name between ("the papers that the papers that cite X cite"), or one verb twice ("do the papers X cites
        # cite"): two links
        apart = last is not None and (
            "\n" in text[at[last][0] : at[index][0]] or _word_root(at[last][1]) == _word_root(at[index][1])
        )
        if between is None or apart or not all(word in _ONE_LINK_FILLER for word in between) or len(between) > 2:
            runs += 1
        last = index
    return runs


def _link_words(at: list[tuple[int, str]], relations: Sequence[str]) -> list[int]:
    """The indices of the words of ``at`` (each word's start and text) that name one of ``relations`` (a word of its
    label, a word standing for one, "citation" for ``cites``), as :func:`link_mentions` counts them."""
    stems = {stem for relation in relations for stem in word_stems(relation)} - _LINK_FILLER_STEMS
    roots = {stem[:4] for stem in stems if len(stem) >= 4}
    if roots & _LINK_ROOTS:  # a graph of links or citations: any word for a link or a citation mentions one
        roots |= _LINK_ROOTS | {root for root, stands in _ROOT_SYNONYMS.items() if set(stands) & _LINK_ROOTS}
    # "the movie X gave 2 stars": stars given are a numbered relation's link ("rated_2"), where the graph has one
    starred = any((found := _NUMBERED.fullmatch(relation.lower())) and found.group(2) for relation in relations)
    linked = []
    for index, (_, word) in enumerate(at):
        if starred and word in ("star", "stars") and index and at[index - 1][1].isdigit():
            linked.append(index)
            continue
        stem = word[:5]
        stands_for = _standing_for(stem)
        own = _reach_root(word, at[index + 1][1] if index + 1 < len(at) else None)
        part = compound_part(word)
        if (
            stem in stems
            or stands_for & stems
            or own in roots
            or any(root in roots for root in _ROOT_SYNONYMS.get(own, ()))
            or (part is not None and part[:5] in stems)
        ):
            linked.append(index)
    return linked


# what may stand between a name and a link word written beside it: after it, a possessive or a verb's helper ("X's
# references", "X has in its refs", "X is cited by"); before it, prepositions and articles ("cited by X", "with a
# citation link to X"); never "X in the citation graph"
_NAME_THEN_LINK = re.compile(
    r"['\u2019]s\s+(?:[a-z-]+\s+)?|\s+(?:(?:has|have|had|is|was|are|were|got|gets)\s+)?(?:(?:as|in its|in their|by)\s+)?"
)  # "X's outbound citations"
# words for a link of any kind, beside a name ("the paper connected to X", "the neighbour of X", "adjacent to X")
_ANY_LINK_WORDS = frozenset(
    {"connected", "adjacent", "neighbour", "neighbours", "neighbor", "neighbors", "neighbouring", "neighboring"}
)
_HELPER_WORDS = frozenset({"has", "have", "had", "is", "are", "was", "were", "be", "of", "in", "to", "by", "with", "on"})
_LINK_THEN_NAME = re.compile(  # "a citation tie to X", "links that take you to X", "one click away from X"
    r"(?:\s+(?:tie|ties|edge|edges|link|links|connection|connections))?"
    r"(?:\s+(?:take|takes|send|sends|lead|leads|bring|brings|get|gets)(?:\s+you)?)?"
    r"\s+(?:(?:to|from|by|on|of|with|into|at|in|the|a|an|away)\s+){0,3}"
)


def _link_beside_name(text: str, at: list[tuple[int, str]], written: list[int]) -> bool:
    """Whether ``text`` (a question with each of its names cut out to a line break; ``at`` its words, ``written`` the
    indices of those that write a link, a relation's or any: :func:`_written_links`) writes a link word right beside a
    name, the name its subject or its object: "the paper X cites", "X's references", "the paper citing X", "the papers
    cited by X", "the artist X listens to", "the paper connected to X"; so a feature asked is a neighbour's, not the
    named node's own. Not "X in the citation graph", nor a link word with other words between, nor one inside a
    feature's words ("X's part of speech": not the ``part_of`` link)."""
    lower = text.lower()
    cuts = [i for i, char in enumerate(text) if char == "\n"]
    for index in written:
        start, word = at[index]
        stop = start + len(word)
        for cut in cuts:
            if cut < start and _NAME_THEN_LINK.fullmatch(lower[cut + 1 : start]):
                return True
            if cut >= stop and (_LINK_THEN_NAME.fullmatch(lower[stop:cut]) or _INTO_NAME.fullmatch(lower[stop:cut])):
                return True  # "cited by X", "whose bibliography includes X"
    return False


def _written_links(text: str, at: list[tuple[int, str]], linked: list[int], features: Sequence[str]) -> list[int]:
    """The link words of ``linked`` (indices into ``at``, the words of ``text``) that write a link: not a helper verb
    ("X has what ...": ``has_part``'s "has"), a word inside a feature's words ("part of speech": not ``part_of``) nor
    the name of the graph asked about ("in the citation graph", "under citation")."""
    lower = text.lower()
    in_features = [
        (m.start(), m.end())
        for feature in features
        for m in re.finditer(rf"\b{re.escape(' '.join(_WORD.findall(feature.lower())))}\b", lower)
    ]
    return [
        index
        for index in linked
        if at[index][1] not in _HELPER_WORDS
        and not any(a <= at[index][0] < b for a, b in in_features)
        and not _names_the_graph(at, index)
    ]


def _names_the_graph(at: list[tuple[int, str]], index: int) -> bool:
    """Whether the link word at ``index`` of the words ``at`` names the graph asked about ("in the citation graph",
    "under citation"), not a link: "X's citation network" is X's neighbours."""
    return _graph_named([word for _, word in at[max(0, index - 2) : index]], [word for _, word in at[index + 1 : index + 2]])


def _graph_named(before: list[str], after: list[str]) -> bool:
    """Whether a link word with the two words ``before`` it and the one ``after`` it names the graph: "in the link
    graph", "under citation"."""
    return before[-1:] == ["under"] or (before == ["in", "the"] and bool(set(after) & _GRAPH_NOUNS))


def _just_before(text: str, end: int, starts: set[int]) -> bool:
    """A word ending at ``end`` is followed, past spaces, quotes and a colon, by one of the names at ``starts``."""
    rest = len(text) - len(text[end:].lstrip(" \t:\"\u201c'"))
    return rest in starts


def _cut(word: str) -> str:
    """A word as :func:`spelled_names` and :func:`content_words` compare it: a crude stem (``ratings``, ``rated``
    -> ``rat``; ``genres`` -> ``genr``; ``tagged``, ``tags`` -> ``tag``; ``friendships`` -> ``friend``;
    ``nationalities``, ``nationality`` -> ``nationaliti``; ``county``
    stays itself, so it never reads as "count"); numbers whole. A final doubled consonant of four letters or more
    is single, suffix or not (``tagg(ed)``, ``staff``), except l, s and z (``call``, ``pass``, ``jazz``)."""
    if word.isdigit():
        return word
    word = _VERB_BASES.get(word, word)  # "wrote", "written": ``writ``, as "writes"
    for suffix in ("ships", "ship", "ings", "ing", "ers", "er", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
        word = word[:-1]
    if len(word) >= 6 and word[-1] == "y" and word[-2] not in "aeiou":  # "nationality" as "nationalities" (and
        word = word[:-1] + "i"  # "movies" stays "movie"'s): ``nationaliti``
    return word.removesuffix("e") if len(word) > 3 else word


def content_words(text: str) -> frozenset[str]:
    """The words of ``text`` that carry meaning, each cut to a crude stem (``ratings``, ``rated`` -> ``rat``;
    numbers whole, except the bounds of a range or scale); "of", "by", "to" and the like are left out (a
    relation's direction is decided elsewhere)."""
    found = set()
    words = _WORD.findall(text.lower())
    for index, word in enumerate(words):
        if word in _FUNCTION_WORDS:
            continue
        if word.isdigit() and (
            (index and words[index - 1] in _RANGE) or (index + 1 < len(words) and words[index + 1] in _RANGE)
        ):  # a bound of a range or a scale ("1 to 5", "3 out of 5") names no relation
            continue
        found.add(_cut(word))
        part = compound_part(word)
        if part is not None:  # "hyperlinks": "link" too
            found.add(_cut(part))
    return frozenset(found)


# what stands between a link's word and a name in 'the list neighbours of "Y"': the links are that name's
_NEIGHBOURS_OF = re.compile(r"\s+(?:neighbou?rs?|links?)\s+of\s+(?:the\s+)?[\"'\u201c]?", re.IGNORECASE)


def _neighbours_of(text: str, spans: list[tuple[int, int, int]], stop: int) -> int | None:
    """Which name (its index in :func:`_spans`) a link's word ending at ``stop`` is written for as "<word> neighbours
    of <name>" ("X in the list neighbours of Y": Y, however near X stands); None where it is not written so."""
    return next((label for a, _, label in spans if a >= stop and _NEIGHBOURS_OF.fullmatch(text[stop:a])), None)


# what stands just before the member a list written first is said to hold ("...: includes X?", "... - contains X?")
_INCLUDES_NEXT = re.compile(
    r"[:;,\u2013\u2014-]\s*(?:(?:does|do) (?:it|they|that|this|the list) )?(?:include|contain|hold)s?\s*[\"\u201c]?$", re.IGNORECASE
)


def _spans(text: str, names: Sequence[str]) -> list[tuple[int, int, int]]:
    """``(start, end, i)`` of every place ``text`` writes ``names[i]`` (case aside; never inside a word: "it" is
    not in "citing")."""
    lower = text.lower()
    found = []
    for label, name in enumerate(names):
        if name:
            pattern = rf"(?<![a-z0-9]){re.escape(name.lower())}(?![a-z0-9])"
            found += [(m.start(), m.end(), label) for m in re.finditer(pattern, lower)]
    return found


def _inside(spans: list[tuple[int, int, int]], pos: int) -> bool:
    """Whether the character at ``pos`` lies inside one of the names at ``spans`` (as :func:`_spans` finds them)."""
    return any(a <= pos < b for a, b, _ in spans)


def _gap(span: tuple[int, int], start: int, stop: int) -> int:
    """How many characters lie between a name's ``span`` and a word at ``start:stop`` outside it."""
    return start - span[1] if start >= span[1] else span[0] - stop


def _nearest_name(spans: list[tuple[int, int, int]], start: int, stop: int) -> int:
    """Which name (its index in :func:`_spans`) a word at ``start:stop`` stands nearest."""
    return min((_gap((a, b), start, stop), label) for a, b, label in spans)[1]


def _chain_start(
    spans: list[tuple[int, int, int]], mentions: Sequence[tuple[int, int, Any, Any]], question: str = ""
) -> tuple[int, int]:
    """Where the chain's name (label 0 in ``spans``) starts it: of the places it is written, the one nearest a
    mention (``(start, stop, ...)``), never one where ``question`` leaves the name out ("reached from X in two clicks,
    leaving out X itself": the second X starts nothing) while another place is left."""
    own = [(a, b) for a, b, label in spans if label == 0]
    own = [span for span in own if not _left_out_at(question, *span)] or own
    return min(own, key=lambda span: min(_gap(span, start, stop) for start, stop, *_ in mentions))


def _left_out_at(question: str, start: int, stop: int) -> bool:
    """Whether the name written at ``start:stop`` of ``question`` is left out there: right after "leaving out", "not
    counting", "other than" and the like, or right before "excluded", "left out"."""
    before = re.search(rf"{_LEAVING_OUT}\s*[\"\u201c]?$", question[:start], re.IGNORECASE)
    return bool(before or re.match(rf"[\"\u201d]?{_LEFT_OUT_AFTER}", question[stop:], re.IGNORECASE))


def _root(relation: str) -> str:
    """A relation's root: its first word's first four letters (``cited_by`` and ``cites``: ``cite``), a past form
    read as its verb's base (``written_by``: ``writ``, as "wrote")."""
    first = re.split(r"[_\W]+", relation.lower().strip("_"))[0]
    return _VERB_BASES.get(first, first)[:4]


def _voice_root(relation: str) -> str:
    """The root of the verb whose voice tells ``relation`` from its partner: a passive name's participle, the last
    word before "by" or "from" that is not a number (``cited_by``: ``cite``; ``rated_3_by``: ``rate``;
    FB15k-237's ``film_art_direction_by`` and its ``_of`` reverse: ``dire``, never the "film" of every film relation);
    else the :func:`_root`."""
    words = re.split(r"[_\W]+", relation.lower().strip("_"))
    if _reverses_passive(words):
        words = words[:-1]
    if len(words) < 2 or words[-1] not in ("by", "from"):
        return _root(relation)
    participle = next((word for word in reversed(words[:-1]) if not word.isdigit()), words[0])
    return _word_root(participle) or _root(relation)


def _word_root(word: str) -> str:
    """A question word's root as :func:`_root` cuts a relation's (``citing`` -> ``cite``, ``linking`` -> ``link``,
    ``wrote`` -> ``writ``)."""
    word = _VERB_BASES.get(word, word)
    if word.endswith("ing") and len(word) > 5:
        bare = word[:-3]
        return bare[:4] if len(bare) >= 4 else (bare + "e")[:4]
    return word[:4] if len(word) >= 4 else ""


def _reach_root(word: str, following: str | None) -> str:
    """A question ``word``'s root as :func:`_word_root` cuts it, except that "get" (in any form) with "to"
    ``following`` it, and "draw" or "build" with "on", have roots of their own, words for a link ("the articles you
    get to from X", "the papers X draws on")."""
    if following == "to" and word in _GETTING:
        return _GET_TO
    return _ON_VERBS[word] if following == "on" and word in _ON_VERBS else _word_root(word)


def is_backward(relation: str) -> bool:
    """A relation named as the backward direction of its root (``cited_by``, ``linked_from``, ``genre_of``); the
    reverse of one, named with "of" added (FB15k-237's ``written_by_of``: what X wrote), runs forward."""
    words = re.split(r"[_\W]+", relation.lower().strip("_"))
    if len(words) > 2 and words[-1] == "of" and is_backward("_".join(words[:-1])):
        return False
    return any(word in _BACKWARD for word in words[1:])


def _reverses_passive(words: Sequence[str]) -> bool:
    """A relation's ``words`` name a passive relation with "of" added, its reverse (FB15k-237's ``written_by_of``)."""
    return len(words) > 2 and words[-1] == "of" and words[-2] in ("by", "from")


def _passive_name(relation: str) -> bool:
    """A relation named in the passive: its last word is "by" or "from" (``cited_by``, ``linked_from``)."""
    return _WORD.findall(relation.lower())[-1:] in (["by"], ["from"])


class QuestionWording:
    """What one ``question`` names and how it words it, read against ``store``'s ``relations`` and ``features``;
    ``observations`` are where a value may be written besides the question. Each answer is worked out once."""

    def __init__(
        self,
        store: GraphStore,
        question: str,
        relations: Sequence[str],
        features: Sequence[str],
        observations: Sequence[str] = (),
    ) -> None:
        self.store, self.question = store, question
        self.words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(question.lower())]
        self.cut_words = [_cut(word) for _, _, word in self.words]  # as spelled names are compared
        self.names = question_names(store, question)
        self.declared = declared_types(store, question)  # "the tag \"X\"": X a tag, though an artist bears the name
        # where search text may be copied from besides a name: the question outside its names, the observations
        self.search_sources = [_outside(question, self.names), *(text for text in observations if text)]
        # where the question quotes no name, the runs of its words that may be the names it asks about (its names
        # among them): a Retrieve's text is one of those, where there is any, not any text the question writes
        self.name_runs = written_name_runs(store, question, self.names, [*relations, *features, *store.node_types()])
        self.asked_words = content_words(self.search_sources[0])  # the question's own words, not its names
        self.extreme = extreme_of(self.search_sources[0])  # the one way its superlatives go, if one
        self.form = answer_form(self.search_sources[0], self.extreme, features)  # yes/no, pick, number, or None
        self.existence = bool(_EXISTENCE.search(self.search_sources[0].lower()))  # "any of them", "is there"
        asking = self.search_sources[0].lower()  # "What is the capital of X?": a thing, never a count
        self.asks_thing = self.form is None and bool(_ASKS_THING.match(asking)) and not _MEASURE.search(asking)
        # the relations and features the question writes out whole ("member meronym", "part of speech")
        self.relation_names = frozenset(relations)
        self.nested_at: list[tuple[int, int, str]] = []  # the ones written inside a longer one's words
        self.spelled_at = spelled_places(question, [*relations, *features], self.names, relations, self.nested_at)
        self.spelled_at += synonym_places(question, relations, self.names, self.spelled_at)
        self.spelled_at += feature_synonym_places(question, features, self.names, self.spelled_at)
        self.spelled_at = _asking_words_aside(question, self.words, self.spelled_at, relations)
        self.spelled_at = _letter_for_letter(self.words, self.spelled_at)
        self.spelled = frozenset(name for _, _, name in self.spelled_at)
        self.values = written_values(store, self._outside_relations(question))  # the feature values it writes
        joined = _ANSWER_WANTED.sub(" ", self.search_sources[0])  # "respond with True or False" joins no lists
        self.set_way = set_way(joined)  # union, intersect or without, where it words one of them
        if self.set_way == "without" and self.form == "yes/no" and not self.existence:  # "Is X not cited by Y?":
            self.set_way = None  # whether one holds the other, turned round; not whether a list less another has any
        self.union_worded = union_worded(joined)  # any word for a union ("or", "pooling")
        # the nodes one or two links from the named node, as one list ("within two links of X"): a union of its
        # one-hop and two-hop lists
        self.within_two = bool(_WITHIN_TWO.search(joined.lower())) and self.set_way in (None, "union")
        if self.within_two:
            self.set_way, self.union_worded = "union", True
        self.others = bool(_OTHERS.search(self.search_sources[0].lower()))  # "which other item", "what else"
        # the features it spells out that are not a node's name or title ("label", "genres"), and whether it words a
        # value unlike the subject's ("not", "isn't", "different")
        text_keys = set(store.text_keys.values())
        self.keys = frozenset(name for _, _, name in self.spelled_at if name in set(features) - text_keys)
        self.features_named = frozenset(name for name in self.spelled if name in set(features))  # "title" too
        different = bool(_DIFFERENT_COUNTED.search(self.search_sources[0].lower()))  # "how many different tags"
        kept_in = _SELF_LEFT_OUT.sub(" ", _NAME_LEFT_OUT.sub(" ", _DIFFERENT_COUNTED.sub(" ", self.search_sources[0].lower())))
        self.unlike = bool(_UNLIKE.search(kept_in))
        # whether it compares members with something: "same", "share", "match", or unlike it
        self.compares = self.unlike or bool(_ALIKE.search(self.search_sources[0].lower()))
        self.once = different or counted_once(self.search_sources[0])  # "distinct", "unique": a list, not one node's arcs
        words_at, linked = _words_and_links(self.search_sources[0], relations)  # its link words, read once
        self.link_mentions = _mention_runs(self.search_sources[0], words_at, linked)  # "a citation edge": one
        # two named nodes set side by side: one of them is picked, the way its comparatives go ("X or Y: more
        # citations?"); not "which of the papers X and Y cite has the most citations" (their list)
        self.pair = pair_way(self.search_sources[0], self.names, relations)
        # two named nodes compared one against the other: whether the first has more (fewer), or by how many ("Does
        # X have more citations than Y?", "how many more ... than Y?"); "X vs Y: how many more?" is not a pick, nor is
        # "count the links of X, then those of Y; does the first have more?"
        self.versus = versus_way(self.search_sources[0], self.names, self.form)
        self.versus = self.versus if self.versus == "gap" or self.form == "yes/no" or self.pair is None else None
        self.compared = versus_order(question, self.names) if self.versus is not None else None  # first, second
        if self.versus is not None:
            self.pair, self.form = None, "number" if self.versus == "gap" else "yes/no"
        if self.pair is not None:
            self.extreme, self.form = self.pair, "pick"
        # "the research area of"; not a word of a relation written out ("topic" in WN18RR's ``synset_domain_topic_of``)
        self.category_asked = bool(_CATEGORY_ASKED.search(self._outside_relations(question).lower()))
        # the words that write a link, a relation's or any ("the paper connected to X"), feature names, helper verbs
        # and the graph's name aside
        generic = [index for index, (_, word) in enumerate(words_at) if word in _ANY_LINK_WORDS]
        written = _written_links(self.search_sources[0], words_at, sorted({*linked, *generic}), features)
        # "the paper X cites": a feature asked is a neighbour's, not X's own
        self.link_beside_name = _link_beside_name(self.search_sources[0], words_at, written)
        # whether it writes a relation's link at all ("the paper hooked up to X by a citation")
        self.link_written = bool(set(written) & set(linked))
        self.extreme_link = self._extreme_link(words_at, linked)  # "the most citations": a member picked by its links
        self.member = bool(_MEMBER.search(self.search_sources[0].lower()))  # one of a list's own members asked
        self.votes = bool(_VOTES.search(self.search_sources[0].lower()))  # "the most votes": a node linked to
        self.mode_worded = bool(_MODE.search(self.search_sources[0].lower()))  # "most common", "the biggest bucket"
        # "most" before a plural, not after "the", where a category is asked: "Most papers cited by X fall into which
        # area?", "Which area do most of the papers citing X belong to?": the category most members hold
        most_of = bool(_MOST_DETERMINER.search(self.search_sources[0].lower()))
        self.mode_worded = self.mode_worded or (bool(self.category_asked or self.keys) and most_of)
        through = self.search_sources[0].lower()
        self.through_any = bool(  # reached from a list: "any of the", a clause, "the friends of X's friends"
            _THROUGH_ANY.search(through) or _THROUGH_CLAUSE.search(through) or _TWO_STEPS.search(through)
            or self._link_of_links(through, words_at, linked)
        )
        self.asked_type = asked_type(store, self.search_sources[0])  # "which tag ...": tag
        self.counted_type = counted_type(store, self.search_sources[0])  # "how many tags ...": tag
        often = often_type(store, self.search_sources[0])  # "the user that occurs most often": the node most reached
        if often is not None:
            self.asked_type, self.votes, self.extreme = often, True, self.extreme or "most"
            self.form = "pick" if self.form in (None, "which", "list") else self.form
        elif self.votes and self.form == "which" and self.asked_type is not None and self.extreme is None:
            self.form, self.extreme = "pick", "most"  # "tally the labels of ...; which tag wins?": the highest tally
        elif self.form in ("which", "pick") and not (self.category_asked or self.keys or self.extreme_link) and most_of and (
            self.asked_type is not None or len(store.node_types()) == 1  # one type: "which paper" names none
        ):
            # "which artist do most of X's friends listen to?": the node most members link to, a vote
            self.votes, self.form, self.extreme = True, "pick", "most"
        # how many links the member a superlative picks has: "how many citations does the most cited of them have?";
        # not a count of a value's members ("the most common label"), of those with a value, or two nodes compared
        self.picked_count = (
            self.versus is None and self.pair is None and often is None and not (self.mode_worded or self.votes)
            and not (self.keys or self.values) and picked_count(self.search_sources[0], self.form, self.extreme)
        )  # fmt: skip
        if self.picked_count:  # "the highest number of friends any one of them has": one member's, not reached through any
            self.form, self.through_any = "number", False
        # the relations the noun right after "how many" names ("how many listeners does the most tagged artist ...
        # have?"): the links the picked member's count counts, not the ones it was picked by
        counted = [index + 1 for index in range(len(self.words) - 1) if self.words[index][2] == "many"
                   and index and self.words[index - 1][2] == "how"][:1]  # fmt: skip
        self.counted_at = counted[0] if counted and self.picked_count else None  # the noun's word index
        self.counted_links = frozenset(
            relation for a, b, relation in self.spelled_at if self.counted_at is not None and a <= self.counted_at < b
        )  # fmt: skip
        # whether any node has a feature besides its name or title: where none does, a node's own feature is the
        # name the question already writes, so a question never asks for it
        names_only = set(store.text_keys.values())
        self.has_values = any(set(keys) - names_only for keys in store.type_features().values())
        self.reverse: dict[str, frozenset[str]] = {}  # read off the arcs when first needed
        self.relation_words: dict[str, frozenset[str]] = {}
        self.values_written: dict[str, list[str] | None] = {}
        self.directed: dict[tuple[tuple[str, ...], str, int, int, bool], list[str] | None] = {}
        self.spelled_hops: dict[tuple[tuple[str, ...], str, int, int, bool], list[str] | None] = {}
        self.numbered_hops: dict[tuple[tuple[str, ...], str, int, int, bool], list[str] | None] = {}

    def _outside_relations(self, question: str) -> str:
        """Where a feature value the question writes is read: outside its names (as :attr:`search_sources`) and
        outside the relations it spells out: "verb" in "fewest verb group neighbours" (WN18RR's ``verb_group``) is
        that relation's word, not the part of speech ``verb``."""
        spans = [(self.words[a][0], self.words[b - 1][1]) for a, b, name in self.spelled_at if name in self.relation_names]
        if not spans or len(question.lower()) != len(question):  # word offsets are the question's
            return self.search_sources[0]
        text = question
        for start, end in sorted(spans, reverse=True):
            text = text[:start] + "\n" + text[end:]
        return _outside(text, self.names)

    def _extreme_link(self, at: list[tuple[int, str]], linked: list[int]) -> bool:
        """Whether a superlative counts links: a word for a link after "most", "fewest", "the largest number of", with
        only counting words between ("with the most citations", "the largest number of outgoing references"), so a
        member is picked by its links; not "the most papers" (members counted), "the most popular among the linked
        ...", nor "most of the papers citing X" (a majority). ``at`` and ``linked``: :func:`_words_and_links`."""
        if self.extreme is None:
            return False
        superlatives = _MOST_WORDS | _FEWEST_WORDS
        return any(
            at[i][1] in superlatives and all(word in _COUNTING_LINKS for _, word in at[i + 1 : index])
            for index in linked
            for i in range(max(0, index - 4), index)
        )

    def with_reverse(self, valid: list[str], chosen: set[str]) -> list[str]:
        """Of ``valid``, the ``chosen`` relations and their :meth:`voice_partners`."""
        back = {other for relation in chosen for other in self.voice_partners(relation)}
        return [relation for relation in valid if relation in chosen or relation in back]

    @staticmethod
    def _link_of_links(text: str, at: list[tuple[int, str]], linked: list[int]) -> bool:
        """Whether ``text`` (outside its names) writes a link word "of" a name's link word: "the friends of X's
        friends", "the listeners of X's tags" (each member of X's list has links of its own: two hops), or a link word
        before a list a clause names by its own link to the name ("link to the articles that link to X"); not "the
        title of X's references" (a feature), nor "count the articles that link to X" (one link)."""
        starts = {at[index][0] for index in linked}

        def links(m: re.Match[str], first: int, second: int) -> bool:  # "the list of the friends of X": the asking
            return (  # word "list" is no link, though Last.fm's "listened" starts so
                m.group(first) is not None and m.group(first) not in _ASKING_WORDS
                and m.start(first) in starts and m.start(second) in starts
            )  # fmt: skip

        return any(links(m, 1, 2) or links(m, 3, 4) for m in _LINK_OF_LINKS.finditer(text)) or any(
            links(m, 1, 2) for m in _LINK_TO_CLAUSE.finditer(text)
        )

    def voice_partners(self, relation: str) -> frozenset[str]:
        """The relations leading back from ``relation`` (read off the arcs) when one of the two is named in the
        passive (``cites`` and ``cited_by``, ``links_to`` and ``linked_from``): a question may name either for the
        other ("the papers cited by X" are what X cites). ``adjoins_of``, ``hyponym``: no such partner."""
        if not self.reverse:
            self.reverse = reverse_relations(self.store)
        if self._writes_passive_of(relation):
            return frozenset()
        return frozenset(other for other in self.reverse.get(relation, ()) if _passive_name(relation) or _passive_name(other))

    def _writes_passive_of(self, relation: str) -> bool:
        """The question writes ``relation``, a passive name with "of" added (FB15k-237's ``written_by_of``), whole, word
        for word ("the films linked to X by written by of"): that relation is meant, not the passive it reverses."""
        label = _WORD.findall(relation.lower())
        if not _reverses_passive(label):
            return False
        written = [word for _, _, word in self.words]
        return any(written[i : i + len(label)] == label for i in range(len(written) - len(label) + 1))

    def numbered(self, relation: str, base: str) -> bool:
        """``relation`` is ``base`` with numbers added (``rated_3`` for ``rated``) and the question writes those
        numbers within three words after writing ``base`` ("rated 3 out of 5", "rated with 3 stars")."""
        extra = relation.lower().split("_")
        for word in base.lower().split("_"):
            if word not in extra:
                return False
            extra.remove(word)
        if not extra or not all(word.isdigit() for word in extra):
            return False
        cut, asked = [_cut(word) for word in _WORD.findall(base.lower())], self.cut_words
        width = len(cut)
        return any(
            asked[i : i + width] == cut and set(extra) <= set(asked[i + width : i + width + 3])
            for i in range(len(asked) - width + 1)
        )

    def content_words(self, relation: str) -> frozenset[str]:
        """A relation's words as :func:`content_words` reads them (worked out once per relation)."""
        if relation not in self.relation_words:
            self.relation_words[relation] = content_words(relation.replace("_", " "))
        return self.relation_words[relation]

    def value_choices(self, key: str) -> list[str] | None:
        """The values of feature ``key`` the question (outside the names it gives) or an observation writes, as
        written there (one it writes by its initials, as the graph writes it); None where the feature has too many values to list, or none is written (then any copied
        text will do)."""
        if key not in self.values_written:
            values = feature_values(self.store).get(key)
            found: dict[str, None] = {}
            for source in self.search_sources if values else ():
                for value in values:  # type: ignore[union-attr]
                    for match in re.finditer(re.escape(value), source, re.IGNORECASE):
                        if len(match.group()) <= MAX_TEXT_CHARS and "\n" not in match.group():
                            found[match.group()] = None
            written = {value.lower() for value in found}
            for feature, value in sorted(self.values):  # a value the question writes by its initials ("ML"), whole
                if feature == key and value.lower() not in written:
                    found[value] = None
            self.values_written[key] = list(found) or None
        return self.values_written[key]

    def spelled_hop(self, valid: list[str], name: str, hops: int, total: int, picks: bool) -> list[str] | None:
        """The relation one hop of a chain from the named node takes when the question writes out a relation
        for each of the chain's hops: the hops take them nearest the name first ("the adjoins of neighbours of
        the entities linked to X by contains": ``contains``, then ``adjoins_of``), one written just before "of"
        and the name first of all ("the artists the users who are friends of X listened to": ``friend``, then
        ``listened``, though "listened" stands nearer), except that where the chain
        ends in ``MaxDegree`` or ``MinDegree`` (``picks``) the one written after "most" or "fewest" is the last.
        None: not decided here (written out for fewer or more hops, or none)."""
        key = (tuple(valid), name, hops, total, picks)
        if key not in self.spelled_hops:
            self.spelled_hops[key] = self._spelled_hop(set(valid), name, hops, total, picks)
        return self.spelled_hops[key]

    def _spelled_hop(self, valid: set[str], name: str, hops: int, total: int, picks: bool) -> list[str] | None:
        # a place written for a relation stands for its voice partner where only that one is valid here ("the artists
        # ... the highest count of listeners": ``listened`` written, ``listened_by`` walked)
        places, seen = [], set()
        for a, b, relation in self.spelled_at:
            rooted = [other for other in valid if _root(other) == _root(relation)]  # not one of rated_1_by ... rated_5_by
            here = [relation] if relation in valid else [*self.voice_partners(relation) & set(rooted)] if len(rooted) == 1 else []
            # none valid here: a relation written inside its words that is ("the tags on any of the items": the
            # "tags" of ``has_tag`` inside the "tags on" of ``tag_on``, which an item does not have)
            if not here and relation in self.relation_names:
                here = [other for c, d, other in self.nested_at if a <= c and d <= b and other in valid][:1]
            if here and (a, b) not in seen:  # one mention a place, though it stands for both voices
                places.append((a, b, here[0]))
                seen.add((a, b))
        places = self._one_mention_each(places)
        spans = _spans(self.question, [name, *(other for other in self.names if other.lower() != name.lower())])
        if not places or not any(label == 0 for _, _, label in spans):
            return None
        mentions = self._hop_mentions(places, spans)
        if len(mentions) > total and self.counted_links:  # "how many tags does the artist with the most listeners
            # ... have": the noun after "how many" is the count's own, where the chain has a word for each hop besides
            mentions = self._hop_mentions([place for place in places if not self._counted_place(place)], spans)
        return self._hop_taken(valid, mentions, spans, hops, total, picks)

    def _hop_mentions(
        self, places: list[tuple[int, int, str]], spans: list[tuple[int, int, int]]
    ) -> list[tuple[int, int, str, bool]]:
        """The ``places`` (spelled relations) that belong to the chain's name (label 0 of ``spans``), as
        ``(first char, last char, relation, picks)``: ``picks`` where a superlative stands before it ("the most
        cited") or right after it ("likes the fewest items")."""
        mentions = []
        for first, last, relation in places:
            start, stop = self.words[first][0], self.words[last - 1][1]
            owner = _neighbours_of(self.question, spans, stop)
            if (owner if owner is not None else _nearest_name(spans, start, stop)) == 0:
                before = {w for _, _, w in self.words[max(0, first - 2) : first]}
                # "likes the fewest items", "cites the most papers": the pick's links, as "the most cited" are (not
                # "has part: the highest count of ...", a clause of its own)
                after = [w for _, _, w in self.words[last : last + 2]]
                joined = last < len(self.words) and not self.question[stop : self.words[last][0]].strip()
                beside = joined and after[:1] == ["the"] and bool(set(after[1:]) & _SUPERLATIVES)
                mentions.append((start, stop, relation, bool(before & _SUPERLATIVES) or beside))
        return mentions

    def _hop_taken(
        self, valid: set[str], mentions: list[tuple[int, int, str, bool]], spans: list[tuple[int, int, int]],
        hops: int, total: int, picks: bool,
    ) -> list[str] | None:
        """The relations of ``valid`` hop ``hops`` of a ``total``-hop chain takes, of the chain's ``mentions``
        (:meth:`_hop_mentions`); None: not decided here."""
        genitive = {start for start, stop, _, _ in mentions if _neighbours_of(self.question, spans, stop) is not None}
        if not mentions:
            return None
        a, b = _chain_start(spans, mentions, self.question)

        def of_name(stop: int) -> bool:  # "friends of X": X's own, the first hop whatever stands nearer
            return stop <= a and bool(_OF_NAME.fullmatch(self.question[stop:a]))

        owned = [m for m in mentions if of_name(m[1])]
        if len(mentions) > total and hops == 0 and len(owned) == 1:  # "how many of the friends of X listen to Y":
            relation = owned[0][2]  # X's friends, though "listen" stands beside X too
            return [other for other in valid if other == relation or other in self.voice_partners(relation)]
        if len(mentions) != total:
            return None

        # "the X neighbours of Y" (genitive) and "friends of Y" are Y's own links, the first hop, wherever the words
        # of a pick's links stand ("Of all the X neighbours of Y, whose Z links are the most numerous?")
        ranked = sorted(
            mentions, key=lambda m: (picks and m[3], m[0] not in genitive, not of_name(m[1]), _gap((a, b), m[0], m[1]))
        )
        relation = ranked[hops][2]
        if ranked[hops][0] in genitive:  # "the list neighbours of Y": Y's ``list``, not the links back
            return [relation]
        return [other for other in valid if other == relation or other in self.voice_partners(relation)]

    def _counted_place(self, place: tuple[int, int, str]) -> bool:
        """Whether ``place`` holds the noun right after "how many" that names :attr:`counted_links`."""
        return self.counted_at is not None and place[0] <= self.counted_at < place[1]

    def _one_mention_each(self, places: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        """``places`` (first word, word after the last, relation) with two places of one relation that only
        articles, "with", "by" or "via" part taken as one mention: "the artists labelled with the tag X" writes
        the tag once, though "labelled" and "tag" each write it."""
        merged: list[tuple[int, int, str]] = []
        for a, b, relation in sorted(places):
            if merged:
                first, last, before = merged[-1]
                between = [word for _, _, word in self.words[last:a]]
                if before == relation and last <= a and all(word in _ONE_LINK_FILLER for word in between):
                    merged[-1] = (first, b, relation)
                    continue
            merged.append((a, b, relation))
        return merged

    def owner_at(self, pos: int, subject: str) -> int | None:
        """Where another name the question gives starts, when the word at ``pos`` stands nearer it than the
        ``subject``'s name (None: the word is the subject's, or the subject is not one of its names)."""
        if subject.lower() not in {name.lower() for name in self.names}:
            return None
        spans = _spans(self.question, [subject, *(other for other in self.names if other.lower() != subject.lower())])
        if not any(label == 0 for *_, label in spans):
            return None
        _, start, label = min((_gap((a, b), pos, pos), a, label) for a, b, label in spans)
        return None if label == 0 else start

    def list_owner_first(self) -> tuple[str, str] | None:
        """The two names of a membership question written "X in the <relation> neighbours of Y" or "<Y's list>: includes
        X?", Y first (whose links make the list) and X second; None where the question gives another number of names or
        no list is so written."""
        if len(self.names) != 2:
            return None
        spans = _spans(self.question, list(self.names))
        for _, last, _ in self.spelled_at:
            owner = _neighbours_of(self.question, spans, self.words[last - 1][1])
            if owner is not None:
                return self.names[owner], self.names[1 - owner]
        # "The synsets X has as hypernym: includes Y?": the list named before the break is X's, Y is looked for in it
        ordered = sorted(spans)
        later = [span for span in ordered if span[2] != ordered[0][2]] if ordered else []
        if later and _INCLUDES_NEXT.search(self.question[ordered[0][1] : later[0][0]]):
            return self.names[ordered[0][2]], self.names[later[0][2]]
        return None

    def written_order(self) -> tuple[str, ...]:
        """The question's names in the order it first writes them (a list less another's: "the movies A rated that B
        did not rate", "the papers citing A but not B": A's list first, B's, the one a link is denied to, second)."""
        first = {index: start for start, _, index in sorted(_spans(self.question, list(self.names)), reverse=True)}
        return tuple(self.names[i] for i in sorted(first, key=lambda i: first[i]))

    def numbered_hop(self, valid: list[str], name: str, hops: int, total: int, picks: bool) -> list[str] | None:
        """The relations one hop of a chain from the named node takes where ``valid`` holds numbered relations
        (``rated_4``, ``rated_2_by``) and the question writes a number for them ("gave 2 stars", "rated 3 out of
        5", "3-star ratings") or their plain base ("rated") once per hop: the hops take those mentions nearest the
        name first, except that where the chain ends in ``MaxDegree`` or ``MinDegree`` (``picks``) the one after
        "most" or "fewest" is the last. A number takes the relations with it, a plain mention those without one.
        "Count: the movies any of the users who gave X 2 stars gave 4 stars": ``rated_2_by``, then ``rated_4``.
        None: not decided here (no numbered relation, no number written, or mentions and hops not as many)."""
        key = (tuple(valid), name, hops, total, picks)
        if key not in self.numbered_hops:
            self.numbered_hops[key] = self._numbered_hop(valid, name, hops, total, picks)
        return self.numbered_hops[key]

    def _numbered_hop(self, valid: list[str], name: str, hops: int, total: int, picks: bool) -> list[str] | None:
        parsed = {relation: _NUMBERED.fullmatch(relation.lower()) for relation in valid}
        numbers = {found.group(2) for found in parsed.values() if found and found.group(2)}
        if not numbers:
            return None
        bases = {_root(found.group(1)) for found in parsed.values() if found and found.group(2)}
        spans = _spans(self.question, [name, *(other for other in self.names if other.lower() != name.lower())])
        if not any(label == 0 for _, _, label in spans):
            return None
        outside = [(start, stop, word) for start, stop, word in self.words if not _inside(spans, start)]
        counted = []  # (position in outside, start, stop, number, after a superlative)
        for at, (start, stop, word) in enumerate(outside):
            after = [w for *_, w in outside[at + 1 : at + 3]]
            number = _NUMBER_WORDS.get(word, word)  # "five stars" as "5 stars"
            if number in numbers and (after[:1] in (["star"], ["stars"]) or after == ["out", "of"]):
                before = {w for *_, w in outside[max(0, at - 2) : at]}
                counted.append((at, start, stop, number, bool(before & _SUPERLATIVES)))
        if not counted:  # no number written ("the mean rating of X" reads every numbered relation): not decided here
            return None
        mentions = [(start, stop, number, most) for _, start, stop, number, most in counted]
        for at, (start, stop, word) in enumerate(outside):  # "rated" with no number beside it: the plain relation
            # a name and another word between keep them apart ("the users that rated X gave 3 stars"); a name alone
            # does not ("rated X 1 out of 5")
            beside = [
                where for where, first, *_ in counted if abs(at - where) == 1 or (
                    abs(at - where) <= 3 and not any(min(start, first) < a < max(start, first) for a, _, _ in spans)
                )
            ]  # fmt: skip
            if _word_root(word) in bases and not beside:
                before = {w for *_, w in outside[max(0, at - 2) : at]}
                mentions.append((start, stop, None, bool(before & _SUPERLATIVES)))
        mentions = [m for m in mentions if _nearest_name(spans, m[0], m[1]) == 0]
        last = [m for m in mentions if m[3]]  # after "most" or "fewest": the links a pick counts
        # a pick's numbered links, the other hops written with no number ("which of the movies of the genre X has the
        # most 1-star ratings"): the number after the superlative is the last hop's
        if picks and hops == total - 1 and len(last) == 1 and last[0][2] is not None and len(mentions) < total:
            number = last[0][2]
        elif len(mentions) != total:
            return None
        else:
            a, b = _chain_start(spans, mentions, self.question)
            ranked = sorted(mentions, key=lambda m: (picks and m[3], _gap((a, b), m[0], m[1])))
            number = ranked[hops][2]
        chosen = [
            relation for relation in valid
            if (found := parsed[relation]) and _root(found.group(1)) in bases and found.group(2) == number
        ]  # fmt: skip
        return chosen or None

    def direction(self, valid: list[str], name: str, hops: int, total: int, pair: bool = False) -> list[str] | None:
        """See :meth:`_direction` (worked out once per case). A name with no link word of its own, joined to another
        name by "and", "or", "than" and the like, takes that name's ("the pages linked from X or Y", "both X and Y
        link to")."""
        key = (tuple(valid), name, hops, total, pair)
        if key not in self.directed:
            self.directed[key] = self._direction(valid, name, hops, total, pair)
            if self.directed[key] is None and not pair:
                partner = self._coordinated(name)
                if partner is not None:
                    self.directed[key] = self._direction(valid, partner, hops, total, pair)
        return self.directed[key]

    def _coordinated(self, name: str) -> str | None:
        """The other name ``name`` is joined to by a word of coordination alone ("X or Y", "both X and Y", "X than to
        Y"), where the question writes two names; else None."""
        others = [other for other in self.names if other.lower() != name.lower()]
        if len(others) != 1:
            return None
        spans = _spans(self.question, [name, others[0]])
        for a, b, label in spans:
            for c, d, other in spans:
                if label == 0 and other == 1:
                    between = self.question[b:c] if b <= c else self.question[d:a]
                    if _COORDINATED.fullmatch(between.lower()):
                        return others[0]
        return None

    def _beside(self, start: int, stop: int, named: list[tuple[int, int]]) -> bool | None:
        """Whether the mention at ``start:stop`` stands right after a name (True: "X links to", "X is cited by"),
        right before one with a preposition between (False: "link to X", "linked from X"), or neither (None: "fewer
        references, X or Y?", a noun's own way or the asking decides)."""
        for a, b in named:
            if stop <= a and _RIGHT_BEFORE.fullmatch(self.question[stop:a].lower()):
                return False
            if b <= start and _RIGHT_AFTER.fullmatch(self.question[b:start].lower()):
                return True
        return None

    def pair_direction(self, valid: list[str]) -> list[str] | None:
        """The relations of ``valid`` a question setting two named nodes side by side (:attr:`pair`), or one against the
        other (:attr:`versus`), compares them by, by the way its one link word runs: a noun's own way ("citations":
        into the node, "references": out of it), else its voice, the nodes being the ones that act or are acted on
        ("which cites more", "which is cited more", but "which do more papers cite"). None: not decided here."""
        if self.pair is None and self.versus is None:
            return None
        return self.direction(valid, self.names[0], 0, 1, pair=True)

    def _direction(self, valid: list[str], name: str, hops: int, total: int, pair: bool = False) -> list[str] | None:
        """The relations of ``valid`` hop ``hops`` of a ``total``-hop chain from the node ``name`` names may take,
        by voice and word order (None: not decided here).

        The question's mentions of the roots of relations that have a passive partner ("cite", "cited by",
        "links to") are ranked by their distance from the name; the chain's hops take them nearest first, so
        this decides only when the mentions and the hops are as many. A mention before the name in the active
        voice ("the papers that cite X") or after it in the passive ("X is cited by", "has been cited") takes
        the backward relation (``cited_by``, ``linked_from``); the others the forward one ("X cites", "the
        papers cited by X"). A mention belongs to the name it stands nearest (each place the question writes a
        name counts), so in "the papers X cites and the papers cited by Y" "cites" is X's and "cited by" Y's.
        With ``pair`` (:meth:`pair_direction`) both names are the link's nodes, every mention counts, and the mentions
        must agree.
        """
        spans = _spans(self.question, [name, *(other for other in self.names if other.lower() != name.lower())])
        spans = [(a, b, 0) for a, b, _ in spans] if pair else spans  # side by side: both are the one link's nodes
        if not valid or not any(label == 0 for _, _, label in spans):
            return None
        allowed = set(valid)  # only the two directions of one link, one named in the passive, are told apart here
        roots = {relation: _voice_root(relation) for relation in valid if self.voice_partners(relation) & allowed}
        if not roots:
            return None
        wanted = set(roots.values())
        # words that write out a relation with no passive partner name that relation, not another's verb: in "the
        # director film neighbours of X", "director" is FB15k-237's director_film, not film_art_direction_by
        whole = {index for a, b, relation in self.spelled_at if relation in self.relation_names and relation not in roots
                 for index in range(a, b)}  # fmt: skip
        # a relation written whole as the name of a node's neighbours ("the costume design by neighbours of X") is
        # that relation from X, whatever the voice of its words
        labels = {index: relation for a, b, relation in self.spelled_at if relation in roots
                  and _neighbours_of(self.question, spans, self.words[b - 1][1]) is not None
                  for index in range(a, b)}  # fmt: skip
        # (word index, (start, stop, root, passive, way: the link's own way round where the words give it))
        found: list[tuple[int, _Mention]] = []
        markers: set[int] = set()  # where words with their way written on them stand ("in-neighbours")
        for index, (start, stop, word) in enumerate(self.words):
            own = _reach_root(word, self.words[index + 1][2] if index + 1 < len(self.words) else None)
            part = compound_part(word)
            if own not in wanted and part is not None and _word_root(part) in wanted:  # "hyperlinks to X"
                own = _word_root(part)
            root = own if own in wanted else next((r for r in _ROOT_SYNONYMS.get(own, ()) if r in wanted), None)
            marked = self._marked_way(index)
            marker = root is None and marked is not None and (word in _MARKED_NOUNS or word in _JOINED_WAYS)
            if marker and len(wanted) == 1:  # "the in-neighbours of X": the graph's one link, into X
                root = next(iter(wanted))
            if root is None or _inside(spans, start) or index in whole:
                continue
            if own in ("poin", "send") and self.words[index + 1 : index + 2] and self.words[index + 1][2] in _ADDRESSED:
                continue  # "Point me to the one ...", "point out", "send me the list": the asker addressed, not a link
            if own == "writ" and self.words[index + 1 : index + 2] and self.words[index + 1][2] in _WRITTEN_OUT:
                continue  # "write down each one", "write them out": the asker writes the answer, no link is meant
            if own == "send" and self._link_word(index + 1, wanted):
                continue  # "X sends traffic to": the word for what is sent names the link, where one follows
            if self._manner(index):
                continue  # "the articles that mention X with a link": the verb before it is the mention
            if _nearest_name(spans, start, stop) != 0:  # nearer another name
                continue
            if marker:  # "in-neighbours": the way written onto the word, whatever its voice and place
                passive, way = False, marked
                markers.add(index)
            elif index in labels:
                passive, way = False, "back" if is_backward(labels[index]) else "forward"
            elif markers and self._walked_in(index):
                continue  # "the in-neighbours of X in the link graph": the link the marked word walks, one mention
            else:
                following = [w for _, _, w in self.words[index + 1 : index + 4]]
                # "drawn on by X": past "on" (not "draws on by inbound citations": a measure, no passive)
                following = following[1:] if word in _ON_PARTICIPLES and following[:1] == ["on"] else following[:2]
                before = {w for _, _, w in self.words[max(0, index - 2) : index]}
                # "cited by", "linked to by", "one click away from": the words after it name the link's source
                # not "the articles X sends traffic to by referring pages": a measure follows "by" there
                passive = bool(following) and (
                    following[0] in _BACKWARD
                    or (following[:2] in (["to", "by"], ["away", "from"]) and not self._link_word(index + 3, wanted))
                )
                passive = passive and following[:2] not in _BY_FEATURE  # "cites, by name": no agent follows "by" there
                # "the writers of X", "the art director of X": the one who acts, an active verb's subject
                passive = passive and not (len(word) > 5 and word.endswith(("er", "ers", "or", "ors")))
                passive = passive or (word.endswith("ed") and bool(before & _PASSIVE_BEFORE))  # "been cited", "most cited"
                passive = passive and not (pair and following[:1] == ["of"])  # side by side: "the links of X", X's own
                # "in-links", "out-links": the way written onto a link word, unless a source follows it
                source = own not in _ON_ROOTS and self._source_follows(index, spans)  # not "draws on X"
                way = "forward" if source else marked or self._way(index, own, before, spans)
                after_superlative = index > 0 and self.words[index - 1][2] in _SUPERLATIVES
                if way is None and word.endswith("ed") and after_superlative and following[:1] != ["by"]:
                    way = "back"  # "the most cited of X's references": cited by the most, before the name or after it
                # "which has more refs, X or Y", "the references of X, then those of Y": each one's own list
                own_list = word.startswith(_LIST_WORDS) and not before & _INWARD
                if pair and (own_list or (way is None and own in _FORWARD_NOUNS and word.endswith("s"))):
                    way = "forward"
            mention = (start, stop, root, passive, way)
            if found and self._one_link(found[-1], index, root, spans):  # "clicking a link on X": one mention
                named = [(a, b) for a, b, label in spans if label == 0]
                nearer = min((found[-1][1], mention), key=lambda m: min(_gap(span, m[0], m[1]) for span in named))
                found[-1] = (index, nearer)
            else:
                found.append((index, mention))
        mentions = [mention for _, mention in found]
        if pair:  # the two nodes' one link, written once or once for each ("the links of X, then those of Y"); a
            # mention right beside a name reads by its place as with one name ("more articles link to X than to Y")
            named = [(a, b) for a, b, _ in spans]
            decided = {
                tuple(self._way_taken(roots, root, passive, way, self._beside(start, stop, named)) or ())
                for start, stop, root, passive, way in mentions
            }
            return list(decided.pop()) if len(decided) == 1 and () not in decided else None
        if len(mentions) == 1 < total and _TWO_STEPS.search(self.question.lower()):  # "in exactly two clicks": the
            mentions = mentions * total  # one link word walked each time
        if len(mentions) != total:
            return None
        a, b = _chain_start(spans, mentions, self.question)
        # a mention that takes the name as its object ("linking to X", "cited by X", "you get to from X") is the
        # chain's first hop, before a verb written after the name: in "the articles any of the articles linking to X
        # link out to", "link out to" is what the articles linking to X do, the second hop
        ranked = sorted(
            (not self._leads_into(m[1], a), _gap((a, b), m[0], m[1]), m[0] >= b, m[2], m[3], m[4]) for m in mentions
        )
        _, _, after, root, passive, way = ranked[hops]
        return self._way_taken(roots, root, passive, way, after)

    def _way_taken(
        self, roots: dict[str, str], root: str, passive: bool, way: str | None, after: bool | None
    ) -> list[str] | None:
        """The relations of ``roots`` (each with its root) a mention of ``root`` takes: ``way`` where the words give
        it, else by voice, a passive one written ``after`` the name (or an active one before it) taking the backward
        relation; for two named nodes side by side (``after`` None) a passive one, or an active one whose object is
        the node asked for ("which do more papers cite"). None: one direction only, nothing to decide."""
        same_root = [relation for relation in roots if roots[relation] == root]
        backward = [relation for relation in same_root if is_backward(relation)]
        forward = [relation for relation in same_root if not is_backward(relation)]
        if not backward or not forward:  # one direction only among the valid: nothing to decide
            return None
        if way is not None:
            return self._most_written(backward if way == "back" else forward)
        if after is None:  # "which is cited more": into the node; "which do more papers cite": the node is the object
            return self._most_written(backward if passive != bool(_OBJECT_ASKED.search(self.question.lower())) else forward)
        return self._most_written(backward if after == passive else forward)

    def _most_written(self, relations: list[str]) -> list[str]:
        """Of ``relations`` (one way round of one verb), those with the fewest words the question does not write:
        "the films X produced" is ``produced_by_of``, not FB15k-237's ``executive_produced_by_of``."""
        unwritten = {relation: len(self.content_words(relation) - self.asked_words) for relation in relations}
        fewest = min(unwritten.values(), default=0)
        return [relation for relation in relations if unwritten[relation] == fewest]

    def _leads_into(self, stop: int, start: int) -> bool:
        """Whether a mention ending at ``stop`` reaches the name starting at ``start`` through one to three
        prepositions alone ("to", "from", "by", "on", "of", ...), so the name is its object: "linking to X", "cited by
        X", "you get to from X"; not "X links to" nor "linking the X"."""
        return start >= stop and bool(_INTO_NAME.fullmatch(self.question[stop:start].lower()))

    def _one_link(self, last: tuple[int, _Mention], index: int, root: str, spans: list[tuple[int, int, int]]) -> bool:
        """Whether the mention at word ``index`` and the ``last`` one name one link: the same root, with nothing but
        articles and "by", "via", "with" between them, or "to" before a bare verb, none of it a name ("clicking a
        link on X", "referenced by hyperlink from X", "links to click"); "papers citing papers citing X" are two."""
        at, (*_, last_root, _, _) = last
        between = self.words[at + 1 : index]
        if last_root == root and [w for *_, w in between] == ["in", "its"] and self.words[index][2].startswith(_OWN_LISTS):
            return True  # "the papers X cites in its bibliography": where it cites them, one link
        bare = not self.words[index][2].endswith(("s", "ing", "ed"))  # "links to click": a verb, not "links to links"
        return last_root == root and len(between) <= 2 and all(
            (word in _ONE_LINK_FILLER or (word == "to" and bare)) and not _inside(spans, start)
            for start, _, word in between
        )

    def _marked_way(self, index: int) -> str | None:
        """The way round the word at ``index`` has written onto it ("in-neighbours", "out-links", "indegree",
        "successors"): ``"back"`` or ``"forward"``; None where it has none."""
        word = self.words[index][2]
        if word in _JOINED_WAYS:
            return _JOINED_WAYS[word]
        if not index:
            return None
        _, end, previous = self.words[index - 1]
        joined = self.question[end : self.words[index][0]] == "-"
        return _HYPHEN_WAYS.get(previous) if joined else None

    def _walked_in(self, index: int) -> bool:
        """Whether the link word at ``index`` names the graph a word before it walks ("in the link graph", "under
        citation"), not one more hop of its own."""
        before = [word for _, _, word in self.words[max(0, index - 2) : index]]
        return _graph_named(before, [word for _, _, word in self.words[index + 1 : index + 2]])

    def _source_follows(self, index: int, spans: list[tuple[int, int, int]]) -> bool:
        """Whether the words after the link word at ``index`` (past "through", "to", "out") are "from" or "on" and then
        a name or a set of nodes, outside any name: what follows is the link's source ("the articles you click
        through to from X", "a link on X", "from any of the articles ..."). Not where nothing follows: "the articles
        X is linked from" name X as the target."""
        starts = {a for a, _, _ in spans}
        for at in range(index + 1, min(index + 4, len(self.words))):
            start, stop, word = self.words[at]
            if _inside(spans, start):
                return False
            if word in _SOURCE_AFTER:
                rest = len(self.question) - len(self.question[stop:].lstrip(" \t\"\u201c'"))
                following = self.words[at + 1][2] if at + 1 < len(self.words) else None
                return rest in starts or following in _SET_OPENERS
            if word not in _SOURCE_SKIPPED:
                return False
        return False

    def _way(self, index: int, root: str, before: set[str], spans: list[tuple[int, int, int]]) -> str | None:
        """The way round the link the word at ``index`` mentions runs whatever its voice and place: "incoming
        links", "links in", "citations", "the most citing papers" back (what lead to the node); "outgoing links",
        "links out", "outgoing citations", "the most references" forward. None: voice and word order decide."""
        ahead = 2 if self.words[index + 1 : index + 2] and self.words[index + 1][2] in _MOVING else 1  # "coming in"
        if before & _OUTWARD or self._out_after(index, ahead):  # "the links out of X": X's own
            return "forward"
        word = self.words[index][2]
        end = self.words[index + 1][2] if index + 1 < len(self.words) else ""
        if end in _LINK_ENDS:  # "the link targets of X", "the citation sources of X"
            return _LINK_ENDS[end]
        ends = [w for a, _, w in self.words[:index] if not _inside(spans, a)][-4:]  # a name's words aside
        for at in range(len(ends) - 2, -1, -1):  # "the targets of X's citations", "the sources of links to X"
            if ends[at] in _LINK_ENDS and ends[at + 1] == "of":
                return _LINK_ENDS[ends[at]]
        after = [w for a, _, w in self.words[index + 1 : index + 3] if not _inside(spans, a)]
        if "into" in after[: 2 if after[:1] and after[0] in _MARKED_NOUNS else 1]:
            return "back"  # "a citation edge into X", "links into X": what lead to X
        if word.endswith("ed") and after[:1] == ["in"]:
            return "forward"  # "the papers cited in X", "referenced in X": the ones X's own list holds
        if root in _HELD_NOUNS and not word.startswith(("back", "in")) and self._held_by_name(index, spans, root == "link"):
            return "forward"  # "the citations in X", "how many links does X contain": what X itself holds
        if word.startswith(_LIST_WORDS) or (root == "refe" and after[:1] in (["list"], ["lists"])):
            # "the bibliography of X", "X's refs", "X points you to in its reference list": X's own list; "whose
            # bibliography lists X", "the papers that have X in their refs", "reference lists that send you to X":
            # the lists X is in
            previous = [w for _, _, w in self.words[max(0, index - 2) : index]]
            start, stop = self.words[index][0], self.words[index][1]
            named = [(a, b) for a, b, label in spans if label == 0]
            if "whose" in previous or (previous[-2:] == ["in", "their"] and self._had_before(start, named)):
                return "back"  # "the papers that have X (or any of the papers X cites) in their refs"
            nearest = min(named, key=lambda span: _gap(span, start, stop), default=None)
            owner_after = nearest and nearest[0] > start and "its" not in previous  # "X has in its refs": X's own
            return "back" if owner_after and "of" not in after[:2] else "forward"
        compound = _COMPOUND.fullmatch(word)
        backlinks = compound is not None and compound.group(1) == "back"  # "backlinks": the links leading to a node
        if before & _INWARD or self._last_word(index + ahead, {"in"}) or root in _BACKWARD_NOUNS or backlinks:
            return "back"  # "incoming links", "links in", "citations", "backlinks"
        to, them, *_ = [w for w in self.words[index + 1 : index + 4] if w[2] != "through"] + [(0, 0, "")] * 2
        onto = to[2] == "to" or (to[2] == "on" and root in _ON_ROOTS)  # "papers drawing on them"
        if onto and them[2] in _MEMBERS_PRONOUNS and not self.question[to[1] : them[0]].strip():
            return "back"  # "rank them by pages that click through to them" (not "to, each once"): into the members
        clause = [w for _, _, w in self.words[index + 1 : index + 6]]
        clause = clause[1:] if clause[:1] == ["away"] else clause
        if clause[:1] in (["that"], ["which"]) and clause[1:2] and clause[1] in _LEADING and clause[2:3] == ["to"]:
            if clause[3:4] and clause[3] in _MEMBERS_PRONOUNS:
                return "back"  # "the most pages one click away that lead to them": pages leading into the members
        previous = [w for _, _, w in self.words[max(0, index - 2) : index]]
        if word.endswith("ing") and previous[-1:] and previous[-1] in _SUPERLATIVES:
            return "back"  # "the most citing papers": the papers citing it
        if word.endswith("ing") and after[:1] and after[0] in _MEMBERS_PRONOUNS:
            return "back"  # "the most papers citing them": what cite the members
        if word.endswith("ing") and self._noun_follows(index):
            return "back"  # "by referring pages", "the linking articles": the ones that link to it
        counted = bool(previous) and (previous[-1] in _COUNTING or previous in (["number", "of"], ["count", "of"]))
        if root in _FORWARD_NOUNS and word.endswith("s") and counted:
            return "forward"  # "the fewest references", "the greatest number of references"
        return None

    def _held_by_name(self, index: int, spans: list[tuple[int, int, int]], had: bool) -> bool:
        """Whether the plural link noun at ``index`` names what a name holds: "in" or "on" then the name ("the
        citations in X", "how many links are on the page X"), or, where ``had``, "does" then the name and a verb of
        holding ("how many links does X contain"; not "how many citations does X have": those cite X); a word such
        as "the" or "page" may stand before the name."""
        word = self.words[index][2]
        if not word.endswith("s") or word.endswith(("ss", "ers", "ors")):
            return False
        ends = {a: b for a, b, _ in spans}
        at = index + 1
        at += at < len(self.words) and self.words[at][2] in ("are", "is", "there")
        if at >= len(self.words) or self.words[at][2] not in _IN_PLACES | (_DOES if had else frozenset()):
            return False
        holding, place = self.words[at][2] in _DOES, self.words[at][1]
        at += 1
        while at < len(self.words) and self.words[at][0] not in ends and self.words[at][2] in _HOLDER_WORDS:
            at += 1
        if at >= len(self.words) or self.words[at][0] not in ends:
            return False
        stop = ends[self.words[at][0]]
        verb = next((w for a, _, w in self.words[at:] if a >= stop), "")
        if not holding:  # "fewer links in, X than Y", "fewer links in X has than Y": "in" a particle, X the subject
            return "," not in self.question[place : self.words[at][0]] and verb not in _HOLDING | _GETTING
        return verb in _HOLDING

    def _had_before(self, start: int, named: list[tuple[int, int]]) -> bool:
        """Whether a name stands between the last "have" (or "has", "include") and ``start`` ("the papers that
        have X in their refs"): what is had is in the list, not the list's owner's ("has the fewest entries in their
        bibliography" has no name there)."""
        found = list(_HAVE.finditer(self.question[:start].lower()))
        return bool(found) and any(found[-1].end() <= a and b <= start for a, b in named)

    def _manner(self, index: int) -> bool:
        """Whether the link word at ``index`` says how a verb before it is done ("mention X with a link"), not a link
        of its own: "with a" or "with an" before it and no "to", "from" or "on" after it ("the articles with a link to
        X" name the link)."""
        before = [word for _, _, word in self.words[max(0, index - 2) : index]]
        after = [word for _, _, word in self.words[index + 1 : index + 3]]
        after = after[1:] if after[:1] and after[0] in _MARKED_NOUNS else after[:1]  # "with a citation edge into X"
        return before[:1] == ["with"] and before[1:] in (["a"], ["an"]) and not set(after) & (_LINK_TARGET_WORDS | {"into"})

    def _link_word(self, index: int, roots: set[str]) -> bool:
        """Whether the word at ``index`` mentions a link of one of ``roots``, by its own root or a word for it."""
        if index >= len(self.words):
            return False
        own = _reach_root(self.words[index][2], self.words[index + 1][2] if index + 1 < len(self.words) else None)
        return own in roots or any(root in roots for root in _ROOT_SYNONYMS.get(own, ()))

    def _noun_follows(self, index: int) -> bool:
        """Whether a plural noun written in lower case (not a name, not a word that asks) follows the word at
        ``index`` at once: "referring pages", "citing papers"."""
        if index + 1 >= len(self.words):
            return False
        start, stop, word = self.words[index + 1]
        joined = not self.question[self.words[index][1] : start].strip()
        return joined and word.endswith("s") and word not in _ASKING_WORDS and self.question[start:stop].islower()

    def _out_after(self, index: int, ahead: int) -> bool:
        """Whether "out" follows the link word at ``index`` (past "going"): its particle, whatever comes next, "out"
        never being a place the way "in" is ("links in the list"): "how many links out belong to ...", "the links out
        the one with the most ... has". Not "points out" (to point something out links nothing)."""
        at = index + ahead
        return at < len(self.words) and self.words[at][2] == "out" and not self.words[index][2].startswith("point")

    def _last_word(self, index: int, words: set[str]) -> bool:
        """The question's word at ``index`` is one of ``words`` and ends a clause (nothing but punctuation or the
        question's end follows), a comparison's first side ("fewer links in than the others", "more links in for X
        than for Y") or the asked noun before its clause's verb ("how many more links in does X have"): "most links
        in?" but not "links in the list"."""
        if index >= len(self.words) or self.words[index][2] not in words:
            return False
        rest = self.question[self.words[index][1] :].lstrip()
        return not rest or not rest[0].isalnum() or self.words[index + 1 : index + 2][0][2] in _CLAUSE_AFTER
