"""The one reader of model-written node references, and the four resolvers built on it."""

from __future__ import annotations

import networkx as nx
import pytest

from graphreason.tools.core.errors import UnknownNodeError
from graphreason.tools.core.node_ids import (
    ANY_PREFIX,
    GENERIC_PREFIXES,
    bare_id,
    find_id,
    id_readings,
    strip_quotes,
)


@pytest.mark.parametrize(
    "written",
    [
        "31336",
        31336,
        31336.0,
        [31336],
        ("31336",),
        " '31336' ",
        "`31336`",
        "“31336”",
        "(31336)",
        "[31336]",
        "paper#31336",
        "Paper #31336",
        "Node 31336",
        "node_id: 31336",
        "node id: 31336",
        "ID=31336",
        "#31336",
        "the node 31336",
        "vertex 31336",
        "node31336",
        "31336.",
        "'paper#31336.'",
    ],
)
def test_the_surface_forms_of_one_id(written) -> None:
    assert bare_id(written) == "31336"
    assert find_id(written, {"31336", "7"}) == "31336"
    assert find_id(written, {"31336": 0}) == "31336"  # a mapping is looked up by key


def test_readings_are_literal_first_and_unique() -> None:
    assert id_readings("node id: 12") == ["node id: 12", "id: 12", "12"]
    assert id_readings(" '4.' ") == [" '4.' ", "4.", "4"]
    assert id_readings("") == [] and bare_id("") == ""
    assert bare_id("...") == "..."  # nothing but punctuation stays as it is


def test_an_id_holding_a_prefix_or_colon_is_found_as_written() -> None:
    ids = {"DOID:3310", "3311", "node 5", "5"}
    assert find_id("DOID:3310", ids) == "DOID:3310"
    assert find_id("node 5", ids) == "node 5"  # the literal id wins over the cut one
    # "DOID" is not an accepted prefix: never cut to reach another node
    assert find_id("DOID:3311", ids) is None
    assert find_id("journal#3311", ids) is None
    assert find_id("journal#3311", ids, GENERIC_PREFIXES | {"journal"}) == "3311"
    assert find_id("journal#3311", ids, ANY_PREFIX) == "3311"


def test_any_prefix_does_not_cut_glued_words() -> None:
    assert find_id("x1", {"1"}, ANY_PREFIX) is None
    assert find_id("node1", {"1"}) == "1"


def test_integer_ids_need_numbers() -> None:
    graph = nx.path_graph(4)
    assert find_id("node#3", graph) is None
    assert find_id("node#3", graph, numbers=True) == 3
    assert find_id(2, graph) == 2  # the object itself is tried first
    assert find_id(True, graph, numbers=True) is None  # a bool is not node 1
    assert find_id("-1", graph, numbers=True) is None and find_id("9" * 5000, graph, numbers=True) is None


def test_a_lookup_function_gets_each_reading() -> None:
    seen: list[str] = []

    def by_name(text: str) -> int | None:
        seen.append(text)
        return {"alice": 0, "bob": 1}.get(text.lower())

    assert find_id("Node 'Bob'.", by_name) == 1
    assert seen[0] == "Node 'Bob'." and seen[-1] == "Bob"  # the literal text first
    assert find_id("carol", by_name) is None


def test_unhashable_references_are_not_found() -> None:
    assert find_id({"id": 3}, {"3"}) is None
    assert find_id([], {"[]"}) == "[]"  # an empty list is its text


def test_strip_quotes_keeps_brackets() -> None:
    assert strip_quotes(" '(a)' ") == "(a)"


# --------------------------------------------------------------------------- the four resolvers agree
@pytest.mark.parametrize("written", ["12", 12, "paper#12", "Node 12", " '12' ", "#12", "12."])
def test_the_four_resolvers_read_the_same_forms(written) -> None:
    from graphreason.tools.core.store import GraphStore
    from graphreason.tools.counselor.functions import resolve_node as counselor_node
    from graphreason.tools.gar.graph_text import parse_graph_problem
    from graphreason.tools.graphagent.actions import normalise_id
    from graphreason.tools.toolformer.toolx import resolve_node as toolx_node

    store = GraphStore("papers")
    for node in ("3", "12"):
        store.add_node(node, "paper")
    assert counselor_node(store, written) == "12"
    assert toolx_node(nx.path_graph(13), written) == 12
    assert normalise_id(written) == "12"
    problem = parse_graph_problem(
        "In an undirected graph, the nodes are numbered from 0 to 12, and the edges are: (0,12) (3,12)."
    )
    assert problem.node_id(written) == 12


def test_the_resolvers_keep_their_own_errors() -> None:
    from graphreason.tools.core.store import GraphStore
    from graphreason.tools.counselor.functions import resolve_node as counselor_node
    from graphreason.tools.gar.graph_text import GraphTextError, parse_graph_problem
    from graphreason.tools.toolformer.toolx import UnknownToolxNodeError
    from graphreason.tools.toolformer.toolx import resolve_node as toolx_node

    store = GraphStore("papers")
    store.add_node("12", "paper")
    with pytest.raises(UnknownNodeError, match="'node 120' does not exist.*Similar ids: 12"):
        counselor_node(store, "node 120")
    with pytest.raises(UnknownToolxNodeError, match="'node#20' is not in the graph"):
        toolx_node(nx.path_graph(13), "node#20")
    problem = parse_graph_problem("In an undirected graph, the nodes are numbered from 0 to 3, and the edges are: (0,1).")
    with pytest.raises(GraphTextError, match=r"node 'node 9' is not in the graph \(ids are 0..3\)"):
        problem.node_id("node 9")
