"""Long-term memory roles: RETRIEVE_EXPERIENCE (similar past episodes) and REPLAY (their lessons).

Episodes live in :class:`graphreason.memory.experience.ExperienceMemory` under
``("graphagent", <dataset>)``; the node being classified is never retrieved
(its own episode would carry its gold label). A lesson is written by the LLM
once per episode and cached in the store; later runs read it back.
An empty store (or ``long_term`` off) gives no lessons and no LLM call.

The tuned agent's long-term memory is label recall instead
(:meth:`~graphreason.tools.graphagent.actions.NodeEnvironment.recalled`): one
memory line with the labels of the labelled nodes most like the node, and no
LLM call.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graphreason.memory.experience import Episode, ExperienceMemory, clip_words, episode_key
from graphreason.tools.graphagent.registry import COMMANDS
from graphreason.workflows.graphagent import resources
from graphreason.workflows.graphagent.common import ask, first_words
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.prompts import replay_prompt
from graphreason.workflows.graphagent.state import GraphAgentState
from graphreason.workflows.kit.events import emit
from graphreason.workflows.usage import Usage, add_usage

NAMESPACE = "graphagent"
HISTORY_WORDS = 300  # of one episode shown to the replay prompt


def experience_memory(context: GraphAgentContext, dataset: str, path: str | None = None) -> ExperienceMemory:
    return ExperienceMemory(resources.store(context, path), namespace=(NAMESPACE, dataset))


def recalled_line(observation: str) -> str:
    """The short-term memory line of the label recall, given before the first decision."""
    return f"step 0 (recalled): {observation}"


def retrieve_experience(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    if context.recalls_labels:  # the tuned agent's long-term memory: the labels of similar labelled nodes
        env = resources.recall_environment(context)
        observation = env.recalled(state["node"], context.recall_k)
        return {
            "lessons": [],
            "short_term": {"add": [recalled_line(observation)], "max_words": context.summary_words},
            "trace": [{"step": "retrieve_experience", "recalled": observation}],
        }
    if not context.replays_lessons:
        return {"lessons": [], "trace": [{"step": "retrieve_experience", "skipped": True}]}
    memory = experience_memory(context, state["dataset"])
    query = state.get("title") or state["node"]
    hits = memory.search(
        query,
        context.top_k,
        context.alpha,
        bonus=context.experience_bonus,
        exclude=[episode_key(state["dataset"], state["node"])],
    )
    lessons = [
        {"episode": e.key, "title": e.title, "success": e.success, "score": round(score, 4), "lesson": None}
        for e, score in hits
    ]
    note: dict[str, Any] = {"step": "retrieve_experience", "episodes": [item["episode"] for item in lessons]}
    if not hits:
        note["note"] = "no past episode in the experience store: no lessons"
    return {"lessons": lessons, "trace": [note]}


def episode_history(episode: Episode) -> str:
    """An episode as the replay prompt reads it: its commands, what came of them, the outcome."""
    lines = [f"Node titled {episode.title!r}."]
    for step in episode.steps:
        if step.get("valid") and COMMANDS.is_terminal(step.get("command") or ""):  # the answer: said below
            continue
        what = step.get("summary") or step.get("observation") or ""
        lines.append(f"{step.get('command') or 'bad reply'}: {first_words(what, 40)}")
    truth = f"; the true label was {episode.gold}" if episode.gold else ""
    if episode.ended_by and episode.ended_by != "answer":  # the label came from the fallback, not the agent
        lines.append(f"Gave no answer ({episode.ended_by}); the fallback chose {episode.predicted or 'nothing'}{truth}.")
    else:
        lines.append(f"Answered {episode.predicted or 'nothing'}{truth}.")
    return clip_words("\n".join(lines), HISTORY_WORDS)


def replay(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    items = [dict(item) for item in state.get("lessons") or []]
    if not items:
        return {"trace": [{"step": "replay", "lessons": 0}]}
    memory = experience_memory(context, state["dataset"])
    usage: Usage = {}
    written = 0
    for item in items:
        cached = memory.lesson(item["episode"])
        if cached is None:
            episode = memory.get(item["episode"])
            if episode is None:
                continue
            text, call = ask(context, replay_prompt(episode.success, episode_history(episode), state["goal"]),
                             context.summary_tokens)
            usage = add_usage(usage, call)
            cached = memory.save_lesson(item["episode"], text.strip() or "(no lesson)")
            written += 1
        item["lesson"] = cached
        emit("lesson", cached, episode=item["episode"], success=item["success"])
    kept = [item for item in items if item["lesson"] is not None]
    return {
        "lessons": kept,
        "llm_usage": usage,
        "trace": [{"step": "replay", "lessons": len(kept), "written": written}],
    }
