"""TransE on WordNet (WN18) and Freebase (FB15k): Graph-ToolFormer's ``transe:*`` functions.

``head_entity(relation, tail)``, ``tail_entity(head, relation)`` and
``relation(head, tail)`` return the highest-scoring candidate in the prompts'
vocabulary: WordNet synset names (``make.v.03``), Freebase mids
(``/m/034rd9``) and relation names (``_hyponym``,
``/award/award_nominee/award_nominations./award/award_nomination/award_nominee``);
the ``*_topk`` variants return the best ``k`` with their scores. Arguments
may carry the prompts' ``entity#`` / ``relation#`` prefixes.

The model is :class:`torch_geometric.nn.kge.TransE` (score
``-||e_h + e_r - e_t||_2`` over unit-length entity vectors). Its own
``loss()`` draws one uniform negative per positive: on WN18 an epoch is
cheap but filtered MRR was still 0.03 after 10
epochs, and it needs hundreds, too many for a budget of minutes. Training
therefore scores each positive against ``negatives`` entities shared by the
batch (one distance matrix), corrupting the head and the tail, with a
softmax cross-entropy over ``[positive, negatives]`` (``temperature`` scales
the scores): the same model and score, many more negatives per step. On
WN18 this reached filtered MRR 0.46 in 15 epochs (learning rate 0.03).

Metrics (:meth:`TransEModel.fit`) are filtered MRR and Hits@1/10 on the test
split (tail and head prediction, every other known triple removed from the
ranking), on a seeded sample of ``eval_limit`` test triples. What Freebase
trains on is described in :mod:`graphreason.tools.core.loaders.knowledge_graph`: FB15k's own
training split is not in the data root, so some entities and relations have
no training triple; asked about those, the model refuses instead of
answering from an untrained vector.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from graphreason.tools.core.loaders.knowledge_graph import KnowledgeGraph, load_knowledge_graph
from graphreason.tools.graph_models.base import GraphModel, GraphModelError, progress_bar

if TYPE_CHECKING:
    import torch

_PREFIXES = {"entity": ("entity#", "entity:", "#"), "relation": ("relation#", "relation:", "#")}
EXAMPLES = {  # shown in error messages: real ids of each dataset
    "wordnet": ("state.v.01", "_hypernym"),
    "freebase": ("/m/027rn", "/people/person/nationality"),
}


class TransEModel(GraphModel):
    """TransE link prediction on one knowledge graph (see the module docstring)."""

    domain = "transe"
    datasets = ("wordnet", "freebase")
    version = 1
    split = "test split (WN18 test; FB15k test), filtered ranking, tail and head prediction"

    def __init__(
        self,
        dataset: str,
        *,
        seed: int = 0,
        dim: int = 50,
        epochs: int = 15,
        batch_size: int = 2000,
        lr: float = 0.03,
        negatives: int = 256,
        temperature: float = 10.0,
        eval_limit: int = 5000,
        graph: KnowledgeGraph | None = None,
    ) -> None:
        super().__init__(dataset, seed=seed)
        self.dim, self.epochs, self.batch_size, self.lr = dim, epochs, batch_size, lr
        self.negatives, self.temperature, self.eval_limit = negatives, temperature, eval_limit
        self._graph = graph  # a graph given here (tests, a subset) replaces the dataset's
        self._given = graph  # kept apart: self._graph also caches the dataset once loaded
        self.module: Any = None
        self.entities: list[str] = []
        self.relations: list[str] = []
        self.aliases: dict[str, int] = {}
        self.trained_entities = np.zeros(0, dtype=bool)
        self.trained_relations = np.zeros(0, dtype=bool)
        self._index: dict[str, dict[str, int]] = {}
        self._unit: Any = None  # unit-length entity vectors, computed once per loaded model

    # ------------------------------------------------------------------ contract
    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dim": self.dim,
            "epochs": self.epochs,
            "batch_size": self.batch_size,
            "lr": self.lr,
            "negatives": self.negatives,
            "temperature": self.temperature,
            "eval_limit": self.eval_limit,
        }
        if self._given is not None:  # a given graph must not share the dataset's cache entry
            digest = hashlib.sha256(self._given.train.tobytes() + self._given.test.tobytes())
            out["graph"] = digest.hexdigest()[:12]
        return out

    def graph(self) -> KnowledgeGraph:
        if self._graph is None:
            self._graph = load_knowledge_graph(self.dataset)
        return self._graph

    def fit(self, progress: bool) -> dict[str, float]:
        import torch
        from torch_geometric.nn.kge import TransE

        kg = self.graph()
        self._adopt_names(kg)
        self.module = TransE(kg.num_entities, kg.num_relations, self.dim, p_norm=2.0)
        optimizer = torch.optim.Adam(self.module.parameters(), lr=self.lr)
        train = torch.from_numpy(kg.train)
        loader = self.module.loader(
            train[:, 0], train[:, 1], train[:, 2], batch_size=self.batch_size, shuffle=True
        )
        self.module.train()
        bar = progress_bar(range(self.epochs), enabled=progress, desc=f"TransE {self.dataset}", unit="epoch")
        for _ in bar:
            total = 0.0
            for head, rel, tail in loader:
                optimizer.zero_grad()
                loss = self._loss(head, rel, tail)
                loss.backward()
                optimizer.step()
                total += float(loss.detach()) * len(head)
            bar.set_postfix(loss=round(total / len(train), 4))
        self.module.eval()
        self._unit = None
        return self.evaluate(kg, limit=self.eval_limit)

    def state(self) -> dict[str, Any]:
        import torch

        if self.module is None:
            raise GraphModelError("The TransE model is not trained yet; call ensure() first.")
        return {
            "node_emb": self.module.node_emb.weight.detach().clone(),
            "rel_emb": self.module.rel_emb.weight.detach().clone(),
            "entities": self.entities,
            "relations": self.relations,
            "aliases": self.aliases,
            "trained_entities": torch.from_numpy(self.trained_entities),
            "trained_relations": torch.from_numpy(self.trained_relations),
        }

    def load_state(self, state: dict[str, Any]) -> None:
        import torch
        from torch_geometric.nn.kge import TransE

        nodes, rels = state["node_emb"], state["rel_emb"]
        self.module = TransE(nodes.shape[0], rels.shape[0], nodes.shape[1], p_norm=2.0)
        with torch.no_grad():
            self.module.node_emb.weight.copy_(nodes)
            self.module.rel_emb.weight.copy_(rels)
        self.module.eval()
        self.entities, self.relations, self.aliases = state["entities"], state["relations"], state["aliases"]
        self.trained_entities = state["trained_entities"].numpy().astype(bool)
        self.trained_relations = state["trained_relations"].numpy().astype(bool)
        self._build_index()
        self._unit = None

    # ------------------------------------------------------------------ the paper's functions
    def tail_entity(self, head: str, relation: str) -> str:
        """The entity ``t`` that best completes ``(head, relation, t)``."""
        return self.tail_entity_topk(head, relation, 1)[0][0]

    def head_entity(self, relation: str, tail: str) -> str:
        """The entity ``h`` that best completes ``(h, relation, tail)``."""
        return self.head_entity_topk(relation, tail, 1)[0][0]

    def relation(self, head: str, tail: str) -> str:
        """The relation ``r`` that best links ``(head, r, tail)``."""
        return self.relation_topk(head, tail, 1)[0][0]

    def tail_entity_topk(self, head: str, relation: str, k: int = 10) -> list[tuple[str, float]]:
        """The ``k`` best tails with their scores (higher is better; the score is minus a distance)."""
        h, r = self._entity(head), self._relation(relation)
        query = self._unit_vectors()[h] + self._relation_vectors()[r]
        return self._rank_entities(query, k, exclude=h)

    def head_entity_topk(self, relation: str, tail: str, k: int = 10) -> list[tuple[str, float]]:
        r, t = self._relation(relation), self._entity(tail)
        query = self._unit_vectors()[t] - self._relation_vectors()[r]
        return self._rank_entities(query, k, exclude=t)

    def relation_topk(self, head: str, tail: str, k: int = 10) -> list[tuple[str, float]]:
        import torch

        unit = self._unit_vectors()
        h, t = self._entity(head), self._entity(tail)
        scores = -(unit[h] + self._relation_vectors() - unit[t]).norm(dim=-1)
        scores[torch.from_numpy(~self.trained_relations)] = -float("inf")
        return self._top(scores, k, self.relations)

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, kg: KnowledgeGraph, *, limit: int = 0, split: str = "test") -> dict[str, float]:
        """Filtered MRR and Hits@1/10 (tail, head and both) on ``split``, ``limit`` triples at most."""
        import torch

        triples = getattr(kg, split)
        if limit and len(triples) > limit:
            pick = np.random.default_rng(self.seed).choice(len(triples), size=limit, replace=False)
            triples = triples[np.sort(pick)]
        tails, heads = _known_answers(kg.all_triples())
        unit, rel = self._unit_vectors(), self._relation_vectors()
        ranks: dict[str, list[np.ndarray]] = {"tail": [], "head": []}
        with torch.no_grad():
            for start in range(0, len(triples), 256):
                batch = triples[start : start + 256]
                h, r, t = (torch.from_numpy(batch[:, i]) for i in range(3))
                for side, query, gold, known in (
                    ("tail", unit[h] + rel[r], t, [tails[(a, b)] for a, b in batch[:, :2].tolist()]),
                    ("head", unit[t] - rel[r], h, [heads[(b, c)] for b, c in batch[:, 1:].tolist()]),
                ):
                    scores = -torch.cdist(query, unit)
                    ranks[side].append(_filtered_ranks(scores, gold, known))
        metrics: dict[str, float] = {"test_triples": float(len(triples))}
        both = []
        for side in ("tail", "head"):
            values = np.concatenate(ranks[side]) if ranks[side] else np.zeros(0)
            both.append(values)
            metrics.update(_rank_metrics(values, side + "_"))
        metrics.update(_rank_metrics(np.concatenate(both), ""))
        seen = self.trained_entities[triples[:, 0]] & self.trained_entities[triples[:, 2]]
        metrics["test_share_seen_in_train"] = round(
            float((seen & self.trained_relations[triples[:, 1]]).mean()), 4
        )
        return metrics

    # ------------------------------------------------------------------ helpers
    def _loss(self, head: torch.Tensor, rel: torch.Tensor, tail: torch.Tensor) -> torch.Tensor:
        """Softmax cross-entropy of each positive against shared corrupted heads and tails."""
        import torch
        import torch.nn.functional as F

        weights = self.module.node_emb.weight
        negatives = F.normalize(weights[torch.randint(len(weights), (self.negatives,))], dim=-1)
        h, t = F.normalize(weights[head], dim=-1), F.normalize(weights[tail], dim=-1)
        r = self.module.rel_emb(rel)
        positive = self.module(head, rel, tail)[:, None]
        target = torch.zeros(len(head), dtype=torch.long)
        loss = 0.0
        for query in (h + r, t - r):  # corrupt the tail, then the head
            logits = torch.cat([positive, -torch.cdist(query, negatives)], dim=1) * self.temperature
            loss = loss + F.cross_entropy(logits, target)
        return loss

    def _adopt_names(self, kg: KnowledgeGraph) -> None:
        self.entities, self.relations, self.aliases = list(kg.entities), list(kg.relations), dict(kg.aliases)
        self.trained_entities = np.zeros(kg.num_entities, dtype=bool)
        self.trained_entities[kg.train[:, [0, 2]].ravel()] = True
        self.trained_relations = np.zeros(kg.num_relations, dtype=bool)
        self.trained_relations[kg.train[:, 1]] = True
        self._build_index()

    def _build_index(self) -> None:
        self._index = {
            "entity": {name: i for i, name in enumerate(self.entities)},
            "relation": {name: i for i, name in enumerate(self.relations)},
        }

    def _ready(self) -> None:
        if self.module is None:
            self.ensure()

    def _unit_vectors(self) -> torch.Tensor:
        import torch.nn.functional as F

        self._ready()
        if self._unit is None:
            self._unit = F.normalize(self.module.node_emb.weight.detach(), dim=-1)
        return self._unit

    def _relation_vectors(self) -> torch.Tensor:
        self._ready()
        return self.module.rel_emb.weight.detach()

    def _entity(self, text: str) -> int:
        self._ready()
        name = _strip(text, "entity")
        found = self._index["entity"].get(name)
        if found is None:
            found = self.aliases.get(name)
        entity_example = EXAMPLES.get(self.dataset, ("", ""))[0]
        if found is None:
            hint = ""
            if self.dataset == "wordnet" and name and "." not in name:
                senses = sorted(e for e in self.entities if e.startswith(name + "."))[:8]
                hint = f" Synsets of {name!r}: {', '.join(senses)}." if senses else ""
            kind = "WN18 synset names" if self.dataset == "wordnet" else "FB15k mids"
            raise GraphModelError(
                f"Unknown {self.dataset} entity {text!r}. Entities are {kind} such as "
                f"'entity#{entity_example}' ({len(self.entities):,} in all).{hint}"
            )
        if not self.trained_entities[found]:
            raise GraphModelError(
                f"The {self.dataset} entity {name!r} is in the dataset but in no training triple, so the "
                f"model has learnt nothing about it{self._why_untrained()}."
            )
        return found

    def _relation(self, text: str) -> int:
        self._ready()
        name = _strip(text, "relation")
        found = self._index["relation"].get(name)
        if found is None:
            if len(self.relations) <= 30:
                valid = ", ".join(self.relations)
            else:
                valid = f"FB15k relation paths such as '{EXAMPLES['freebase'][1]}', {len(self.relations):,} in all"
            raise GraphModelError(f"Unknown {self.dataset} relation {text!r}; valid relations: {valid}.")
        if not self.trained_relations[found]:
            raise GraphModelError(
                f"The {self.dataset} relation {name!r} is in no training triple, so the model has learnt "
                f"nothing about it{self._why_untrained()}."
            )
        return found

    def _why_untrained(self) -> str:
        if self.dataset == "freebase":
            return " (FB15k's own training split is not in the data root; see graphreason.tools.core.loaders.knowledge_graph)"
        return ""

    def _rank_entities(self, query: torch.Tensor, k: int, exclude: int) -> list[tuple[str, float]]:
        import torch

        scores = -(self._unit_vectors() - query).norm(dim=-1)
        # untrained entities would be ranked by random vectors; the query's own entity is
        # excluded because a translation close to zero would otherwise return it
        scores[torch.from_numpy(~self.trained_entities)] = -float("inf")
        scores[exclude] = -float("inf")
        return self._top(scores, k, self.entities)

    @staticmethod
    def _top(scores: torch.Tensor, k: int, names: list[str]) -> list[tuple[str, float]]:
        import torch

        if k < 1:
            raise GraphModelError(f"k must be at least 1, got {k}.")
        finite = int(torch.isfinite(scores).sum())
        values, order = scores.topk(min(k, finite))
        return [(names[i], round(float(v), 4)) for i, v in zip(order.tolist(), values.tolist(), strict=True)]


def _strip(text: str, kind: str) -> str:
    """``entity#state.v.01`` / ``"relation:_hypernym"`` -> the bare name."""
    value = str(text).strip().strip("\"'").strip()
    low = value.lower()
    for prefix in _PREFIXES[kind]:
        if low.startswith(prefix):
            return value[len(prefix) :].strip()
    return value


