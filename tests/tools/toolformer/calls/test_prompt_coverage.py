"""Every Output field of the shipped prompts_train files parses, except known broken data."""

from __future__ import annotations

import pytest

from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.tools.toolformer.calls.printer import print_document
from graphreason.tools.toolformer.loaders.prompts import iter_prompt_files, read_prompts
from tests.conftest import require_data

# ChatGPT's graph-loading answers cut off mid-call: the last string is never closed
# (line 473 stops inside "all flow of goods..., line 1594 right after GL("Reddit-social-graph", ").
KNOWN_BROKEN = {("graph_loading", 473), ("graph_loading", 1594)}


@pytest.mark.data
def test_prompt_outputs_parse():
    root = require_data("Graph_Toolformer") / "prompt"
    total, failures = 0, set()
    for name, path in iter_prompt_files(root):
        if path.name != "prompts_train":
            continue
        for record in read_prompts(path):
            total += 1
            document = parse_text(record.output)
            if document.problems:
                failures.add((name, record.line))
                assert all("closing '\"'" in bad.message for bad in document.problems)
            elif record.dataset == "graph_loading":
                assert [b.target for b in document.brackets] == [
                    None
                ]  # one loading call, nothing substituted
            elif record.dataset == "gpr":
                # some property answers also cite helper calls that only record ("eccentricity [GR(...)]")
                assert any(b.substitutes for b in document.brackets)
            else:
                assert [b.target for b in document.brackets] == ["r"]
            if record.line % 50 == 0:  # a sample of real trees also survives printing
                assert parse_text(print_document(document)) == document
    assert total == 25116
    assert (total - len(failures)) / total >= 0.995
    assert failures == KNOWN_BROKEN
