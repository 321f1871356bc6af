"""Graph construction, second reader: the master writes the graph as JSON when the parser read no edges.

Only an *unreadable* text gets here (:class:`GraphTextUnreadable`: wording
outside the parser's encodings); a contradictory one stays an error. The
model's JSON is untrusted, so before it is used:

* every node it names must occur in the text as a word (no invented nodes);
* a node count the text states must match (numbered nodes it left out are
  added as isolated nodes; more nodes than stated is an error);
* the graph then goes through the same structured-graph checks as any
  user-supplied graph, and the question's parameters are read from the text.

What still fails is raised as a :class:`GraphTextError` that names both the
parser's and the model's problem.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from tools.graph_text import GraphTextError, ParsedProblem
from tools.graph_text.problem import preview
from workflows.gar.common import emit, json_objects
from workflows.gar.construct import build_problem, constructed
from workflows.gar.context import GARContext
from workflows.gar.state import GARState
from workflows.models.invoke import invoke_text
from workflows.models.roles import role_model

PARSE_PROMPT = """A rule-based reader could not find the edges of the graph described below. \
Read the text and write its graph as one JSON object:
{{"directed": false, "nodes": ["every node, named as in the text"], "edges": [["u", "v"], ["u", "v", 3]]}}
An edge is [u, v] or [u, v, weight]. Set "directed" to true only when the links have a direction. \
Use the node names exactly as the text writes them, list every edge once, and reply with the JSON only.

Text:
{text}"""

_STATED = (
    re.compile(r"\bnumbered\s+from\s+0\s+to\s+(\d+)\b", re.I),
    re.compile(r"\b(\d+)\s+nodes\b", re.I),
)
_MAX_TEXT_CHARS = 6000


def stated_node_count(text: str) -> int | None:
    """The node count the text states ("numbered from 0 to 5" -> 6, "7 nodes" -> 7), if any."""
    m = _STATED[0].search(text)
    if m:
        return int(m.group(1)) + 1
    m = _STATED[1].search(text)
    return int(m.group(1)) if m else None


def _in_text(label: Any, text: str) -> bool:
    word = re.escape(str(label).strip())
    return bool(word) and re.search(rf"(?<![\w]){word}(?![\w])", text, re.I) is not None


def graph_from_reply(reply: str, text: str) -> dict[str, Any]:
    """The structured graph in the model's reply, checked against ``text`` (see the module docstring)."""
    graph = next((obj for obj in json_objects(reply) if isinstance(obj.get("edges"), list)), None)
    if graph is None:
        raise GraphTextError("the model's reply held no JSON object with an 'edges' list")
    edges = [e for e in graph["edges"] if isinstance(e, list | tuple) and len(e) in (2, 3)]
    if not edges or len(edges) != len(graph["edges"]):
        raise GraphTextError("the model's edges must all be [u, v] or [u, v, weight], and there must be some")
    nodes = graph.get("nodes") if isinstance(graph.get("nodes"), list) else []
    labels = list(dict.fromkeys([*nodes, *(x for e in edges for x in e[:2])]))
    invented = [str(x) for x in labels if not _in_text(x, text)]
    if invented:
        raise GraphTextError(f"the model named nodes that are not in the text: {preview(invented)}")
    stated = stated_node_count(text)
    if stated is not None and len(labels) != stated:
        numbered = all(isinstance(x, int) or str(x).isdigit() for x in labels)
        if len(labels) > stated or not numbered:
            raise GraphTextError(f"the text says {stated} nodes but the model's graph has {len(labels)}")
        labels = list(range(stated))  # the isolated nodes it left out
        edges = [[int(e[0]), int(e[1]), *e[2:]] for e in edges]
    return {
        "directed": bool(graph.get("directed", False)),
        "nodes": labels,
        "edges": [list(e) for e in edges],
    }


def parse_with_llm(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    error = state["parse_error"]
    question = state["question"]
    prompt = PARSE_PROMPT.format(text=question[:_MAX_TEXT_CHARS])
    model = role_model(ctx, ctx.master_model, temperature=ctx.temperature, max_tokens=ctx.parse_max_tokens)
    reply = invoke_text(model, [HumanMessage(content=prompt)])
    try:
        graph = graph_from_reply(reply.text, question)
        problem: ParsedProblem = build_problem(question, graph)
    except GraphTextError as exc:
        raise GraphTextError(f"{error} The master's reading failed as well: {exc}") from exc
    update = constructed(problem, question, how="the master's JSON reading (the parser read no edges)")
    emit("graph_from_llm", f"read by the master: {update['graph_summary']}", edges=len(graph["edges"]))
    update["graph"] = graph  # so a resumed run rebuilds the same graph without asking again
    update["llm_usage"] = reply.usage()
    update["trace"][0]["reply"] = reply.text
    return update
