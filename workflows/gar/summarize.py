"""Master summary: the final answer in words plus a structured answer, formatted deterministically.

The structured answer is ``{"task", "kind", "value", ...}`` where ``kind`` is
yes/no, number, path, order, ranking or mapping (a designed algorithm's
answer may also be a list or another value; its task is ``designed``). Extras: ``path`` (shortest
path, Hamiltonian path), ``labels`` (node names, when the text named nodes),
``complete`` (False when a round cap or search budget cut the run short), ``items`` and ``file`` (an
answer longer than ``answer_items``: its entry count and the file holding it whole; ``value`` is its head).
No LLM call: the engine's result already is the answer.
"""

from __future__ import annotations

import re
import time
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.gar.graph_text import ParsedProblem
from graphreason.workflows.gar.catalogue import CATALOGUE
from graphreason.workflows.gar.construct import forget, problem_of
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.run_graphs import forget_engine_graphs
from graphreason.workflows.gar.state import GARState
from graphreason.workflows.kit.chat import answer_message
from graphreason.workflows.kit.events import emit
from graphreason.workflows.usage import Usage, run_totals

# "what is the shortest path from 0 to 4" asks for the path; "the weight/length of ..." for a number
_ASKS_FOR_PATH = re.compile(
    r"\b(?:give|find|what\s+is|which\s+is|show|list)\s+(?:me\s+)?the\s+shortest\s+path\b", re.I
)
_WORDS_LIMIT = 100  # nodes spelled out in the answer's words (the structured answer has them all)
_ASKS_FOR_NUMBER = re.compile(r"\b(?:weight|length|distance|cost)\b", re.I)


def _question_part(question: str) -> str:
    return question.rsplit("Q:", 1)[-1][-400:]


def kind_of(value: Any) -> str:
    """The answer kind of a value no library entry describes (a designed algorithm's answer)."""
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "list"
    return "mapping" if isinstance(value, dict) else "value"


def structured_answer(name: str, result: dict[str, Any], question: str, problem: ParsedProblem) -> dict:
    """The structured answer of one run (see the module docstring)."""
    value = result.get("answer")
    kind = CATALOGUE[name].answer_kind if name in CATALOGUE else kind_of(value)
    if isinstance(value, dict):  # e.g. shortest distances to every node: a mapping, whatever the entry says
        kind = "mapping"
    elif isinstance(value, list) and kind == "number":  # e.g. every node's degree when no node was named
        kind = "list"
    task = name if name in CATALOGUE else "designed"
    out: dict[str, Any] = {"task": task, "kind": kind, "value": value}
    path = result.get("path") or (result.get("witness") if name == "hamiltonian_path" else None)
    if path is not None:
        out["path"] = path
    if name == "shortest_path" and isinstance(value, int | float) and path is not None:
        asked = _question_part(question)
        if _ASKS_FOR_PATH.search(asked) and not _ASKS_FOR_NUMBER.search(asked):
            out.update(kind="path", value=path, weight=value)
    if name == "pagerank":
        if result.get("scores") is not None:  # every node's score (kept for graphs up to MAX_DETAIL_ITEMS nodes)
            out["scores"] = result["scores"]
        if result.get("top_scores") is not None:  # the ranked nodes' scores, in ranking order
            out["top_scores"] = result["top_scores"]
    if problem.node_names:
        shown = out["value"] if out["kind"] in ("path", "order", "ranking", "list") else path
        if isinstance(shown, list) and all(isinstance(v, int) for v in shown):
            out["labels"] = [problem.label(v) for v in shown]
    if result.get("answer_file"):  # too long for the state: the value is its head, the file has it all
        out.update(items=result["answer_items"], file=result["answer_file"])
    out["complete"] = bool(result.get("complete", True))
    return out


def answer_words(structured: dict[str, Any], result: dict[str, Any]) -> str:
    """The answer in words: a short verdict first (Yes/No, the number, the order), then the engine's sentence."""
    kind, value = structured["kind"], structured["value"]
    text = result.get("text", "").strip()
    if not structured["complete"] and value is None:
        return text
    if kind == "yes/no" and isinstance(value, bool):
        lead = "Yes." if value else "No."
    elif kind == "number":
        lead = "No such value exists." if value is None else f"{value}."
    elif kind in ("path", "order", "ranking", "list"):
        shown = structured.get("labels") or value
        if value is None:
            lead = "None."
        else:
            total = structured.get("items", len(shown))
            more = f" ... ({total} in all)" if total > min(len(shown), _WORDS_LIMIT) else ""
            head = [str(v) for v in shown[:_WORDS_LIMIT]]
            if kind == "ranking":  # a numbered list: arrows would read like a path
                named = structured.get("labels") is not None
                lead = "; ".join(f"{i}. {v if named else f'node {v}'}" for i, v in enumerate(head, 1)) + more + "."
            else:
                lead = (", " if kind == "list" else " -> ").join(head) + more + "."
    else:
        return text
    return f"{lead} {text}".strip()


def _by_role(llm: Usage) -> dict[str, int]:
    """The master's and the node agents' shares of the LLM calls and tokens."""
    agents = {key: int(llm.get(key, 0)) for key in ("agent_calls", "agent_tokens", "agent_bad_replies")}
    tokens = llm.get("input_tokens", 0) + llm.get("output_tokens", 0)
    return {
        "master_calls": llm.get("llm_calls", 0) - agents["agent_calls"],
        "master_tokens": tokens - agents["agent_tokens"],
        **agents,
    }


def summarize(state: GARState, runtime: Runtime[GARContext]) -> dict:
    result = state["result"]
    name = state["algorithm"]
    structured = structured_answer(name, result, state["question"], problem_of(state))
    answer = answer_words(structured, result)
    llm = state.get("llm_usage") or {}
    usage = run_totals(
        llm,
        engine_seconds=result.get("seconds", 0.0),
        seconds=time.perf_counter() - state.get("started", time.perf_counter()),
        **_by_role(llm),
    )
    emit("answer", answer, structured=structured)
    forget(state["graph_key"])  # the run is over; a later step that needs it again would rebuild it
    forget_engine_graphs(state["graph_key"])
    return {
        "answer": answer,
        "structured": structured,
        "usage": usage,
        "trace": [{"step": "summarize", "text": answer}],
        **answer_message(answer),
    }
