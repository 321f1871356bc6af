"""The names a ``GR`` call must get right, as a decoding check: its graph and its function exist.

``[GR(GL("citeseer"), "graph_bert:topic", paper#2545)-->r]`` runs only if ``citeseer``
is a dataset of the hub (:data:`graphreason.tools.toolformer.hub.DATASETS`, any spelling
:func:`~graphreason.tools.toolformer.hub.dataset_key` reads) and ``graph_bert:topic`` an
entry of the registry (:data:`graphreason.tools.toolformer.registry.TOOLFORMER_FUNCTIONS`,
any spelling or alias). A name still being written must be the start of one; a closed
one must be one. Both sets come from those declarations, so a dataset or function added
there is accepted here at once. Every ``GR`` call of the 25,116 prompts_train outputs
passes (``tests/tools/toolformer/calls/test_known_names.py``).

Only a ``GL`` written directly as a ``GR``'s first argument, with a quoted name, is checked:
a graph-loading annotation (``[GL("human-brain-connectome-graph", ...)]``) names a graph
in its own words, and a path (a name with ``/``) is the hub's to resolve.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from graphreason.tools.toolformer.hub import (
    _SUFFIXES,
    ALIASES,
    DATASETS,
    UnknownDatasetError,
    dataset_form,
    dataset_key,
)
from graphreason.tools.toolformer.registry import RUNS_ON, TOOLFORMER_FUNCTIONS

_DATASET = re.compile(r'GR\(\s*GL\(\s*"([^"\n]*)("?)')
_FUNCTION = re.compile(r'GR\(\s*GL\(\s*(?:"([^"\n]*)")?[^()\n]*\)\s*,\s*"([^"\n]*)("?)')


def _function_form(name: str) -> str:
    """A function spelling as the grammar compares it: lower case, ``_`` and ``-`` alike.

    Stricter than the registry's lookup, which also ignores them: a decoder free to add
    separators anywhere wrote ``t-o_p_k_r_e_c...`` until its tokens ran out.
    """
    return name.lower().replace("_", "-")


@dataclass(frozen=True)
class KnownNames:
    """The datasets and functions a ``GR`` call may name, and which datasets each function's domain runs on.

    ``datasets``: every dataset name and alias of the hub, as :func:`~graphreason.tools.toolformer.hub.dataset_form`
    writes them; ``functions``: each entry name or alias (compared form) -> the domains it may mean;
    ``runs_on``: a domain -> the datasets it has models for (a domain not listed is not held to any).
    A closed dataset name is resolved by the hub itself (:func:`~graphreason.tools.toolformer.hub.dataset_key`).
    """

    datasets: frozenset[str]
    functions: dict[str, frozenset[str]]
    runs_on: dict[str, frozenset[str]]

    @staticmethod
    def dataset(name: str) -> str | None:
        """The canonical dataset a closed spelling names, or None."""
        try:
            return dataset_key(name)
        except UnknownDatasetError:
            return None

    def dataset_ok(self, name: str, closed: bool) -> bool:
        if "/" in name:
            return True
        if closed:
            return self.dataset(name) is not None
        form = dataset_form(name).lstrip("-")
        return any(known.startswith(form) for known in self.datasets) or any(
            form.startswith(known) and any(s.startswith(form[len(known) :]) for s in _SUFFIXES)
            for known in self.datasets
        )

    def function_ok(self, name: str, closed: bool, dataset: str | None = None) -> bool:
        """``name`` is (or can still become) a function; with ``dataset``, one whose domain runs on it."""
        form = _function_form(name)
        domains = {d for key, ds in self.functions.items() if (key == form if closed else key.startswith(form)) for d in ds}
        if dataset is None:
            return bool(domains)
        return any(d not in self.runs_on or dataset in self.runs_on[d] for d in domains)

    def viable(self, text: str) -> bool:
        """Every ``GR`` call's graph and function in ``text`` is, or can still become, a known one."""
        for found in _DATASET.finditer(text):
            if not self.dataset_ok(found.group(1), closed=bool(found.group(2))):
                return False
        for found in _FUNCTION.finditer(text):
            graph = found.group(1)
            dataset = self.dataset(graph) if graph is not None and "/" not in graph else None
            if not self.function_ok(found.group(2), closed=bool(found.group(3)), dataset=dataset):
                return False
        return True


@lru_cache(maxsize=1)
def known_names() -> KnownNames:
    """The hub's datasets and the registry's functions, with every spelling they accept."""
    functions: dict[str, set[str]] = {}
    for entry in TOOLFORMER_FUNCTIONS:
        domain = entry.name.split(":", 1)[0]
        for spelling in (entry.name, *entry.aliases):
            key = _function_form(spelling)
            functions.setdefault(key, set()).add(domain)
            if ":" in key:  # a bare name takes the dataset's default domain
                functions.setdefault(key.split(":", 1)[1], set()).add(domain)
    return KnownNames(
        frozenset(dataset_form(name) for name in [*DATASETS, *ALIASES]),
        {key: frozenset(domains) for key, domains in functions.items()},
        {domain: frozenset(names) for domain, names in RUNS_ON.items()},
    )
