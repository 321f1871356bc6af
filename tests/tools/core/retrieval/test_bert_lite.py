"""The small torch encoder gives sentence-transformers' vectors for minilm, without importing it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from graphreason.tools.core.retrieval import embedders
from graphreason.tools.core.retrieval.bert_lite import LiteBertEncoder, supports
from graphreason.tools.core.retrieval.embedders import minilm_path

TEXTS = [
    "Sparse coding of natural images",
    "",  # only [CLS] [SEP]: still a vector, as sentence-transformers gives
    "graph " * 400,  # past max_seq_length: truncated the same way
    "Ünïcödé façade, 東京 and graph neural networks",
    "x",
    "Learning Default Concepts",
]


def test_vectors_match_sentence_transformers():
    from sentence_transformers import SentenceTransformer

    folder = minilm_path()
    reference = SentenceTransformer(str(folder), device="cpu", local_files_only=True).encode(
        TEXTS, batch_size=4, normalize_embeddings=True, convert_to_numpy=True
    )
    lite = LiteBertEncoder(folder).encode(TEXTS, batch_size=4)
    assert lite.shape == reference.shape and lite.dtype == np.float32
    assert np.abs(lite - reference).max() < 1e-5
    assert np.allclose(np.linalg.norm(lite, axis=1), 1.0, atol=1e-5)


def test_only_plain_mean_pooled_bert_folders_are_supported(tmp_path):
    assert supports(minilm_path())
    (tmp_path / "modules.json").write_text("[]")
    assert not supports(tmp_path)
    assert not supports(tmp_path / "missing")


def test_the_switch_turns_it_off(monkeypatch):
    monkeypatch.setenv(embedders.LITE_ENV, "0")
    assert not embedders._use_lite(minilm_path(), "cpu")
    monkeypatch.setenv(embedders.LITE_ENV, "1")
    assert embedders._use_lite(minilm_path(), "cpu")
    assert not embedders._use_lite(minilm_path(), "cuda")


def test_minilm_queries_do_not_import_sentence_transformers(tmp_path):
    """Only a fresh interpreter can show that a module was never imported."""
    probe = (
        "import sys\n"
        "from graphreason.tools.core.retrieval.embedders import get_embedder\n"
        "vector = get_embedder('minilm').embed(['a query'])\n"
        "assert vector.shape == (1, 384)\n"
        "print('sentence_transformers' in sys.modules)\n"
    )
    env = {**os.environ, embedders.LITE_ENV: "1", "GRAPHREASON_CACHE": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[4],
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_switched_off_minilm_queries_run_through_sentence_transformers(tmp_path, monkeypatch):
    """Switched off, the query is encoded by a SentenceTransformer model (so the module is imported).

    This holds in any process, so it runs here, where sentence-transformers is loaded
    already, instead of paying its import again in a child; asking for the model's
    type is a stricter check than finding the module in ``sys.modules``.
    """
    from sentence_transformers import SentenceTransformer

    monkeypatch.setenv(embedders.LITE_ENV, "0")
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY"):
        monkeypatch.setenv(name, "1")  # set by the loader for the whole process; restored after this test
    monkeypatch.setattr(embedders, "_MODELS", {})  # no encoder loaded by an earlier test
    embedder = embedders.get_embedder("minilm")
    vector = embedder.embed(["a query"])
    assert vector.shape == (1, 384)
    assert isinstance(embedder.model, SentenceTransformer)
