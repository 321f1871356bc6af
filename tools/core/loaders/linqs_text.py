"""Cora and CiteSeer as arrays for node classifiers: ids, features, labels, citations.

:mod:`graphreason.tools.core.loaders.cora` builds Cora as a :class:`~graphreason.tools.core.store.GraphStore` for
the agents' graph tools; the graph models need the same papers as arrays
instead, so this module turns the files in ``cora-citeseer-text/`` into a
:class:`TextGraph` (Cora's files through the readers of that module).

* **Cora** - node order, ids and features come from the LINQS ``cora.content``
  inside ``cora.tgz`` (``<paper_id> <1,433 binary word flags> <class>``); the
  ids are LINQS paper ids, the ones Graph-ToolFormer's prompts write as
  ``paper#106590``. Edges come from ``cora.cites``, whose lines read
  ``<cited> <citing>`` (see :mod:`graphreason.tools.core.loaders.cora`); they are stored as
  ``citing -> cited``. 2,708 papers, 5,429 citations, 7 classes. Titles and
  abstracts come from ``node_info.csv`` (``paper_id,title,abstract``; the same
  ids in the same order as ``cora.content``, checked when read; 42 titles and
  317 abstracts are empty or ``nan`` and read as ``""``).
* **CiteSeer** - the text-attributed version of ReaGAN (3,186 papers, 4,277
  edges, 6 classes), not the 3,312-paper LINQS release: ``data.csv`` gives
  ``paper_id,label`` with ids 0..3185, ``node_info.csv`` the title and abstract
  under ``paper_id`` + 1 (checked against the TAPE copy of the same texts),
  ``citeseer.cites`` the edges (the same pairs as ``graph.csv``; the file does
  not say which end cites, so they are kept as written). There is no
  bag-of-words file, so features are binary word flags computed here from
  title + abstract (:func:`bag_of_words`).

Label names are written as the prompts write them: Cora's ``Neural_Networks``
becomes ``Neural Networks``; CiteSeer's are already short (``DB``, ``IR``, ...).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.citeseer import citeseer_folder, read_citeseer
from graphreason.tools.core.loaders.cora import (
    DATASET,
    content_lines,
    cora_folder,
    read_citations,
    read_node_info,
    readable_label,
)

# CiteSeer's vocabulary size in the LINQS release; the text-derived one is cut to the same size
CITESEER_VOCABULARY = 3703
CITESEER_MIN_DOCS = 3  # a word must occur in this many papers to be a feature (LINQS used 10 on full text)
MAX_SHARE = 0.25  # a word in more of the papers than this is a function word, not a topic cue
_WORD = re.compile(r"[a-z]{2,}")


@dataclass
class TextGraph:
    """One citation graph as arrays; node ``i`` is ``ids[i]``."""

    name: str
    ids: list[str]
    labels: list[str]  # readable class name of each node
    features: np.ndarray  # float32 [nodes, words], binary word flags
    edges: np.ndarray  # int64 [2, edges], node positions, as the file states them
    texts: list[str] | None = None  # title + abstract, where the dataset has text
    titles: list[str] | None = None  # title alone ("" where the file has none)

    @property
    def classes(self) -> list[str]:
        """The label vocabulary, sorted (a class index is a position in this list)."""
        return sorted(set(self.labels))

    @property
    def num_nodes(self) -> int:
        return len(self.ids)

    def label_index(self) -> np.ndarray:
        """Each node's class as a position in :attr:`classes`."""
        lookup = {name: i for i, name in enumerate(self.classes)}
        return np.array([lookup[label] for label in self.labels], dtype=np.int64)

    def position(self) -> dict[str, int]:
        """``id -> node position``."""
        return {node: i for i, node in enumerate(self.ids)}


def text_folder(name: str, root: str | Path | None = None) -> Path:
    """``cora-citeseer-text/<name>`` under ``root`` (default: the data root)."""
    base = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    folder = base / name if (base / name).is_dir() else base
    if not folder.is_dir():
        raise GraphFileError(f"no {name} folder in {base}")
    return folder


def load_text_graph(name: str, root: str | Path | None = None) -> TextGraph:
    """``"cora"`` or ``"citeseer"`` as a :class:`TextGraph`."""
    key = name.strip().lower()
    if key == "cora":
        return load_cora_arrays(root)
    if key == "citeseer":
        return load_citeseer_arrays(root)
    raise GraphFileError(f"no text citation graph {name!r}; known: cora, citeseer")


