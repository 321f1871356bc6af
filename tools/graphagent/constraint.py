"""GraphAgent's reply format as a decoding constraint for the embedded engine.

The engine (:mod:`graphreason.llm.engine.constraint`) asks a constraint two
things about the text so far: can it still become a reply the grammar accepts
(``viable``), and may the reply end here (``complete``). :class:`AgentReply`
answers both with one regular language, matched partially (the ``regex``
package's ``partial=True``), so the embedded model can only write:

* the JSON object of the format prompt, in its key order and spacing:
  ``{"thoughts": {"text": "...", ["reasoning": "...",] ["plan": "...",]
  "criticism": "...", "speak": "..."}, "command": {"name": ..., "args": ...}}``;
* a command this run offers, with the arguments the registry gives it: a node
  id for the node commands, a label of the label set (by name, exactly as the
  goal writes it) and a reason for the final answer;
* short thoughts: each text at most :data:`MAX_FIELD_CHARS` characters, on one
  line, without quotes or backslashes (nothing that needs escaping).

What the grammar makes sure of is the form; the choice of command and label is
still the model's. The reply is read by the same tolerant parser as any other
model's (``workflows/graphagent/parsing.py``), so a reply that the engine had
to give up constraining is still judged like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import regex

from graphreason.tools.graphagent.registry import COMMANDS

MAX_FIELD_CHARS = 120  # one thought, reason or plan: a sentence (six fields stay within 320 tokens)
MAX_ID_CHARS = 40

_TEXT = rf'"[^"\\\n]{{0,{MAX_FIELD_CHARS}}}"'
_ID = rf'(?:"[A-Za-z0-9_#:.\-]{{1,{MAX_ID_CHARS}}}"|[0-9]{{1,{MAX_ID_CHARS}}})'


class AgentReply:
    """The reply language of one decision: ``commands`` offered, ``labels`` of the goal.

    ``reasoning`` / ``plan`` add those thought fields, as the format prompt
    does when the run enables them.
    """

    def __init__(
        self, commands: Sequence[str], labels: Sequence[str], *, reasoning: bool = True, plan: bool = True
    ) -> None:
        if not commands:
            raise ValueError("an agent reply needs at least one command")
        if not labels:
            raise ValueError("an agent reply needs the label set")
        self.commands = list(commands)
        self.labels = list(labels)
        self.reasoning, self.plan = reasoning, plan

    @cached_property
    def pattern(self) -> regex.Pattern[str]:
        thoughts = [f'"text": {_TEXT}']
        if self.reasoning:
            thoughts.append(f'"reasoning": {_TEXT}')
        if self.plan:
            thoughts.append(f'"plan": {_TEXT}')
        thoughts += [f'"criticism": {_TEXT}', f'"speak": {_TEXT}']
        commands = "|".join(self._command(name) for name in self.commands)
        source = r'\{"thoughts": \{' + ", ".join(thoughts) + r'\}, "command": \{(?:' + commands + r")\}\}"
        return regex.compile(source)

    def _command(self, name: str) -> str:
        entry = COMMANDS.get(name)
        args = []
        for param in entry.params:
            if param.kind.name == "label":
                value = '"(?:' + "|".join(regex.escape(label) for label in self.labels) + ')"'
            elif param.kind.name == "node":
                value = _ID
            else:
                value = _TEXT
            args.append(f'"{regex.escape(param.name)}": {value}')
        return f'"name": "{regex.escape(name)}", "args": \\{{' + ", ".join(args) + r"\}"

    def viable(self, text: str) -> bool:
        return self.pattern.fullmatch(text, partial=True) is not None

    def complete(self, text: str) -> bool:
        return self.pattern.fullmatch(text) is not None
