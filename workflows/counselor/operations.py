"""The operation planner: which functions, nested how, a question's Action needs, before the model writes it.

The tuned 135M reasoner copies names from the prompt well but often picks the wrong operation for a
wording it never saw (a two-hop count written as ``Degree``, "is X one of ..." as a ``Feature``). The
operation planner is a small text classifier (word and character n-grams, TF-IDF, beside the
question's sentence embedding from the shipped MiniLM model, which reads a sentence frame it never saw
by its meaning; multinomial logistic regression) trained by ``graphreason train planner`` on the same
questions as the reasoner
(templates and question programs over the training graphs, never CiteSeer or Last.fm), labelled with
the skeleton of each question's reference action (:mod:`graphreason.tools.counselor.skeleton`).

When its top skeleton's probability reaches the run's ``operation_confidence``, the embedded
reasoner's Action is decoded under that skeleton (the grammar fixes the functions and their
nesting); which subject, relations and features to use is still the reasoner's choice. Below it,
or for a question the planner cannot read, the Action is free as before. Its weights are plain JSON
(vocabularies, IDF weights, coefficients, the embedding model's preset name): nothing is unpickled.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

MAX_CANDIDATES = 12  # the planner's likeliest skeletons the grammar chooses among
PLANNER_DIR = "counselor-planner"  # under the shipped adapters' folder
PLANNER_FILE = "planner.json"
FORMAT = 3  # 2: the text is read with its quoted names masked (planner_text); 3: and its sentence embedding
READS = (2, 3)  # the formats this code reads (2: no embedding block)
EMBEDDING_MODEL = "minilm"  # the preset the trainer embeds questions with (shipped as a wheel; never downloaded)
EMBEDDING_WEIGHT = 2.0  # the unit embedding's scale beside the two unit TF-IDF rows (chosen on the held-out family)
# a name in double quotes (straight or curly) says nothing about the operation: it becomes one placeholder word
_QUOTED = re.compile(r'"[^"\n]{1,200}"|\u201c[^\u201d\n]{1,200}\u201d')
QUOTED_NAME = " qname "
# Words that ask for a count as "number of" does: the planner reads them all as that one phrase, so which word a
# question counts with never sways how many hops it takes ("the size of the artists X listened to": one)
_COUNT_WORDS = re.compile(r"\b(?:size|amount|quantity) of\b", re.IGNORECASE)
# the two feature families: word uni- and bigrams, character 2-5-grams inside word boundaries
ANALYZERS: dict[str, dict[str, Any]] = {
    "words": {"analyzer": "word", "ngram_range": (1, 2)},
    "chars": {"analyzer": "char_wb", "ngram_range": (2, 5)},
}


def planner_text(question: str, names: Sequence[str] = ()) -> str:
    """The text the planner reads: the question with each quoted name, and each of ``names`` (the node names it
    holds unquoted), replaced by one placeholder word, so a title's words ("Neural", "Bayesian") do not sway
    the operation."""
    text = _QUOTED.sub(QUOTED_NAME, question)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, QUOTED_NAME)
    return _COUNT_WORDS.sub("number of", text)


class PlannerError(ValueError):
    """A planner file that cannot be read as one."""


@dataclass(frozen=True)
class Prediction:
    """The planner's top skeleton for a question and its probability."""

    skeleton: str
    probability: float


class OperationPlanner:
    """A trained planner read from its JSON payload (see :func:`payload_of` in the trainer)."""

    def __init__(self, payload: dict[str, Any]) -> None:
        from sklearn.feature_extraction.text import CountVectorizer

        try:
            if payload.get("format") not in READS:
                raise PlannerError(f"planner format {payload.get('format')!r}, this code reads {READS}")
            embedding = payload.get("embedding") if payload["format"] >= 3 else None
            if payload["format"] >= 3 and not isinstance(embedding, dict):
                raise PlannerError("a format 3 planner needs its embedding block")
            # (preset name, scale, width) of the sentence embedding beside the n-grams; None: n-grams only
            self.embedding: tuple[str, float, int] | None = (
                (str(embedding["model"]), float(embedding["weight"]), int(embedding["dim"])) if embedding else None
            )
            self.classes: list[str] = [str(c) for c in payload["classes"]]
            self.coef = np.asarray(payload["coef"], dtype=np.float32)
            self.intercept = np.asarray(payload["intercept"], dtype=np.float32)
            self.counters, self.idf = [], []
            for name, settings in ANALYZERS.items():
                block = payload["features"][name]
                vocabulary = {str(term): int(index) for term, index in block["vocabulary"].items()}
                self.counters.append(CountVectorizer(vocabulary=vocabulary, **settings))
                self.idf.append(np.asarray(block["idf"], dtype=np.float32))
        except (KeyError, TypeError, ValueError) as exc:
            raise PlannerError(f"not a planner payload: {exc}") from None
        self._predicted: dict[str, list[Prediction]] = {}
        width = sum(len(idf) for idf in self.idf) + (self.embedding[2] if self.embedding else 0)
        if self.coef.shape != (len(self.classes), width) or self.intercept.shape != (len(self.classes),):
            raise PlannerError(f"planner shapes disagree: coef {self.coef.shape}, {len(self.classes)} classes, {width} features")

    def features(self, texts: list[str]) -> np.ndarray:
        """TF-IDF rows (sublinear term frequency, each family L2-normalised), then the scaled unit sentence
        embedding where the planner has one, side by side."""
        blocks, read = [], [planner_text(text) for text in texts]
        for counter, idf in zip(self.counters, self.idf, strict=True):
            counts = counter.transform(read).astype(np.float32).toarray()
            weighted = np.where(counts > 0, 1.0 + np.log(np.maximum(counts, 1.0)), 0.0) * idf
            norms = np.linalg.norm(weighted, axis=1, keepdims=True)
            blocks.append(weighted / np.where(norms > 0, norms, 1.0))
        if self.embedding is not None:
            model, weight, dim = self.embedding
            try:
                vectors = sentence_embeddings(read, model)
            except (OSError, ImportError, RuntimeError, ValueError) as exc:  # a model folder missing or unreadable
                raise PlannerError(f"the planner's {model} sentence embedding could not be computed: {exc}") from None
            if vectors.shape != (len(read), dim):
                raise PlannerError(f"the {model} embedding has {vectors.shape[1]} dimensions, the planner {dim}")
            blocks.append(weight * vectors)
        return np.hstack(blocks)

    def probabilities(self, texts: list[str]) -> np.ndarray:
        logits = self.features(texts) @ self.coef.T + self.intercept
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def predict(self, question: str) -> Prediction:
        """The top skeleton for ``question``."""
        return self.ranking(question)[0]

    def ranking(self, question: str) -> list[Prediction]:
        """Every skeleton for ``question``, likeliest first (each question's worked out once: a run asks at every
        step)."""
        cache = self._predicted
        if question not in cache:
            row = self.probabilities([question])[0]
            if len(cache) >= 1024:
                cache.clear()
            cache[question] = [Prediction(self.classes[int(i)], float(row[int(i)])) for i in row.argsort()[::-1]]
        return cache[question]


