"""GraphFunctions: typed values, observation strings, tolerant resolution."""

from __future__ import annotations

import pytest

from graphreason.tools.core.errors import UnknownFeatureError, UnknownNodeError, UnknownRelationError
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.functions import FunctionCallError, GraphFunctions, resolve_node
from tests.tools.conftest import TitleRetriever

# ---------------------------------------------------------------- typed values


def test_typed_values(functions: GraphFunctions) -> None:
    assert functions.retrieve("Chain of Thought") == "5"
    assert functions.feature("5", "title") == "Chain of Thought"
    assert functions.feature("5", "year") == 2025
    assert functions.neighbour("2", "cites") == ["4", "5"]
    assert functions.neighbour("a3", "writes") == ["4", "5", "6"]
    assert functions.degree("6", "cited_by") == 2
    assert functions.degree("6", "cites") == 0


def test_retrieve_is_similarity_search_not_id_lookup(
    functions: GraphFunctions, retriever: TitleRetriever
) -> None:
    # "4" is a node id, but no node text contains "4": the retriever is asked and finds nothing
    with pytest.raises(FunctionCallError, match="found no node"):
        functions.retrieve("4")
    assert retriever.queries == ["4"]
    assert functions.retrieve('"react"') == "4"  # quotes stripped, similarity is the retriever's
    assert retriever.queries[-1] == "react"


def test_retrieve_errors(store: GraphStore) -> None:
    with pytest.raises(FunctionCallError, match="no retriever"):
        GraphFunctions(store).retrieve("ReAct")
    with pytest.raises(FunctionCallError, match="needs some text"):
        GraphFunctions(store, TitleRetriever(store)).retrieve("  ''  ")


# ---------------------------------------------------------------- observations


def test_observation_formats(functions: GraphFunctions) -> None:
    assert functions.call("Retrieve", "Reflexion").observation == "The ID of this retrieval target node is 3."
    assert (
        functions.call("Neighbour", "1", "cites").observation
        == "The cites neighbors of 1 are: ['2', '3', '4']."
    )
    assert functions.call("Feature", "3", "title").observation == "The title feature of 3 are: Reflexion."
    assert functions.call("Degree", "4", "cited_by").observation == "The cited_by neighbor number of 4 is 3."
    assert functions.call("Neighbour", "6", "cites").observation == "The cites neighbors of 6 are: []."
    assert functions.call("Feature", "3", "abstract").observation == "The abstract feature of 3 are: (empty)."


def test_call_returns_typed_value_with_observation(functions: GraphFunctions) -> None:
    result = functions.call("Degree", "a3", "writes")
    assert (result.value, result.ok, result.mapped, result.error) == (3, True, False, None)
    result = functions.call("Neighbour", "a1", "writes")
    assert result.value == ["1", "2"]


def test_errors_become_observations_with_valid_options(functions: GraphFunctions) -> None:
    result = functions.call("Feature", "3", "venue")
    assert not result.ok and result.value is None
    assert result.observation == result.error
    assert "'venue'" in result.observation and "title, year, abstract" in result.observation

    result = functions.call("Neighbour", "3", "references")
    assert not result.ok and "cites" in result.observation and "written_by" in result.observation

    result = functions.call("Degree", "p99", "cites")
    assert not result.ok and "'p99'" in result.observation and "Retrieve" in result.observation


def test_unknown_function_and_arity(functions: GraphFunctions) -> None:
    result = functions.call("Title", "3")
    assert not result.ok
    assert "Unknown function 'Title'" in result.observation and "Feature[node, feature]" in result.observation

    result = functions.call("Feature", "3")
    assert not result.ok
    assert "Feature takes 2 argument(s)" in result.observation
    assert "Feature names of 3: title, year, abstract" in result.observation

    result = functions.call("Neighbour", "node 4")
    assert "Neighbor types of 4: cited_by, cites, written_by" in result.observation

    result = functions.call("Retrieve")
    assert not result.ok and "Retrieve[text]" in result.observation


# ---------------------------------------------------------------- mapping over lists


def test_mapped_feature_keeps_order_and_alignment(functions: GraphFunctions) -> None:
    result = functions.call("Feature", ["4", "2"], "title")
    assert result.mapped and result.value == ["ReAct", "Graph Agents"]
    assert result.observation == "The title feature of ['4', '2'] are: ['ReAct', 'Graph Agents']."


def test_mapped_neighbour_is_the_union(functions: GraphFunctions) -> None:
    # 2 cites 4, 5; 3 cites 4; 4 cites 5, 6
    result = functions.call("Neighbour", ["2", "3", "4"], "cites")
    assert result.value == ["4", "5", "6"]
    assert result.observation == "The cites neighbors of ['2', '3', '4'] are: ['4', '5', '6']."


def test_mapped_degree_and_retrieve(functions: GraphFunctions) -> None:
    result = functions.call("Degree", ["a1", "a2", "a3"], "writes")
    assert result.value == [2, 3, 3]
    assert result.observation == "The writes neighbor numbers of ['a1', 'a2', 'a3'] are: [2, 3, 3]."
    result = functions.call("Retrieve", ["ReAct", "Alice"])
    assert result.value == ["4", "a1"]
    assert result.observation == "The IDs of these retrieval target nodes are: ['4', 'a1']."


