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
parser's and the model's problem. :func:`graph_from_reply` raises nothing
else, whatever the reply holds (lists or dicts as node names, "directed": "no",
a stated count of a billion nodes).
"""

from __future__ import annotations

import math
import re
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from graphreason.tools.core.lenient_json import json_objects
from graphreason.tools.gar.graph_text import GraphTextError, ParsedProblem
from graphreason.tools.gar.graph_text.problem import (
    check_node_count,
    preview,
    read_directed,
    read_int,
    read_weight,
    shown,
)
from graphreason.workflows.gar.construct import build_problem, constructed
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.state import GARState
from graphreason.workflows.kit.events import emit
from graphreason.workflows.models.invoke import invoke_text
from graphreason.workflows.models.roles import role_model

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
_ID = re.compile(r"[0-9]{1,18}")  # a node number the reply may write as text; ASCII: int("²") fails
# isolated numbered nodes are listed up to this count; past it the graph says "n_nodes" instead, so a
# short text stating millions of nodes does not become a list of millions in the run's state
_LISTED_NODES_MAX = 10_000


def stated_node_count(text: str) -> int | None:
    """The node count the text states ("numbered from 0 to 5" -> 6, "7 nodes" -> 7), if any."""
    m = _STATED[0].search(text)
    if m:
        return read_int(m.group(1), "the text's node numbering") + 1
    m = _STATED[1].search(text)
    return read_int(m.group(1), "the text's node count") if m else None


def _in_text(label: Any, text: str) -> bool:
    word = re.escape(str(label).strip())
    return bool(word) and re.search(rf"(?<![\w]){word}(?![\w])", text, re.I) is not None


def _reply_label(value: Any, where: str) -> Any:
    """A node as the model wrote it: a name or a number (not a list, a dict, a bool or null)."""
    if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
        if not isinstance(value, float) or math.isfinite(value):
            return value
    raise GraphTextError(f"the model's nodes must be names or numbers; got {shown(value)} in {where}")


def _is_number(label: Any) -> bool:
    """A label that is a node number: a non-negative int, or digits written as text."""
    if isinstance(label, int):
        return 0 <= label < 10**18
    return isinstance(label, str) and _ID.fullmatch(label.strip()) is not None


def _reply_edges(graph: dict[Any, Any]) -> list[list[Any]]:
    """The reply's edges as ``[u, v]`` / ``[u, v, w]`` lists, every label and weight checked."""
    edges = [list(e) for e in graph["edges"] if isinstance(e, list | tuple) and len(e) in (2, 3)]
    if not edges or len(edges) != len(graph["edges"]):
        raise GraphTextError("the model's edges must all be [u, v] or [u, v, weight], and there must be some")
    for e in edges:
        where = f"the edge {shown(e)}"
        e[0], e[1] = _reply_label(e[0], where), _reply_label(e[1], where)
        if len(e) == 3 and e[2] is not None:
            read_weight(e[2], f"the weight of the model's edge {shown(e)}")  # checked here, kept as written
    return edges


def graph_from_reply(reply: str, text: str) -> dict[str, Any]:
    """The structured graph in the model's reply, checked against ``text`` (see the module docstring)."""
    graph = next((obj for obj in json_objects(reply) if isinstance(obj.get("edges"), list)), None)
    if graph is None:
        raise GraphTextError("the model's reply held no JSON object with an 'edges' list")
    edges = _reply_edges(graph)
    nodes = graph.get("nodes") if isinstance(graph.get("nodes"), list) else []
    nodes = [_reply_label(x, "the 'nodes' list") for x in nodes]
    labels = list(dict.fromkeys([*nodes, *(x for e in edges for x in e[:2])]))
    invented = [str(x) for x in labels if not _in_text(x, text)]
    if invented:
        raise GraphTextError(f"the model named nodes that are not in the text: {preview(invented)}")
    declared = graph.get("directed")
    out: dict[str, Any] = {
        "directed": False if declared is None else read_directed(declared, "the model's graph"),
        "nodes": labels,
        "edges": edges,
    }
    stated = stated_node_count(text)
    if stated is not None and len(labels) != stated:
        if len(labels) > stated or not all(_is_number(x) for x in labels):
            raise GraphTextError(f"the text says {stated} nodes but the model's graph has {len(labels)}")
        check_node_count(stated, "the text")
        out["edges"] = [[int(e[0]), int(e[1]), *e[2:]] for e in edges]
        if stated <= _LISTED_NODES_MAX:
            out["nodes"] = list(range(stated))  # the isolated nodes it left out
        else:
            del out["nodes"]
            out["n_nodes"] = stated
    return out


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
