"""How much of Graph-ToolFormer's prompt data the call-language parser reads.

For every prompt file (default: all of ``Graph_Toolformer/prompt`` under the
data root) prints the records, how many ``Output:`` fields parse fully (every
bracket that starts like a call, ``[name(``, parses), the share, the records
with no call at all, and the failures grouped by their error with examples.
Also checks that printing each parsed output and parsing it again gives the
same tree. Exits 1 if a record fails to read or a round trip differs.

    python benchmarks/toolformer_parse_coverage.py [PATH] [--examples 3]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict

from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.tools.toolformer.calls.printer import print_document
from graphreason.tools.toolformer.loaders.prompts import PromptFormatError, iter_prompt_files, read_prompts


def reason(message: str) -> str:
    """The error message without its offset and found text, so equal causes group together."""
    expected = re.search(r"expected (.*?), found", message)
    return expected.group(1) if expected else message


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "path", nargs="?", default=None, help="a prompt file or folder (default: the data root's)"
    )
    ap.add_argument("--examples", type=int, default=3, help="examples shown per failure group")
    args = ap.parse_args()

    total = total_ok = total_none = 0
    bad_rows = round_trip_errors = 0
    print(f"{'dataset':<14} {'file':<14} {'records':>8} {'parse':>8} {'share':>8} {'no call':>8}")
    groups: dict[str, list[str]] = defaultdict(list)
    for dataset, path in iter_prompt_files(args.path):
        problems: list[PromptFormatError] = []
        records = read_prompts(path, problems=problems)
        bad_rows += len(problems)
        for problem in problems:
            print(f"  unreadable record: {problem}")
        ok = no_call = 0
        for record in records:
            document = parse_text(record.output)
            if document.problems:
                for bad in document.problems:
                    groups[reason(bad.message)].append(f"{dataset}:{record.line}: {bad.raw[:160]}")
                continue
            ok += 1
            no_call += not document.brackets
            if parse_text(print_document(document)) != document:
                round_trip_errors += 1
                print(f"  round trip differs: {dataset}:{record.line}")
        total, total_ok, total_none = total + len(records), total_ok + ok, total_none + no_call
        share = ok / len(records) if records else 1.0
        print(f"{dataset:<14} {path.name:<14} {len(records):>8} {ok:>8} {share:>8.2%} {no_call:>8}")
    share = total_ok / total if total else 1.0
    print(f"{'total':<14} {'':<14} {total:>8} {total_ok:>8} {share:>8.3%} {total_none:>8}")
    print(f"unreadable records: {bad_rows}; round-trip differences: {round_trip_errors}")
    if groups:
        print("\nfailures by reason:")
        for why, where in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(where):>4}  expected {why}")
            for example in where[: args.examples]:
                print(f"          {example}")
    return 1 if bad_rows or round_trip_errors else 0


if __name__ == "__main__":
    sys.exit(main())
