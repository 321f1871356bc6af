"""Chat shorthand spelled out before a question is read: "how many r the ppl who listen to X" is read as "how many
are the people who listen to X".

People type questions the way they type messages: "u", "r", "w/o", "btwn", "# of", "y/n". The operation planner,
the call grammar's reading of the question and the tuned reasoner all learned from words written out, so each reads
the question with its shorthand spelled out first (:func:`spelled_out`). Only words standing alone are touched
(never part of a longer token: "U.S.", "R&B", "C#", "#1", "u40" stay as written), and never inside a name the
question quotes or one of the node names it holds. A few idioms are written plainly as well ("the artists X has on
repeat": listened to). The tables are English chat usage, not any one graph's or question set's wording; the user's
question itself is kept as written in the state, the trace and the record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphreason.tools.counselor.wording import _QUOTED  # a quoted name, as the question's reading finds it

# shorthand -> the words it stands for; whole tokens, any case ("U" opens a sentence as "You")
SHORTHAND: dict[str, str] = {
    "u": "you", "ur": "your", "r": "are", "ppl": "people", "pls": "please", "plz": "please", "thx": "thanks",
    "w/": "with", "w/o": "without", "b/w": "between", "btwn": "between", "betw": "between", "diff": "different",
    "abt": "about", "bc": "because", "b/c": "because", "cuz": "because", "coz": "because", "smth": "something",
    "sth": "something", "tho": "though", "thru": "through", "wanna": "want to", "gonna": "going to",
    "gotta": "have to", "dunno": "do not know", "idk": "I do not know", "y/n": "yes or no", "num": "number",
    "avg": "average", "approx": "approximately", "q": "question", "dupes": "duplicates", "dups": "duplicates",
    "#": "number",
}  # fmt: skip
# "# of" is "number of" (the table's "#"); a token counts as standing alone where no letter, digit, "&", "#", "'",
# "-" or "/" touches it, and no "." joined to a further letter ("U.S.")
_TOKEN = re.compile(
    r"(?<![\w&#/'\-.])(" + "|".join(re.escape(key) for key in sorted(SHORTHAND, key=len, reverse=True)) + r")"
    r"(?![\w&#/'\-]|\.\w)",
    re.IGNORECASE,
)
# a few idioms for what a relation's own word says, written plainly: "the artists X has on repeat" are those X
# listens to (not "no repeats", which counts each once)
IDIOMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:has|have|had|having) on repeat\b", re.IGNORECASE), "listened to"),
    (re.compile(r"\b(?:is|are|was|were) on repeat\b", re.IGNORECASE), "is listened to"),
    # "the tag given to the majority of the artists X listens to": the one most of them carry
    (re.compile(r"\b(?:the|a) (?:great |vast |clear )?majority of\b", re.IGNORECASE), "most of"),
)

# shorthand whose meaning its place tells, spelled out before the table: "diff" ending a question ("X vs Y links
# diff?") asks for a difference; elsewhere it is "different" ("a diff label")
ENDINGS: tuple[tuple[re.Pattern[str], str], ...] = ((re.compile(r"(?<![\w&#/'\-.])diff(?=\s*(?:[?.!]|$))", re.IGNORECASE), "difference"),)


def spelled_out(question: str, names: Sequence[str] = ()) -> str:
    """``question`` with its chat shorthand (:data:`SHORTHAND`) spelled out and its :data:`IDIOMS` written plainly,
    outside its quoted names and each of ``names`` (the node names it holds unquoted), which are kept as written. A
    question with none is returned unchanged, so spelling out twice changes nothing more."""
    kept = [(m.start(), m.end()) for m in _QUOTED.finditer(question)]
    for name in sorted((name for name in names if name), key=len, reverse=True):
        for m in re.finditer(re.escape(name), question):
            if not any(a < m.end() and m.start() < b for a, b in kept):
                kept.append((m.start(), m.end()))
    kept.sort()
    parts, at = [], 0
    for a, b in [*kept, (len(question), len(question))]:
        text = question[at:a]
        for ending, plain in ENDINGS:
            text = ending.sub(plain, text)
        text = _TOKEN.sub(_spell, text)
        for idiom, plain in IDIOMS:
            text = idiom.sub(plain, text)
        parts.append(text)
        parts.append(question[a:b])
        at = b
    return "".join(parts)


def _spell(found: re.Match[str]) -> str:
    word = SHORTHAND[found.group(1).lower()]
    return word[0].upper() + word[1:] if found.group(1)[0].isupper() else word
