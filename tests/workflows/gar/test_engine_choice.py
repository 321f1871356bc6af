"""Which executor runs a library algorithm in the GAR workflow (no Spark needed to decide)."""

from __future__ import annotations

import pytest

from graphreason.workflows.gar.context import ENGINES, GARContext
from graphreason.workflows.gar.execute import engine_for, spark_settings


def test_spark_is_used_only_when_asked_and_only_for_vertex_programs() -> None:
    assert ENGINES == ("auto", "compiled", "spark")
    assert engine_for("shortest_path", GARContext()) == ("compiled", "")
    assert engine_for("shortest_path", GARContext(engine="compiled")) == ("compiled", "")
    assert engine_for("pagerank", GARContext(engine="spark")) == ("spark", "")
    assert engine_for("max_triangle_sum", GARContext(engine="spark")) == ("spark", "")
    assert engine_for("max_flow", GARContext(engine="spark")) == ("spark", "")  # per-arc state: its own superstep
    assert engine_for("max_flow", GARContext(edge_dataset="/data/pipes.parquet")) == ("spark", "")


def test_spark_settings_come_from_the_context() -> None:
    assert spark_settings(GARContext()).master == "local[*]"
    settings = spark_settings(GARContext(spark_master="local[2]", spark_conf="spark.executor.memory=2g"))
    assert (settings.master, settings.conf) == ("local[2]", {"spark.executor.memory": "2g"})
    with pytest.raises(ValueError, match="spark.\\* keys"):
        spark_settings(GARContext(spark_conf="executor.memory=2g"))
    with pytest.raises(ValueError, match="key=value"):
        spark_settings(GARContext(spark_conf="spark.executor.memory"))


def test_an_algorithm_spark_cannot_run_falls_back_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every library algorithm runs on Spark today; one that did not would run compiled, and the trace says why."""
    import graphreason.tools.gar.spark.pregel as pregel

    monkeypatch.setattr(pregel, "spark_support", lambda algorithm: f"{algorithm.name} is numpy-only")
    engine, why = engine_for("degree", GARContext(engine="spark"))
    assert engine == "compiled" and why.startswith("degree runs on one machine only")
