"""Reading the agent's reply: a tolerant reader that never raises, and a correction for what it cannot use.

The paper's agent must answer with ``{"thoughts": {...}, "command": {"name",
"args"}}``; models do not. What is read anyway:

* code fences and prose around the JSON, Python-style single quotes and
  ``True``/``None`` (:mod:`graphreason.tools.core.lenient_json`), replies cut off before their
  closing braces (the missing ``"`` / ``}`` are added back);
* ``"command": "get_neighbors"`` with ``args`` beside it, a bare call such as
  ``get_neighbors(31336)`` or ``answer[Neural Networks]`` when there is no JSON;
* arguments as an object, a string, a number or a list; node ids such as
  ``31336``, ``"31336"``, ``"paper#31336"``; a missing node id means the target;
* an answer's label as its id (``2``, ``"2"``) or its name in any case or
  spacing (``"neural_networks"``, ``"2: Neural Networks"``).

What is refused becomes ``problem``, the corrective observation the agent
sees next (the step still counts): no command, an illegal name such as
``neighbors`` or ``feature`` (the paper's failure case; the correction names
the closest real command but does not run it, so the ablations stay honest),
a command switched off in this run, an unknown label.

Command names, their parameters (and the JSON keys that may carry them) and
which command is the final one come from the registry
(:data:`graphreason.tools.graphagent.registry.COMMANDS`). A native tool call
(``--tool-calling native``) is read by :func:`read_call`, the same reading a
JSON command gets once its name and args are found.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from graphreason.tools.core.lenient_json import json_objects
from graphreason.tools.core.registry import Entry, Registry
from graphreason.tools.graphagent.actions import normalise_id
from graphreason.tools.graphagent.registry import COMMANDS, NEAR_MISSES, NODE_KEYS, argument_keys

_FENCE = re.compile(r"```[a-zA-Z]*")
_CALL = re.compile(r"\b([A-Za-z_]{2,30})\s*[\(\[]\s*([^\)\]\n]{0,300})[\)\]]")
MAX_REPLY_CHARS = 20_000  # a longer reply is runaway generation: only its start is read


@dataclass
class Decision:
    """One reply, read: its thoughts and command, or the problem that stops it from running."""

    reply: str
    thoughts: dict[str, Any] = field(default_factory=dict)
    command: str | None = None  # the name as written (normalised spelling) when one was found
    args: dict[str, Any] = field(default_factory=dict)
    node: str | None = None  # node commands: the argument read as an id
    label: str | None = None  # answer: the label name
    reason: str = ""
    problem: str | None = None

    @property
    def valid(self) -> bool:
        return self.problem is None and self.command is not None


def read_reply(
    reply: str, *, commands: list[str], labels: list[str], target: str, registry: Registry = COMMANDS
) -> Decision:
    """The decision in ``reply`` (never raises); ``commands`` are those offered in this run."""
    text = _FENCE.sub("", (reply or "")[:MAX_REPLY_CHARS])
    found = _command_object(text, registry)
    if found is None:
        call = _bare_call(text, registry)
        if call is None:
            decision = Decision(reply=reply or "")
            decision.problem = (
                "Your reply had no command I could read. Reply with one JSON object only, "
                'e.g. {"thoughts": {"text": "..."}, "command": {"name": "' + commands[0] + '", "args": {...}}}.'
            )
            return decision
        name, args, thoughts = call[0], call[1], {}
    else:
        name, args, thoughts = found
    return read_call(
        name, args, reply=reply or "", thoughts=thoughts, commands=commands, labels=labels, target=target,
        registry=registry,
    )


def read_call(
    name: str,
    args: Any,
    *,
    commands: list[str],
    labels: list[str],
    target: str,
    reply: str = "",
    thoughts: dict[str, Any] | None = None,
    registry: Registry = COMMANDS,
) -> Decision:
    """A command already split into ``name`` and ``args`` (a JSON command, a native tool call), checked.

    Never raises: a name not offered, an unknown label or unusable args become ``problem``.
    """
    name = resolve_name(name, registry)
    entry = registry.find(name) if name in registry.names() else None
    decision = Decision(reply=reply, thoughts=dict(thoughts or {}), command=name, args=_as_args(args, entry))
    if entry is None or name not in commands:
        decision.problem = _bad_name(name, commands, registry)
        return decision
    if entry.terminal:
        _read_answer(decision, labels, entry)
    else:
        value = _pick(decision.args, argument_keys(entry.params[0])) if entry.params else None
        decision.node = normalise_id(value) if value not in (None, "") else target
    return decision


def _command_object(text: str, registry: Registry) -> tuple[str, Any, dict[str, Any]] | None:
    """(name, args, thoughts) from the first JSON object holding a command, repairing a cut-off reply."""
    for candidate in (text, *_repairs(text)):
        for obj in json_objects(candidate):
            read = _from_object(obj, registry)
            if read is not None:
                return read
    return None


def _repairs(text: str) -> list[str]:
    """The text with what a cut-off reply lacks: a closing quote and the missing braces."""
    start = text.find("{")
    if start < 0:
        return []
    body = text[start:].rstrip().rstrip(",")
    missing = body.count("{") - body.count("}")
    if missing <= 0:
        return []
    closers = "}" * missing
    return [body + closers, body + '"' + closers, body + '""' + closers]


def _from_object(obj: dict[str, Any], registry: Registry) -> tuple[str, Any, dict[str, Any]] | None:
    thoughts = obj.get("thoughts")
    thoughts = thoughts if isinstance(thoughts, dict) else ({"text": str(thoughts)} if thoughts else {})
    command = obj.get("command", obj.get("action"))
    if isinstance(command, dict):
        name = command.get("name") or command.get("command")
        args = command.get("args", command.get("arguments", command.get("parameters")))
        if args is None:
            args = {k: v for k, v in command.items() if k not in {"name", "command"}}
    elif isinstance(command, str):
        call = _bare_call(command, registry)
        if call is not None and "args" not in obj:
            name, args = call[0], call[1]
        else:
            name, args = command, obj.get("args", obj.get("arguments"))
    elif "name" in obj and "args" in obj:  # the command object alone
        name, args = obj.get("name"), obj.get("args")
    else:
        return None
    if not isinstance(name, str) or not name.strip():
        return None
    return normalise_name(name), args, thoughts


def _bare_call(text: str, registry: Registry) -> tuple[str, dict[str, Any]] | None:
    """``name(args)`` / ``name[args]`` written without JSON (the first one that names a command-like word)."""
    for match in _CALL.finditer(text):
        name = resolve_name(match.group(1), registry)
        if name in registry.names() or name in NEAR_MISSES:
            raw = match.group(2).strip().strip("'\"")
            entry = registry.find(name) if name in registry.names() else None
            return name, _positional(raw, entry)
    return None


def _positional(raw: str, entry: Entry | None) -> dict[str, Any]:
    """Bracketed text as args: split at commas into the entry's parameters, the last one taking the rest."""
    names = [p.name for p in entry.params] if entry is not None and entry.params else [NODE_KEYS[0]]
    if not raw:
        return {}
    parts = raw.split(",", len(names) - 1)
    return {key: part.strip().strip("'\"") for key, part in zip(names, parts, strict=False)}


