"""The static table distilled from MiniLM: mean of word-piece vectors, unit rows, cached once per machine."""

from __future__ import annotations

import numpy as np
import pytest

from graphreason.tools.core.retrieval import static as static_module
from graphreason.tools.core.retrieval.embedders import get_embedder, minilm_path
from graphreason.tools.core.retrieval.static import StaticEmbedder


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(static_module, "_tables", {})
    return tmp_path / "cache"


def test_a_text_is_the_normalised_mean_of_its_pieces(monkeypatch) -> None:
    embedder = StaticEmbedder(minilm_path())
    vocab = embedder.tokenizer.get_vocab()
    table = np.zeros((max(vocab.values()) + 1, 4), dtype=np.float32)
    table[vocab["graph"]] = [1, 0, 0, 0]
    table[vocab["network"]] = [0, 1, 0, 0]
    embedder._table = table
    vectors = embedder.embed(["graph", "graph network", "", "network"])
    assert vectors.shape == (4, 4) and vectors.dtype == np.float32
    assert np.allclose(vectors[0], [1, 0, 0, 0])
    assert np.allclose(vectors[1], [2**-0.5, 2**-0.5, 0, 0])
    assert not vectors[2].any()  # empty text: a zero row, and the text after it is still right
    assert np.allclose(vectors[3], [0, 1, 0, 0])
    with pytest.raises(TypeError, match="list of texts"):
        embedder.embed("graph")  # type: ignore[arg-type]


NAMES = ["graph neural networks", "protein folding", "jazz guitar", "stock market crash"]
QUERIES = ["neural networks on graphs", "guitar music", "proteins folding"]


def _distil_only_these_texts(monkeypatch) -> None:
    """The distillation runs MiniLM on the word pieces of this file's texts only; every other row is zero.

    A text's vector is the mean of its own pieces' rows, so these texts get exactly the vectors the whole
    table gives them, without the whole vocabulary's forward passes (benchmarks/first_use.py times those).
    """
    from graphreason.tools.core.retrieval.bert_lite import LiteBertEncoder

    tokenizer = StaticEmbedder(minilm_path()).tokenizer
    wanted = {i for text in NAMES + QUERIES for i in tokenizer.encode(text, add_special_tokens=False).ids}
    forward = LiteBertEncoder._forward

    def only_wanted(self, ids, mask):  # noqa: ANN001, ANN202 (the encoder's own signature)
        torch = self.torch
        keep = torch.tensor([int(row[1]) in wanted for row in ids])  # each row is [CLS] piece [SEP]
        out = torch.zeros((ids.shape[0], self.dim))
        if keep.any():
            out[keep] = forward(self, ids[keep], mask[keep])
        return out

    monkeypatch.setattr(LiteBertEncoder, "_forward", only_wanted)


def test_the_distilled_table_is_built_once_and_finds_names_by_their_words(isolated_cache, capsys, monkeypatch) -> None:
    _distil_only_these_texts(monkeypatch)
    embedder = get_embedder("minilm-static")
    assert embedder.name == "minilm-static" and not embedder.cache_vectors
    names = NAMES
    vectors = embedder.embed(names)
    assert embedder.dim == 384 and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    queries = embedder.embed(QUERIES)
    assert list((queries @ vectors.T).argmax(1)) == [0, 2, 1]
    assert "distilling a static word-piece table from MiniLM" in capsys.readouterr().err
    (stored,) = (isolated_cache / "models").glob("minilm-static-*.npy")
    static_module._tables.clear()  # another process: reads the file, announces nothing
    again = StaticEmbedder(minilm_path())
    assert np.allclose(again.embed(names), vectors) and "first use" not in capsys.readouterr().err
    assert stored.stat().st_size < 30_000_000  # float16 on disk
