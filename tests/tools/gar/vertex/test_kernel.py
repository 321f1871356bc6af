"""The kernel form of a vertex program: declared parts are checked, and every kernel runs on numpy as before."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graphreason.tools.gar.vertex import ALGORITHMS, VertexGraph, run
from graphreason.tools.gar.vertex.kernel import NUMPY_OPS, KernelAlgorithm, fold_totals


def test_a_kernel_must_declare_valid_fields_and_mail() -> None:
    with pytest.raises(TypeError, match="bad field"):
        type("Bad", (KernelAlgorithm,), {"fields": {"x": "complex"}})
    with pytest.raises(TypeError, match="bad field"):
        type("Shadow", (KernelAlgorithm,), {"fields": {"id": "int"}})  # a graph fact's name
    with pytest.raises(TypeError, match="reduced by one of"):
        type("Mail", (KernelAlgorithm,), {"fields": {"x": "int"}, "mail": {"x": "median"}})


def test_the_library_algorithms_that_are_vertex_programs_are_kernels() -> None:
    kernels = {name for name, a in ALGORITHMS.items() if isinstance(a, KernelAlgorithm)}
    assert kernels == set(ALGORITHMS) - {"max_flow"}  # its per-arc residual state is not a node field


def test_max_aggregates_stay_up_and_others_are_per_round() -> None:
    totals = fold_totals({}, {"hit": 1, "change": 5.0}, {"hit": "max", "change": "sum"})
    totals = fold_totals(totals, {"hit": 0, "change": 1.0}, {"hit": "max", "change": "sum"})
    assert totals == {"hit": 1, "change": 1.0}


class Hops(KernelAlgorithm):
    """A minimal kernel written only with the shared operators: hops from node 0, min-combined."""

    name = "hops_test"
    description = "test"
    six_parts = dict.fromkeys(("State", "Message", "Initialization", "Send", "Update", "Termination"), "-")
    fields = {"hops": "int"}
    mail = {"hops": "min"}

    def initial(self, x: Any, node: Any, params: dict, glob: Any) -> dict:
        return {"hops": x.where(node["id"] == 0, 0, 10**9)}

    def first_active(self, x: Any, node: Any, params: dict, glob: Any) -> Any:
        return node["id"] == 0

    def messages(self, x: Any, src: Any, weight: Any, params: dict) -> dict:
        return {"hops": src["hops"] + 1}

    def send_if(self, x: Any, src: Any, dst: Any, mail: Any, params: dict) -> Any:
        return mail["hops"] < dst["hops"]

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict, glob: Any) -> tuple[dict, Any]:
        better = mail["hops"] < me["hops"]
        return {"hops": x.where(better, mail["hops"], me["hops"])}, better

    def result(self, graph: Any, state: Any, params: dict) -> dict:
        return {"answer": state["hops"].tolist(), "text": "hops"}


def test_a_new_kernel_runs_on_the_compiled_engine() -> None:
    graph = VertexGraph.from_edges(5, [(0, 1), (1, 2), (2, 3), (0, 3)], directed=False)
    result = run(Hops(), graph)
    assert result.answer == [0, 1, 2, 1, 10**9]
    assert result.stop_reason in ("no_change", "no_active")
    assert NUMPY_OPS.where(np.array([True, False]), 1, 2).tolist() == [1, 2]
