"""Node labels in problem text -> dense integer ids.

Four cases, chosen from what the text states about its nodes:

* numbers from 0 (``numbered from 0 to N``): a label *is* its id;
* numbers from another start (``numbered from 1 to 20``): ids are shifted to
  start at 0 and the original numbers are kept as names (a phantom node 0
  would change PageRank, connectivity and Hamiltonian answers);
* names (``among James, Robert, and John``, letters ``a`` to ``e``,
  random integer labels): ids follow the listed order, names are kept;
* NLGraph matching (``3 applicants numbered from 0 to 2, and 2 jobs ...``):
  applicants first, then jobs, named ``applicant i`` and ``job j``.

The names of a range that does not start at 0, and of the matching layout,
are a :class:`~graphreason.tools.gar.graph_text.problem.RangeNames`, made on demand: a short
text stating a million nodes costs nothing until the names are used.

When the text lists no nodes, numbers are read as ids and other labels get ids
in order of first appearance.

A stated range goes through the node limit (:func:`graphreason.settings.max_nodes`)
before anything is built from it, and numbers too long to be ids are refused.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

from graphreason.tools.gar.graph_text.problem import RangeNames, check_node_count, read_int


class NodeSpace:
    """Resolves node labels to ids and remembers what could not be resolved."""

    def __init__(self) -> None:
        self.offset = 0
        self.names: list[str] | None = None  # declared names, in id order
        self.ranged: RangeNames | None = None  # names that are numbers in ranges (see the module docstring)
        self._index: dict[str, int] = {}
        self._folded: dict[str, list[int]] = {}
        self.dynamic = False  # names discovered from the text (no declared list)
        self.unknown: list[str] = []  # labels that look like nodes but are not declared
        self.stated_n: int | None = None
        self.range_hint = ""

    # ------------------------------------------------------------------ declaring
    def declare_range(self, first: str, last: str) -> bool:
        """``numbered from first to last`` (numbers or single letters). False if unusable."""
        if first.isdecimal() and last.isdecimal():
            lo, hi = read_int(first, "the node numbering"), read_int(last, "the node numbering")
            if hi < lo:
                return False
            n = check_node_count(hi - lo + 1, f"the text (nodes numbered from {lo} to {hi})")
            self.offset = lo
            self.stated_n = n
            self.range_hint = f"the text says the nodes are numbered from {lo} to {hi}"
            self.ranged = RangeNames([("", lo, n)]) if lo != 0 else None
            return True
        letters = string.ascii_lowercase if first.islower() else string.ascii_uppercase
        if len(first) == len(last) == 1 and first in letters and last in letters and first <= last:
            names = list(letters[letters.index(first) : letters.index(last) + 1])
            self._set_names(names)
            self.stated_n = len(names)
            self.range_hint = f"the text says the nodes are named from {first} to {last}"
            return True
        return False

    def declare_matching(self, applicants: tuple[int, int], jobs: tuple[int, int]) -> None:
        """NLGraph matching: ``(first, count)`` of the applicants' and the jobs' numbers."""
        self.ranged = RangeNames([("applicant ", *applicants), ("job ", *jobs)])
        self.stated_n = len(self.ranged)
        self.range_hint = f"the text lists {self.stated_n} nodes"

    def declare_list(self, labels: list[str]) -> None:
        """An explicit node list; ``0, 1, ..., n-1`` keeps numeric ids, anything else becomes names."""
        self.stated_n = len(labels)
        if labels == [str(i) for i in range(len(labels))]:
            self.range_hint = f"the text lists nodes 0 to {len(labels) - 1}"
            return
        self._set_names(labels)
        self.range_hint = f"the text lists {len(labels)} nodes"

    def _set_names(self, names: list[str]) -> None:
        self.names = list(names)
        self.ranged = None
        self._index = {}
        self._folded = {}
        for i, name in enumerate(self.names):
            self._index.setdefault(name, i)
            self._folded.setdefault(name.casefold(), []).append(i)

    # ------------------------------------------------------------------ resolving
    @property
    def named(self) -> bool:
        return self.names is not None or self.dynamic or self.ranged is not None

    @property
    def declared(self) -> bool:
        """True when the text declared its node names (a list, letters or ranges), so others are unknown."""
        return (self.names is not None and not self.dynamic) or self.ranged is not None

    def resolve(self, label: str, create: bool = False) -> int | None:
        """Id of ``label``, or None when it is not a node label in this text.

        Numbers outside the stated range are returned as (out-of-range) ids so
        the final check can name them. ``create`` lets a named-entity sentence
        introduce a new name when the text declared no node list.
        """
        label = label.strip()
        if self.names is not None:
            if label in self._index:
                return self._index[label]
            folded = self._folded.get(label.casefold(), [])
            if len(label) > 1 and len(folded) == 1:
                return folded[0]
            if self.dynamic and create:
                return self._add_name(label)
            if label.isdecimal() and not self.dynamic and self.offset:
                # out of a shifted numeric range: let the range check name it
                return read_int(label, "a node id in the text") - self.offset
            if create:
                self.unknown.append(label)
            return None
        if self.ranged is not None:
            node = self.ranged.id_of(label)
            if node is not None:
                return node
            if label.isdecimal() and self.offset:
                # out of a shifted numeric range: let the range check name it
                return read_int(label, "a node id in the text") - self.offset
            if create:
                self.unknown.append(label)
            return None
        if label.isdecimal():  # not isdigit: "²" is a digit that int() refuses
            return read_int(label, "a node id in the text") - self.offset
        if create:
            self.dynamic = True
            self._set_names([])
            return self._add_name(label)
        return None

    def _add_name(self, label: str) -> int:
        assert self.names is not None
        self.names.append(label)
        nid = len(self.names) - 1
        self._index[label] = nid
        self._folded.setdefault(label.casefold(), []).append(nid)
        return nid

    def label(self, node: int) -> str:
        """How the text writes node ``node`` (for messages)."""
        if self.names is not None:
            return self.names[node] if 0 <= node < len(self.names) else str(node)
        if self.ranged is not None and 0 <= node < len(self.ranged):
            return self.ranged[node]
        return str(node + self.offset)

    def node_names(self) -> Mapping[int, str] | None:
        if self.names is None:
            return self.ranged
        return dict(enumerate(self.names))

    def label_pattern(self) -> str:
        """Regex for one node label in this text (numbers, or the declared names).

        Listed names are alternated (their number is bounded by the text's
        length); ranges get a pattern of their shape, never one alternative per node.
        """
        if self.names and not self.dynamic:
            alternatives = sorted(set(self.names), key=len, reverse=True)
            names = "|".join(re.escape(n) for n in alternatives)
            return rf"(?:(?:{names})(?![\w'-])|\d+)"
        if self.ranged is not None:
            return self.ranged.pattern()
        return r"\d+"
