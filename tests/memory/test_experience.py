"""GraphAgent's long-term memory: ranking by sim + T_i/alpha, lesson cache, SQLite persistence, budget reducer."""

from __future__ import annotations

import math

import pytest

from graphreason.memory.experience import Episode, ExperienceMemory, episode_key
from graphreason.memory.longterm import make_store
from graphreason.memory.summaries import bounded_summaries
from graphreason.tools.core.retrieval.embedders import HashEmbedder

NS = ("graphagent", "cora")


def episode(node: str, title: str, success: bool, steps: int = 3) -> Episode:
    return Episode(node_id=node, dataset="cora", title=title, predicted="A", gold="A" if success else "B",
                   success=success, step_count=steps, steps=[{"command": "get_features"}] * steps)


def filled(path=None) -> ExperienceMemory:
    memory = ExperienceMemory(make_store(HashEmbedder(), fields=("title",), path=path), NS)
    memory.add(episode("1", "neural networks for image recognition", success=False, steps=6))
    memory.add(episode("2", "neural network image classifiers", success=True, steps=2))
    memory.add(episode("3", "reinforcement learning of robot control", success=True, steps=4))
    return memory


def test_ranking_is_similarity_plus_bonus_over_alpha() -> None:
    memory = filled()
    query = "neural networks for image recognition"
    plain = memory.search(query, k=3, alpha=math.inf)
    assert [e.node_id for e, _ in plain][:2] == ["1", "2"]  # similarity alone: the exact title first
    similarity = {e.node_id: s for e, s in plain}
    boosted = memory.search(query, k=3, alpha=0.5, bonus="success")  # success adds 2.0: it wins
    assert [e.node_id for e, _ in boosted][0] == "2"
    assert dict((e.node_id, s) for e, s in boosted)["2"] == pytest.approx(similarity["2"] + 2.0)
    short = memory.search(query, k=3, alpha=1.0, bonus="short")
    assert dict((e.node_id, s) for e, s in short)["1"] == pytest.approx(similarity["1"] + 1 / 6)
    assert [e.node_id for e, _ in memory.search(query, k=1, exclude=[episode_key("cora", "1")], alpha=math.inf)] == ["2"]
    with pytest.raises(ValueError, match="alpha"):
        memory.search(query, alpha=0)


def test_empty_store_gives_nothing() -> None:
    memory = ExperienceMemory(make_store(HashEmbedder(), fields=("title",)), NS)
    assert memory.search("anything", k=3) == [] and memory.count() == 0 and memory.lesson("cora:1") is None


def test_lessons_are_cached_cut_to_100_words_and_dropped_when_the_episode_changes() -> None:
    memory = filled()
    stored = memory.save_lesson("cora:2", "word " * 150)
    assert len(stored.split()) == 101 and stored.endswith("...")  # 100 words and the cut mark
    assert memory.lesson("cora:2") == stored
    assert memory.count() == 3  # lessons are not episodes, and never come back from a search
    assert all(e.node_id != "" for e, _ in memory.search("word", k=10))
    memory.add(episode("2", "neural network image classifiers", success=False))
    assert memory.lesson("cora:2") is None


def test_sqlite_store_persists_across_store_objects(tmp_path) -> None:
    path = tmp_path / "deep" / "experience.db"
    first = filled(path)
    first.save_lesson("cora:3", "Read the neighbours first.")
    again = ExperienceMemory(make_store(HashEmbedder(), fields=("title",), path=path), NS)
    assert again.count() == 3 and again.lesson("cora:3") == "Read the neighbours first."
    assert again.get("cora:2").success is True
    in_memory = {e.node_id: s for e, s in filled().search("robot control", k=3, alpha=math.inf)}
    on_disk = {e.node_id: s for e, s in again.search("robot control", k=3, alpha=math.inf)}
    assert on_disk == pytest.approx(in_memory, abs=1e-5)  # same index, same cosine scores


def test_a_file_that_is_no_database_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "not.db"
    bad.write_text("hello, I am not SQLite" * 100)
    with pytest.raises(ValueError, match="not a usable SQLite"):
        make_store(HashEmbedder(), fields=("title",), path=bad)


def test_short_term_reducer_keeps_the_word_budget() -> None:
    memory = bounded_summaries([], {"reset": ["first " * 10], "max_words": 50})
    for _ in range(10):
        memory = bounded_summaries(memory, {"add": ["more " * 20], "max_words": 50})
    assert sum(len(s.split()) for s in memory) <= 50 and len(memory) == 2
    huge = bounded_summaries(memory, {"add": ["x " * 500], "max_words": 50})
    assert huge == [" ".join(["x"] * 50)]
    assert bounded_summaries(["a"], ["b"]) == ["a", "b"]  # a plain list: the paper's 4,000 words
    assert bounded_summaries(["old"], {"reset": [], "max_words": 50}) == []
