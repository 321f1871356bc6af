"""Helpers the GraphAgent roles share: one LLM call with its usage, bounded text, the run's environment and tools."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from graphreason.tools.core.registry import Registry
from graphreason.tools.graphagent.actions import NodeEnvironment, clip
from graphreason.tools.graphagent.registry import COMMANDS, CommandContext
from graphreason.workflows.graphagent import resources
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.kit.llm import ask_role
from graphreason.workflows.usage import Usage

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

MAX_REPLY_KEPT = 2000  # characters of a raw reply kept in the output and shown to the next decision


def ask(
    context: GraphAgentContext, prompt: str, max_tokens: int, grammar: Any = None, model: Any = None
) -> tuple[str, Usage]:
    """The agent model (or ``model``) on ``prompt``: its text and the call's usage.

    ``grammar`` constrains the embedded model's decoding.
    """
    reply = ask_role(
        context, model or context.agent_model, prompt, temperature=context.temperature, max_tokens=max_tokens,
        call_options={"grammar": grammar} if grammar is not None else None,
    )
    return reply.text or "", reply.usage()


def environment(context: GraphAgentContext) -> NodeEnvironment:
    return resources.environment(context)


def command_tools(
    context: GraphAgentContext, commands: Sequence[str], analyst: Callable[[str], str] | None = None
) -> list[BaseTool]:
    """The LangChain tools of the non-terminal ``commands`` (registry entries), run on this run's environment.

    ``analyst`` makes the ``analyze_label`` ablation's LLM call (see
    :class:`~graphreason.tools.graphagent.registry.CommandContext`).
    """
    entries = [COMMANDS.get(name) for name in commands]
    offered = Registry([entry for entry in entries if not entry.terminal])
    return offered.as_tools(CommandContext(environment(context), analyst))


def first_words(text: str, words: int) -> str:
    return clip(" ".join(str(text).split()), words)


def step_line(step: dict[str, Any]) -> str:
    """One short-term memory line: the command and what came of it."""
    if not step.get("valid"):
        return f"step {step['step']}: your reply was refused: {step.get('observation', '')}"
    target = f"({step['args'].get('node_id', '')})" if step.get("args") else ""
    return f"step {step['step']}: {step['command']}{target} -> {step.get('summary') or step.get('observation', '')}"
