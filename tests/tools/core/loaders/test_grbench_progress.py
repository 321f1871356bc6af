"""Loading a graph.json says what it is doing on stderr (large files by default), and keeps the data."""

from __future__ import annotations

import json
from pathlib import Path

from graphreason.tools.core.loaders import grbench
from graphreason.tools.core.loaders.grbench import load_graph_json


def _write(tmp_path: Path, n: int) -> Path:
    papers = {
        str(i): {
            "features": {"title": f"paper {i}"},
            "neighbors": {"cites": [str((i + 1) % n), str((i + 2) % n)]},
        }
        for i in range(n)
    }
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"paper_nodes": papers}))
    return path


def test_progress_names_the_file_and_counts_every_node(tmp_path, capsys):
    path = _write(tmp_path, 30)
    store = load_graph_json(path, progress=True)
    err = capsys.readouterr().err
    assert f"reading {path}" in err and "MB)" in err
    assert "60/60" in err  # each node counted twice: added, then its arcs
    assert len(store) == 30 and store.neighbors("0", "cites") == ["1", "2"]


def test_small_files_load_silently_by_default(tmp_path, capsys):
    load_graph_json(_write(tmp_path, 5))
    assert capsys.readouterr().err == ""


def test_files_past_the_threshold_show_progress_by_default(tmp_path, capsys, monkeypatch):
    path = _write(tmp_path, 5)
    monkeypatch.setattr(grbench, "PROGRESS_BYTES", path.stat().st_size)
    load_graph_json(path)
    captured = capsys.readouterr()
    assert f"reading {path}" in captured.err and "10/10" in captured.err
    assert captured.out == ""  # progress never mixes into the answer on stdout


def test_arcs_keep_the_file_order_after_entries_are_released(tmp_path):
    path = tmp_path / "graph.json"
    path.write_text(
        json.dumps(
            {
                "paper_nodes": {
                    "a": {"features": {"title": "A"}, "neighbors": {"cites": ["c", "b"]}},
                    "b": {"features": {"title": "B"}, "neighbors": {"cites": ["c"]}},
                    "c": {"features": {"title": "C"}, "neighbors": {}},
                }
            }
        )
    )
    store = load_graph_json(path, progress=True)
    assert store.neighbors("a", "cites") == ["c", "b"]
    assert store.neighbors("c", "cites", direction="in") == ["a", "b"]