def load_cora_arrays(root: str | Path | None = None) -> TextGraph:
    """Cora in LINQS ``cora.content`` order with its 1,433 binary word features."""
    folder = cora_folder(root, marker="cora.tgz")
    archive = folder / "cora.tgz"
    ids, labels, flags = [], [], []
    for number, line in enumerate(content_lines(archive), 1):
        node, _, rest = line.partition("\t")
        words, _, label = rest.rpartition("\t")
        # the flags are single digits between single tabs: every other byte is a digit
        digits = np.frombuffer(words.encode("ascii"), dtype=np.uint8)[::2] - ord("0")
        if len(words) != 2 * len(digits) - 1 or digits.max(initial=0) > 1:
            raise GraphFileError(f"{archive}: cora.content line {number} is not '<id> <0/1 flags> <class>'")
        ids.append(node)
        labels.append(readable_label(label))
        flags.append(digits)
    if len({len(f) for f in flags}) != 1:
        raise GraphFileError(f"{archive}: cora.content rows have different numbers of word flags")
    features = np.stack(flags).astype(np.float32)
    position = {node: i for i, node in enumerate(ids)}
    edges = _positions(read_citations(folder / "cora.cites"), position, folder / "cora.cites")
    titles, texts = _read_cora_text(folder / "node_info.csv", position)
    return TextGraph("cora", ids, labels, features, edges, texts, titles)


def _read_cora_text(path: Path, position: dict[str, int]) -> tuple[list[str] | None, list[str] | None]:
    """Titles and title + abstract texts in ``cora.content`` order; ``(None, None)`` without the file.

    The word flags and the Planetoid split need only ``cora.tgz``, so a copy without
    ``node_info.csv`` still loads (without text); a file naming other papers is an error.
    """
    if not path.is_file():
        return None, None
    titles, texts = [""] * len(position), [""] * len(position)
    seen: set[str] = set()
    for node, title, abstract in read_node_info(path):
        if node not in position:
            raise GraphFileError(f"{path}: paper {node!r} is not in cora.content")
        titles[position[node]] = title
        texts[position[node]] = f"{title} {abstract}".strip()
        seen.add(node)
    if len(seen) != len(position):
        raise GraphFileError(f"{path} has text for {len(seen)} of the {len(position)} Cora papers")
    return titles, texts


def load_citeseer_arrays(root: str | Path | None = None) -> TextGraph:
    """ReaGAN's CiteSeer (ids 0..3185) with bag-of-words features from its text.

    The files are read by :func:`graphreason.tools.core.loaders.citeseer.read_citeseer`; the edges are
    its pairs as written, in file order.
    """
    files = read_citeseer(citeseer_folder(text_folder("citeseer", root)))
    texts = [f"{title} {abstract}".strip() for title, abstract in zip(files.titles, files.abstracts, strict=True)]
    position = {node: i for i, node in enumerate(files.ids)}
    edges = np.array([(position[a], position[b]) for a, b in files.pairs], dtype=np.int64).T.reshape(2, -1)
    return TextGraph("citeseer", list(files.ids), list(files.labels), bag_of_words(texts), edges, texts,
                     list(files.titles))


def bag_of_words(
    texts: list[str],
    *,
    size: int = CITESEER_VOCABULARY,
    min_docs: int = CITESEER_MIN_DOCS,
    max_share: float = MAX_SHARE,
) -> np.ndarray:
    """Binary word flags over the ``size`` words found in the most texts.

    Words are lower-case runs of two or more letters. A word in more than
    ``max_share`` of the texts (``the``, ``of``, ``we``, ...) says nothing about
    a topic and is dropped, as is one in fewer than ``min_docs`` texts; LINQS
    built its features the same way, with a stop-word list instead of the cap.
    Ties in document frequency go alphabetically, so the vocabulary is fixed.
    """
    documents = [set(_WORD.findall(text.lower())) for text in texts]
    frequency = Counter(word for words in documents for word in words)
    ceiling = max_share * len(texts)
    kept = sorted(
        (w for w, n in frequency.items() if min_docs <= n <= ceiling), key=lambda w: (-frequency[w], w)
    )
    column = {word: i for i, word in enumerate(kept[:size])}
    flags = np.zeros((len(texts), len(column)), dtype=np.float32)
    for row, words in enumerate(documents):
        flags[row, [column[w] for w in words if w in column]] = 1.0
    return flags


def _positions(pairs: list[tuple[str, str]], position: dict[str, int], path: Path) -> np.ndarray:
    """Id pairs -> ``[2, m]`` node positions; ids missing from ``position`` are an error naming ``path``."""
    unknown = [node for pair in pairs for node in pair if node not in position]
    if unknown:
        raise GraphFileError(f"{path} names {len(unknown)} unknown paper ids, e.g. {unknown[:5]}")
    return np.array([(position[a], position[b]) for a, b in pairs], dtype=np.int64).T.reshape(2, -1)
