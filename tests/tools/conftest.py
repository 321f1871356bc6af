"""A small citation graph with hand-checkable answers, and a fake retriever.

Papers 1-6 and authors a1-a3 in a directed graph::

    cites (reverse cited_by):  1->2, 1->3, 1->4, 2->4, 2->5, 3->4, 4->5, 4->6, 5->6
    written_by (reverse writes): 1->a1, 1->a2, 2->a1, 3->a2, 4->a2, 4->a3, 5->a3, 6->a3
"""

from __future__ import annotations

import pytest

from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.functions import GraphFunctions

TITLES = {
    "1": "Graph Counselor",
    "2": "Graph Agents",
    "3": "Reflexion",
    "4": "ReAct",
    "5": "Chain of Thought",
    "6": "Attention Is All You Need",
}
AUTHORS = {"a1": "Alice", "a2": "Bob", "a3": "Carol"}
CITES = [
    ("1", "2"),
    ("1", "3"),
    ("1", "4"),
    ("2", "4"),
    ("2", "5"),
    ("3", "4"),
    ("4", "5"),
    ("4", "6"),
    ("5", "6"),
]
WRITTEN_BY = [
    ("1", "a1"),
    ("1", "a2"),
    ("2", "a1"),
    ("3", "a2"),
    ("4", "a2"),
    ("4", "a3"),
    ("5", "a3"),
    ("6", "a3"),
]


class TitleRetriever(Retriever):
    """Test double: exact (case-insensitive) node text first, then substring match."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.queries: list[str] = []

    def search(self, text: str, k: int = 1, node_type: str | None = None) -> list[tuple[str, float]]:
        self.queries.append(text)
        query = text.lower()
        nodes = [n for n in self.store.nodes(node_type)]
        exact = [(n, 1.0) for n in nodes if self.store.text(n).lower() == query]
        partial = [(n, 0.5) for n in nodes if query in self.store.text(n).lower() and (n, 1.0) not in exact]
        return (exact + partial)[:k]


def build_paper_graph() -> GraphStore:
    store = GraphStore("papers", directed=True, text_keys={"paper": "title", "author": "name"})
    for nid, title in TITLES.items():
        store.add_node(nid, "paper", {"title": title, "year": 2020 + int(nid), "abstract": ""})
    for nid, name in AUTHORS.items():
        store.add_node(nid, "author", {"name": name})
    for src, dst in CITES:
        store.add_edge(src, dst, "cites", reverse_relation="cited_by")
    for src, dst in WRITTEN_BY:
        store.add_edge(src, dst, "written_by", reverse_relation="writes")
    return store


@pytest.fixture
def store() -> GraphStore:
    return build_paper_graph()


@pytest.fixture
def retriever(store: GraphStore) -> TitleRetriever:
    return TitleRetriever(store)


@pytest.fixture
def functions(store: GraphStore, retriever: TitleRetriever) -> GraphFunctions:
    return GraphFunctions(store, retriever)
