"""Grammar-constrained decoding of the tuned generator: with against without, from one eval run.

Greedy decoding with the grammar emits exactly what free decoding emits until
the grammar first replaces a token (a passing token changes neither logits nor
cache). So the "without" side of a ``graphreason eval toolformer --no-execute``
run (grammar on, the default) only needs the replies the grammar edited decoded
again with ``grammar=False``; a seeded sample of unedited replies is decoded
again too, as a check that they come out identical. Prints per dataset:
API-Gen Acc and share of replies that parse, with and without the grammar.
Without a records file it first runs that eval on ``--limit`` validation
records (round-robin over the datasets).

    python benchmarks/bench_grammar_decoding.py [runs/tf-val/records.jsonl] [--limit 64] [--check 16]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any


def load(path: Path) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    ok = [r for r in records if r.get("status") == "ok"]
    if not any("grammar_edits" in (r.get("scores") or {}) for r in ok):
        raise SystemExit(f"{path}: no grammar_edits scores; run the eval with the grammar on (the default)")
    return ok


def decode_without_grammar(question: str) -> str:
    from graphreason.workflows.toolformer import ToolformerContext, solve

    context = ToolformerContext(generator_model="local", grammar=False, execute_calls=False, embedding_model="hash")
    return str(solve(question, context).get("annotated") or "")


def table(rows: dict[str, dict[str, list[float]]]) -> str:
    lines = ["| dataset | n | edited | API-Gen with | without | parses with | without |", "|---|---|---|---|---|---|---|"]
    for dataset in [*sorted(k for k in rows if k != "all"), "all"]:
        r = rows[dataset]
        pct = {key: f"{100 * sum(values) / len(values):.1f}" for key, values in r.items()}
        lines.append(f"| {dataset} | {len(r['acc_with'])} | {int(sum(r['edited']))} | {pct['acc_with']} | "
                     f"{pct['acc_without']} | {pct['parse_with']} | {pct['parse_without']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", type=Path, nargs="?", default=None,
                        help="records.jsonl of an eval run with the grammar on (default: run one on --limit records)")
    parser.add_argument("--limit", type=int, default=64, help="validation records when no records file is given")
    parser.add_argument("--check", type=int, default=16, help="unedited replies decoded again as a check")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from graphreason.evals.toolformer.metrics import api_gen_scores

    path = args.records
    if path is None:
        import tempfile

        from graphreason.evals.toolformer.evaluate import run_toolformer_eval

        out = Path(tempfile.mkdtemp(prefix="bench-grammar-"))
        run_toolformer_eval(limit=args.limit, out_dir=out, progress=False, execute_calls=False, embedding_model="hash")
        path = out / "records.jsonl"
    records = load(path)
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    edited = [r for r in records if r["scores"].get("grammar_edits")]
    unedited = [r for r in records if not r["scores"].get("grammar_edits")]
    print(f"{len(records)} replies, {len(edited)} edited by the grammar; decoding those again without it")
    without = {r["qid"]: decode_without_grammar(r["question"]) for r in edited}
    sample = random.Random(args.seed).sample(unedited, min(args.check, len(unedited)))
    same = sum(decode_without_grammar(r["question"]) == r["prediction"] for r in sample)
    for r in records:
        free = without.get(r["qid"], r["prediction"])
        free_scores = api_gen_scores(free, r["gold"])
        for group in (str(r["graph"]), "all"):
            rows[group]["edited"].append(float(r["qid"] in without))
            rows[group]["acc_with"].append(r["scores"]["api_gen_acc"])
            rows[group]["parse_with"].append(r["scores"]["parses"])
            rows[group]["acc_without"].append(free_scores["api_gen_acc"])
            rows[group]["parse_without"].append(free_scores["parses"])
    print(table(rows))
    print(f"check: {same}/{len(sample)} unedited replies came out identical without the grammar")
    for r in edited:
        print(f"\n{r['qid']}\n  with   : {r['prediction'][:200]}\n  without: {without[r['qid']][:200]}")


if __name__ == "__main__":
    main()
