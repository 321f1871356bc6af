"""A :class:`Registry`: the set of functions one method's agents may call.

Names resolve case-insensitively, ignoring blanks, ``_`` and ``-``, through
each entry's name and aliases (``Neighbors`` -> ``Neighbour``, ``Final Answer``
-> ``Finish``). A name that resolves to nothing gives an error listing the
valid functions, because that message is shown to the model as its
observation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.registry.entry import Entry

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from graphreason.tools.core.registry.dispatch import GraphContext

_IGNORED = re.compile(r"[\s_\-]")
# Names come from model text, so the lookup cache must not grow without bound.
_CACHE_LIMIT = 4096


class FunctionCallError(GraphError):
    """A graph function was called wrongly (unknown name, wrong arity, empty text)."""


class UnknownFunctionError(FunctionCallError, KeyError):
    """No entry of the registry has this name or alias."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


def normalize(name: str) -> str:
    """The lookup key of a spelling: lower case, no blanks, ``_`` or ``-``."""
    return _IGNORED.sub("", name.lower())


class Registry:
    """Entries by name, in registration order, with their aliases."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self._entries: dict[str, Entry] = {}
        self._keys: dict[str, str] = {}  # normalized name or alias -> entry name
        self._cache: dict[str, str | None] = {}
        for entry in entries:
            self.register(entry)

    def register(self, entry: Entry) -> Entry:
        """Add ``entry``; its name and aliases must not clash with another entry's."""
        keys = {normalize(entry.name), *(normalize(a) for a in entry.aliases)}
        for key in keys:
            owner = self._keys.get(key)
            if owner is not None and owner != entry.name:
                raise ValueError(f"{entry.name}: the spelling {key!r} already names {owner}")
        if entry.name in self._entries:
            raise ValueError(f"{entry.name} is already registered")
        self._entries[entry.name] = entry
        self._keys.update(dict.fromkeys(keys, entry.name))
        self._cache.clear()
        return entry

    def extended(self, *entries: Entry) -> Registry:
        """A new registry with this one's entries followed by ``entries`` (this one is unchanged)."""
        return Registry([*self, *entries])

    # ------------------------------------------------------------ lookup
    def canonical(self, name: str) -> str | None:
        """The entry name meant by a spelling or alias, or None if none is."""
        try:
            return self._cache[name]
        except KeyError:
            pass
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        found = self._cache[name] = self._keys.get(normalize(name))
        return found

    def find(self, name: str) -> Entry | None:
        """The entry meant by ``name`` (any spelling or alias), or None."""
        canonical = self.canonical(name)
        return None if canonical is None else self._entries[canonical]

    def get(self, name: str) -> Entry:
        """The entry meant by ``name``; :class:`UnknownFunctionError` naming the valid ones if none."""
        entry = self.find(name)
        if entry is None:
            raise UnknownFunctionError(f"Unknown function {name!r}. {self.usage()}")
        return entry

    def is_terminal(self, name: str) -> bool:
        entry = self.find(name)
        return entry is not None and entry.terminal

    def names(self) -> list[str]:
        return list(self._entries)

    @property
    def aliases(self) -> Mapping[str, str]:
        """Read-only view: every normalized spelling -> entry name."""
        return MappingProxyType(self._keys)

    def __iter__(self) -> Iterator[Entry]:
        return iter(list(self._entries.values()))

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.canonical(name) is not None

    # ------------------------------------------------------------ tools
    def as_tools(self, ctx: GraphContext, note: str = "") -> list[BaseTool]:
        """One LangChain ``StructuredTool`` per non-terminal entry, in registration order, run against ``ctx``.

        Each tool is named after its entry (lower case, ``toolx:order`` ->
        ``toolx_order``), takes the entry's typed parameters as arguments,
        is described by the entry's description followed by ``note``, and
        answers with ``content_and_artifact`` (observation text,
        :class:`~graphreason.tools.core.registry.FunctionResult`). A tool never raises:
        errors come back as text. See :mod:`graphreason.tools.core.registry.tools`.
        """
        # langchain is imported only when tools are asked for
        from graphreason.tools.core.registry.tools import registry_tools

        return registry_tools(self, ctx, note)

    # ------------------------------------------------------------ help text
    def usage(self) -> str:
        """One line listing the valid functions (terminal ones last), for corrective observations."""
        items = [e.listing for e in sorted(self, key=lambda e: e.terminal)]
        if len(items) < 2:
            listed = items[0] if items else "(none)"
        else:
            listed = f"{', '.join(items[:-1])}, and {items[-1]}"
        return f"Valid functions: {listed}."

    def __repr__(self) -> str:
        return f"Registry({', '.join(self.names())})"
