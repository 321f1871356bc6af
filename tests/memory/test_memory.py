"""Memory layer: semantic long-term store, summary buffer budget, working-memory FIFO."""

from __future__ import annotations

from graphreason.memory.longterm import make_store
from graphreason.memory.summaries import SummaryBuffer
from graphreason.memory.working import WorkingMemory
from graphreason.tools.core.retrieval.embedders import HashEmbedder


def test_longterm_store_finds_the_most_similar_item():
    store = make_store(HashEmbedder())
    ns = ("episodes", "cora")
    store.put(ns, "e1", {"text": "neural network paper on image recognition", "label": "Neural_Networks"})
    store.put(
        ns, "e2", {"text": "reinforcement learning agent plays games", "label": "Reinforcement_Learning"}
    )
    hits = store.search(ns, query="a neural network for image recognition", limit=1)
    assert [h.key for h in hits] == ["e1"] and hits[0].score is not None


def test_summary_buffer_drops_oldest_over_budget():
    buf = SummaryBuffer(max_words=6)
    for text in ("one two three", "four five six", "seven eight"):
        buf.add(text)
    assert buf.items == ["four five six", "seven eight"] and buf.word_count() == 5
    replace = SummaryBuffer(policy="replace")
    replace.add("a")
    replace.add("b")
    assert replace.render() == "- b"


def test_working_memory_is_fifo_with_hit_counts():
    wm = WorkingMemory(capacity=2)
    wm.put("GR(a)", 1)
    wm.put("GR(b)", 2)
    wm.put("GR(c)", 3)
    assert "GR(a)" not in wm and len(wm) == 2
    assert wm.get("GR(b)") == 2 and wm.get("GR(a)", "none") == "none"
    assert (wm.hits, wm.misses) == (1, 1)
