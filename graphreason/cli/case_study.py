"""``graphreason case-study pagerank``: GAR ranks the Wikispeedia pages from a question.

    graphreason case-study pagerank [--question "..."] [--top-k 10] [--model local] [--out DIR]

Prints the question, the workflow's steps as they happen, the answer in
words, a rank / title / score table and the agreement with
``networkx.pagerank`` (see :mod:`graphreason.evals.gar.case_study`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from graphreason.cli.options import add_gar_master_options, positive
from graphreason.cli.trace import EventPrinter, shorten

_TITLE_WIDTH = 40


def add_case_study_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``case-study pagerank`` on the top-level sub-command parsers."""
    study = subparsers.add_parser("case-study", help="the papers' case studies on real graphs")
    kinds = study.add_subparsers(dest="study", required=True, metavar="{pagerank}")
    pagerank = kinds.add_parser(
        "pagerank",
        help="GraphAgent-Reasoner: the most important Wikispeedia pages by PageRank, checked against networkx",
    )
    pagerank.add_argument(
        "--question",
        default=None,
        help="the question (default: 'Which are the K most important pages of this web graph?')",
    )
    pagerank.add_argument(
        "--top-k",
        type=positive,
        default=None,
        help="how many pages (default: the number in the question, else 10)",
    )
    add_gar_master_options(pagerank)
    spark = pagerank.add_argument_group("engine")
    spark.add_argument(
        "--engine", choices=("auto", "compiled", "spark"), default="auto",
        help="where PageRank's supersteps run: compiled (numpy, this process) or spark (default: auto = compiled)",
    )  # fmt: skip
    spark.add_argument("--spark-master", default=None, help="Spark master URL for --engine spark (default: local[*])")
    spark.add_argument("--spark-conf", default=None, help="extra Spark settings, comma-separated spark.key=value")
    pagerank.add_argument("--json", action="store_true", help="print the whole result as JSON instead")
    pagerank.add_argument(
        "--out", default=None, help="folder to write case_study.md and case_study.json into"
    )
    pagerank.set_defaults(handler=cmd_case_study_pagerank)


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.6f}"


def print_case_study(result: dict[str, Any], out: Any = None) -> None:
    """The answer in words, the ranking table, the agreement and the times (to ``out``, default stdout)."""
    out = out or sys.stdout
    output, agree, times = result["output"], result["agreement"], result["timings"]
    print(
        f"\nAlgorithm: {output.get('algorithm')}  parameters: {output.get('chosen_params')}  "
        f"engine: {result.get('engine') or '-'}", file=out,
    )  # fmt: skip
    print(f"Answer: {output.get('answer') or '(no answer)'}\n", file=out)
    print(f"{'rank':>4}  {'title':<{_TITLE_WIDTH}} {'score':>9} {'reference':>10} {'ref. rank':>9}", file=out)
    for page in result["pages"]:
        print(
            f"{page['rank']:>4}  {shorten(page['title'], _TITLE_WIDTH):<{_TITLE_WIDTH}} "
            f"{_score(page['score']):>9} {_score(page['reference_score']):>10} {page['reference_rank']:>9}",
            file=out,
        )
    if result["pages"] and result["pages"][0]["score"] is None:
        print("(the workflow returned no scores for a graph this size; reference scores shown)", file=out)
    verdict = "agrees" if agree["same_order"] else "DISAGREES"
    print(
        f"\nReference (networkx.pagerank) {verdict}: {agree['overlap']}/{agree['k']} pages in common, "
        f"{agree['matching_positions']}/{agree['k']} at the same rank, "
        f"consistent with the reference scores: {'yes' if agree['consistent_with_scores'] else 'no'}, "
        f"titles in the answer: {'yes' if agree['titles_in_answer'] else 'no'}"
        + (
            f", max |score difference| {agree['max_abs_score_diff']:.2e}"
            if agree["max_abs_score_diff"] is not None
            else ""
        ),
        file=out,
    )
    usage = output.get("usage") or {}
    print(
        f"Time: workflow {times['workflow_seconds']:.2f} s (LLM {times['llm_seconds']:.2f} s, "
        f"engine {times['engine_seconds']:.2f} s), graph {times['graph_seconds']:.2f} s, "
        f"reference {times['reference_seconds']:.2f} s, total {times['total_seconds']:.2f} s; "
        f"{usage.get('llm_calls', 0)} LLM call(s), {usage.get('tokens', 0)} tokens",
        file=out,
    )


def cmd_case_study_pagerank(args: argparse.Namespace) -> int:
    """``graphreason case-study pagerank``: run the case study, print (or write) the result."""
    from graphreason.evals.gar.case_study import run_pagerank_case_study, settle_question, write_case_study

    question, top_k, _ = settle_question(args.question, args.top_k)  # bad input fails before any work
    options = dict(
        top_k=top_k, model=args.model, embedding=args.embedding, base_url=args.base_url,
        engine=args.engine, spark_master=args.spark_master, spark_conf=args.spark_conf,
    )  # fmt: skip
    if args.json:
        result = run_pagerank_case_study(question, **options)
        print(json.dumps(result, indent=2, ensure_ascii=False, default=str))
    else:
        print(f"Question: {shorten(question, 400)}", flush=True)
        printer = EventPrinter(sys.stdout, 300)
        result = run_pagerank_case_study(question, on_event=printer, **options)
        printer.flush()
        print_case_study(result)
    if args.out:
        markdown, data = write_case_study(result, args.out)
        print(f"Report: {markdown}\nData  : {data}", file=sys.stderr if args.json else sys.stdout)
    return 0
