"""Graph-ToolFormer prompt files: records, dataset names, malformed lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphError, GraphFileError
from graphreason.tools.toolformer.loaders.prompts import (
    PromptFormatError,
    PromptRecord,
    dataset_name,
    iter_prompt_files,
    read_prompts,
)
from tests.conftest import require_data

CORA = (
    "Input: In cora, paper #5 has a topic of [TBR]. Output: In cora, paper #5 has a topic of "
    '[GR(GL("cora"), "graph_bert:topic", paper#5)-->r]. Reasoning Result: Neural Networks.\n'
)
LOADING = (
    'Input: The water molecule has two bonds. Output: The [GL("water", {Oxygen, Hydrogen}, {(Oxygen, Hydrogen)})] '
    "water molecule has two bonds. generated_data_loading_prompt_data_52_03-26-2023-13:36:13\n"
)


def write(root: Path, relative: str, text: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_reads_statement_records(tmp_path):
    path = write(
        tmp_path, "bibliographic_networks/cora/prompts_train", CORA + "\n" + CORA.replace("#5", "#6")
    )
    records = read_prompts(path)
    assert records[0] == PromptRecord(
        dataset="cora",
        index=0,
        input="In cora, paper #5 has a topic of [TBR].",
        output='In cora, paper #5 has a topic of [GR(GL("cora"), "graph_bert:topic", paper#5)-->r].',
        result="Neural Networks",
        source=path,
        line=1,
    )
    assert (records[1].index, records[1].line) == (1, 3)  # the blank line 2 is skipped


def test_reads_graph_loading_records_with_their_tag(tmp_path):
    path = write(tmp_path, "graph_data_loading/prompts_test", LOADING)
    (record,) = read_prompts(path)
    assert record.dataset == "graph_loading" and record.result is None
    assert record.tag == "generated_data_loading_prompt_data_52_03-26-2023-13:36:13"
    assert record.output.endswith("water molecule has two bonds.")


def test_dataset_names_and_file_listing(tmp_path):
    for rel in [
        "graph_properties/prompts_train",
        "recommender_systems/last-fm/prompts_test",
        "mixed/prompts_train",
    ]:
        write(tmp_path, rel, CORA)
    write(tmp_path, "recommender_systems/last-fm/notes.txt", "not a prompt file")
    listed = [(name, p.relative_to(tmp_path).as_posix()) for name, p in iter_prompt_files(tmp_path)]
    assert listed == [
        ("gpr", "graph_properties/prompts_train"),
        ("last-fm", "recommender_systems/last-fm/prompts_test"),
        ("mixed", "mixed/prompts_train"),
    ]
    single = tmp_path / "graph_properties/prompts_train"
    assert list(iter_prompt_files(single)) == [("gpr", single)]
    assert dataset_name("x/molecular_graphs/MUTAG/prompts_train") == "mutag"
    with pytest.raises(GraphFileError, match="no prompt file or folder"):
        list(iter_prompt_files(tmp_path / "missing"))


def test_malformed_lines_raise_with_line_numbers_or_are_collected(tmp_path):
    bad = (
        CORA
        + "Output: no input label\n"
        + "Input: no output label here\n"
        + b"Input: \xff\xfe Output: x\n".decode("latin-1")
        + "Input:  Output: empty input\n"
        + CORA
    )
    path = write(tmp_path, "cora/prompts_train", bad.encode("latin-1"))
    with pytest.raises(PromptFormatError, match=r"line 2: the record does not start with 'Input:'") as info:
        read_prompts(path)
    assert isinstance(info.value, GraphError) and info.value.line == 2
    problems: list[PromptFormatError] = []
    records = read_prompts(path, problems=problems)
    assert [r.line for r in records] == [1, 6] and [r.index for r in records] == [0, 5]
    assert [p.line for p in problems] == [2, 3, 4, 5]
    assert (
        "no ' Output: '" in str(problems[1])
        and "not UTF-8" in str(problems[2])
        and "empty" in str(problems[3])
    )


def test_unreadable_file_is_a_graph_file_error(tmp_path):
    with pytest.raises(GraphFileError, match="cannot read prompt file"):
        read_prompts(tmp_path / "nope" / "prompts_train")


@pytest.mark.data
def test_all_shipped_prompt_files_read_cleanly():
    files = list(iter_prompt_files(require_data("Graph_Toolformer") / "prompt"))
    assert len(files) == 16
    counts = {}
    for name, path in files:
        problems: list[PromptFormatError] = []
        records = read_prompts(path, problems=problems)
        assert not problems
        counts[name] = len(records)
        if name == "graph_loading":
            assert all(r.result is None and r.tag for r in records)
        else:
            assert all(r.result is not None and r.tag is None for r in records)
    assert counts["mutag"] == 1116 and sum(counts.values()) == 25116
