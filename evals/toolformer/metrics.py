"""Graph-ToolFormer's metrics: API-Gen Acc (as trees and as strings), Rouge, BLEU, execution accuracy.

The paper scores the generated statement against the annotated one before
execution (Rouge-1/2/L/LSum, BLEU with its brevity penalty, and API-Gen Acc:
the calls extracted from both and compared exactly) and reports no execution
numbers. Here:

* ``api_gen_acc`` compares the calls as parsed trees in normal form
  (:func:`graphreason.tools.toolformer.calls.normalize.same_calls`: spacing, quotes, case
  and ``-``/``_`` do not matter, a broken call never matches);
* ``api_gen_acc_string`` is the stricter string variant: the call brackets
  found by a pattern, compared as written (spaces trimmed);
* ``parses``: every call bracket of the prediction is closed and parses (what
  grammar-constrained decoding guarantees), whether or not the calls are right;
* Rouge from ``rouge-score`` (stemming off, as its defaults), BLEU and BP from
  ``sacrebleu``'s corpus BLEU (13a tokenizer) over a group's records;
* ``exec_acc``: each executed call's value against the gold ``Reasoning
  Result`` (values separated by ``<||>``, one per call in text order), where
  the gold is a checkable value (not "Unknown" or "Unsupervised").
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from graphreason.tools.toolformer.calls.normalize import same_calls
from graphreason.tools.toolformer.calls.prefix import complete

UNCHECKABLE = {"", "unknown", "unsupervised", "none"}
_BRACKET = re.compile(r"\[[A-Za-z_][\w-]*\s*\([^\]]*\]")


def api_calls_as_written(text: str) -> list[str]:
    """The call brackets of ``text`` as strings (the paper's string comparison)."""
    return [m.group(0).strip() for m in _BRACKET.finditer(text)]


def api_gen_scores(prediction: str, gold: str) -> dict[str, float]:
    return {
        "api_gen_acc": float(same_calls(prediction, gold)),
        "api_gen_acc_string": float(api_calls_as_written(prediction) == api_calls_as_written(gold)),
        "parses": float(complete(prediction)),  # every call bracket closed and parsed, right or wrong
    }


@lru_cache(maxsize=1)
def _rouge() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])


def rouge_scores(prediction: str, gold: str) -> dict[str, float]:
    """Rouge F-measures of one pair, as fractions."""
    scores = _rouge().score(gold, prediction)
    return {key: scores[key].fmeasure for key in ("rouge1", "rouge2", "rougeL", "rougeLsum")}


def corpus_bleu(predictions: Sequence[str], golds: Sequence[str]) -> dict[str, float]:
    """sacrebleu's corpus BLEU and brevity penalty, in percent (0 for an empty group)."""
    if not predictions:
        return {"bleu": 0.0, "bp": 0.0}
    import sacrebleu

    result = sacrebleu.corpus_bleu(list(predictions), [list(golds)])
    return {"bleu": round(result.score, 2), "bp": round(100.0 * result.bp, 2)}


# ------------------------------------------------------------------ execution
def gold_values(result: str | None) -> list[str] | None:
    """The checkable gold values of a record, or None when there is nothing to check."""
    if result is None:
        return None
    parts = [p.strip() for p in result.split("<||>")]
    if any(p.lower() in UNCHECKABLE for p in parts):
        return None
    return parts


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def _canonical(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        literal = _literal(value.strip())
        if literal is not value and not isinstance(literal, str):
            return _canonical(literal)
        return " ".join(value.replace("_", " ").split()).lower()
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_canonical(v) for v in value]
    return str(value)


def values_match(value: Any, gold: str) -> bool:
    """``value`` (an executed result) equals the gold text as a value: numbers to 1e-6, text case-blind."""
    return _equal(_canonical(value), _canonical(gold))


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9) or (math.isinf(a) and a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def exec_correct(results: Sequence[dict[str, Any]], gold: Sequence[str]) -> bool:
    """Every call ran and its value matches the gold value in the same position.

    Calls are matched to gold values in text order; if that fails, as one
    multiset (one upstream template lists its values in another order than its
    calls).
    """
    if len(results) != len(gold) or not all(r.get("ok") for r in results):
        return False
    values = [r.get("value") for r in results]
    if all(values_match(v, g) for v, g in zip(values, gold, strict=True)):
        return True
    remaining = list(gold)
    for value in values:
        hit = next((i for i, g in enumerate(remaining) if values_match(value, g)), None)
        if hit is None:
            return False
        remaining.pop(hit)
    return True
