"""The one JSON-lines reader: blank lines skipped, bad lines named by file and line (or skipped on request)."""

from __future__ import annotations

import io

import pytest

from graphreason.tools.core.jsonl import read_jsonl, write_jsonl


class BadFile(ValueError):
    pass


def test_round_trip_keeps_non_ascii_and_skips_blank_lines(tmp_path):
    path = write_jsonl(tmp_path / "sub" / "rows.jsonl", [{"t": "Zürich"}, [1, 2]])
    path.write_text(path.read_text(encoding="utf-8") + "\n\n", encoding="utf-8")
    assert list(read_jsonl(path)) == [(1, {"t": "Zürich"}), (2, [1, 2])]
    assert "Zürich" in path.read_text(encoding="utf-8")


def test_a_bad_line_raises_the_callers_error_naming_file_and_line(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"a": 1}\n{oops\n')
    with pytest.raises(BadFile, match=r"rows.jsonl line 2: not valid JSON \(.*column 2\)"):
        list(read_jsonl(path, error=BadFile))
    assert list(read_jsonl(path, skip_bad=True)) == [(1, {"a": 1})]


def test_deep_nesting_is_a_bad_line_not_a_crash():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ValueError, match="line 1"):
        list(read_jsonl(io.StringIO(deep + "\n"), name="deep.jsonl"))
    assert list(read_jsonl(io.StringIO(deep + "\n1\n"), skip_bad=True)) == [(2, 1)]