def sentence_embeddings(texts: list[str], model: str) -> np.ndarray:
    """Unit-length sentence embeddings of ``texts`` by the embedder preset ``model`` (loaded once per process)."""
    from graphreason.tools.core.retrieval import get_embedder

    vectors = np.asarray(get_embedder(model).embed(list(texts)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def planner_path() -> Path:
    """Where the shipped planner's weights are."""
    from graphreason.llm.engine.adapter import ADAPTERS_DIR

    return ADAPTERS_DIR / PLANNER_DIR / PLANNER_FILE


def load_planner(path: str | Path) -> OperationPlanner:
    """A planner from a JSON file; :class:`PlannerError` says what is wrong with it."""
    try:
        payload = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise PlannerError(f"cannot read the operation planner at {path}: {exc}") from None
    if not isinstance(payload, dict):
        raise PlannerError(f"{path} holds no planner object")
    return OperationPlanner(payload)


@functools.lru_cache(maxsize=4)
def _cached(path: str, mtime_ns: int) -> OperationPlanner:
    return load_planner(path)


def shipped_planner() -> OperationPlanner | None:
    """The shipped planner (read once per version of its file), or None when none is shipped."""
    path = planner_path()
    try:
        return _cached(str(path), path.stat().st_mtime_ns)
    except OSError:
        return None


def planned_skeletons(question: str, confidence: float, names: Sequence[str] = ()) -> list[Prediction]:
    """The skeletons the shipped planner gives ``question`` (``names``: the node names it holds, masked as quoted
    ones are), likeliest first; empty when the planner is off (``confidence`` 0), none is shipped, or it cannot
    read the question here. Which one shapes the Action is the grammar's choice
    (:func:`~graphreason.tools.counselor.constraint.chosen_skeleton`: the likeliest that fits the question's words,
    when sure enough)."""
    if not 0.0 < confidence <= 1.0 or not question.strip():
        return []
    planner = shipped_planner()
    if planner is None:
        return []
    try:
        ranking = planner.ranking(planner_text(question, names))
    except PlannerError as exc:  # the planner cannot read this question here: the Action's shape stays free
        _warn_once(str(exc))
        return []
    return [guess for guess in ranking if not math.isnan(guess.probability)][:MAX_CANDIDATES]


def planned_skeleton(question: str, confidence: float, names: Sequence[str] = ()) -> str | None:
    """The planner's top skeleton for ``question`` when its probability reaches ``confidence``, else None (what the
    planner says alone, before the question's words are read: :func:`planned_skeletons`)."""
    ranking = planned_skeletons(question, confidence, names)
    return ranking[0].skeleton if ranking and ranking[0].probability >= confidence else None


@functools.lru_cache(maxsize=8)
def _warn_once(message: str) -> None:
    """One warning per distinct reason the planner could not be used (not one per question)."""
    warnings.warn(f"operation planner off for this run: {message}", RuntimeWarning, stacklevel=3)


def planner_digest() -> str | None:
    """The first 12 hex digits of the SHA-256 of the shipped planner's file (what a result records), or None."""
    try:
        return hashlib.sha256(planner_path().read_bytes()).hexdigest()[:12]
    except OSError:
        return None


def planner_in_use(confidence: float, embedded_grammar: bool) -> str | None:
    """The digest of the planner a run's Actions are shaped by: None when it is off or cannot apply."""
    return planner_digest() if embedded_grammar and 0.0 < confidence <= 1.0 else None
