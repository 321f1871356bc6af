"""GraphAgent's node-classification metrics: label matching, accuracy, macro-F1, tool-change outcomes.

Labels are compared by name, case-blind, with ``_``, ``-`` and runs of
spaces treated alike (``Neural_Networks`` = ``neural networks``). Macro-F1
averages the per-class F1 over every class seen in the gold labels or in
the predictions (scikit-learn's default label set), so a class the model
invents where the gold never has it counts as an F1 of 0; a missing
prediction is wrong for its node but is not a class of its own.

Tool changes (runs where the agent could consult the graph model): the agent
*changed* the tool's answer when its final label differs from the label the
graph model predicted. A change **helped** when the agent is right and the
tool was wrong, **hurt** when the tool was right and the agent is wrong, and
is **neutral** when both are wrong (different wrong labels).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

_SEPARATORS = re.compile(r"[\s_\-]+")


def label_key(label: Any) -> str:
    """The form two label names are compared in (``""`` for no label)."""
    if label is None:
        return ""
    return _SEPARATORS.sub(" ", str(label)).strip().lower()


def same_label(prediction: Any, gold: Any) -> bool:
    """``prediction`` names the gold label (no prediction never does)."""
    key = label_key(prediction)
    return bool(key) and key == label_key(gold)


def accuracy(golds: Sequence[Any], predictions: Sequence[Any]) -> float | None:
    """Share of nodes whose prediction names the gold label (``None`` for no nodes)."""
    if not golds:
        return None
    return sum(same_label(p, g) for g, p in zip(golds, predictions, strict=True)) / len(golds)


def per_class_f1(golds: Sequence[Any], predictions: Sequence[Any]) -> dict[str, float]:
    """F1 of every class found among the gold labels and the (non-empty) predictions, keyed by label key."""
    gold_keys = [label_key(g) for g in golds]
    pred_keys = [label_key(p) for p in predictions]
    classes = sorted({k for k in gold_keys if k} | {k for k in pred_keys if k})
    true_pos = Counter(g for g, p in zip(gold_keys, pred_keys, strict=True) if g == p and g)
    gold_count, pred_count = Counter(gold_keys), Counter(pred_keys)
    scores: dict[str, float] = {}
    for cls in classes:
        tp = true_pos[cls]
        denominator = gold_count[cls] + pred_count[cls]
        scores[cls] = 2.0 * tp / denominator if denominator else 0.0
    return scores


def macro_f1(golds: Sequence[Any], predictions: Sequence[Any]) -> float | None:
    """Unweighted mean of :func:`per_class_f1` (``None`` for no nodes)."""
    if not golds:
        return None
    scores = per_class_f1(golds, predictions)
    return sum(scores.values()) / len(scores) if scores else 0.0


def change_outcome(agent: Any, tool: Any, gold: Any) -> str | None:
    """``helped`` / ``hurt`` / ``neutral`` when the agent's label differs from the tool's, else ``None``.

    ``None`` too when there was no tool label (the tool was off, or it failed).
    """
    if not label_key(tool) or label_key(agent) == label_key(tool):
        return None
    agent_right, tool_right = same_label(agent, gold), same_label(tool, gold)
    if agent_right and not tool_right:
        return "helped"
    if tool_right and not agent_right:
        return "hurt"
    return "neutral"


def tool_change_counts(rows: Sequence[tuple[Any, Any, Any]]) -> dict[str, Any]:
    """Counts over ``(agent label, tool label, gold)`` triples of the nodes where a tool label exists.

    ``nodes``: triples with a tool label; ``changed`` = ``helped + hurt + neutral``;
    ``agree``: the agent kept the tool's label; ``tool_accuracy`` and
    ``agent_accuracy`` are over the same nodes (fractions).
    """
    with_tool = [(a, t, g) for a, t, g in rows if label_key(t)]
    counts: dict[str, Any] = {"nodes": len(with_tool), "changed": 0, "helped": 0, "hurt": 0, "neutral": 0}
    for agent, tool, gold in with_tool:
        outcome = change_outcome(agent, tool, gold)
        if outcome is not None:
            counts["changed"] += 1
            counts[outcome] += 1
    counts["agree"] = len(with_tool) - counts["changed"]
    counts["tool_accuracy"] = accuracy([g for _, _, g in with_tool], [t for _, t, _ in with_tool])
    counts["agent_accuracy"] = accuracy([g for _, _, g in with_tool], [a for a, _, _ in with_tool])
    return counts


def relative_change(value: float | None, reference: float | None) -> float | None:
    """``(value - reference) / reference`` in percent, as the paper's ablation tables (None when undefined)."""
    if value is None or not reference:
        return None
    return 100.0 * (value - reference) / reference
