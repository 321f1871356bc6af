"""Read Graph-ToolFormer's prompt files (``prompt/**/prompts_train``, ``prompts_test``).

Each non-empty line is one record::

    Input: <statement or question> Output: <statement with calls> Reasoning Result: <answer>.

The reasoning result loses its closing period (``IR.`` -> ``IR``). The
graph-loading file has no reasoning result; its records end with a generation
tag instead (``... generated_data_loading_prompt_data_52_03-26-2023-13:36:13``),
kept in :attr:`PromptRecord.tag`. All 16 shipped files hold one record per line
(checked: no line lacks ``Input:`` or has a second ``Output:``), so a record
never spans lines and a broken line cannot swallow its neighbours.

Dataset names are the folder names (``cora``, ``last-fm``, ``mutag``,
``freebase`` ...) except ``graph_properties`` -> ``gpr`` (the paper's name and
the one its calls use: ``GL("gpr", ...)``) and ``graph_data_loading`` ->
``graph_loading``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError

PROMPT_FILE_NAMES = ("prompts_train", "prompts_test")
DATASET_ALIASES = {"graph_properties": "gpr", "graph_data_loading": "graph_loading"}

_INPUT = "Input:"
_OUTPUT = re.compile(r"\s+Output:\s*")
_RESULT = re.compile(r"\s+Reasoning Result:\s*")
_TAG = re.compile(r"\s+([A-Za-z_]\w*_\d{1,2}-\d{1,2}-\d{4}-\d{1,2}:\d{2}:\d{2})\s*$")


class PromptFormatError(GraphFileError):
    """A prompt record (or file) that is not in the ``Input: ... Output: ...`` format."""

    def __init__(self, path: Path | str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = Path(path), line, problem
        super().__init__(
            f"{path}, line {line}: {problem}. A record is one line "
            "'Input: <text> Output: <text with calls> Reasoning Result: <answer>.' "
            "(graph-loading records end with a generation tag instead of the result)"
        )


@dataclass(frozen=True)
class PromptRecord:
    """One Input/Output pair; ``index`` counts records from 0, ``line`` counts file lines from 1."""

    dataset: str
    index: int
    input: str
    output: str
    result: str | None
    source: Path
    line: int
    tag: str | None = None


def dataset_name(path: Path | str) -> str:
    """The dataset a prompt file belongs to, from its folder: ``.../cora/prompts_train`` -> ``cora``."""
    folder = Path(path).parent.name.lower()
    return DATASET_ALIASES.get(folder, folder)


def iter_prompt_files(path_or_dir: Path | str | None = None) -> Iterator[tuple[str, Path]]:
    """``(dataset, file)`` for a prompt file, or for every prompt file under a folder, sorted.

    With no argument the folder is ``Graph_Toolformer/prompt`` under the data root.
    """
    root = Path(path_or_dir) if path_or_dir is not None else dataset_dir("Graph_Toolformer") / "prompt"
    if root.is_file():
        yield dataset_name(root), root
        return
    if not root.is_dir():
        raise GraphFileError(
            f"no prompt file or folder at {root}; expected a prompts_train/prompts_test file or a folder holding them"
        )
    files = [p for p in root.rglob("*") if p.name in PROMPT_FILE_NAMES and p.is_file()]
    for path in sorted(files, key=lambda p: (dataset_name(p), p.name, str(p))):
        yield dataset_name(path), path


def parse_record(text: str, *, dataset: str, index: int, source: Path | str, line: int) -> PromptRecord:
    """One record from its line; raises :class:`PromptFormatError` naming the line."""
    text = text.strip()
    if not text.startswith(_INPUT):
        raise PromptFormatError(source, line, "the record does not start with 'Input:'")
    output_mark = _OUTPUT.search(text, len(_INPUT))
    if output_mark is None:
        raise PromptFormatError(source, line, "no ' Output: ' after the input")
    input_text = text[len(_INPUT) : output_mark.start()].strip()
    rest = text[output_mark.end() :]
    result = tag = None
    result_marks = list(_RESULT.finditer(rest))
    if result_marks:
        last = result_marks[-1]  # the answer is short and last; an output may mention the words
        output, result = rest[: last.start()], rest[last.end() :].strip()
        result = result[:-1] if result.endswith(".") else result
    elif tagged := _TAG.search(rest):
        output, tag = rest[: tagged.start()], tagged.group(1)
    else:
        output = rest
    output = output.strip()
    if not input_text:
        raise PromptFormatError(source, line, "the input after 'Input:' is empty")
    if not output:
        raise PromptFormatError(source, line, "the output after 'Output:' is empty")
    return PromptRecord(dataset, index, input_text, output, result, Path(source), line, tag)


def read_prompts(
    path: Path | str, *, dataset: str | None = None, problems: list[PromptFormatError] | None = None
) -> list[PromptRecord]:
    """Every record of one prompt file, in file order.

    A malformed line (bad format, not UTF-8) raises :class:`PromptFormatError`,
    unless a ``problems`` list is given: then it is appended there, skipped, and
    reading goes on, so one broken record does not cost the whole file. Blank
    lines are skipped. ``dataset`` defaults to :func:`dataset_name`.
    """
    path = Path(path)
    name = dataset if dataset is not None else dataset_name(path)
    try:
        raw_lines = path.read_bytes().splitlines()
    except OSError as error:
        raise GraphFileError(f"cannot read prompt file {path}: {error.strerror or error}") from error
    records: list[PromptRecord] = []
    index = 0  # counts broken records too, so an index names the same record either way
    for number, raw in enumerate(raw_lines, start=1):
        if not raw.strip():
            continue
        index += 1
        try:
            text = raw.decode("utf-8").lstrip("\ufeff") if number == 1 else raw.decode("utf-8")
            records.append(parse_record(text, dataset=name, index=index - 1, source=path, line=number))
        except (UnicodeDecodeError, PromptFormatError) as error:
            problem = (
                error
                if isinstance(error, PromptFormatError)
                else PromptFormatError(path, number, f"not UTF-8 ({error.reason})")
            )
            if problems is None:
                raise problem from None
            problems.append(problem)
    return records
