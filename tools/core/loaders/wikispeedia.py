"""Wikispeedia: 4,604 Wikipedia-for-Schools articles and their 119,882 links.

Files (``wikispeedia-web-graph/``): ``articles.tsv`` (one URL-encoded name a
line), ``links.tsv`` (``source<TAB>target``) and ``categories.tsv``
(``article<TAB>subject.A.B``); ``#`` lines are comments.

Node id: the URL-decoded article name (``Édouard_Manet``); feature ``title`` is
that name with spaces (``Édouard Manet``), ``categories`` a list of paths such
as ``People/Artists``. Relations: ``links_to`` / ``linked_from``. The file has
110 self-links, which are kept.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.store import GraphStore

DATASET = "wikispeedia-web-graph"


def load_wikispeedia(root: str | Path | None = None) -> GraphStore:
    """Wikispeedia as a directed ``article`` graph with ``links_to`` / ``linked_from``."""
    folder = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    categories: dict[str, list[str]] = {}
    for fields in _lines(folder / "categories.tsv"):
        if len(fields) == 2:
            path = fields[1].removeprefix("subject.")
            categories.setdefault(unquote(fields[0]), []).append(path.replace(".", "/").replace("_", " "))

    store = GraphStore(name="wikispeedia", directed=True, text_keys={"article": "title"})
    decoded: dict[str, str] = {}  # encoded -> decoded name; links reuse it instead of decoding 240k times
    for fields in _lines(folder / "articles.tsv"):
        name = decoded[fields[0]] = unquote(fields[0])
        store.add_node(
            name, "article", {"title": name.replace("_", " "), "categories": categories.get(name, [])}
        )

    missing: list[str] = []
    for number, fields in enumerate(_lines(folder / "links.tsv"), 1):
        if len(fields) != 2:
            raise GraphFileError(
                f"{folder / 'links.tsv'} link {number}: expected 'source<TAB>target', got {fields}"
            )
        src, dst = (decoded.get(f) or unquote(f) for f in fields)
        missing += [n for n in (src, dst) if n not in store]
        store.add_edge(src, dst, "links_to", reverse_relation="linked_from")
    if missing:
        raise GraphFileError(
            f"links.tsv names {len(missing)} articles missing from articles.tsv, e.g. {missing[:5]}"
        )
    store.description = (
        f"Wikispeedia: {len(store):,} Wikipedia-for-Schools articles joined by {store.num_edges:,} directed "
        "hyperlinks. Node type: article (id = the article name with underscores; features: title, categories). "
        "Neighbor types: links_to (articles this article links to) and linked_from (articles linking here)."
    )
    return store


def _lines(path: Path) -> list[list[str]]:
    if not path.is_file():
        raise GraphFileError(f"Wikispeedia file {path} not found")
    with path.open(encoding="utf-8") as fh:
        return [line.rstrip("\r\n").split("\t") for line in fh if line.strip() and not line.startswith("#")]
