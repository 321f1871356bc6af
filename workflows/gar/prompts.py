"""The master's prompt (our own wording): choose one retrieved algorithm and confirm its parameters."""

from __future__ import annotations

from typing import Any

from graphreason.workflows.gar.catalogue import CATALOGUE
from graphreason.workflows.gar.state import Candidate

# The master's way of saying "none of the candidates answers this": a new algorithm gets designed.
DESIGN_NEW = "design_new"

MASTER_PROMPT = """You are the master of a graph-reasoning system. A distributed algorithm will be run \
on the graph below to answer the question exactly; your job is only to pick which one and to confirm \
its parameters.

Question:
{question}

Graph as parsed: {graph_summary}
Parameters found in the question: {params}

Candidate algorithms (retrieved from the library for this question):
{candidates}

Reply with one JSON object and nothing else, for example:
{{"algorithm": "{example}", "params": {{{example_params}}}}}
Use one of the candidate names exactly, or "design_new" if none of them answers the question. Give node parameters by the node's name or number as written \
in the question; leave out parameters the algorithm does not take."""


def _candidate_lines(candidates: list[Candidate]) -> str:
    lines = []
    for c in candidates:
        entry = CATALOGUE[c["name"]]
        params = "; ".join(f"{k}: {v}" for k, v in entry.params.items()) or "none"
        lines.append(f"- {entry.name}: {entry.description}\n  parameters: {params}")
    lines.append(f"- {DESIGN_NEW}: none of the algorithms above answers the question; design a new one.")
    return "\n".join(lines)


def master_prompt(
    question: str, graph_summary: str, params: dict[str, Any], candidates: list[Candidate]
) -> str:
    """The one prompt of the master's choose step."""
    shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "none"
    example = candidates[0]["name"]
    example_params = ", ".join(f'"{k}": ...' for k in CATALOGUE[example].params if k != "pattern")
    return MASTER_PROMPT.format(
        question=question,
        graph_summary=graph_summary,
        params=shown,
        candidates=_candidate_lines(candidates),
        example=example,
        example_params=example_params,
    )
