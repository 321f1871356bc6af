"""Node ids in calls are copied from the input: the rule that lets decoding refuse a mistyped id.

Every node reference in the 32,383 calls of prompts_train (our training and
validation sides together) names an id that stands in the input text as a
whole id: it starts after ``#`` or after a character that cannot be part of an
id, and it ends at the end of the text, before such a character, before
sentence punctuation followed by a space or the end (``paper #1033.``), or
before ``'s`` (``user blond_olala's community``). A small model copying a
long id drops or doubles a character now and then (``A3GQSZ2RVXDCZ`` for
``A3GQSZ2RVVXDCZ``, ``JoshhGrantham`` for ``JoshhGrantham_``); held to this
rule it has to take the id as the input spells it.

While an id is still being written (it runs to the end of the text so far) it
only has to start an id of the input; once something follows it, it has to be
a whole one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphreason.tools.toolformer.calls.parse import NODE_REF

ID_CHAR = r'[^\s,(){}\[\]":]'
_START = rf"(?:(?<!{ID_CHAR})|(?<=#))"
_END = rf"(?:$|(?!{ID_CHAR})|[.?!;:']+(?=\s|$)|'s\b)"
_REF_ID = re.compile(r'#\s*([^\s,(){}\[\]":#][^\s,(){}\[\]":]*)')  # an unquoted reference's id


@lru_cache(maxsize=4096)
def _pattern(node_id: str, whole: bool) -> re.Pattern[str]:
    return re.compile(_START + re.escape(node_id) + (_END if whole else ""))


def stands_in(source: str, node_id: str, *, whole: bool = True) -> bool:
    """``node_id`` occurs in ``source`` as a whole id (``whole=False``: as the start of one)."""
    return _pattern(node_id, whole).search(source) is not None


def ids_copied(bracket: str, source: str, *, still_open: bool = False) -> bool:
    """Every node id in the call bracket text ``bracket`` stands in ``source``.

    ``still_open``: ``bracket`` is the unfinished end of a reply, so an id
    running to its end may be a partial one, and an unclosed string is skipped.
    """
    parts = bracket.split('"')  # even parts lie outside strings, odd ones inside
    last = len(parts) - 1
    for index, part in enumerate(parts):
        if index % 2:  # a string: only a whole quoted reference ("node#5") names an id
            if still_open and index == last:
                continue
            ref = NODE_REF.fullmatch(part)
            if ref and not stands_in(source, ref.group(2)):
                return False
            continue
        for match in _REF_ID.finditer(part):
            partial = still_open and index == last and match.end() == len(part)
            if not stands_in(source, match.group(1), whole=not partial):
                return False
    return True
