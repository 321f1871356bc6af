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

With the embedded model (and ``grammar`` on) the reply is decoded as exactly one
``{"algorithm": NAME}`` object over the retrieved candidates' names, so the small
model's choice is always readable and costs about ten tokens instead of a
paragraph; its parameters then come from the question alone. ``design_new`` is
not offered to it: a 135M model cannot write the six parts, and a wrong pick
among library entries is still overridden by the question's wording (a task the
library lacks still goes to design that way).

Parameters: what the parser read from the question wins; the master's values
fill parameters the parser did not find, and disagreements are recorded. The
master's values are checked like everything else it says: one that is not a
plain value (a list, NaN, 1e400) or that the entry's own parameter check
refuses (damping=-5) is dropped with a note, and the default stands. Only the
question's own values can end a run with a parameter error.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from typing import Any

from langgraph.runtime import Runtime

from graphreason.llm.engine.constraint import OneOf
from graphreason.tools.core.lenient_json import json_objects
from graphreason.tools.gar.graph_text import GraphTextError, ParsedProblem
from graphreason.tools.gar.vertex import VertexAlgorithm, VertexGraph, VertexProgramError, get_algorithm
from graphreason.workflows.gar.catalogue import CATALOGUE, entry_for_task
from graphreason.workflows.gar.construct import problem_of
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.prompts import DESIGN_NEW, master_prompt
from graphreason.workflows.gar.retrieve import question_focus
from graphreason.workflows.gar.state import Candidate, GARState
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.llm import ask_role
from graphreason.workflows.run_context import names_embedded_model

_NODE_PARAMS = ("source", "target", "node")
_NAME_KEYS = ("algorithm", "name", "choice", "algorithm_name")
_MAX_INT = 2**63 - 1  # no graph parameter is larger; bigger ints would not fit numpy or a checkpoint
_MAX_WORD = 100  # a parameter word ("out", "true", "0.85"), not an essay


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
        return name or calls[0].get("name"), _as_params(inner.get("params") or inner)
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    return name, _as_params(obj.get("params") or obj.get("parameters") or obj.get("arguments"))


def _as_params(value: Any) -> dict[str, Any]:
    """A reply's parameters as a fresh dict; anything but a dict (a list, a string) gives none."""
    return dict(value) if isinstance(value, dict) else {}


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


def _resolve(problem: ParsedProblem, key: str, value: Any) -> tuple[Any, str]:
    """A master-given value in internal form (node labels -> ids) and '', or None and why it is unusable."""
    if key in _NODE_PARAMS:
        # one label (a number or a name; a whole float reads as its int), never a bool or a list
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            return None, "not a node of the graph"
        try:
            return problem.node_id(value), ""
        except (GraphTextError, ValueError) as exc:
            return None, str(exc)
    return _scalar(value)


def _scalar(value: Any) -> tuple[Any, str]:
    """A parameter value as a bool, int, finite float or short word, and ''; or None and why not."""
    if isinstance(value, bool):
        return value, ""
    if isinstance(value, int):  # JSON and Python literals give ints of any size
        return (value, "") if abs(value) <= _MAX_INT else (None, "too large")
    if isinstance(value, float):  # 1e400 reads as inf
        return (value, "") if math.isfinite(value) else (None, "not a finite number")
    if not isinstance(value, str):
        return None, "not a single value"
    text = value.strip()
    if not text or len(text) > _MAX_WORD:
        return None, "not understood"
    for convert in (int, float):  # "0.85", "3", "NaN", "1e400"
        try:
            return _scalar(convert(text))
        except (ValueError, OverflowError):
            continue
    return text, ""  # a word, e.g. direction="out"


def _ignored(key: str, value: Any, why: str) -> str:
    """The note for a dropped master value: short however long the value or the reason."""
    return f"ignored the master's {key}={_shown(value)}: {why[:200]}"


def _shown(value: Any) -> str:
    """A reply's value for a note: short whatever its size."""
    return reprlib.repr(value)


def merge_params(
    entry: str, parsed: dict[str, Any], proposed: dict[str, Any], problem: ParsedProblem
) -> tuple[dict[str, Any], list[str]]:
    """The chosen algorithm's parameters: parsed values first, the master's filling the gaps; plus notes.

    The master's values are untrusted: one the entry's own check refuses is dropped with a note
    (the default, or the question's value, stays), so a bad proposal never ends the run. The
    question's own values are not checked here: if they are wrong, execute says so.
    """
    takes = CATALOGUE[entry].params
    params = _from_question(parsed, takes)
    notes: list[str] = []
    offered: dict[str, Any] = {}
    for key, value in proposed.items():
        if key not in takes or key == "pattern" or value is None:
            continue
        resolved, why = _resolve(problem, key, value)
        if why:
            notes.append(_ignored(key, value, why))
        elif key not in params:
            offered[key] = resolved
        elif params[key] != resolved:
            notes.append(f"kept {key}={params[key]} from the question over the master's {_shown(value)}")
    return {**params, **_checked(entry, params, offered, problem, notes)}, notes


