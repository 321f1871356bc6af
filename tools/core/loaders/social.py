"""Foursquare and Twitter follow graphs (anonymised numeric user ids).

Files (``social-foursquare-twitter/{foursquare,twitter}/following.number``):
one ``follower followee`` pair of numeric ids a line. This is the anonymised
copy of Jiawei Zhang's data shared with IONE (IJCAI 2016): Foursquare has
76,972 follow links among 5,313 users (ids 0-5,312), Twitter 164,919 among
5,120 (ids 0-5,119); anchor users share an id across the two networks. The
edge counts match Graph-ToolFormer's Table 3, but the user names its prompts
use (``user#jrsocialmedia``, ``user#user/36476767``) are not in this copy, so
users can only be named by these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError

if TYPE_CHECKING:  # networkx is imported only when a graph is built
    import networkx as nx

DATASET = "social-foursquare-twitter"
NETWORKS = ("foursquare", "twitter")


@dataclass
class SocialGraph:
    """A follow graph: ``edges[i] = (follower, followee)``, users numbered ``0 .. num_users - 1``."""

    name: str
    edges: np.ndarray
    num_users: int

    def undirected(self) -> nx.Graph:
        """Users joined when either follows the other (what community detection reads)."""
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(range(self.num_users))
        graph.add_edges_from(self.edges.tolist())
        return graph


def load_social(name: str, root: str | Path | None = None) -> SocialGraph:
    """``"foursquare"`` or ``"twitter"``; ``root`` overrides the dataset folder."""
    key = name.strip().lower()
    if key not in NETWORKS:
        raise GraphFileError(f"unknown social network {name!r}; known: {', '.join(NETWORKS)}")
    folder = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    path = folder / key / "following.number"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GraphFileError(f"cannot read {path}: {exc}") from exc
    rows = [line.split() for line in text.splitlines() if line.strip()]
    bad = next(
        (n for n, row in enumerate(rows, 1) if len(row) != 2 or not all(x.isdigit() for x in row)), None
    )
    if bad is not None:
        raise GraphFileError(
            f"{path} row {bad}: expected 'follower followee' as two numeric ids, got {rows[bad - 1]}"
        )
    edges = np.array(rows, dtype=np.int64).reshape(-1, 2)
    num_users = int(edges.max()) + 1 if len(edges) else 0
    return SocialGraph(name=key, edges=edges, num_users=num_users)
