"""The master's one LLM call: pick one of the top-k algorithms by name and confirm its parameters.

The reply is read tolerantly (a JSON or Python-dict object anywhere in the
text, the paper's ``{'function': [{'name': ..., 'arguments': ...}]}`` form,
or just a candidate's name somewhere in the words). The reply is untrusted:

* when the question's wording names a task the library answers (keyword
  detection, deterministic), that entry is used even if the master picked
  another one - a small model confuses "connected" with "bipartite", the
  keywords do not - and the override is recorded; when it names a task the
  library has no entry for (say, counting triangles), the run goes to design;
* otherwise the master's pick stands; ``design_new`` (no entry fits) sends the
  run to the design step, where the master writes a new algorithm;
* an unusable reply falls back to the top-1 entry, and ``fallback_used`` says so.

Parameters: what the parser read from the question wins; the master's values
fill parameters the parser did not find, and disagreements are recorded.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from tools.graph_text import GraphTextError, ParsedProblem
from workflows.gar.catalogue import CATALOGUE, entry_for_task
from workflows.gar.common import emit, json_objects
from workflows.gar.construct import problem_of
from workflows.gar.context import GARContext
from workflows.gar.prompts import DESIGN_NEW, master_prompt
from workflows.gar.retrieve import question_focus
from workflows.gar.state import Candidate, GARState
from workflows.models.invoke import invoke_text
from workflows.models.roles import role_model

_NODE_PARAMS = ("source", "target", "node")
_NAME_KEYS = ("algorithm", "name", "choice", "algorithm_name")


def _key(text: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(text).strip().lower())


def _from_object(obj: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """(algorithm name, params) of a reply object, in our format or the paper's function-call format."""
    calls = obj.get("function") or obj.get("functions")
    if isinstance(calls, str):
        parsed = json_objects(calls)
        calls = parsed or None
    if isinstance(calls, dict):
        calls = [calls]
    if isinstance(calls, list) and calls and isinstance(calls[0], dict):
        args = calls[0].get("arguments") or {}
        inner = args if isinstance(args, dict) else {}
        name = next((inner[k] for k in _NAME_KEYS if isinstance(inner.get(k), str)), None)
        return name or calls[0].get("name"), dict(inner.get("params") or inner)
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    params = obj.get("params") or obj.get("parameters") or obj.get("arguments") or {}
    return name, dict(params) if isinstance(params, dict) else {}


def parse_choice(reply: str, candidates: list[str]) -> tuple[str | None, dict[str, Any]]:
    """The candidate the reply names (None if none, or if it names several without a JSON choice), and its params."""
    allowed = {_key(c): c for c in candidates}
    for obj in json_objects(reply):
        name, params = _from_object(obj)
        if name is not None and _key(name) in allowed:
            return allowed[_key(name)], params
    # no usable object: a candidate's name somewhere in the words (underscores, spaces or hyphens)
    named = set()
    for key, canonical in allowed.items():
        words = r"[\s_\-]+".join(re.escape(part) for part in key.split("_"))
        if re.search(rf"(?<![a-z]){words}(?![a-z])", reply, re.I):
            named.add(canonical)
    return (named.pop(), {}) if len(named) == 1 else (None, {})


def _resolve(problem: ParsedProblem, key: str, value: Any) -> Any:
    """A master-given parameter value in internal form (node labels -> ids); None when unusable."""
    if key in _NODE_PARAMS:
        try:
            return problem.node_id(value)
        except GraphTextError:
            return None
    if isinstance(value, bool | int | float):
        return value
    try:
        return float(value) if "." in str(value) else int(str(value))
    except ValueError:
        return str(value).strip() or None  # e.g. direction="out"


def merge_params(
    entry: str, parsed: dict[str, Any], proposed: dict[str, Any], problem: ParsedProblem
) -> tuple[dict[str, Any], list[str]]:
    """The chosen algorithm's parameters: parsed values first, the master's filling the gaps; plus conflict notes."""
    takes = CATALOGUE[entry].params
    base = dict(parsed)
    if "source" not in base and "start" in base:  # "starting from node 3" reads as start
        base["source"] = base["start"]
    if "node" not in base and "source" in base and "source" not in takes:
        base["node"] = base["source"]
    if "top_k" in takes and "k" in base:
        base["top_k"] = base["k"]
    params = {k: v for k, v in base.items() if k in takes and k != "pattern"}
    notes = []
    for key, value in proposed.items():
        if key not in takes or key == "pattern" or value is None:
            continue
        resolved = _resolve(problem, key, value)
        if resolved is None:
            notes.append(f"ignored the master's {key}={value!r}: not understood")
        elif key not in params:
            params[key] = resolved
        elif params[key] != resolved:
            notes.append(f"kept {key}={params[key]} from the question over the master's {value!r}")
    return params, notes


def decide(
    picked: str | None, detected: str | None, top1: str, unanswered: str | None = None
) -> tuple[str, str]:
    """The algorithm to run and why: the detected task's entry wins, then the master's pick, then the top-1.

    ``unanswered`` is a task the wording names but the library has no entry for
    (e.g. triangle_count): no library entry can answer it, so it goes to design.
    """
    if unanswered is not None:
        if picked == DESIGN_NEW:
            return DESIGN_NEW, "master (no library entry answers this task)"
        return DESIGN_NEW, f"the question's wording: no library entry answers {unanswered}"
    if detected is not None:
        if picked == detected:
            return detected, "master (agrees with the question's wording)"
        if picked is None:
            return detected, "the question's wording (master reply unusable)"
        return detected, f"the question's wording (overrode the master's {picked})"
    if picked is not None:
        return picked, "master"
    return top1, "fallback to the top-1 entry (master reply unusable)"


def choose(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    problem = problem_of(state)
    candidates: list[Candidate] = state["candidates"]
    names = [c["name"] for c in candidates] + [DESIGN_NEW]
    prompt = master_prompt(
        question_focus(state["question"]), state["graph_summary"], state["params"], candidates
    )
    model = role_model(ctx, ctx.master_model, temperature=ctx.temperature, max_tokens=ctx.max_tokens)
    reply = invoke_text(model, [HumanMessage(content=prompt)])
    usage = reply.usage()
    picked, proposed = parse_choice(reply.text, names)
    task = state.get("detected_task")
    detected = entry_for_task(task)
    name, how = decide(picked, detected, names[0], task if task and detected is None else None)
    fallback = picked is None
    if name != picked:
        proposed = {}
    if name == DESIGN_NEW:  # the design step reads the question's own parameters
        params, notes = dict(state["params"]), []
    else:
        params, notes = merge_params(name, state["params"], proposed, problem)
    text = f"{name} chosen by {how}; parameters: {params or 'none'}"
    emit("choice", text, algorithm=name, fallback_used=fallback, params=params)
    note = {"step": "choose", "text": text, "reply": reply.text, "fallback_used": fallback, "picked": picked}
    if notes:
        note["notes"] = notes
    return {
        "algorithm": name,
        "chosen_params": params,
        "fallback_used": fallback,
        "llm_usage": usage,
        "trace": [note],
    }
