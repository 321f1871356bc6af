"""One-time costs are announced before they start, with a rough duration when one was measured."""

from __future__ import annotations

from graphreason.runtime.first_use import announce_first_use, duration
from graphreason.tools.core.retrieval.embedders import embedding_seconds


def test_durations_read_roughly() -> None:
    assert [duration(s) for s in (0.4, 14, 61, 95, 180, 3600)] == [
        "about 5 s", "about 15 s", "about 60 s", "about 2 min", "about 3 min", "about 60 min"]


def test_the_announcement_goes_to_stderr_and_says_what_how_long_and_where(capsys) -> None:
    line = announce_first_use("merging the toolformer adapter into the embedded model", 15, "/c/m")
    assert capsys.readouterr().err.strip() == line == (
        "graphreason: first use: merging the toolformer adapter into the embedded model, about 15 s on 2 CPU "
        "cores; once, then cached in /c/m")
    assert ", about" not in announce_first_use("training the bpr graph model on movielens", None, "/c/g")


def test_embedding_estimates_come_from_the_measured_rate() -> None:
    # per text plus per character read (at most 1,000 of each); the rates are checked against the
    # recorded benchmark in tests/tools/core/retrieval/test_vector_cache.py
    assert embedding_seconds(["x" * 5000] * 2708, "minilm") == 2708 / 1_000 + 2708 * 1000 / 28_000
    assert embedding_seconds(["a title"] * 10, "hash") == 0.0
    assert embedding_seconds(["a title"] * 10, "minilm-static") == 0.0
    assert embedding_seconds(["a title"], "mpnet") is None  # not measured: no number is made up


def test_every_graph_model_has_a_measured_training_time_for_its_announcement() -> None:
    from graphreason.tools.graph_models import hub
    from graphreason.tools.graph_models.base import MEASURED_TRAIN_SECONDS

    pairs = {(domain, dataset) for domain in hub.MODELS for dataset in hub.model_class(domain).datasets}
    assert pairs == set(MEASURED_TRAIN_SECONDS)  # a new model or dataset needs its measurement
    assert all(0 < seconds < 3600 for seconds in MEASURED_TRAIN_SECONDS.values())


def _recorded(name: str) -> dict:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / f"{name}.json"
    return json.loads(path.read_text())["figures"]


def _within_twice(estimate: float, measured: float) -> bool:
    return measured / 2 <= estimate <= measured * 2


def test_every_training_estimate_is_within_twice_what_was_recorded() -> None:
    from graphreason.tools.graph_models.base import MEASURED_TRAIN_SECONDS

    recorded = _recorded("first_use")["train_seconds"]  # benchmarks/first_use.py
    assert {tuple(pair.split("/")) for pair in recorded} == set(MEASURED_TRAIN_SECONDS)
    for (domain, dataset), estimate in MEASURED_TRAIN_SECONDS.items():
        measured = recorded[f"{domain}/{dataset}"]
        assert _within_twice(estimate, measured), (domain, dataset, estimate, measured)


def test_the_conversion_static_table_and_adapter_scale_estimates_are_within_twice_what_was_recorded() -> None:
    from graphreason.llm.engine.local_smollm import CONVERT_ESTIMATE_S, SCALES_ESTIMATE_S
    from graphreason.tools.core.retrieval.static import DISTIL_ESTIMATE_S

    assert _within_twice(DISTIL_ESTIMATE_S, _recorded("first_use")["static_table_seconds"])
    assert _within_twice(CONVERT_ESTIMATE_S, _recorded("first_use")["model_conversion_seconds"])
    # an adapter's first load measures its scales; a later load reads them (benchmarks/bench_adapter_load.py)
    for row in _recorded("adapter_load")["rows"]:
        measured = row["first_load_seconds"] - row["later_load_seconds"]
        assert _within_twice(SCALES_ESTIMATE_S, measured), row