def test_mapped_partial_and_total_failure(functions: GraphFunctions) -> None:
    # a1 is an author: it has a name, not a title
    result = functions.call("Feature", ["3", "a1"], "title")
    assert result.ok and result.value == ["Reflexion", None]
    assert result.observation.startswith("The title feature of ['3', 'a1'] are: ['Reflexion', None].")
    assert "No value for ['a1']" in result.observation and "Valid feature names: name" in result.observation

    result = functions.call("Feature", ["a1", "a2"], "title")
    assert not result.ok
    assert "No value for any of ['a1', 'a2']" in result.observation


# ---------------------------------------------------------------- bounded output


def test_long_lists_are_capped() -> None:
    store = GraphStore("star")
    for i in range(250):
        store.add_edge("hub", f"leaf{i}", "spoke")
    functions = GraphFunctions(store, max_list=3)
    result = functions.call("Neighbour", "hub", "spoke")
    assert len(result.value) == 250  # the value is complete, only the text is bounded
    assert (
        result.observation
        == "The spoke neighbors of hub are: ['leaf0', 'leaf1', 'leaf2', ... (250 nodes in all)]."
    )
    default = GraphFunctions(store).call("Neighbour", "hub", "spoke").observation
    assert "'leaf99'" in default and "'leaf100'" not in default and "(250 nodes in all)" in default
    with pytest.raises(ValueError):
        GraphFunctions(store, max_list=0)


def test_long_text_is_clipped(store: GraphStore) -> None:
    store.add_node("3", features={"abstract": "x" * 50})
    result = GraphFunctions(store, max_chars=10).call("Feature", "3", "abstract")
    assert result.value == "x" * 50
    assert result.observation == "The abstract feature of 3 are: xxxxxxxxxx... (50 characters in all)."


# ---------------------------------------------------------------- tolerant resolution


@pytest.mark.parametrize(
    "surface",
    [
        "4",
        " 4 ",
        "'4'",
        '"4"',
        "`4`",
        "node 4",
        "Node 4",
        "node #4",
        "#4",
        "paper#4",
        "paper 4",
        "id: 4",
        "ID=4",
        "node id 4",
        "node_id: 4",
        "4.",
    ],
)
def test_resolve_node_surface_forms(store: GraphStore, surface: str) -> None:
    assert resolve_node(store, surface) == "4"


def test_resolve_node_author_prefix_and_ints(store: GraphStore) -> None:
    assert resolve_node(store, "author#a2") == "a2"
    assert resolve_node(store, 4) == "4"


def test_resolve_node_does_not_cut_real_ids() -> None:
    store = GraphStore("bio")
    store.add_node("DOID:3310", "disease")
    store.add_node("3311", "disease")
    assert resolve_node(store, "DOID:3310") == "DOID:3310"
    assert resolve_node(store, "disease 3311") == "3311"
    # "DOID" is neither a generic word nor a node type: never strip it to reach "3311"
    with pytest.raises(UnknownNodeError):
        resolve_node(store, "DOID:3311")
    with pytest.raises(UnknownNodeError):
        resolve_node(store, "journal#3311")


def test_relation_names_are_loose_when_unambiguous(functions: GraphFunctions) -> None:
    assert functions.neighbour("4", "CITED_BY") == ["1", "2", "3"]
    assert functions.neighbour("4", "cited by") == ["1", "2", "3"]
    assert functions.degree("4", "Written-By") == 2
    assert functions.call("Neighbour", "4", "Cited By").observation.startswith("The cited_by neighbors of 4")


def test_neighbour_spelling_in_labels() -> None:
    store = GraphStore.from_edges([("a", "b")], relation="also_bought_neighbor")
    assert GraphFunctions(store).neighbour("a", "also bought neighbour") == ["b"]


def test_ambiguous_names_are_rejected_with_the_candidates() -> None:
    store = GraphStore("amb", directed=True)
    store.add_node("x", "item", {"Name": "upper", "name": "lower"})
    store.add_edge("x", "y", "Link")
    store.add_edge("x", "z", "link")
    functions = GraphFunctions(store)
    assert functions.feature("x", "Name") == "upper"  # exact names always win
    with pytest.raises(UnknownFeatureError, match="Name, name"):
        functions.feature("x", "NAME")
    with pytest.raises(UnknownRelationError, match="Link, link"):
        functions.neighbour("x", "LINK")


def test_relation_cache_follows_new_edges(functions: GraphFunctions, store: GraphStore) -> None:
    assert functions.degree("1", "cites") == 3
    store.add_edge("1", "x9", "Mentions")
    assert functions.neighbour("1", "mentions") == ["x9"]


def test_feature_names_are_case_insensitive(functions: GraphFunctions) -> None:
    assert functions.feature("paper#2", "Title") == "Graph Agents"
    assert functions.call("Feature", "2", "TITLE").observation == "The title feature of 2 are: Graph Agents."
