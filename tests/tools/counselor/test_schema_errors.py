"""A relation or feature a node's type does not have is an error that names what the type has, never a zero.

On the test graph (tests/tools/conftest.py) papers have ``cites``, ``cited_by`` and
``written_by``; authors have only ``writes``. Paper 6 cites nothing: for it, ``cites``
is a real relation with no arcs, so 0 is the true answer there.
"""

from __future__ import annotations

import pytest

from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.functions import GraphFunctions


@pytest.mark.parametrize(
    "action",
    [
        "Degree[a1, cites]",
        "Neighbour[a1, cited_by]",
        "MaxDegree[Neighbour[1, written_by], cites]",
        "Differing[a1, cites, name]",
        "Count[Neighbour[a2, cites]]",
    ],
)
def test_every_function_refuses_a_relation_of_another_type_and_names_the_types_own(
    functions: GraphFunctions, action: str
) -> None:
    result = run_action(action, functions)
    assert not result.ok, result.observation
    assert "does not exist for node a" in result.observation and "(type author)" in result.observation
    assert "Valid neighbor types here: writes." in result.observation


def test_a_relation_of_the_type_with_no_arcs_at_this_node_is_a_true_zero(functions: GraphFunctions) -> None:
    assert run_action("Degree[6, cites]", functions).observation.endswith("is 0.")
    assert functions.degree("6", "cites") == 0


def test_a_loose_spelling_resolves_to_the_types_own_relation(functions: GraphFunctions) -> None:
    assert functions.neighbour("a1", "Writes") == functions.neighbour("a1", "writes") == ["1", "2"]
    result = run_action("Degree[a1, cited by]", functions)
    assert not result.ok and "writes" in result.observation


def test_a_feature_the_node_lacks_names_its_own(functions: GraphFunctions) -> None:
    result = run_action("Feature[a1, title]", functions)
    assert not result.ok and "Valid feature names: name." in result.observation


def test_native_tools_give_the_same_error(functions: GraphFunctions) -> None:
    from graphreason.tools.core.registry.dispatch import FunctionResult

    tools = {tool.name: tool for tool in functions.registry.as_tools(functions)}
    outcome = tools["degree"].invoke({"node": "a1", "relation": "cites"})
    text = outcome if isinstance(outcome, str) else getattr(outcome, "content", str(outcome))
    assert "(type author). Valid neighbor types here: writes." in str(text)
    assert not functions.call("Degree", "a1", "cites").ok
    assert isinstance(functions.call("Degree", "a1", "cites"), FunctionResult)


def test_on_a_wide_schema_the_error_names_the_closest_relations_first() -> None:
    """Thirty relations are more than an error lists: the ones spelled like the misnamed one come first."""
    from graphreason.tools.core.store import GraphStore

    store = GraphStore(name="wide", directed=True, text_keys={"entity": "name"})
    store.add_node("e0", "entity", {"name": "Ann", "birth_year": 1970})
    for i in range(30):
        store.add_node(f"e{i + 1}", "entity", {"name": f"E{i}"})
        store.add_edge("e0", f"e{i + 1}", f"relation_{i:02d}")
    store.add_edge("e0", "e1", "place_of_birth")
    result = run_action("Neighbour[e0, birth_place]", GraphFunctions(store))
    assert not result.ok and "Valid neighbor types here: place_of_birth, " in result.observation
    assert "(31 in all)" in result.observation
    feature = run_action("Feature[e0, year_of_birth]", GraphFunctions(store))
    assert not feature.ok and "birth_year" in feature.observation
