"""Graph-reasoning question files: GraphInstruct JSONL and NLGraph JSON.

* GraphInstruct (GraphWiz): one JSON object per line,
  ``{"index", "input_prompt", "answer": "### ...", "node_range", "edge_range"}``;
  the task is the file name's first part (``cycle_dev.jsonl``, ``triplet_test.jsonl``).
* NLGraph: one JSON object ``{id: {"question", "answer", "difficulty"}}``; the
  task is the parent folder (``NLGraph/shortest_path/main.json``), the file
  stem, or the ``task`` argument.

Every item becomes a :class:`GraphTask` whose ``gold`` is the answer normalised
for structural checking: ``bool`` for yes/no tasks, a number (``math.inf`` for
"no path"), or a list (orders, rankings, neighbour lists, embeddings).
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from graphreason.settings import dataset_dir
from graphreason.tools.core.jsonl import read_jsonl
from graphreason.tools.gar.graph_text.tasks import TASKS, canonical_task, detect_task

DATASET = "GraphInstruct-Test-v4"
GRAPHINSTRUCT_TASKS = (
    "cycle",
    "connectivity",
    "bipartite",
    "topology",
    "shortest",
    "triangle",
    "flow",
    "hamilton",
    "substructure",
)
_FILE_TASK = {"triangle": "triplet"}  # canonical task -> GraphInstruct file prefix

BOOL_TASKS = {"cycle", "connectivity", "bipartite", "hamilton", "substructure", "edge_existence"}
LIST_TASKS = {"topology", "neighbors", "pagerank"}
VECTOR_TASKS = {"gnn"}
NUMBER_TASKS = set(TASKS) - BOOL_TASKS - LIST_TASKS - VECTOR_TASKS

_NUM = r"-?\d+(?:\.\d+)?"


class GraphTaskFormatError(ValueError):
    """A question file is not GraphInstruct JSONL or NLGraph JSON, or an item cannot be read."""


@dataclass
class GraphTask:
    """One graph-reasoning question.

    ``answer`` is the raw gold text; ``gold`` its normalised value; ``meta``
    keeps the source fields (index, node/edge ranges, file, a gold path when
    the answer text gives one).
    """

    qid: str
    task: str
    question: str
    answer: str
    gold: Any
    difficulty: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------- gold answers
def normalise_gold(task: str, answer: str) -> Any:
    """The gold value of an answer text for ``task`` (see the module docstring).

    Raises :class:`ValueError` naming the task and text when nothing fits.
    """
    text = str(answer)
    body = text.rsplit("###", 1)[1] if "###" in text else text
    body = body.strip()
    if task in BOOL_TASKS:
        m = re.search(r"\b(yes|no|true|false)\b", body, re.I)
        if m:
            return m.group(1).lower() in ("yes", "true")
        if task == "hamilton" and _path_in(body):
            return True
    elif task in NUMBER_TASKS:
        if re.search(r"\bno\s+path\b|\bnot\s+reachable\b|\binfinit", body, re.I):
            return math.inf
        m = re.search(
            rf"\b(?:total\s+)?(?:weight|length|flow|distance)\s+(?:of\s+|is\s+|=\s*)?({_NUM})", body, re.I
        )
        m = m or re.search(rf"({_NUM})\s+applicants", body, re.I)
        numbers = re.findall(_NUM, body)
        if m or numbers:
            return _number(m.group(1) if m else numbers[-1])
    elif task in LIST_TASKS:
        value = _list_value(body)
        if value is not None:
            return value
    elif task in VECTOR_TASKS:
        rows = re.findall(r"node\s+(\d+)\s*:\s*\[([^\]]*)\]", body, re.I)
        if rows:
            return [
                [_number(x) for x in re.findall(_NUM, vec)]
                for _, vec in sorted(rows, key=lambda r: int(r[0]))
            ]
    raise ValueError(f"cannot read a {task} answer from {text[:120]!r}")


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _list_value(body: str) -> list[Any] | None:
    """``[[3, 1, 0]]`` / ``[3, 1, 0]`` / ``The solution is: 3,1,0`` / ``James, Robert.`` / ``No nodes.``"""
    literal = re.search(r"\[.*\]", body, re.S)
    if literal:
        try:
            value = ast.literal_eval(literal.group(0))
        except (ValueError, SyntaxError):
            value = None
        if isinstance(value, list):
            while value and isinstance(value[0], list):
                value = value[0]  # GraphInstruct wraps one order in a list: [[3, 1, 0]]
            return value
    if re.fullmatch(r"no\s+nodes?\.?", body, re.I):
        return []
    tail = body.rsplit(":", 1)[-1]
    items = [x.strip() for x in re.split(r"\s*(?:,|->|\band\b)\s*", tail.strip().rstrip(".")) if x.strip()]
    if items and all(x.isdigit() for x in items):
        return [int(x) for x in items]
    if items and all(re.fullmatch(r"[\w'-]+", x) for x in items):
        return items
    return None


def _path_in(text: str) -> list[int] | None:
    m = re.search(r"\d+(?:\s*(?:,|->)\s*\d+)+", text)
    return [int(x) for x in re.findall(r"\d+", m.group(0))] if m else None


def _gold_meta(task: str, answer: str) -> dict[str, Any]:
    if task in ("shortest", "hamilton"):
        path = _path_in(answer.split("###")[-1].split("weight")[0])
        if path:
            return {"gold_path": path}
    return {}


# ---------------------------------------------------------------------- readers
def load_graphinstruct(path: str | Path, task: str | None = None) -> list[GraphTask]:
    """Items of one GraphInstruct JSONL file (task from ``task`` or the file name)."""
    source = Path(path).expanduser()
    file_task = canonical_task(task) if task else canonical_task(source.stem.split("_")[0])
    items = []
    for number, row in read_jsonl(source, error=GraphTaskFormatError):
        missing = [k for k in ("input_prompt", "answer") if not isinstance(row, dict) or k not in row]
        if missing:
            raise GraphTaskFormatError(
                f"{source} line {number}: GraphInstruct items need {', '.join(missing)}"
            )
        items.append(
            _item(
                source,
                number,
                row.get("index", number - 1),
                row["input_prompt"],
                row["answer"],
                file_task,
                row,
            )
        )
    prefix = source.stem.split("_")[0]
    for item in items:
        if prefix != item.task:
            item.meta["source_task"] = prefix  # e.g. GraphInstruct's "triplet" file holds "triangle" items
    return items


def load_nlgraph(path: str | Path, task: str | None = None) -> list[GraphTask]:
    """Items of one NLGraph JSON file ``{id: {question, answer, difficulty}}``."""
    source = Path(path).expanduser()
    try:
        data = json.loads(source.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as err:
        raise GraphTaskFormatError(f"{source}: not JSON ({err})") from err
    if not _looks_nlgraph(data):
        raise GraphTaskFormatError(
            f"{source}: NLGraph files are one object {{id: {{question, answer, difficulty}}}}"
        )
    file_task = (
        canonical_task(task) if task else (canonical_task(source.parent.name) or canonical_task(source.stem))
    )
    return [
        _item(source, key, key, row["question"], str(row["answer"]), file_task, row, row.get("difficulty"))
        for key, row in data.items()
    ]


def _item(
    source: Path,
    where: Any,
    index: Any,
    question: str,
    answer: str,
    task: str | None,
    row: dict,
    difficulty: Any = None,
) -> GraphTask:
    found = task or detect_task(question)
    if found is None:
        raise GraphTaskFormatError(
            f"{source} item {where}: cannot tell the task from the file name or the question; pass task= "
            f"(one of {', '.join(TASKS)})"
        )
    try:
        gold = normalise_gold(found, answer)
    except ValueError as err:
        raise GraphTaskFormatError(f"{source} item {where}: {err}") from err
    meta = {k: v for k, v in row.items() if k not in ("input_prompt", "question", "answer", "difficulty")}
    meta.update(file=source.name, **_gold_meta(found, answer))
    return GraphTask(f"{found}/{index}", found, question, answer, gold, difficulty, meta)


def _looks_nlgraph(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and bool(data)
        and all(isinstance(v, dict) and "question" in v and "answer" in v for v in data.values())
    )


# ---------------------------------------------------------------------- any path
def load_graph_tasks(
    source: str | Path | None = None,
    *,
    split: str = "dev",
    tasks: Iterable[str] | None = None,
    task: str | None = None,
) -> list[GraphTask]:
    """Questions from a GraphInstruct or NLGraph file, a folder of them, or the shared copy.

    ``source``: ``None`` (every GraphInstruct ``*_{split}.jsonl`` in the shared
    data), a task name (``cycle``, ``triplet`` or ``triangle``: that task's shared
    file), a file (format sniffed from its content), or a folder (its
    ``*_{split}.jsonl`` files, else NLGraph ``<task>/{split}.json``). ``tasks``
    keeps only those tasks; ``task`` overrides the task of every item.
    """
    files = _files(source, split)
    items: list[GraphTask] = []
    for file in files:
        items += _load_file(file, task)
    if tasks is not None:
        wanted = {canonical_task(t) or t for t in tasks}
        unknown = wanted - set(TASKS)
        if unknown:
            raise ValueError(f"unknown tasks {sorted(unknown)}; tasks: {', '.join(TASKS)}")
        items = [i for i in items if i.task in wanted]
    return items


def _files(source: str | Path | None, split: str) -> list[Path]:
    if source is None:
        folder = dataset_dir(DATASET)
        return _files_in(folder, split)
    path = Path(str(source)).expanduser()
    if path.is_file():
        return [path]
    if path.is_dir():
        return _files_in(path, split)
    name = canonical_task(str(source))
    if name in GRAPHINSTRUCT_TASKS:
        file = dataset_dir(DATASET) / f"{_FILE_TASK.get(name, name)}_{split}.jsonl"
        if not file.is_file():
            raise FileNotFoundError(f"{file} not found (split {split!r})")
        return [file]
    raise FileNotFoundError(
        f"{source!r} is neither a file or folder nor a GraphInstruct task ({', '.join(GRAPHINSTRUCT_TASKS)})"
    )


def _files_in(folder: Path, split: str) -> list[Path]:
    files = (
        sorted(folder.glob(f"*_{split}.jsonl"))
        or sorted(folder.glob(f"*/{split}.json"))
        or sorted(folder.glob(f"{split}.json"))
    )
    if not files:
        present = ", ".join(sorted(p.name for p in folder.iterdir())[:12]) or "(empty)"
        raise FileNotFoundError(
            f"no '*_{split}.jsonl' or '*/{split}.json' question files in {folder}; it holds: {present}"
        )
    return files


def _load_file(path: Path, task: str | None) -> list[GraphTask]:
    with path.open(encoding="utf-8-sig") as fh:
        head = fh.read(4096)
    first_line = head.lstrip().split("\n", 1)[0]
    try:
        first = json.loads(first_line)
    except json.JSONDecodeError:
        first = None
    if isinstance(first, dict) and "input_prompt" in first:
        return load_graphinstruct(path, task)
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError:
        data = None
    if _looks_nlgraph(data):
        return load_nlgraph(path, task)
    raise GraphTaskFormatError(
        f"{path}: unknown question format; expected GraphInstruct JSONL (one object per line with "
        "'input_prompt' and 'answer') or NLGraph JSON ({id: {question, answer, difficulty}})"
    )


# ---------------------------------------------------------------------- writer
def save_graphinstruct(items: Iterable[GraphTask], path: str | Path) -> Path:
    """Write items as GraphInstruct JSONL (``answer`` as ``### <gold>``), e.g. for generated sets."""
    out = Path(path).expanduser()
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for number, item in enumerate(items):
            gold = item.gold
            text = ("Yes" if gold else "No") if isinstance(gold, bool) else json.dumps(gold)
            row = {
                "index": item.meta.get("index", number),
                "input_prompt": item.question,
                "answer": f"### {text}",
            }
            row.update({k: v for k, v in item.meta.items() if k in ("node_range", "edge_range")})
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return out
