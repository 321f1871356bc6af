"""GraphAgent's prompts, after the paper's appendix D, in our own words.

Assembly order of a decision (the spec's inferred order): main prompt
``p_init`` (persona, constraints, the commands this run offers, practices) ->
the K lessons -> goal ``g`` (node, title, label set by name with ids) ->
short-term memory -> the previous reply -> format prompt -> trigger.
Switched-off commands and JSON fields are left out of the prompt entirely (the
ablations), and refused if the model names them anyway. The command list is
written from the registry (:data:`graphreason.tools.graphagent.registry.COMMANDS`):
each entry's name, description and parameters. With native tool calling the
format prompt and trigger ask for one tool call instead of the JSON reply.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from graphreason.tools.core.registry import Entry, Registry
from graphreason.tools.graphagent.registry import COMMANDS, PREDICT, args_text, final_command


def command_line(entry: Entry) -> str:
    """How the prompt lists one command: ``name: what it gives, args: {...}``."""
    return f"{entry.name}: {entry.description}, args: {args_text(entry)}"


def main_prompt(
    commands: Sequence[str], summary_words: int, reliability: str = "", *, registry: Registry = COMMANDS
) -> str:
    """``p_init``: who the agent is, its limits, its commands and how to work."""
    listed = "\n".join(f"{i}. {command_line(registry.get(name))}" for i, name in enumerate(commands, 1))
    tool_note = f"\nAbout {PREDICT.name}: {reliability}" if reliability and PREDICT.name in commands else ""
    return (
        "You are GraphAgent, an AI agent that classifies nodes of a graph. Decide on your own, "
        "without asking a user, and prefer simple strategies.\n\n"
        "Constraints:\n"
        f"1. Your short-term memory holds about {summary_words} words; what matters is kept in the summaries below.\n"
        "2. Use only the commands listed here, spelled exactly as written.\n\n"
        f"Commands:\n{listed}{tool_note}\n\n"
        "Practices:\n"
        "1. Read the target node's own content first.\n"
        "2. Use the labels and topics of its neighbours as supporting evidence.\n"
        "3. Every command has a cost: answer as soon as the evidence is enough.\n"
        "4. Review your previous step, criticise it briefly and think step by step."
    )


def lessons_block(lessons: Sequence[str]) -> str:
    if not lessons:
        return ""
    body = "\n".join(f"Example {i}: {text}" for i, text in enumerate(lessons, 1))
    return f"Here are {len(lessons)} lessons from earlier classifications:\n{body}"


def goal_prompt(node: str, title: str, labels: Sequence[str]) -> str:
    """``g``: the node, its title and the label set (names with their ids)."""
    label_set = "; ".join(f"{i}: {name}" for i, name in enumerate(labels))
    shown = f' titled "{title}"' if title else " (it has no title)"
    return (
        f"Goal: you are at node {node}{shown}. Find the label of this node. You have only one chance to "
        f"answer, so collect the information you need with the commands first. The label set is: {label_set}."
    )


def response_schema(reasoning: bool, plan: bool) -> dict:
    thoughts = {"text": "thought"}
    if reasoning:
        thoughts["reasoning"] = "reasoning"
    if plan:
        thoughts["plan"] = "- short bullet list of the next steps"
    thoughts.update(criticism="constructive self-criticism", speak="one-line summary for the user")
    return {"thoughts": thoughts, "command": {"name": "command name", "args": {"arg name": "value"}}}


def format_prompt(reasoning: bool, plan: bool) -> str:
    schema = json.dumps(response_schema(reasoning, plan))
    return f"Respond with one JSON object only, in this format:\n{schema}"


TRIGGER = (
    "Choose exactly one command, based on the goal and on what you have found so far, "
    "and reply with the JSON format above:"
)


def native_format_prompt(reasoning: bool, plan: bool, registry: Registry = COMMANDS) -> str:
    """The format prompt of native tool calling: the commands are tools, thoughts go in the reply's text."""
    thoughts = ["your thought"] + (["your reasoning"] if reasoning else []) + (["a short plan"] if plan else [])
    listed = thoughts[0] if len(thoughts) == 1 else f"{', '.join(thoughts[:-1])} and {thoughts[-1]}"
    final = final_command(registry)
    return (
        f"The commands are offered to you as tools. Write {listed} briefly as text, then call "
        f"exactly one tool. To give the final label, call {final.name} with {args_text(final)}."
    )


NATIVE_TRIGGER = (
    "Choose exactly one command, based on the goal and on what you have found so far, and call it as a tool:"
)


def decision_prompt(
    *,
    main: str,
    lessons: Sequence[str],
    goal: str,
    memory: Sequence[str],
    last_reply: str,
    reasoning: bool,
    plan: bool,
    step: int,
    max_steps: int,
    native: bool = False,
) -> str:
    """The whole prompt of one decision; ``native``: the commands are bound to the model as tools."""
    parts = [main]
    block = lessons_block(lessons)
    if block:
        parts.append(block)
    parts.append(goal)
    found = "\n".join(f"- {line}" for line in memory) if memory else "(nothing yet)"
    parts.append(f"What you found so far:\n{found}")
    if last_reply:
        parts.append(f"Your previous reply:\n{last_reply}")
    parts.append(f"This is step {step} of at most {max_steps}.")
    if native:
        parts += [native_format_prompt(reasoning, plan), NATIVE_TRIGGER]
    else:
        parts += [format_prompt(reasoning, plan), TRIGGER]
    return "\n\n".join(parts)


def summary_prompt(node: str, title: str, command: str, observation: str) -> str:
    """``p_short``: one observation summarised toward the goal."""
    return (
        f"Summarise the following result of {command} and keep what helps to classify node {node}"
        f"{f' ({title})' if title else ''}: topics, and any labels of related nodes. Use at most 80 words.\n\n"
        f"Result:\n{observation}\n\nSummary:"
    )


def replay_prompt(success: bool, history: str, goal: str) -> str:
    """``p_long``: a lesson from one past episode (success or failure), at most 100 words."""
    kind = "successful" if success else "failed"
    fix = "" if success else ", and how to avoid the mistake"
    return (
        f"{goal}\n\nWrite a lesson of at most 100 words from an earlier {kind} classification of another "
        f"node: its plan, the order and choice of its commands, its reasoning{fix}.\n\n"
        f"Here's the message history of one {kind} prediction:\n{history}\n\nLesson:"
    )


def analyze_prompt(node: str, history: str) -> str:
    """The ablation-only ``analyze_label`` call (the paper's D.5)."""
    return (
        f"Name the labels that node {node} may have, as a short list, based on this history:\n{history}\n\n"
        "Possible labels:"
    )
