"""The tool guard: when the agent may replace the graph model's answer (tool mode).

A small LLM that reads the graph model's prediction can only lose accuracy by
overriding it on nodes the model gets right. The guard bounds that loss with
validation data:

* the model's confidence (its top probability) on every validation node, and
  whether it was right there, are collected once per (dataset, split);
* the threshold ``tau`` is the largest confidence such that the validation
  nodes the model gets right *below* ``tau`` are at most ``override_risk`` of
  all validation nodes: even if every override below ``tau`` were wrong, the
  agent would lose at most that share of accuracy (on validation-like nodes);
* an override is accepted only when the model's confidence on the node is
  below ``tau`` **and** the agent's label is among the model's ``override_top``
  most probable labels (the model's runner-up is where it is most often wrong).

The default risk is 0.5 %, half the issue's 1-point allowance, leaving room
for the difference between validation and test nodes. ``override_threshold``
sets ``tau`` by hand; ``tool_guard=False`` accepts every override (to measure
what the guard prevents).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Calibration:
    """What the validation part says about the graph model: accuracy overall and around the threshold."""

    threshold: float
    risk: float
    val_nodes: int
    val_accuracy: float
    confident_share: float  # validation nodes at or above the threshold
    confident_accuracy: float | None  # accuracy on them
    unsure_accuracy: float | None  # accuracy below the threshold

    def describe(self) -> str:
        """One or two sentences for the agent's prompt."""
        if not self.val_nodes:
            return "Its reliability is unknown (no validation nodes); treat it as a hint."
        text = f"On {self.val_nodes} validation nodes the graph model is right {self.val_accuracy:.0%} of the time."
        if self.confident_accuracy is not None and self.unsure_accuracy is not None:
            text += (
                f" With probability >= {self.threshold:.2f} ({self.confident_share:.0%} of nodes) it is right "
                f"{self.confident_accuracy:.0%} of the time; below that, {self.unsure_accuracy:.0%}."
            )
        return text

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def calibrate(confidences: Sequence[float], correct: Sequence[bool], risk: float) -> Calibration:
    """The threshold ``tau`` for ``risk`` (see the module docstring) and the accuracies around it."""
    n = len(confidences)
    if n == 0:  # no validation nodes: nothing vouches for an override
        return Calibration(0.0, risk, 0, 0.0, 1.0, None, None)
    allowed = math.floor(risk * n + 1e-9)
    right = sorted(c for c, ok in zip(confidences, correct, strict=True) if ok)
    # nodes right with confidence < tau must number <= allowed: tau is the (allowed+1)-th smallest
    threshold = right[allowed] if allowed < len(right) else 1.0 + 1e-9
    return _summary(confidences, correct, min(threshold, 1.0 + 1e-9), risk)


def fixed(confidences: Sequence[float], correct: Sequence[bool], threshold: float, risk: float) -> Calibration:
    """The accuracies around a threshold chosen by hand."""
    return _summary(confidences, correct, threshold, risk)


def _summary(confidences: Sequence[float], correct: Sequence[bool], threshold: float, risk: float) -> Calibration:
    n = len(confidences)
    above = [ok for c, ok in zip(confidences, correct, strict=True) if c >= threshold]
    below = [ok for c, ok in zip(confidences, correct, strict=True) if c < threshold]
    return Calibration(
        threshold=float(threshold),
        risk=risk,
        val_nodes=n,
        val_accuracy=sum(correct) / n if n else 0.0,
        confident_share=len(above) / n if n else 1.0,
        confident_accuracy=sum(above) / len(above) if above else None,
        unsure_accuracy=sum(below) / len(below) if below else None,
    )


def judge_override(
    agent_label: str,
    probabilities: dict[str, float],
    calibration: Calibration | None,
    *,
    enabled: bool = True,
    top: int = 2,
) -> tuple[bool, str]:
    """Whether the agent's ``agent_label`` may replace the model's top label, and why."""
    model_label = max(probabilities, key=lambda name: probabilities[name]) if probabilities else None
    if model_label is None or agent_label == model_label:
        return True, "the agent agrees with the graph model"
    if not enabled:
        return True, "guard off: the agent's answer is kept"
    confidence = probabilities[model_label]
    threshold = calibration.threshold if calibration is not None else 0.0
    if confidence >= threshold:
        return False, (
            f"override refused: the graph model's confidence {confidence:.2f} is at least the "
            f"threshold {threshold:.2f} calibrated on validation nodes"
        )
    ranked = sorted(probabilities, key=lambda name: -probabilities[name])
    if top > 0 and agent_label not in ranked[:top]:
        return False, f"override refused: {agent_label} is not among the graph model's {top} most probable labels"
    return True, f"override accepted: the graph model's confidence {confidence:.2f} is below {threshold:.2f}"