def normalise_name(name: str) -> str:
    """``"Get Neighbors"`` / ``"get-neighbors"`` / ``"'Answer'"`` -> ``get_neighbors`` / ``answer``."""
    return re.sub(r"[\s\-]+", "_", name.strip().strip("'\"`").strip()).lower()


def resolve_name(name: str, registry: Registry = COMMANDS) -> str:
    """The command ``name`` spells (its own name or an alias of the registry, in any case or spacing).

    Spellings are compared after :func:`normalise_name` only, so ``getneighbors``
    stays a wrong name (the registry's own lookup would accept it).
    """
    name = normalise_name(name)
    for entry in registry:
        if name == normalise_name(entry.name) or name in (normalise_name(a) for a in entry.aliases):
            return entry.name
    return name


def _as_args(args: Any, entry: Entry | None) -> dict[str, Any]:
    first = entry.params[0].name if entry is not None and entry.params else NODE_KEYS[0]
    if isinstance(args, dict):
        return {str(k).strip().lower(): v for k, v in args.items()}
    if isinstance(args, list | tuple):
        return {first: args[0]} if args else {}
    if args is None or args == "":
        return {}
    return {first: args}  # a bare value: the first parameter (the node id, or the label of the answer)


def _pick(args: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in args and args[key] not in (None, ""):
            return args[key]
    return None


def _bad_name(name: str, commands: list[str], registry: Registry) -> str:
    listed = ", ".join(commands)
    if name in registry.names():
        return f"The command {name} is not available in this run. Use one of: {listed}."
    close = difflib.get_close_matches(name, commands, n=1, cutoff=0.5)
    hint = f" Did you mean {close[0]}?" if close else ""
    return f"{name[:40]!r} is not a command.{hint} Use exactly one of: {listed}."


def _read_answer(decision: Decision, labels: list[str], entry: Entry) -> None:
    args = decision.args
    value = _pick(args, argument_keys(entry.params[0]))
    if value is None:
        value = _pick(args, NODE_KEYS)  # a bare value landed under a node id's name
    reason = _pick(args, argument_keys(entry.params[1])) if len(entry.params) > 1 else None
    decision.reason = str(reason).strip() if reason is not None else ""
    label = resolve_label(value, labels)
    if label is None:
        shown = "; ".join(f"{i}: {name}" for i, name in enumerate(labels))
        given = "no label" if value in (None, "") else f"the label {str(value)[:60]!r}"
        decision.problem = f"Your answer gave {given}, which is not in the label set. Answer with one of: {shown}."
        return
    decision.label = label


def resolve_label(value: Any, labels: list[str]) -> str | None:
    """A label name from an id (``2``, ``"2"``), a name in any case or spacing, or a text naming one label."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, list | tuple):
        return resolve_label(value[0], labels) if value else None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return labels[value] if 0 <= value < len(labels) else None
    text = str(value).strip().strip("'\"`.").strip()
    if re.fullmatch(r"\d{1,4}", text):
        index = int(text)
        return labels[index] if index < len(labels) else None
    key = _label_key(text)
    by_key = {_label_key(name): name for name in labels}
    if key in by_key:
        return by_key[key]
    numbered = re.match(r"^(\d{1,4})\s*[:.)-]\s*(.+)$", text)  # "2: Neural Networks"
    if numbered and _label_key(numbered.group(2)) in by_key:
        return by_key[_label_key(numbered.group(2))]
    named = [name for name in labels if re.search(rf"\b{re.escape(_label_key(name))}\b", key)]
    return named[0] if len(named) == 1 else None


def _label_key(text: str) -> str:
    return " ".join(re.sub(r"[_\-]+", " ", text).lower().split())


def labels_in(text: str, labels: list[str]) -> list[str]:
    """Label names mentioned in ``text``, in order of first mention (the T_max fallback reads these)."""
    key = _label_key(text)
    found = []
    for name in labels:
        match = re.search(rf"\b{re.escape(_label_key(name))}\b", key)
        if match:
            found.append((match.start(), name))
    return [name for _, name in sorted(found)]


def label_mentions(text: str, labels: list[str]) -> Counter[str]:
    """How often each label is named in ``text``; ``"Theory x3"`` (a neighbour count) counts 3."""
    key = _label_key(text)
    counts: Counter[str] = Counter()
    for name in labels:
        for match in re.finditer(rf"\b{re.escape(_label_key(name))}\b(?: x(\d{{1,4}}))?", key):
            counts[name] += int(match.group(1)) if match.group(1) else 1
    return counts
