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
