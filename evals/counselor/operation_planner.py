"""Training and measuring the Counselor's operation planner (:mod:`graphreason.workflows.counselor.operations`).

The planner learns, from a question's words alone, the skeleton of the Action that answers it
(:mod:`graphreason.tools.counselor.skeleton`). Its examples are the tuned reasoner's own training
questions (:func:`~graphreason.evals.counselor.trajectories.training_questions`: templates on the
training graphs, the direction-free family on Cora's undirected copies, question programs over the
training schemas), each labelled with the skeleton of its reference action; a question whose
reference action is several calls or none is left out. An unseen graph is refused before anything
is read, and a held-out wording family is left out whole, so the validation below measures
wordings and graphs the planner never saw.

The fit is scikit-learn's (TF-IDF features as :data:`~graphreason.workflows.counselor.operations.ANALYZERS`
declares them, multinomial logistic regression); :func:`payload_of` writes it as the plain JSON the
workflow reads, and :func:`measure` scores it the way the workflow uses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from graphreason.evals.datasets.items import QAItem
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.constraint import planned_choice, question_wording
from graphreason.tools.counselor.skeleton import skeleton_of
from graphreason.workflows.counselor.operations import (
    ANALYZERS,
    EMBEDDING_MODEL,
    EMBEDDING_WEIGHT,
    FORMAT,
    MAX_CANDIDATES,
    OperationPlanner,
    planner_text,
    sentence_embeddings,
)

MIN_DF = 3  # an n-gram seen in fewer training questions is not a feature (keeps the file small)
C = 10.0  # inverse L2 strength of the logistic regression


def labelled(items: Iterable[QAItem]) -> list[tuple[str, str]]:
    """``(question, skeleton)`` of each item whose reference action is one call with a shape."""
    pairs = []
    for item in items:
        skeleton = skeleton_of(item.reference_action or "")
        if skeleton is not None:
            pairs.append((item.question, skeleton.render()))
    return pairs


def fit_planner(
    pairs: Sequence[tuple[str, str]],
    *,
    min_df: int = MIN_DF,
    c: float = C,
    embedding: str | None = EMBEDDING_MODEL,
    weight: float = EMBEDDING_WEIGHT,
) -> dict[str, Any]:
    """Fit the planner on ``(question, skeleton)`` pairs; returns its JSON payload. ValueError on too little data.

    ``embedding``: the embedder preset whose sentence embeddings (scaled by ``weight``) stand beside the n-grams
    (None: n-grams only, a format 2 planner)."""
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    labels = sorted({label for _, label in pairs})
    if len(labels) < 2:
        raise ValueError(f"the planner needs questions of at least two skeletons, got {len(labels)}")
    texts = [planner_text(text) for text, _ in pairs]  # as the planner reads them
    vectorizers = {
        name: TfidfVectorizer(sublinear_tf=True, min_df=min(min_df, len(texts)), **settings)
        for name, settings in ANALYZERS.items()
    }
    blocks = [vectorizer.fit_transform(texts) for vectorizer in vectorizers.values()]
    if embedding is not None:
        blocks.append(csr_matrix(weight * sentence_embeddings(texts, embedding)))
    model = LogisticRegression(C=c, max_iter=5000)
    model.fit(hstack(blocks).tocsr(), [label for _, label in pairs])
    payload = payload_of(vectorizers, model)
    if embedding is None:
        return payload | {"format": 2}
    return payload | {"embedding": {"model": embedding, "weight": weight, "dim": int(blocks[-1].shape[1])}}


def payload_of(vectorizers: dict[str, Any], model: Any) -> dict[str, Any]:
    """The fitted vectorizers and model as plain JSON data (weights to 5 significant digits)."""
    features = {}
    for name, vectorizer in vectorizers.items():
        features[name] = {
            "vocabulary": {term: int(index) for term, index in sorted(vectorizer.vocabulary_.items())},
            "idf": [float(f"{value:.5g}") for value in vectorizer.idf_],
        }
    coef = model.coef_
    if len(model.classes_) == 2:  # scikit-learn keeps one row for two classes: softmax over (-w, w) is the same
        coef = [-coef[0] / 2, coef[0] / 2]
        intercept = [-model.intercept_[0] / 2, model.intercept_[0] / 2]
    else:
        intercept = list(model.intercept_)
    return {
        "format": FORMAT,
        "classes": [str(label) for label in model.classes_],
        "features": features,
        "coef": [[float(f"{value:.5g}") for value in row] for row in coef],
        "intercept": [float(f"{value:.5g}") for value in intercept],
    }


def measure(
    planner: OperationPlanner, items: Sequence[QAItem], confidence: float, store: GraphStore | None = None
) -> dict[str, Any]:
    """How the planner does on ``items`` (those with a one-call reference action) used at ``confidence``.

    ``top1``: share whose top skeleton is the reference action's; ``applied``: share whose top
    probability reaches ``confidence`` (the Actions the workflow shapes); ``applied_right``: of those,
    the share shaped right. A wrong shape costs the question, an unapplied one leaves it to the model.
    With the items' graph (``store``), ``worded`` scores the same way the skeleton the workflow takes: the
    likeliest one that fits the question's words (:func:`~graphreason.tools.counselor.constraint.chosen_skeleton`).
    """
    pairs = labelled(items)
    if not pairs:
        return {"n": 0}
    rows = planner.probabilities([text for text, _ in pairs])
    best = rows.argmax(axis=1)
    right = [planner.classes[int(b)] == label for b, (_, label) in zip(best, pairs, strict=True)]
    applied = [float(rows[i, int(b)]) >= confidence for i, b in enumerate(best)]
    shaped = [r for r, a in zip(right, applied, strict=True) if a]
    misses = Counter(f"{label} -> {planner.classes[int(b)]}" for b, (_, label), r in zip(best, pairs, right, strict=True) if not r)
    result: dict[str, Any] = {
        "n": len(pairs),
        "top1": round(100 * sum(right) / len(pairs), 1),
        "applied": round(100 * sum(applied) / len(pairs), 1),
        "applied_right": round(100 * sum(shaped) / len(shaped), 1) if shaped else None,
        "misses": dict(misses.most_common(5)),
    }
    if store is not None:
        result["worded"] = _worded(planner, pairs, rows, store, confidence)
    return result


def _worded(planner: OperationPlanner, pairs: Sequence[tuple[str, str]], rows: Any, store: GraphStore,
            confidence: float) -> dict[str, Any]:  # fmt: skip
    """``top1`` / ``applied`` / ``applied_right`` of the skeleton the question's words choose among the planner's."""
    taken = []
    for (question, _), row in zip(pairs, rows, strict=True):
        ranked = [(planner.classes[int(i)], float(row[int(i)])) for i in row.argsort()[::-1][:MAX_CANDIDATES]]
        chosen, share = planned_choice(ranked, question_wording(store, question))
        taken.append((chosen.render() if chosen else None, chosen is not None and share >= confidence))
    right = [chosen == label for (chosen, _), (_, label) in zip(taken, pairs, strict=True)]
    applied = [sure for _, sure in taken]
    shaped = [r for r, a in zip(right, applied, strict=True) if a]
    return {
        "top1": round(100 * sum(right) / len(pairs), 1),
        "applied": round(100 * sum(applied) / len(pairs), 1),
        "applied_right": round(100 * sum(shaped) / len(shaped), 1) if shaped else None,
    }
