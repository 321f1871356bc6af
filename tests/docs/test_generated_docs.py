"""The docs cannot drift from the code, the result files or the cards, and the README stays a short user document.

``docs/generate.py`` (``make docs``) writes the generated parts: each method's workflow drawn from its
compiled graph, the configuration tables from the context declarations, the settings table, the
benchmark table from ``benchmarks/results`` and the quality tables from the adapter cards. Each is
generated again here and compared with the committed file; ``mkdocs build --strict`` itself runs in
``make test``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("docs_generate", REPO / "docs" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATED = _generator().pages()


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_each_generated_page_is_what_the_code_and_files_give_now(name: str) -> None:
    committed = REPO / "docs" / "generated" / name
    assert committed.is_file(), f"docs/generated/{name} is missing: run make docs"
    assert committed.read_text() == GENERATED[name], f"docs/generated/{name} is stale: run make docs"


def test_every_method_page_draws_its_compiled_graph_and_shows_its_settings() -> None:
    from graphreason.workflows.methods import METHODS

    for method in METHODS:
        page = (REPO / "docs" / "methods" / f"{method.name}.md").read_text()
        assert f'--8<-- "generated/diagram-{method.name}.md"' in page
        nodes = set(method.compiled_graph().get_graph().nodes) - {"__start__", "__end__"}
        drawn = GENERATED[f"diagram-{method.name}.md"]
        assert all(f"\t{node}(" in drawn for node in nodes), (method.name, nodes)
        config = (REPO / "docs" / "configuration.md").read_text()
        assert f'--8<-- "generated/config-{method.name}.md"' in config
        table = GENERATED[f"config-{method.name}.md"]
        assert all(f"| `{item.name}` |" in table for item in dataclasses.fields(method.context))


def test_the_benchmark_page_lists_every_result_file_and_its_plots_exist() -> None:
    table = GENERATED["benchmarks.md"]
    for path in (REPO / "benchmarks" / "results").glob("*.json"):
        assert f"`{path.name}`" in table
    plots = ["gar_spark_steps.png", "gar_parse_linear.png", "toolformer_vs_paper.png", "accuracy_vs_paper.png"]
    if any((REPO / "benchmarks" / "results").glob("fresh_clone-*.json")):
        plots.append("fresh_clone.png")
    for plot in plots:
        assert (REPO / "docs" / "img" / plot).is_file(), f"docs/img/{plot} is missing: run make docs"


def test_the_readmes_measured_table_is_what_the_cards_and_files_give_now() -> None:
    generator = _generator()
    text = (REPO / "README.md").read_text()
    assert text.count(generator.README_START) == 1 and text.count(generator.README_END) == 1
    assert generator.readme_with_measured(text) == text, "README.md's measured table is stale: run make docs"
    table = generator.readme_measured()
    for method in ("Graph Counselor", "GraphAgent", "Graph-ToolFormer", "GAR"):
        assert f"| {method} |" in table, f"the README's measured table has no row for {method}"
    for line in table.splitlines()[3:-1]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert re.fullmatch(r"\d+\.\d%(, \d+\.\d%)*", cells[2]), f"a row without a measured share: {line}"
        assert cells[4], f"a row without its kind of test: {line}"
    with pytest.raises(ValueError, match="lacks the markers"):
        generator.readme_with_measured("# a README without the table\n")


def test_the_readme_is_short_and_shows_each_method_early() -> None:
    lines = (REPO / "README.md").read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; the rest belongs in docs/"
    for method in ("gar", "toolformer", "counselor", "graphagent"):
        first = next((i for i, line in enumerate(lines, 1) if f"graphreason run {method} " in line), None)
        assert first is not None and first <= 120, f"the first `graphreason run {method}` is at line {first}"
    text = "\n".join(lines)
    assert "2026-" not in text, "the README carries no history: dates belong in CHANGELOG.md"
    for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not link.startswith("http"):
            assert (REPO / link).exists(), f"the README links to {link}, which does not exist"
