"""Graph-ToolFormer's GR functions as LangChain tools: same values as the workflow substitutes, errors as text."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from graphreason.tools.core.registry import FunctionResult
from graphreason.tools.toolformer import hub
from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.tools.toolformer.registry import TOOLFORMER_FUNCTIONS, GRContext
from graphreason.workflows.toolformer.execute import Executor
from graphreason.workflows.toolformer.post_process import substitute_results


@pytest.fixture(scope="module")
def tools() -> dict[str, BaseTool]:
    return {tool.name: tool for tool in TOOLFORMER_FUNCTIONS.as_tools(GRContext(load_by_name=True))}


def _substituted(call: str) -> str:
    text = f"[{call}-->r]"
    outcomes = Executor().run(parse_text(text))
    assert [o.ok for o in outcomes] == [True], outcomes
    return substitute_results(text, outcomes)


@pytest.mark.parametrize(
    ("call", "tool", "args"),
    [
        ('GR(GL("gpr", {"bull_graph"}), "toolx:diameter")', "toolx_diameter", {}),
        ('GR(GL("gpr", "lollipop_graph"), "toolx:order")', "toolx_order", {}),
        ('GR(GL("gpr", "bull_graph"), "toolx:density", is-directed:True)', "toolx_density", {"is_directed": True}),
        ('GR(GL("gpr", "diamond_graph"), "toolx:eccentricity")', "toolx_eccentricity", {}),
        ('GR(GL("gpr", "bull_graph"), "toolx:eccentricity", node#2)', "toolx_eccentricity", {"node": "2"}),
        ('GR(GL("gpr", "lollipop_graph"), "toolx:shortest_path", node#0, node#13)', "toolx_shortest_path",
         {"source": 0, "target": "13"}),
        ('GR(GL("gpr", "lollipop_graph"), "toolx:avg_path_length", convention:"paper")', "toolx_avg_path_length",
         {"convention": "paper"}),
        ('GR(GL("gpr", "house_graph"), "toolx:periphery")', "toolx_periphery", {}),
    ],
)
def test_a_tool_gives_what_the_workflow_substitutes(
    tools: dict[str, BaseTool], call: str, tool: str, args: dict[str, object]
) -> None:
    instance = call.split('"gpr", ')[1].split(")")[0].strip('{}"')
    content = tools[tool].invoke({"graph": f"gpr:{instance}", **args})
    assert content == _substituted(call)


def test_the_artifact_carries_the_value(tools: dict[str, BaseTool]) -> None:
    message = tools["toolx_center"].invoke(
        {"type": "tool_call", "id": "c1", "name": "toolx_center", "args": {"graph": "gpr:bull_graph"}}
    )
    assert isinstance(message, ToolMessage) and isinstance(message.artifact, FunctionResult)
    (outcome,) = Executor().run(parse_text('[GR(GL("gpr", "bull_graph"), "toolx:center")-->r]'))
    assert message.artifact.ok and message.artifact.value == outcome.value
    assert message.content == outcome.text


def test_a_loaded_graph_and_a_list_of_names_are_accepted(tools: dict[str, BaseTool]) -> None:
    assert tools["toolx_size"].invoke({"graph": hub.load("gpr", "bull_graph")}) == "5"
    assert tools["toolx_order"].invoke({"graph": ["gpr:bull_graph", "gpr:diamond_graph"]}) == "[5, 4]"


@pytest.mark.parametrize(
    ("tool", "args", "words"),
    [
        ("toolx_shortest_path", {"graph": "gpr:bull_graph", "source": "0", "target": "99"}, "'99' is not in the graph"),
        ("toolx_density", {"graph": "gpr:bull_graph", "is_directed": "maybe"}, "must be True or False"),
        ("toolx_order", {"graph": "gpr:no_such_graph"}, "no_such_graph"),
        ("toolx_order", {"graph": "no-such-data"}, "not a Graph-ToolFormer dataset"),
        ("toolx_order", {"graph": "cora"}, "names a whole dataset"),
        ("toolx_order", {"graph": 7}, "must name a dataset"),
        ("toolx_order", {"graph": "../../etc"}, "refused"),
        ("graph_bert_topic", {"graph": "pubmed", "paper": "1"}, "PubMed"),
        ("bpr_topk_recommendation", {"graph": "movielens", "user": "1", "k": "many"}, "whole number"),
        ("toolx_eccentricity", {"node": "1"}, "graph: Field required"),
    ],
)
def test_bad_arguments_come_back_as_text(tools: dict[str, BaseTool], tool: str, args: dict, words: str) -> None:
    message = tools[tool].invoke({"type": "tool_call", "id": "c1", "name": tool, "args": args})
    assert isinstance(message, ToolMessage) and words in message.content
    if isinstance(message.artifact, FunctionResult):
        assert not message.artifact.ok and message.artifact.error == message.content
    else:  # refused by the schema: nothing ran
        assert message.status == "error"


class _Recorder:
    """Stands in for a trained graph model: records each method call and answers with a marker."""

    def __init__(self, domain: str, dataset: str, calls: list[tuple[str, str, str, tuple]]) -> None:
        self.domain, self.dataset, self.calls = domain, dataset, calls

    def __getattr__(self, method: str):  # noqa: ANN204 - any model method
        def answer(*args: object) -> str:
            self.calls.append((self.domain, self.dataset, method, args))
            return f"{self.domain}.{method} on {self.dataset}"

        return answer


# one dataset a domain's tool accepts (its graph parameter's description names them)
_DATASET = {"graph_bert": "cora", "seg_bert": "mutag", "bpr": "movielens", "kmeans": "twitter", "transe": "wordnet"}


def test_every_graph_model_is_a_tool_that_asks_its_trained_model(
    tools: dict[str, BaseTool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each GNN / recommender / KGE / community entry is a LangChain tool whose call reaches its model.

    The models are stand-ins (training them is the graph-model tests' job): what is checked here is the
    wiring from the tool's schema and arguments to the hub model's method and back to the tool's text.
    """
    from graphreason.tools.graph_models import hub as model_hub
    from graphreason.tools.toolformer.registry import MODELS

    calls: list[tuple[str, str, str, tuple]] = []
    monkeypatch.setattr(model_hub, "get_model", lambda domain, dataset, **_: _Recorder(domain, dataset, calls))
    monkeypatch.setattr(hub, "load", lambda dataset, instance=None: hub.LoadedGraph(dataset=dataset))
    assert len(MODELS) >= 13
    for entry in MODELS:
        domain = entry.name.split(":", 1)[0]
        tool = tools[entry.name.replace(":", "_")]
        schema = tool.args_schema.model_json_schema()
        assert list(schema["properties"]) == [p.name for p in entry.params], entry.name
        args: dict[str, object] = {"graph": _DATASET[domain]}
        for param in entry.params[1:]:
            args[param.name] = 5 if param.name == "k" else f"{param.name}#7"
        before = len(calls)
        text = tool.invoke(args)
        assert len(calls) == before + 1, (entry.name, text)
        called_domain, dataset, _method, model_args = calls[-1]
        assert (called_domain, dataset) == (domain, _DATASET[domain])
        assert str(text).startswith(f"{domain}."), (entry.name, text)
        assert len(model_args) == len(entry.params) - 1, entry.name
