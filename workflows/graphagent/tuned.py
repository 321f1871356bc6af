"""The tuned agent: the embedded SmolLM2 with GraphAgent's LoRA adapter, and the short prompt it was trained on.

``graphreason train agent`` fine-tunes the embedded model on decisions of a
teacher policy over Cora's training and validation nodes
(:mod:`graphreason.workflows.graphagent.trajectories`); the adapter ships in
``llm/adapters/graphagent-agent``. With the embedded model and
``tuned_agent`` on (the default), every decision goes to that adapter with
:func:`tuned_prompt`, the reply is decoded under the JSON reply grammar without
the ``reasoning`` and ``plan`` fields (:func:`tuned_grammar`), observations
are kept as they are (no summary calls), and the long-term memory is one line
of label recall (the labels of the labelled nodes most like the node,
:mod:`graphreason.tools.graphagent.recall`) instead of replayed lessons: the
tuned model sees exactly what it was trained on. A capable endpoint, or the
plain model (``--no-tuned-agent``), still gets the paper's prompts.

Training and running must send the same text: change :func:`tuned_prompt`
only together with a newly trained adapter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphreason.tools.graphagent.actions import clip
from graphreason.tools.graphagent.constraint import AgentReply
from graphreason.workflows.models.factory import tuned_local_spec, tuned_model_spec

ADAPTER = "graphagent"
# words of each memory line the tuned prompt shows: the title and the abstract's opening, or the neighbours'
# known label counts and the first few neighbours (a short prompt keeps CPU training and decisions fast)
LINE_WORDS = 70
TUNED_SPEC = tuned_model_spec(ADAPTER)


def tuned_spec(model: Any, use_tuned: bool) -> str | None:
    """The tuned agent's spec when it decides for ``model`` (see :func:`tuned_local_spec`), else None."""
    return tuned_local_spec(model, use_tuned, ADAPTER)


def tuned_prompt(
    *,
    node: str,
    title: str,
    dataset: str,
    labels: Sequence[str],
    commands: Sequence[str],
    memory: Sequence[str],
    step: int,
    max_steps: int,
) -> str:
    """One decision's prompt for the tuned agent: the node, the label set, the commands, what was found."""
    found = "\n".join(f"- {clip(' '.join(line.split()), LINE_WORDS)}" for line in memory) if memory else "(nothing yet)"
    named = f' titled "{title}"' if title else " (no title)"
    return (
        f"Classify node {node} of {dataset}{named}.\n"
        f"Labels: {', '.join(labels)}\n"
        f"Commands: {', '.join(commands)}\n"
        f"Found so far:\n{found}\n"
        f"Decision {step} of {max_steps}. Reply with one JSON command."
    )


def tuned_grammar(commands: Sequence[str], labels: Sequence[str]) -> AgentReply:
    """The reply language of the tuned agent: the JSON reply without ``reasoning`` and ``plan``."""
    return AgentReply(commands, labels, reasoning=False, plan=False)
