"""Names several nodes bear: the type a question writes before a name, and what the call around Retrieve asks of the
node, pick the one meant (Last.fm tags are often named after the artists they describe)."""

from __future__ import annotations

from graphreason.tools.core.retrieval.hybrid import build_retriever
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.constraint import CounselorAction
from graphreason.tools.counselor.functions import GraphFunctions, recording_retrievals
from graphreason.tools.counselor.skeleton import parse_skeleton
from graphreason.tools.counselor.wording import declared_types


def _namesakes() -> GraphStore:
    """An item "Duran Duran" with two tags and one fan, and a tag "duran duran" on three items."""
    store = GraphStore("items", directed=True, text_keys={"item": "name", "user": "name", "tag": "name"})
    for node, kind, name in (("i1", "item", "Duran Duran"), ("i2", "item", "Japan"), ("i3", "item", "ABC"),
                             ("u1", "user", "user 1"), ("t1", "tag", "duran duran"), ("t2", "tag", "new wave"),
                             ("t3", "tag", "80s")):  # fmt: skip
        store.add_node(node, kind, {"name": name})
    for item, tag in (("i1", "t2"), ("i1", "t3"), ("i1", "t1"), ("i2", "t1"), ("i3", "t1")):
        store.add_edge(item, tag, "has_tag", reverse_relation="tag_on")
    store.add_edge("u1", "i1", "likes", reverse_relation="liked_by")
    return store


def test_retrieve_takes_the_namesake_whose_type_has_the_relation_the_call_asks() -> None:
    store = _namesakes()
    functions = GraphFunctions(store, build_retriever(store, ranking="lexical", progress=False))
    with recording_retrievals() as found:
        tags = run_action("Degree[Retrieve[duran duran], tag_on]", functions)
    assert tags.ok and tags.observation == "The tag_on neighbor number of t1 is 3."
    assert found == [{"query": "duran duran", "node": "t1", "ranked_by": "exact name"}]
    fans = run_action("Degree[Retrieve[duran duran], liked_by]", functions)
    assert fans.ok and fans.observation == "The liked_by neighbor number of i1 is 1."
    # no call around it asks anything of the node: the first of the namesakes, as before
    assert run_action("Retrieve[duran duran]", functions).observation == "The ID of this retrieval target node is i1."
    # neither namesake has the relation: the first, and the error names what it does have
    wrong = run_action("Degree[Retrieve[duran duran], follows]", functions)
    assert not wrong.ok and "i1" in wrong.observation


def test_a_type_written_before_a_quoted_name_is_that_names_type() -> None:
    store = _namesakes()
    question = 'Count the items carrying the tag "duran duran".'
    assert declared_types(store, question) == {"duran duran": "tag"}
    assert declared_types(store, 'How many fans does the item "Duran Duran" have?') == {"duran duran": "item"}
    assert declared_types(store, 'How many fans does "Duran Duran" have?') == {}
    assert declared_types(store, 'Count the users with the tag "new wave".') == {"new wave": "tag"}
    action = CounselorAction(store, question, skeleton=parse_skeleton("Degree[_]"))
    assert action.complete("Degree[Retrieve[duran duran], tag_on]")
    assert not action.complete("Degree[Retrieve[duran duran], has_tag]")
