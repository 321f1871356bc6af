"""GraphAgent's long-term memory: past classification episodes, retrieved by title, replayed as lessons.

An :class:`Episode` is one finished run on a node whose label is known (a
training node): the node's title, the steps the agent took, what it answered
and whether that was right. :class:`ExperienceMemory` keeps them in a LangGraph
store (:func:`graphreason.memory.longterm.make_store`, indexed on ``title``) and ranks them
for a new node as the paper's Algorithm 1 does::

    c_i = cos(E(title_i), E(title)) + T_i / alpha

The paper leaves ``T_i`` and ``alpha`` undefined. Here ``T_i`` is chosen by
``bonus``:

* ``"success"`` (default) - 1 when the episode's answer was right, else 0: a
  right episode shows a strategy that worked, so among similar titles it wins;
* ``"short"`` - ``1 / steps``: episodes that got there in fewer commands;
* ``"none"`` - 0: similarity alone.

``alpha`` (default 5) sets how much ``T_i`` weighs against similarity: with
``"success"`` a right episode outranks a wrong one unless the wrong one's title
is more than ``1/alpha = 0.2`` more similar (cosine similarities of paper
titles under MiniLM spread over about 0.1-0.7, so 0.2 tilts near-ties without
drowning similarity). ``alpha = inf`` (or ``bonus="none"``) is pure similarity.

The <=100-word lesson drawn from an episode (the replay prompt's output) is
cached next to it, so each episode is replayed by the LLM once, not per query.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from langgraph.store.base import BaseStore

Bonus = Literal["success", "short", "none"]
LESSON_WORDS = 100  # the paper's limit on a replayed lesson
DEFAULT_ALPHA = 5.0
CANDIDATES = 1000  # episodes scored per search: every one of a training split (Cora has 140)


@dataclass
class Episode:
    """One finished classification run on a node whose label is known."""

    node_id: str
    dataset: str
    title: str
    steps: list[dict[str, Any]] = field(default_factory=list)  # command, args, observation summary, ...
    predicted: str | None = None
    gold: str | None = None
    success: bool = False  # the agent itself answered, and its answer was the gold label
    step_count: int = 0
    ended_by: str = ""  # how the run ended: "answer" (the agent answered) or the fallback's reason; "" if unknown

    @property
    def key(self) -> str:
        return episode_key(self.dataset, self.node_id)

    def to_item(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_item(cls, value: dict[str, Any]) -> Episode:
        known = {name: value[name] for name in cls.__dataclass_fields__ if name in value}
        return cls(**known)

    def bonus(self, kind: Bonus) -> float:
        """``T_i`` of this episode (see the module docstring)."""
        if kind == "success":
            return 1.0 if self.success else 0.0
        if kind == "short":
            return 1.0 / max(1, self.step_count)
        return 0.0


def episode_key(dataset: str, node_id: str) -> str:
    return f"{dataset}:{node_id}"


def clip_words(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` words (whitespace normalised)."""
    words = text.split()
    return " ".join(words[:limit]) + (" ..." if len(words) > limit else "")


class ExperienceMemory:
    """Episodes and their cached lessons in one store, under ``namespace``."""

    def __init__(self, store: BaseStore, namespace: Sequence[str] = ("graphagent", "episodes")) -> None:
        self.store = store
        self.namespace = tuple(namespace)
        if not self.namespace:
            raise ValueError("an experience namespace needs at least one part")
        # a sibling, not a child: a search under ``namespace`` must not meet the (unindexed) lessons
        self.lessons_namespace = (f"{self.namespace[0]}_lessons", *self.namespace[1:])

    # -------------------------------------------------------------- episodes
    def add(self, episode: Episode) -> str:
        """Store (or replace) ``episode``; its cached lesson is dropped, since it described the old one."""
        self.store.put(self.namespace, episode.key, episode.to_item())
        self.store.delete(self.lessons_namespace, episode.key)
        return episode.key

    def get(self, key: str) -> Episode | None:
        item = self.store.get(self.namespace, key)
        return Episode.from_item(item.value) if item is not None else None

    def __contains__(self, key: str) -> bool:
        return self.store.get(self.namespace, key) is not None

    def count(self, limit: int = 100_000) -> int:
        return sum(1 for hit in self.store.search(self.namespace, limit=limit) if self._own(hit))

    def _own(self, item: Any) -> bool:
        return tuple(item.namespace) == self.namespace  # not an item of a longer namespace below it

    def search(
        self,
        title: str,
        k: int = 3,
        alpha: float = DEFAULT_ALPHA,
        *,
        bonus: Bonus = "success",
        dataset: str | None = None,
        exclude: Sequence[str] = (),
    ) -> list[tuple[Episode, float]]:
        """The ``k`` episodes with the highest ``cos(E(title_i), E(title)) + T_i / alpha``, best first.

        ``exclude`` holds episode keys never returned (the node being classified:
        its own episode would hand over its gold label). ``dataset`` keeps one
        dataset's episodes. An empty store gives an empty list.
        """
        if k <= 0 or not title.strip():
            return []
        if alpha <= 0:
            raise ValueError(f"alpha must be positive, got {alpha}")
        weight = 0.0 if math.isinf(alpha) else 1.0 / alpha
        hits = self.store.search(self.namespace, query=title, limit=CANDIDATES)
        scored: list[tuple[Episode, float]] = []
        for hit in hits:
            if hit.key in exclude or not self._own(hit):
                continue
            episode = Episode.from_item(hit.value)
            if dataset is not None and episode.dataset != dataset:
                continue
            similarity = float(hit.score) if hit.score is not None else 0.0
            scored.append((episode, similarity + weight * episode.bonus(bonus)))
        scored.sort(key=lambda pair: (-pair[1], pair[0].key))  # ties by key: the same order every run
        return scored[:k]

    # -------------------------------------------------------------- lessons
    def lesson(self, key: str) -> str | None:
        """The cached lesson of episode ``key``, or None when it was never replayed."""
        item = self.store.get(self.lessons_namespace, key)
        return str(item.value.get("lesson", "")) if item is not None else None

    def save_lesson(self, key: str, text: str) -> str:
        """Cache ``text`` (cut to 100 words) as the lesson of episode ``key``; returns what was stored."""
        lesson = clip_words(text, LESSON_WORDS)
        self.store.put(self.lessons_namespace, key, {"lesson": lesson}, index=False)
        return lesson
