"""The report plots can be read at a glance: 0 and "not applicable" never look alike, time axes have ticks."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from graphreason.evals import report as page  # noqa: E402
from graphreason.evals.gar import report as gar_report  # noqa: E402
from graphreason.evals.graphagent import report as graphagent_report  # noqa: E402
from graphreason.evals.toolformer import report as toolformer_report  # noqa: E402


def test_a_zero_bar_and_a_missing_value_are_labelled_apart() -> None:
    fig, ax = plt.subplots()
    page.labelled_bars(ax, [0, 1, 2], [0.0, None, 42.0], 0.4)
    labels = [text.get_text() for text in ax.texts]
    heights = [patch.get_height() for patch in ax.patches]
    plt.close(fig)
    assert labels == ["0", "n/a", "42"] and heights == [0.0, 0.0, 42.0]


@pytest.fixture()
def drawn(monkeypatch) -> list[list[float | None]]:
    """The values every plot hands to labelled_bars (the drawing itself is tested above)."""
    calls: list[list[float | None]] = []
    real = page.labelled_bars

    def spy(ax, xs, values, width, digits=0, **style):
        calls.append(list(values))
        real(ax, xs, values, width, digits, **style)

    monkeypatch.setattr(page, "labelled_bars", spy)
    return calls


def test_graphagent_plot_keeps_a_variant_without_a_score_apart_from_zero(drawn, tmp_path) -> None:
    summary = {"title": "t", "variants": {"faithful": {"accuracy": 0.0, "macro_f1": 0.0, "llm_calls": 3.0},
                                          "graph_model": {"accuracy": 84.3, "macro_f1": None, "llm_calls": 0.0}}}
    graphagent_report.plot([], summary, tmp_path / "accuracy.png")
    assert drawn == [[0.0, 84.3], [0.0, None], [3.0, 0.0]]
    assert (tmp_path / "accuracy.png").stat().st_size > 0


def test_toolformer_plot_shows_an_execution_score_that_was_not_measured_as_na(drawn, tmp_path) -> None:
    summary = {"title": "t", "by_dataset": {"gold": {"gpr": {"api_gen_acc": 100.0, "exec_acc": None},
                                                      "cora": {"api_gen_acc": 0.0, "exec_acc": 0.0}}}}
    toolformer_report.plot([], summary, tmp_path / "scores.png")
    assert drawn == [[100.0, 0.0], [None, 0.0]]


@pytest.mark.parametrize(("seconds", "scale"), [([0.012, 0.016, 0.03], "linear"), ([0.01, 0.5, 40.0], "log")])
def test_the_gar_time_axis_has_several_labelled_ticks(seconds, scale) -> None:
    fig, ax = plt.subplots()
    ax.plot([5, 10, 20], seconds)
    gar_report._seconds_axis(ax, seconds)
    fig.canvas.draw()
    low, high = ax.get_ylim()
    shown = [t for t in ax.get_yticks() if low <= t <= high]
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    plt.close(fig)
    assert ax.get_yscale() == scale and len(shown) >= 3 and len(labels) >= 3
