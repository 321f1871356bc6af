"""A method's input bound holds on every route into its graph, not only on the first node's input.

A thread's state can be written as any node (``update_state(..., as_node=...)``, which
``POST /threads/{id}/state`` does), after which a run with no input starts further on;
before, Graph-ToolFormer then processed 3,000,017 characters (limit 20,000) and GAR took
a 6.18M-character question (limit 2M). Every node now checks the state it receives.
"""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graphreason.workflows.inputs import QuestionError, bounded_state


def _resumed(build_graph, values: dict, as_node: str, context: object = None) -> None:
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "hostile"}}
    graph.update_state(config, values, as_node=as_node)
    graph.invoke(None, config, context=context)


def test_toolformer_refuses_an_oversized_text_written_into_the_thread() -> None:
    from graphreason.workflows.toolformer.graph import build_graph

    with pytest.raises(QuestionError, match="the text has 30,000 characters; at most 20,000"):
        _resumed(build_graph, {"text": "x" * 30_000, "has_calls": True}, "start")


def test_gar_refuses_an_oversized_question_written_into_the_thread() -> None:
    from graphreason.workflows.gar.graph import MAX_QUESTION_CHARS, build_graph

    too_long = "(0,1) " * (MAX_QUESTION_CHARS // 6 + 10)
    with pytest.raises(QuestionError, match=f"at most {MAX_QUESTION_CHARS:,} are accepted"):
        _resumed(build_graph, {"question": too_long}, "start")


def test_counselor_refuses_an_oversized_question_written_as_a_later_node() -> None:
    from graphreason.workflows.counselor import CounselorContext
    from graphreason.workflows.counselor.graph import build_graph
    from graphreason.workflows.counselor.trials import MAX_QUESTION_CHARS

    context = CounselorContext(graph="cora", embedding_model="hash")  # the check comes before any model call
    with pytest.raises(QuestionError, match=f"at most {MAX_QUESTION_CHARS:,} are accepted"):
        _resumed(build_graph, {"question": "q" * (MAX_QUESTION_CHARS + 1), "trial_index": 0}, "plan", context)


def test_the_check_reads_only_what_is_set() -> None:
    check = bounded_state("text", 5)
    check({})  # nothing set yet (a chat client's message becomes the text at start)
    check({"text": None})
    check({"text": "short"})
    with pytest.raises(QuestionError, match="must be a string, got list"):
        check({"text": ["x"]})
    with pytest.raises(QuestionError, match="6 characters; at most 5"):
        check({"text": "longer"})
