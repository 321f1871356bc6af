"""The JSON form of calls, as tool-calling habits make models write them.

Accepted shapes: ``{"function": "Feature", "args": ["12", "title"]}``,
``{"name": ..., "arguments": ...}`` (arguments may be a list, an object or a
JSON string), the wrappers ``command`` / ``action`` / ``function`` /
``function_call`` / ``tool_call``, or a list of these. The snippet is read by
:func:`graphreason.tools.core.lenient_json.read_value` (JSON, else a Python literal; integers
kept as text so a 5,000-digit id cannot hit Python's int-string limit).

Arguments given as an object are put in the entry's parameter order: a key
matches a parameter by its name or by the keys of its kind (``id`` means a
node), and keys matching nothing follow in the model's order. An arguments
string is decoded only if it is strict JSON; otherwise it is the verbatim
argument of a verbatim entry, or read like a bracket call's content.
"""

from __future__ import annotations

import json
from typing import Any

from graphreason.tools.core.lenient_json import read_value
from graphreason.tools.core.registry import Entry, Registry
from graphreason.tools.counselor.calls.base import ActionParseError, Call
from graphreason.tools.counselor.calls.bracket import BracketParser, split_top
from graphreason.tools.counselor.functions import strip_quotes

_WRAPPERS = ("command", "action", "function", "function_call", "tool_call")
_NAME_KEYS = ("function", "name", "tool")
_ARG_KEYS = ("args", "arguments", "parameters", "input")


def _rank(entry: Entry | None, key: Any) -> int:
    """Position of the parameter that the JSON key ``key`` names; after them all if none."""
    params = entry.params if entry is not None else ()
    text = str(key).lower()
    return next((i for i, p in enumerate(params) if text == p.name or text in p.kind.json_keys), len(params))


def _strict_json(text: str) -> Any:
    """An argument string decoded as strict JSON (what tool-calling APIs send), else None.

    Not lenient on purpose: a Python-looking text such as ``"['Alice', 'Bob']"``
    is the argument itself (an answer, a search text), not a list to unpack.
    """
    try:
        return json.loads(text, parse_int=str)  # integers stay text, as in read_value
    except (ValueError, RecursionError):
        return None


class JsonCallParser:
    """JSON calls over the names of one registry; nested bracket text is read by ``brackets``."""

    def __init__(self, registry: Registry, brackets: BracketParser) -> None:
        self.registry = registry
        self.brackets = brackets

    def parse(self, text: str) -> list[Call] | None:
        """The calls of the JSON object (or list of objects) in ``text``; None if it holds none."""
        start = text.find("{")
        if start < 0:
            return None
        before = text[:start].rstrip()
        if before.endswith("["):  # a JSON list of call objects
            start, end = len(before) - 1, text.rfind("]")
        else:
            end = text.rfind("}")
        obj = read_value(text[start : end + 1], ints_as_text=True)
        return self.calls(obj) if isinstance(obj, (dict, list)) else None

    def calls(self, obj: Any) -> list[Call]:
        if isinstance(obj, list):
            return [call for item in obj for call in self.calls(item)]
        if not isinstance(obj, dict):
            raise ActionParseError(f"The JSON action holds {type(obj).__name__}, not a function call.")
        for wrapper in _WRAPPERS:
            if isinstance(obj.get(wrapper), (dict, list)):
                return self.calls(obj[wrapper])
        name = next((obj[k] for k in _NAME_KEYS if k in obj), None)
        if not isinstance(name, str) or not name.strip():
            raise ActionParseError("The JSON action has no function name (use the key 'function' or 'name').")
        entry = self.registry.find(name)
        canonical = entry.name if entry is not None else name.strip()
        raw_args = next((obj[k] for k in _ARG_KEYS if k in obj), None)
        return [Call(canonical, self._args(entry, raw_args))]

    def _args(self, entry: Entry | None, raw: Any) -> tuple[Call | str, ...]:
        if isinstance(raw, str):
            decoded = _strict_json(raw)
            if isinstance(decoded, (list, dict)):
                raw = decoded
            elif entry is not None and entry.verbatim:
                return (raw.strip(),) if raw.strip() else ()
            else:
                return (
                    tuple(self.brackets.parse_arg(piece) for piece in split_top(raw)) if raw.strip() else ()
                )
        if isinstance(raw, dict):  # keep the model's order among keys that name no parameter
            raw = [raw[k] for k in sorted(raw, key=lambda k: _rank(entry, k))]
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raw = [raw]
        args: list[Call | str] = []
        for item in raw:
            if isinstance(item, dict):
                args.extend(self.calls(item)[:1])
            elif isinstance(item, str):
                args.append(self.brackets.whole_call(item.strip(), known_only=True) or strip_quotes(item))
            else:
                args.append(str(item))
        return tuple(args)