def _known_answers(
    triples: np.ndarray,
) -> tuple[dict[tuple[int, int], list[int]], dict[tuple[int, int], list[int]]]:
    """Every known tail of each (head, relation) and head of each (relation, tail)."""
    tails: dict[tuple[int, int], list[int]] = defaultdict(list)
    heads: dict[tuple[int, int], list[int]] = defaultdict(list)
    for h, r, t in triples.tolist():
        tails[(h, r)].append(t)
        heads[(r, t)].append(h)
    return tails, heads


def _filtered_ranks(scores: torch.Tensor, gold: torch.Tensor, known: list[list[int]]) -> np.ndarray:
    """1-based rank of each gold among candidates that are not other known answers.

    Ties count half, so an untrained model whose scores are all equal ranks
    in the middle rather than first.
    """
    import torch

    rows = torch.arange(len(gold))
    gold_scores = scores[rows, gold].clone()
    for i, answers in enumerate(known):
        scores[i, answers] = -float("inf")  # the gold is among them; its score was kept above
    better = (scores > gold_scores[:, None]).sum(dim=1)
    ties = (scores == gold_scores[:, None]).sum(dim=1)
    return (1 + better + ties / 2).double().numpy()


def _rank_metrics(ranks: np.ndarray, prefix: str) -> dict[str, float]:
    if not len(ranks):
        return {}
    return {
        f"{prefix}mrr": round(float((1.0 / ranks).mean()), 4),
        f"{prefix}hits@1": round(float((ranks <= 1).mean()), 4),
        f"{prefix}hits@10": round(float((ranks <= 10).mean()), 4),
        f"{prefix}mean_rank": round(float(ranks.mean()), 1),
    }
