"""Every rule of GAR's question reader, fed one phrase repeated into a single 20,000-character sentence.

Before the task rules were rewritten, ``subgraph`` or ``weight`` repeated this way made the
rules ``sub-?graph ... present`` and ``weight ... triangle`` backtrack over the whole
sentence from every occurrence (60,000 characters: 13 s). The reading must finish, and
answer as the old rules did on ordinary questions; the time per character at 10k, 100k
and 2M characters is measured by ``benchmarks/bench_gar_parse_linear.py``.
"""

from __future__ import annotations

import pytest

from graphreason.tools.gar.graph_text.parse import parse_graph_problem
from graphreason.tools.gar.graph_text.tasks import detect_task
from tests.tools.gar.graph_text.adversarial import PHRASES, repeated


@pytest.mark.parametrize("phrase", PHRASES)
def test_a_repeated_phrase_is_read_through(phrase: str) -> None:
    text = repeated(phrase, 20_000)
    detect_task(text)  # returns a task or None; what matters is that it returns
    try:
        parse_graph_problem(text)
    except ValueError:
        pass  # not a graph problem: refused with a message, which is the right outcome


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("Is subgraph G' present in graph G? The edges are (0,1).", "substructure"),
        ("Does the sub-graph occur in G?", "substructure"),
        ("Find the triangle with the largest weight sum.", "triangle"),
        ("What is the maximum sum of the weights of a triangle?", "triangle"),
        ("The subgraph has 3 nodes. Which node has the largest degree of 0?", "degree"),  # 'present' absent
        ("The triangle is drawn. The weight of node 1 is 4. What is the degree of node 1?", "degree"),
    ],
)
def test_the_rewritten_rules_keep_their_meaning_within_one_sentence(question: str, task: str) -> None:
    assert detect_task(question) == task
