"""A GAR problem whose graph is an edge dataset on Spark (the workflow's ``dataset`` setting).

The workflow reads a :class:`~graphreason.tools.gar.graph_text.ParsedProblem`:
node count, direction, weights, labels, parameters. :class:`DatasetProblem`
answers the same questions from a :class:`SparkEdgeGraph` without bringing its
arcs to the driver. Node ids inside the workflow are the dense ids (0..n-1 in
sorted dataset-id order, as on both engines); labels are the dataset's ids.

The question's parameters are read as for a graph in memory ("from node 4 to
node 17"); with string ids, only the question's own words that are node ids of
the dataset are declared as names (one small job), so ``from alice to dave``
resolves without listing the dataset's nodes.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from graphreason.tools.gar.graph_text import GraphTextError
from graphreason.tools.gar.graph_text.nodes import NodeSpace
from graphreason.tools.gar.graph_text.params import extract_params
from graphreason.tools.gar.spark.edges import SparkEdgeGraph
from graphreason.tools.gar.vertex.graph import VertexProgramError

NODE_PARAMS = ("source", "target", "start", "node")
_MAX_WORDS = 500  # question words looked up as node ids


@dataclass
class DatasetProblem:
    """What the workflow reads of a parsed problem, for an edge dataset held by Spark."""

    graph: SparkEdgeGraph
    params: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    unparsed: list[str] = field(default_factory=list)
    node_weights: dict[int, float] = field(default_factory=dict)  # an edge dataset has none
    node_names: None = None  # answers come back in dataset ids already (see run_spark)
    stated_n_nodes: int | None = None

    @property
    def n_nodes(self) -> int:
        return self.graph.num_nodes

    @property
    def directed(self) -> bool:
        return self.graph.directed

    @property
    def weighted(self) -> bool:
        return self.graph.weighted

    def label(self, node: int) -> str:
        return str(self.graph.label_of(node))

    def node_id(self, label: Any) -> int:
        """The dense id of dataset id ``label`` (a GraphTextError when the dataset has no such node)."""
        try:
            return self.graph.index_of(label)
        except VertexProgramError as exc:
            raise GraphTextError(str(exc)) from None

    @property
    def name(self) -> str:
        """The dataset's last path part: what a run shows of where it lives (the owner's paths stay private)."""
        return os.path.basename(self.graph.path.rstrip("/")) or self.graph.path

    def describe(self) -> str:
        kind = ("directed" if self.directed else "undirected") + (" weighted" if self.weighted else "")
        text = f"{kind} edge dataset {self.name} on Spark: {self.n_nodes} nodes, {self.graph.num_arcs} arcs"
        if self.params:
            text += "; " + ", ".join(
                f"{k}={self.label(v) if k in NODE_PARAMS else v}" for k, v in self.params.items()
            )
        return text

    def stand_in(self) -> Any:
        """What an algorithm's ``prepare`` reads, for checking the chosen parameters (dense ids) without the arcs."""
        from graphreason.tools.gar.spark.pregel import stand_in

        return stand_in(self.graph)

    def to_networkx(self) -> Any:
        raise VertexProgramError(
            f"the edge dataset {self.graph.path} is on Spark: exact searches (Hamiltonian path, substructure) "
            "need the whole graph in one process; give it as a graph file instead (--graph-file)"
        )

    def dataset_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """``params`` with node parameters as dataset ids (what the Spark executor reads)."""
        return {k: (self.graph.label_of(v) if k in NODE_PARAMS and isinstance(v, int) else v) for k, v in params.items()}


def dataset_problem(graph: SparkEdgeGraph, question: str) -> DatasetProblem:
    """The problem of ``question`` about ``graph``, with the parameters the question names."""
    space = NodeSpace()
    if graph.label_type == "string":
        words = sorted(set(re.findall(r"[^\s,;:!?()\"']+", question)))[:_MAX_WORDS]
        words = sorted({w.rstrip(".") for w in words} | set(words))
        found = graph.labels_among(words)
        if found:
            space.declare_list(found)
    found_params, warnings = extract_params(question, space)
    params: dict[str, Any] = {}
    for key, value in found_params.items():
        if key not in NODE_PARAMS:
            params[key] = value
            continue
        label = space.names[value] if space.names is not None else value
        try:
            params[key] = graph.index_of(label, key)
        except VertexProgramError as exc:
            warnings.append(f"the question's {key} {label!r}: {exc}")
    return DatasetProblem(graph, params, warnings)
