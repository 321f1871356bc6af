"""GRBench question files (Graph-CoT ``data.json``: JSON Lines ``{qid, question, answer}``).

The shared copy has one file per domain under ``Graph-CoT-GRBench/``:
``amazon``, ``biomedical``, ``dblp``, ``goodreads``, ``legal`` and
``maple/{Biology,Chemistry,Materials_Science,Medicine,Physics}``.

The files carry no difficulty labels (GRBench added them later, elsewhere), so
``level`` stays ``None``. The questions were written ~10 per template in
template order, so ``meta["template_index"] = qid // 10`` is kept as a rough
grouping - a guess, not a label.
"""

from __future__ import annotations

import json
from pathlib import Path

from graphreason.evals.datasets.items import QAItem
from graphreason.settings import dataset_dir
from graphreason.tools.core.jsonl import read_jsonl

DATASET = "Graph-CoT-GRBench"
DOMAINS = ("amazon", "biomedical", "dblp", "goodreads", "legal")
MAPLE_FIELDS = ("Biology", "Chemistry", "Materials_Science", "Medicine", "Physics")
QUESTIONS_PER_TEMPLATE = 10


def grbench_domains() -> list[str]:
    """Every domain name :func:`load_grbench_questions` accepts."""
    return [*DOMAINS, "maple", *(f"maple/{f}" for f in MAPLE_FIELDS)]


def load_grbench_questions(path_or_domain: str | Path, graph: str | None = None) -> list[QAItem]:
    """Questions of one GRBench domain, or of any file/folder in the same format.

    ``path_or_domain``: a domain (``dblp``, ``maple/Biology``, ``Biology`` or
    ``maple`` for all five MAPLE fields), a ``data.json``-style file, or a
    folder holding ``data.json`` (or subfolders that do). ``graph`` is stored
    on every item as the graph spec (e.g. the domain's ``graph.json`` path).
    Qids are the file's own; when several files are read they are prefixed
    with the subfolder (``Biology/3``) to stay unique.
    """
    files = _question_files(path_or_domain)
    prefix = len(files) > 1
    items: list[QAItem] = []
    for file, domain in files:
        items += _read_file(file, domain, graph, prefix)
    return items


def _question_files(spec: str | Path) -> list[tuple[Path, str]]:
    """``(file, domain)`` pairs named by ``spec``."""
    text = str(spec).strip()
    path = Path(text).expanduser()
    if path.is_file():
        return [(path, path.parent.name)]
    if path.is_dir():
        return _files_in(path)
    domain = _canonical_domain(text)
    if domain is None:
        raise FileNotFoundError(
            f"{text!r} is neither an existing file or folder nor a GRBench domain; "
            f"domains: {', '.join(grbench_domains())}"
        )
    return _files_in(dataset_dir(DATASET) / domain)


def _canonical_domain(text: str) -> str | None:
    wanted = text.strip("/").lower().replace(" ", "_")
    for name in grbench_domains():
        if wanted in (name.lower(), name.lower().split("/")[-1]):
            return name
    return None


def _files_in(folder: Path) -> list[tuple[Path, str]]:
    direct = folder / "data.json"
    if direct.is_file():
        return [(direct, folder.name)]
    nested = sorted(p for p in folder.glob("*/data.json") if p.is_file())
    if not nested:
        raise FileNotFoundError(f"no data.json in {folder} or its subfolders")
    return [(p, p.parent.name) for p in nested]


def _read_file(file: Path, domain: str, graph: str | None, prefix: bool) -> list[QAItem]:
    items: list[QAItem] = []
    seen: set[str] = set()
    for number, row in read_jsonl(file):
        if not isinstance(row, dict) or not {"question", "answer"} <= set(row):
            raise ValueError(
                f"{file} line {number}: expected an object with question and answer, got {str(row)[:120]!r}"
            )
        raw_qid = str(row.get("qid", number - 1))
        if raw_qid in seen:
            raise ValueError(f"{file} line {number}: qid {raw_qid!r} repeats an earlier line")
        seen.add(raw_qid)
        meta = {"domain": domain, "source_file": str(file), "source_qid": raw_qid}
        if raw_qid.isdigit():
            meta["template_index"] = int(raw_qid) // QUESTIONS_PER_TEMPLATE
        answer = row["answer"]
        items.append(
            QAItem(
                qid=f"{domain}/{raw_qid}" if prefix else raw_qid,
                question=str(row["question"]).strip(),
                answer=answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False),
                answers=[str(a) for a in answer] if isinstance(answer, list) else None,
                graph=graph,
                meta=meta,
            )
        )
    return items
