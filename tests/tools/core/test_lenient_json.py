"""``json_objects`` reads the same objects as before, in one linear pass, whatever the reply looks like."""

from __future__ import annotations

import ast
import json

import pytest

from graphreason.tools.core import lenient_json as common
from graphreason.tools.core.lenient_json import MAX_FAILED_NESTING, json_objects


def reference_json_objects(text: str) -> list:
    """The former implementation (every ``{`` scans to its match: quadratic), kept as the reference."""
    found = []
    for start in (i for i, ch in enumerate(text) if ch == "{"):
        depth = 0
        for end in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                chunk = text[start : end + 1]
                for reader in (json.loads, ast.literal_eval):
                    try:
                        found.append(reader(chunk))
                        break
                    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                        continue
                break
    return [obj for obj in found if isinstance(obj, dict)]


NORMAL_REPLIES = [
    '{"algorithm": "shortest_path", "params": {"source": 0, "target": 4}}',
    'Here: {"algorithm": "shortest_path", "params": {"source": 1}}',
    "{'name': 'Shortest Path', 'params': {'target': '4'}}",
    "{'thought': 'x', 'speak': 'y', 'function': [{'name': 'connectivity', 'arguments': {'source': 2}}]}",
    '```json\n{"edges": [[0, 1], [1, 2, 3.5]], "directed": false, "nodes": 3}\n```',
    'First {"a": 1} then {"b": {"c": [1, {"d": null}]}} and done.',
    "I think { this is prose, not JSON } but {'ok': True} is.",
    '{ prose around {"inner": {"deep": 1}} and more prose }',
    '{ one { two { three {"x": 1} } } }',
    "no objects at all",
    'unclosed {"a": 1',
    "stray } braces { here } and {}",
    "{1, 2, 3} is a set, {1: 2} is a dict",
    '{"design_new": true} {"algorithm": "design_new"}',
    "{'a': (1, {'b': 2}), 'c': [{'d': 3}, {'e': {'f': 4}}]}",
    '{"nums": [1e3, -2, 0.5], "inf": 1e400, "s": "caf\\u00e9"}',
    'Answer:\n{\n  "algorithm": "pagerank",\n  "params": {"damping": 0.85, "top_k": 3}\n}\nThanks!',
    "}}}{{{",
    "{{}}",
    '{"a": {}, "b": [{}, {}]}',
]


@pytest.mark.parametrize("reply", NORMAL_REPLIES)
def test_same_objects_as_the_former_implementation(reply):
    assert json_objects(reply) == reference_json_objects(reply)


def test_braces_inside_strings_of_a_parsed_object_are_not_read_again():
    """The one intended difference: an object's strings are text, not further objects."""
    reply = '{"thought": "maybe {1: 2}", "algorithm": "bfs_levels"}'
    assert json_objects(reply) == [{"thought": "maybe {1: 2}", "algorithm": "bfs_levels"}]
    assert reference_json_objects(reply)[1:] == [{1: 2}]


PATHOLOGICAL = {
    "open braces": "{" * 12000,
    "open objects": '{"a":' * 5000,
    "one long unclosed": "{" + "x" * 10**5,
    "alternating": "{}" * 20000,
    "reversed alternating": "}{" * 20000,
    "deep valid": '{"a":' * 5000 + "1" + "}" * 5000,
    "deep garbage": "{x" * 5000 + "}" * 5000,
    "deep lists": '{"a":' + "[" * 5000 + "]" * 5000 + "}",
    "many failures": "{ prose " * 3000 + "}" * 3000,
    "nested successes": '{"a": ' * 90 + "{}" + "}" * 90,
}


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_replies_finish_with_linear_parse_work(text, monkeypatch):
    read = common._read
    work = []

    def counting(chunk):
        work.append(len(chunk))
        return read(chunk)

    monkeypatch.setattr(common, "_read", counting)
    json_objects(text)
    assert sum(work) <= (MAX_FAILED_NESTING + 2) * len(text)


def test_deep_nesting_still_finds_the_readable_inner_objects():
    found = json_objects('{"a":' * 5000 + "1" + "}" * 5000)
    assert found and found[-1] == {"a": 1}
    assert json_objects("{}" * 3) == [{}, {}, {}]


def test_a_nested_object_inside_prose_braces_is_found():
    assert json_objects("{ I would pick {'algorithm': 'pagerank'} here }") == [{"algorithm": "pagerank"}]


def test_first_value_reads_json_then_python_literals_and_explains_failures():
    from graphreason.tools.core.lenient_json import first_value

    assert first_value('Sure! {"nodes": [1, 2]} hope that helps') == {"nodes": [1, 2]}
    assert first_value("[{'id': 0, 'ok': True}] done") == [{"id": 0, "ok": True}]
    with pytest.raises(ValueError, match="no JSON object or list"):
        first_value("no structure here")
    with pytest.raises(ValueError, match="not valid JSON"):
        first_value("{oops")
    with pytest.raises(ValueError):
        first_value("[" * 100_000 + "]" * 100_000)


def test_read_value_keeps_huge_integers_as_text_and_never_raises():
    from graphreason.tools.core.lenient_json import UNREADABLE, read_value

    digits = "9" * 5000
    assert read_value(f'{{"id": {digits}}}', ints_as_text=True) == {"id": digits}
    assert read_value("{'a': None}") == {"a": None}
    assert read_value("{" * 50_000) is UNREADABLE
    assert read_value("[" * 100_000 + "]" * 100_000) is UNREADABLE
