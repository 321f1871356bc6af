"""Answer scoring: Rouge-L, normalised exact match and an optional LLM judge.

Rouge-L
    The Graph Counselor paper reports Rouge-L as the longest common subsequence
    "relative to the length of reference texts", i.e. the *recall* variant
    ``LCS / len(reference tokens)``. We report that number as ``rouge_l`` and the
    usual F1 (``rouge_l_f1``) beside it, both from the local ``rouge-score``
    package (its tokenizer: lower case, runs of non ``[a-z0-9]`` characters split
    tokens; no stemming, so scores are easy to check by hand).

Exact match
    Both sides are normalised (lower case, punctuation and the articles a/an/the
    removed, whitespace collapsed). A list answer - a gold list, or a string such
    as ``"Ann Lee, Bo Chen"`` - also matches when the prediction names the same
    items in any order: both sides are split on ``, ; | newline and`` and
    compared as sets of normalised items.

LLM judge
    The QS/LS-style metric: a model compares the prediction with the gold answer.
    It is separate from the workflow's in-loop judge, which never sees the gold.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_SPACES = re.compile(r"\s+")
_ITEM_SEPARATORS = re.compile(r"\s*(?:[,;|\n]|\band\b|&)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class RougeL:
    """Rouge-L of one prediction against one reference (fractions in [0, 1])."""

    recall: float
    precision: float
    f1: float


@lru_cache(maxsize=1)
def _scorer() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)


def rouge_l(prediction: str, reference: str) -> RougeL:
    """Rouge-L (LCS-based) recall, precision and F1 of ``prediction`` against ``reference``."""
    score = _scorer().score(str(reference or ""), str(prediction or ""))["rougeL"]
    return RougeL(recall=score.recall, precision=score.precision, f1=score.fmeasure)


def normalize_answer(text: str) -> str:
    """Lower case, drop punctuation and articles, collapse whitespace."""
    text = unicodedata.normalize("NFKC", str(text or "")).lower()
    # Unicode category P* covers ASCII and typographic punctuation alike.
    text = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in text)
    text = _ARTICLES.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def answer_items(text: str | Sequence[str]) -> frozenset[str]:
    """The set of normalised items of a list answer (a single answer gives one item)."""
    parts = [text] if isinstance(text, str) else list(text)
    items: set[str] = set()
    for part in parts:
        for piece in _ITEM_SEPARATORS.split(str(part)):
            norm = normalize_answer(piece)
            if norm:
                items.add(norm)
    return frozenset(items)


# a yes/no answer and the True/False a question may ask for instead ("Kindly respond with True or False") are one
_TRUTH_VALUES = {"yes": True, "true": True, "no": False, "false": False}


def exact_match(prediction: str, gold: str | Sequence[str]) -> bool:
    """Normalised exact match; list answers are compared as order-free sets of items; ``yes`` and ``true`` match,
    as do ``no`` and ``false``."""
    if isinstance(gold, str):
        gold_text = gold
    else:
        gold_text = ", ".join(str(g) for g in gold)
    pred_norm = normalize_answer(prediction)
    if not pred_norm:
        return False
    gold_norm = normalize_answer(gold_text)
    if pred_norm == gold_norm:
        return True
    if pred_norm in _TRUTH_VALUES and gold_norm in _TRUTH_VALUES:
        return _TRUTH_VALUES[pred_norm] == _TRUTH_VALUES[gold_norm]
    gold_set = answer_items(gold if not isinstance(gold, str) else gold_text)
    return bool(gold_set) and answer_items(prediction) == gold_set


def score_answer(prediction: str, gold: str, gold_items: Sequence[str] | None = None) -> dict[str, float]:
    """Rouge-L recall/F1 and exact match of one prediction, as fractions in [0, 1].

    ``gold_items`` (when the gold answer is a list) makes exact match order-free
    over exactly those items; Rouge-L always uses the gold text.
    """
    reference = gold if gold else ", ".join(gold_items or [])
    rl = rouge_l(prediction, reference)
    em_target: str | Sequence[str] = list(gold_items) if gold_items else reference
    return {
        "rouge_l": rl.recall,
        "rouge_l_f1": rl.f1,
        "exact_match": float(exact_match(prediction, em_target)),
    }


# ---------------------------------------------------------------------------- LLM judge

JUDGE_SYSTEM = (
    "You grade answers to questions about a graph (papers, people, products, ...). "
    "Compare the candidate answer with the reference answer. The candidate is correct when it "
    "gives the same entity, number or set of items as the reference, even if it is worded "
    "differently or adds explanation that does not contradict the reference. It is wrong when it "
    "names a different entity or value, leaves out or adds list items, or hedges between options. "
    "Reply with one word: yes if the candidate is correct, no otherwise."
)

JUDGE_TEMPLATE = "Question: {question}\nReference answer: {gold}\nCandidate answer: {prediction}\nIs the candidate answer correct (yes or no)?"

_TAG = re.compile(r"\[\s*(yes|no)\s*\]", re.IGNORECASE)
_WORD = re.compile(r"\b(yes|no|correct|incorrect|true|false|wrong)\b", re.IGNORECASE)
_POSITIVE = {"yes", "correct", "true"}


def parse_judgement(text: str) -> bool | None:
    """Read a yes/no verdict from a judge reply; ``None`` when it gives neither.

    A bracketed ``[yes]``/``[no]`` wins; otherwise the first verdict word counts,
    because models tend to answer first and explain after.
    """
    text = text or ""
    tag = _TAG.search(text)
    if tag:
        return tag.group(1).lower() == "yes"
    word = _WORD.search(text)
    if word:
        return word.group(1).lower() in _POSITIVE
    return None


def _judge_model(model: BaseChatModel | str) -> BaseChatModel:
    if isinstance(model, BaseChatModel):
        return model
    from graphreason.workflows.models.factory import make_chat_model

    # Grading should be deterministic and short.
    return make_chat_model(model, temperature=0.0, top_p=1.0, max_tokens=16)


def llm_judge(question: str, gold: str, prediction: str, model: BaseChatModel | str) -> bool:
    """Ask ``model`` (a chat model or spec string) whether ``prediction`` agrees with ``gold``.

    An empty prediction is wrong without a model call; an unclear reply counts as wrong.
    Raises ``ModelUnavailableError`` when the endpoint cannot be reached.
    """
    if not normalize_answer(prediction):
        return False
    from graphreason.workflows.models.invoke import invoke_text

    messages = [
        SystemMessage(content=JUDGE_SYSTEM),
        HumanMessage(content=JUDGE_TEMPLATE.format(question=question, gold=gold, prediction=prediction)),
    ]
    reply = invoke_text(_judge_model(model), messages)
    return bool(parse_judgement(reply.text))
