"""Retrieval: rank the library's algorithm descriptions by embedding similarity to the question, keep the top-k.

As in the paper, the master chooses from the top-k library entries. The
question's own wording drives the ranking (edge lists are stripped: they carry
no meaning and would swamp it). Description embeddings are computed once per
embedder. When the keyword task detector names an entry that missed the top-k,
it is added as an extra candidate (marked ``how="keyword"``) so the master can
still pick it.
"""

from __future__ import annotations

import re
import threading

import numpy as np
from langgraph.runtime import Runtime

from tools.retrieval.embedders import Embedder, get_embedder
from workflows.gar.catalogue import CATALOGUE, entry_for_task
from workflows.gar.context import GARContext
from workflows.gar.state import Candidate, GARState
from workflows.kit.events import emit

_TUPLE = re.compile(r"[(\[][^()\[\]]{0,40}[)\]]")
_MAX_QUERY_CHARS = 1200

_lock = threading.Lock()
_embedders: dict[str, Embedder] = {}
_description_vectors: dict[str, np.ndarray] = {}


def question_focus(question: str) -> str:
    """The question with edge tuples and node-weight pairs removed (what the text asks, not the data)."""
    text = _TUPLE.sub(" ", question)
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > _MAX_QUERY_CHARS:  # keep the start (task statement) and the end (the question)
        half = _MAX_QUERY_CHARS // 2
        text = text[:half] + " ... " + text[-half:]
    return text


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def _resources(name: str) -> tuple[Embedder, np.ndarray]:
    """The embedder and the (unit) description vectors of every catalogue entry, cached per embedder."""
    with _lock:
        if name not in _embedders:
            embedder = get_embedder(name)
            texts = [f"{e.name.replace('_', ' ')}: {e.description}" for e in CATALOGUE.values()]
            _description_vectors[name] = _unit(np.asarray(embedder.embed(texts), dtype=np.float64))
            _embedders[name] = embedder
        return _embedders[name], _description_vectors[name]


def rank_library(question: str, embedding_model: str, top_k: int) -> list[Candidate]:
    """The ``top_k`` catalogue entries closest to the question, best first, with cosine scores."""
    embedder, vectors = _resources(embedding_model)
    query = _unit(np.asarray(embedder.embed([question_focus(question)]), dtype=np.float64))[0]
    scores = vectors @ query
    names = list(CATALOGUE)
    order = np.argsort(-scores, kind="stable")[:top_k]
    return [Candidate(name=names[i], score=round(float(scores[i]), 4), how="retrieved") for i in order]


def retrieve(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    candidates = rank_library(state["question"], ctx.embedding_model, ctx.top_k)
    keyword = entry_for_task(state.get("detected_task"))
    if keyword and all(c["name"] != keyword for c in candidates):
        candidates.append(Candidate(name=keyword, score=0.0, how="keyword"))
    shown = ", ".join(f"{c['name']} ({c['score']:.2f})" for c in candidates)
    emit("candidates", shown, candidates=candidates)
    return {
        "candidates": candidates,
        "trace": [{"step": "retrieve", "text": shown, "candidates": candidates}],
    }
