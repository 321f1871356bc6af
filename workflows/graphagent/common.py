"""Helpers the GraphAgent roles share: one LLM call with its usage, bounded text, the run's environment."""

from __future__ import annotations

from typing import Any

from tools.node_actions import NodeEnvironment, clip
from workflows.graphagent import resources
from workflows.graphagent.context import GraphAgentContext
from workflows.kit.llm import ask_role
from workflows.usage import Usage

MAX_REPLY_KEPT = 2000  # characters of a raw reply kept in the output and shown to the next decision


def ask(context: GraphAgentContext, prompt: str, max_tokens: int) -> tuple[str, Usage]:
    """The agent model on ``prompt``: its text and the call's usage."""
    reply = ask_role(
        context, context.agent_model, prompt, temperature=context.temperature, max_tokens=max_tokens
    )
    return reply.text or "", reply.usage()


def environment(context: GraphAgentContext) -> NodeEnvironment:
    return resources.environment(context)


def first_words(text: str, words: int) -> str:
    return clip(" ".join(str(text).split()), words)


def step_line(step: dict[str, Any]) -> str:
    """One short-term memory line: the command and what came of it."""
    if not step.get("valid"):
        return f"step {step['step']}: your reply was refused: {step.get('observation', '')}"
    target = f"({step['args'].get('node_id', '')})" if step.get("args") else ""
    return f"step {step['step']}: {step['command']}{target} -> {step.get('summary') or step.get('observation', '')}"
