"""GAR's reading of a question within its time budget (parse_seconds), and stopped by a cancel.

Reading is linear (``test_linear_reading.py``; its time at 2M characters is measured by
``benchmarks/bench_gar_parse_linear.py``), yet a long question still costs seconds of a
server's only worker: the readers look at the clock between passes and every few thousand
matches, and stop with a message once the budget is spent.
"""

from __future__ import annotations

import pytest

from graphreason.runtime.cancel import CancelToken, RunCancelled, cancel_scope
from graphreason.tools.gar.graph_text import parse_graph_problem
from graphreason.tools.gar.graph_text.budget import ReadingTooLong, check_reading, reading_time
from graphreason.tools.gar.graph_text.tasks import detect_task

# 360k characters: one edge written 60,000 times, then a path to node 7 and the question
LONG = "The edges are: " + "(0,1) " * 60_000 + "(1,2) (2,3) (3,4) (4,5) (5,6) (6,7). Is there a path from node 0 to node 7?"


def test_a_question_that_outlasts_its_budget_is_stopped_with_a_message() -> None:
    with reading_time(1e-6), pytest.raises(ReadingTooLong, match=r"more than its 1e-06 s \(parse_seconds\)"):
        parse_graph_problem(LONG)
    with reading_time(1e-6), pytest.raises(ReadingTooLong):
        detect_task(LONG)


def test_without_a_budget_or_within_it_the_question_is_read() -> None:
    assert parse_graph_problem(LONG).n_nodes == 8
    with reading_time(600.0):
        assert parse_graph_problem(LONG).params == {"source": 0, "target": 7}
        assert detect_task(LONG) == "connectivity"


def test_the_budget_holds_only_inside_its_block() -> None:
    with reading_time(1e-6):
        with reading_time(None):
            check_reading()  # an inner block without a limit
        with pytest.raises(ReadingTooLong):
            check_reading()
    check_reading()
    with pytest.raises(ValueError, match="parse_seconds must be positive"):
        with reading_time(0):
            pass


def test_a_cancelled_run_stops_reading() -> None:
    token = CancelToken()
    token.cancel("the client cancelled")
    with cancel_scope(token), pytest.raises(RunCancelled, match="the client cancelled"):
        parse_graph_problem(LONG)
