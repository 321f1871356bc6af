"""Question sets generated from templates over a real graph, GRBench style.

GRBench wrote ~10 questions per hand-made template with gold answers computed
by code. Here the templates live in :mod:`graphreason.evals.datasets.templates_cora`,
:mod:`graphreason.evals.datasets.templates_citeseer` (the unseen graph, evaluation only) and
:mod:`graphreason.evals.datasets.templates_movielens`; their golds come from the raw data
files parsed into plain dicts, independent of the graph store and the graph
functions the agent calls.

Each item carries ``level`` (easy: one lookup/hop; medium: multi-hop or a
computed aggregate; hard: an inductive vote over a neighbourhood), ``template``,
``graph`` (the spec ``graphreason.tools.core.loaders.load_graph`` accepts), a
``reference_action`` - one Counselor action line that yields what is needed -
and ``meta["reference_answer_rule"]`` (see :mod:`graphreason.evals.datasets.answer_rules`).
Subjects are named by titles that are unique in the graph (so an exact-title
``Retrieve`` is unambiguous) and list answers hold 1-15 items.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphreason.evals.datasets.items import QAItem
from graphreason.evals.datasets.template_base import Template, balanced_parentheses
from graphreason.evals.datasets.templates_citeseer import CITESEER_TEMPLATES, read_raw_citeseer
from graphreason.evals.datasets.templates_cora import CORA_TEMPLATES, read_raw_cora
from graphreason.evals.datasets.templates_movielens import MOVIELENS_TEMPLATES, read_raw_movielens

TEMPLATES: dict[str, tuple[Template, ...]] = {
    "cora": CORA_TEMPLATES,
    "citeseer": CITESEER_TEMPLATES,  # the unseen graph: evaluation only, direction-free templates
    "movielens": MOVIELENS_TEMPLATES,
}
_READERS = {"cora": read_raw_cora, "citeseer": read_raw_citeseer, "movielens": read_raw_movielens}


def list_templates(graph: str = "cora") -> list[Template]:
    """The templates of one graph, easy first."""
    return list(TEMPLATES[_check_graph(graph)])


def read_raw(graph: str, root: str | Path | None = None) -> Any:
    """The raw-file view of ``graph`` the golds are computed from."""
    return _READERS[_check_graph(graph)](root)


def generate_questions(
    graph: str = "cora",
    n_per_template: int = 10,
    seed: int = 0,
    root: str | Path | None = None,
    templates: Sequence[str] | None = None,
    raw: Any = None,
) -> list[QAItem]:
    """Up to ``n_per_template`` questions per template, deterministic for a seed.

    Subjects are drawn without replacement from a per-template shuffle of the
    eligible ids (seeded by graph, template and ``seed``), so changing one
    template never changes another's questions. ``root`` points at the raw
    data folder (default: the shared data); ``templates`` restricts the
    template names; ``raw`` reuses an already parsed :func:`read_raw` result.
    """
    name = _check_graph(graph)
    if n_per_template < 1:
        raise ValueError(f"n_per_template must be at least 1, got {n_per_template}")
    chosen = list(TEMPLATES[name])
    if templates is not None:
        known = {t.name for t in chosen}
        unknown = sorted(set(templates) - known)
        if unknown:
            raise ValueError(f"unknown {name} template(s) {unknown}; templates: {', '.join(sorted(known))}")
        chosen = [t for t in chosen if t.name in set(templates)]
    data = raw if raw is not None else read_raw(name, root)
    items: list[QAItem] = []
    for template in chosen:
        items += instantiate(name, template, data, n_per_template, seed)
    return items


def instantiate(graph: str, template: Template, raw: Any, n: int, seed: int) -> list[QAItem]:
    """Up to ``n`` questions of one template over ``raw``, named ``graph`` (see :func:`generate_questions`)."""
    subjects = list(raw.subjects(template.subject_kind))
    random.Random(f"{graph}:{template.name}:{seed}").shuffle(subjects)
    items: list[QAItem] = []
    for subject in subjects:
        draft = template.make(raw, subject)
        if draft is None or not balanced_parentheses(str(draft.subject)):
            continue  # no question, or a subject no call can name (checked after the shuffle: other draws keep)
        answers = list(draft.gold) if isinstance(draft.gold, list) else None
        items.append(
            QAItem(
                qid=f"{graph}-{template.name}-{len(items):03d}",
                question=draft.question,
                answer=", ".join(answers) if answers is not None else draft.gold,
                answers=answers,
                level=template.level,
                template=template.name,
                graph=graph,
                reference_action=draft.action,
                meta={
                    "reference_answer_rule": template.rule,
                    "subject": draft.subject,
                    "subject_id": draft.subject_id,
                    "seed": seed,
                    **draft.extra,
                },
            )
        )
        if len(items) == n:
            break
    return items


def make_splits(
    items: Sequence[QAItem], seed: int = 0, validation_fraction: float = 0.5
) -> dict[str, list[QAItem]]:
    """``{"dev": [...], "validation": [...]}``, stratified by (graph, template).

    Within each group the items are shuffled with the seed and the last
    ``round(n * validation_fraction)`` go to validation; groups of two or more
    items contribute to both splits. Input order is kept inside each split. A
    group is named by the graph's name (``meta["graph_name"]`` where an item's
    ``graph`` is a file path, such as a copy written to a temporary folder), so the
    split never depends on where a graph file was written.
    """
    if not 0.0 < validation_fraction < 1.0:
        raise ValueError(f"validation_fraction must be between 0 and 1, got {validation_fraction}")
    groups: dict[tuple[str, str], list[int]] = {}
    for index, item in enumerate(items):
        graph = (item.meta or {}).get("graph_name") or item.graph or ""
        groups.setdefault((graph, item.template or ""), []).append(index)
    validation: set[int] = set()
    for key, members in sorted(groups.items()):
        order = list(members)
        random.Random(f"split:{key[0]}:{key[1]}:{seed}").shuffle(order)
        size = len(order) * validation_fraction
        take = math.floor(size + 0.5) if len(order) != 1 else 0
        if len(order) >= 2:
            take = min(max(take, 1), len(order) - 1)
        validation.update(order[len(order) - take :] if take else [])
    return {
        "dev": [item for i, item in enumerate(items) if i not in validation],
        "validation": [item for i, item in enumerate(items) if i in validation],
    }


def _check_graph(graph: str) -> str:
    name = str(graph).strip().lower()
    if name not in TEMPLATES:
        raise ValueError(f"no question templates for graph {graph!r}; available: {', '.join(TEMPLATES)}")
    return name