def _from_question(parsed: dict[str, Any], takes: dict[str, str]) -> dict[str, Any]:
    """The parsed question's parameters under the names the entry takes."""
    base = dict(parsed)
    if "source" not in base and "start" in base:  # "starting from node 3" reads as start
        base["source"] = base["start"]
    if "node" not in base and "source" in base and "source" not in takes:
        base["node"] = base["source"]
    if "top_k" in takes and "k" in base:
        base["top_k"] = base["k"]
    return {k: v for k, v in base.items() if k in takes and k != "pattern"}


def _checked(
    entry: str, params: dict[str, Any], offered: dict[str, Any], problem: ParsedProblem, notes: list[str]
) -> dict[str, Any]:
    """The master's ``offered`` values that the entry's own ``prepare`` accepts; a note for each refused.

    Each value is tried alone, then all with the question's values: a combination that fails
    only because of the master's (max_flow with source == target) drops them all. When the
    entry refuses even its defaults here (the graph does not suit it), nothing is judged:
    execute reports that, and it is not the master's doing.
    """
    if not offered or CATALOGUE[entry].engine != "compiled":
        return offered
    algorithm = get_algorithm(entry)
    try:
        graph = _stand_in(problem)
    except VertexProgramError:  # the graph itself is unusable: execute says so
        return offered
    if _refusal(algorithm, graph, {}):
        return offered
    accepted = {}
    for key, value in offered.items():
        why = _refusal(algorithm, graph, {key: value})
        if why:
            notes.append(_ignored(key, value, why))
        else:
            accepted[key] = value
    why = _refusal(algorithm, graph, {**params, **accepted}) if accepted else ""
    if why and why != _refusal(algorithm, graph, params):
        shown = ", ".join(f"{k}={_shown(v)}" for k, v in accepted.items())
        notes.append(f"ignored the master's {shown}: {why[:200]}")
        return {}
    return accepted


def _stand_in(problem: ParsedProblem) -> VertexGraph:
    """A graph for checking parameters: the question's node count, direction and smallest edge weight.

    A ``prepare`` reads only these (node ids, directed or not, negative weights), so the edges
    themselves are not built twice: one self-loop carries the smallest weight.
    """
    if not isinstance(problem, ParsedProblem):  # an edge dataset on Spark: its own light stand-in
        return problem.stand_in()
    _, _, weight = problem.edge_arrays()
    edges = [(0, 0, float(weight.min()))] if weight is not None and weight.size else []
    return VertexGraph.from_edges(max(problem.n_nodes, 1), edges, directed=problem.directed)


def _refusal(algorithm: VertexAlgorithm, graph: VertexGraph, params: dict[str, Any]) -> str:
    """Why ``algorithm`` refuses ``params`` ('' if it accepts them); missing node parameters get stand-ins."""
    used = {v for k, v in params.items() if k in _NODE_PARAMS}
    spare = (i for i in range(graph.num_nodes) if i not in used)
    filled = {k: next(spare, 0) for k in algorithm.params if k in _NODE_PARAMS and k not in params}
    try:
        algorithm.prepare(graph, {**filled, **params})
    except Exception as exc:  # untrusted values: int(inf), float([1]) ... all mean "refused"
        return str(exc) or type(exc).__name__
    return ""


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


def choice_grammar(ctx: GARContext, candidates: list[str]) -> OneOf | None:
    """The master's decoding constraint: one choice object per candidate, for the embedded model with ``grammar`` on."""
    if not (ctx.grammar and names_embedded_model(ctx.master_model)):
        return None
    return OneOf(tuple(json.dumps({"algorithm": name}) for name in candidates if name != DESIGN_NEW))


def choose(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    problem = problem_of(state)
    candidates: list[Candidate] = state["candidates"]
    names = [c["name"] for c in candidates] + [DESIGN_NEW]
    prompt = master_prompt(
        question_focus(state["question"]), state["graph_summary"], state["params"], candidates
    )
    grammar = choice_grammar(ctx, names)
    reply = ask_role(
        ctx, ctx.master_model, prompt, temperature=ctx.temperature, max_tokens=ctx.max_tokens,
        call_options={"grammar": grammar} if grammar is not None else None,
    )
    usage = reply.usage()
    picked, proposed = parse_choice(reply.text, names)
    task = state.get("detected_task")
    detected = entry_for_task(task)
    name, how = decide(picked, detected, names[0], task if task and detected is None else None)
    fallback = picked is None
    if name != picked:
        proposed = {}
    if name == DESIGN_NEW and not isinstance(problem, ParsedProblem):
        raise VertexProgramError(
            "no library algorithm answers this question, and designed programs run only on a graph in this "
            "process (sandboxed); this run's graph is an edge dataset on Spark"
        )
    if name == DESIGN_NEW:  # the design step reads the question's own parameters
        params, notes = dict(state["params"]), []
    else:
        params, notes = merge_params(name, state["params"], proposed, problem)
    shown = params if isinstance(problem, ParsedProblem) else problem.dataset_params(params)  # the dataset's own ids
    text = f"{name} chosen by {how}; parameters: {shown or 'none'}"
    emit("choice", text, algorithm=name, fallback_used=fallback, params=shown)
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
