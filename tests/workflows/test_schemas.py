"""What Studio and the HTTP API see of the two graphs: input/output JSON schemas and a clear error
for a run without a question."""

from __future__ import annotations

import pytest

from graphreason.workflows.counselor.graph import graph as counselor_graph
from graphreason.workflows.gar.graph import graph as gar_graph
from graphreason.workflows.inputs import QuestionError

GRAPHS = {"graph_counselor": counselor_graph, "gar": gar_graph}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_output_schema_exists_and_every_field_is_described(name):
    schema = GRAPHS[name].get_output_jsonschema()  # raised a PydanticUserError with typing.TypedDict
    properties = schema["properties"]
    assert {"question", "answer", "usage"} <= set(properties)
    undescribed = [field for field, spec in properties.items() if not spec.get("description")]
    assert not undescribed, f"{name}: output fields without a description: {undescribed}"


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_input_schema_describes_the_question_and_the_chat_channel(name):
    """The question is given as its field or, from a chat client, as the last human message (the first node
    refuses a run with neither: see below), so the schema marks neither as required."""
    schema = GRAPHS[name].get_input_jsonschema()
    assert schema["properties"]["question"]["description"]
    assert "human message" in schema["properties"]["messages"]["description"]


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize(
    ("payload", "words"),
    [({}, "no 'question'"), ({"question": "   "}, "must not be empty"), ({"question": 7}, "must be a string")],
)
def test_a_run_without_a_usable_question_says_what_is_wrong(name, payload, words):
    # the check runs in the first node, before any model or graph is touched
    with pytest.raises(QuestionError, match=words):
        GRAPHS[name].invoke(payload)
