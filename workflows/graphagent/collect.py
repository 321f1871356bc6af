"""Experience collection: the agent run on labelled (training) nodes, each episode stored for later replay.

Episodes are collected zero-shot (``long_term`` off while collecting), so each
one depends only on its node, not on the order of collection, and collecting
costs no replay calls. A node already in the store is skipped, so an
interrupted collection continues where it stopped when rerun with the same
store. A node the run refuses (unknown id, ...) is listed under ``errors``;
an unreachable model stops the collection (the episodes stored so far stay).

An episode is a success only when the agent itself answered with the gold
label (:func:`agent_succeeded`): a label chosen by the fallback (no answer
within T_max, unusable replies) or put in by the tool guard is not, and the
statistics count the agent's answers, its successes and the final labels
apart.

Note for tool mode: a training node's prediction comes from a model trained
on that very node, so tool-mode episodes are nearly all successes; their
lessons then mostly say "trust the graph model", which is what the guard
enforces anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphreason.memory.experience import Episode, episode_key
from graphreason.tools.graphagent.actions import clip
from graphreason.workflows.graphagent import resources
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.experience import experience_memory
from graphreason.workflows.usage import Usage, add_usage

STEP_WORDS = 60  # of a stored step's observation and summary


def episode_from_output(out: dict[str, Any]) -> Episode:
    """The episode of a finished run (its gold label must be known)."""
    steps = []
    for step in out.get("steps") or []:
        steps.append({
            "command": step.get("command"),
            "args": step.get("args"),
            "valid": step.get("valid"),
            "observation": clip(str(step.get("observation") or ""), STEP_WORDS),
            "summary": clip(str(step.get("summary") or ""), STEP_WORDS),
        })
    return Episode(
        node_id=out["node"],
        dataset=out["dataset"],
        title=out.get("title") or out["node"],
        steps=steps,
        predicted=out.get("answer"),
        gold=out.get("gold"),
        success=agent_succeeded(out),
        step_count=len(steps),
        ended_by=str(out.get("ended_by") or ""),
    )


def agent_succeeded(out: dict[str, Any]) -> bool:
    """The agent itself answered and named the gold label.

    A run that ended without an answer (T_max, unusable replies) got its label
    from the fallback, and a label the tool guard put in place of the agent's
    is the guard's: neither is a success of the agent, whatever the final label.
    """
    agent = out.get("agent_answer")
    return out.get("ended_by") == "answer" and agent is not None and agent == out.get("gold")


def collect_experience(
    context: GraphAgentContext,
    *,
    nodes: Sequence[str] | None = None,
    limit: int | None = None,
    store_path: str | Path | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Run the agent on ``nodes`` (default: the training part) and store each episode; returns statistics."""
    from graphreason.workflows.graphagent import solve

    path = str(store_path) if store_path is not None else context.experience_path
    run_context = replace(context, long_term=False, experience_path=path)
    data = resources.node_data(run_context.source, run_context.split)
    chosen = list(nodes) if nodes is not None else [data.graph.ids[int(i)] for i in data.parts["train"]]
    if limit is not None:
        chosen = chosen[: max(0, limit)]
    memory = experience_memory(run_context, data.name, path)
    stats: dict[str, Any] = {
        "dataset": data.name, "store": path or "memory", "nodes": len(chosen), "added": 0,
        "already_stored": 0, "agent_answered": 0, "successes": 0, "final_right": 0, "errors": [],
        "ended_by": {},
    }
    usage: Usage = {}
    bar = _bar(len(chosen), progress)
    for node in chosen:
        if episode_key(data.name, str(node)) in memory:
            stats["already_stored"] += 1
            bar.update(1)
            continue
        try:
            out = solve(str(node), run_context)
        except resources.GraphAgentInputError as exc:
            stats["errors"].append({"node": str(node), "error": str(exc)})
            bar.update(1)
            continue
        episode = episode_from_output(out)
        memory.add(episode)
        stats["added"] += 1
        stats["agent_answered"] += int(out.get("ended_by") == "answer")
        stats["successes"] += int(episode.success)
        stats["final_right"] += int(out.get("answer") is not None and out.get("answer") == out.get("gold"))
        stats["ended_by"][out["ended_by"]] = stats["ended_by"].get(out["ended_by"], 0) + 1
        usage = add_usage(usage, out.get("usage"))
        bar.update(1)
    bar.close()
    # the agent's own accuracy: the runs it answered and got right, over every run added
    stats["accuracy"] = stats["successes"] / stats["added"] if stats["added"] else None
    stats["episodes_in_store"] = memory.count()
    stats["usage"] = usage
    return stats


def _bar(total: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=not enabled, desc="experience", unit="node")
