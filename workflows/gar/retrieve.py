"""Retrieval: rank the library's algorithm descriptions by embedding similarity to the question, keep the top-k.

As in the paper, the master chooses from the top-k library entries. The
question's own wording drives the ranking (edge lists are stripped: they carry
no meaning and would swamp it). The library is searched through the same
:class:`~graphreason.tools.core.retrieval.base.Retriever` interface as node texts (a
:class:`~graphreason.tools.core.retrieval.texts.TextRetriever`, embedded once per encoder).
When the keyword task detector names an entry that missed the top-k, it is
added as an extra candidate (marked ``how="keyword"``) so the master can still
pick it.
"""

from __future__ import annotations

import re

from langgraph.runtime import Runtime

from graphreason.tools.core.retrieval.texts import cached_text_retriever
from graphreason.workflows.gar.catalogue import CATALOGUE, entry_for_task
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.state import Candidate, GARState
from graphreason.workflows.kit.events import emit

_TUPLE = re.compile(r"[(\[][^()\[\]]{0,40}[)\]]")
_MAX_QUERY_CHARS = 1200

def question_focus(question: str) -> str:
    """The question with edge tuples and node-weight pairs removed (what the text asks, not the data)."""
    text = _TUPLE.sub(" ", question)
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > _MAX_QUERY_CHARS:  # keep the start (task statement) and the end (the question)
        half = _MAX_QUERY_CHARS // 2
        text = text[:half] + " ... " + text[-half:]
    return text


def library_texts() -> dict[str, str]:
    """What the master's choice is ranked on: each catalogue entry's name and description."""
    return {name: f"{name.replace('_', ' ')}: {entry.description}" for name, entry in CATALOGUE.items()}


def rank_library(question: str, embedding_model: str, top_k: int) -> list[Candidate]:
    """The ``top_k`` catalogue entries closest to the question, best first, with cosine scores."""
    retriever = cached_text_retriever(library_texts(), embedding_model)
    return [
        Candidate(name=name, score=round(score, 4), how="retrieved")
        for name, score in retriever.search(question_focus(question), k=top_k)
    ]


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
