"""Graph-ToolFormer eval: generate calls for prompt records, score them, run them, write the report.

Records come from any prompts file or folder in the upstream format
(:mod:`graphreason.tools.toolformer.loaders.prompts`). For a ``prompts_train`` file the
default split is our validation slice (160 records per dataset,
:mod:`graphreason.tools.toolformer.loaders.split`), never seen as a few-shot example;
``split="all"`` takes every record (e.g. to execute all gold calls).
``model="gold"`` scores the dataset's own annotated outputs (an oracle row:
it measures the executor and the graph models, not generation).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphreason.evals import driver
from graphreason.evals.runner import SolveFn
from graphreason.evals.toolformer.metrics import api_gen_scores, exec_correct, gold_values, rouge_scores
from graphreason.evals.toolformer.report import TOOLFORMER_REPORT
from graphreason.tools.toolformer.loaders.prompts import iter_prompt_files, read_prompts
from graphreason.tools.toolformer.loaders.split import split_records
from graphreason.workflows.run_context import with_settings
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.generate import tuned_spec

GOLD = "gold"
SPLITS = ("val", "train", "all")


class ToolformerEvalConfigError(driver.EvalConfigError):
    """The path, split or options of a Graph-ToolFormer eval do not fit together."""


def load_items(path: str | Path | None, split: str = "val") -> list[dict[str, Any]]:
    """One item per record: qid, question (input), answer (the annotated output), result, graph (dataset)."""
    if split not in SPLITS:
        raise ToolformerEvalConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    items: list[dict[str, Any]] = []
    for dataset, file in iter_prompt_files(path):
        records = read_prompts(file, problems=[])
        if file.name == "prompts_train" and split != "all":
            train, val = split_records(records)
            records = val if split == "val" else train
        items.extend(
            {
                "qid": f"{dataset}:{r.index}",
                "question": r.input,
                "answer": r.output,
                "result": r.result,
                "graph": dataset,
            }
            for r in records
        )
    return items


def score(item: dict[str, Any], output: dict[str, Any], executed: bool = True) -> dict[str, float]:
    """Generation scores; execution scores only when the calls were run (``executed``).

    ``grammar_edits`` (1 when constrained decoding replaced a token of this
    reply) is there only when the generator was held to the grammar.
    """
    prediction = str(output.get("annotated") or "")
    scores: dict[str, float] = {**api_gen_scores(prediction, item["answer"]), **rouge_scores(prediction, item["answer"])}
    generated = next((n for n in output.get("trace") or [] if n.get("step") == "generate"), {})
    if "constrained_tokens" in generated:  # share of replies the grammar changed (the rest decode as without it)
        scores["grammar_edits"] = float(generated["constrained_tokens"] > 0)
    if not executed:  # nothing ran: an execution score would read as 0% right
        return scores
    results = output.get("results") or []
    if results:
        scores["calls_ok"] = sum(bool(r.get("ok")) for r in results) / len(results)
    gold = gold_values(item.get("result"))
    if gold is not None:
        scores["exec_correct"] = float(exec_correct(results, gold))
    return scores


RESULT_CHARS = 300  # of a call's value or error in a record


def record_details(output: dict[str, Any]) -> dict[str, Any]:
    """What a record keeps to explain its scores: the calls found, the brackets that did not parse and, per
    executed call, whether it ran and what it returned or the error (values shortened to RESULT_CHARS)."""

    def short(value: Any) -> Any:
        if value is None or isinstance(value, bool | int | float):
            return value
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        return text if len(text) <= RESULT_CHARS else text[:RESULT_CHARS] + f"... ({len(text)} chars)"

    return {
        "calls": list(output.get("calls") or []),
        "parse_errors": list(output.get("parse_errors") or []),
        "results": [
            {"call": r.get("bracket"), "ok": bool(r.get("ok")), "value": short(r.get("value")),
             "error": short(r.get("error") or None)}
            for r in output.get("results") or []
        ],
    }


def run_toolformer_eval(
    path: str | Path | None = None,
    split: str = "val",
    limit: int | None = None,
    concurrency: int = 1,
    out_dir: str | Path | None = None,
    context: ToolformerContext | None = None,
    seed: int = 0,
    progress: bool = True,
    solve: SolveFn | None = None,
    **settings: Any,
) -> driver.EvalResult:
    """Score every record (``limit`` of them round-robin over datasets); see the module docstring.

    ``settings`` override context fields by name; ``generator_model="gold"``
    skips generation and runs the annotated outputs.
    """
    context = with_settings(context if context is not None else ToolformerContext(), settings,
                            ToolformerEvalConfigError)
    gold = context.generator_model == GOLD  # never called: the annotated text is run as it is
    driver.check_run_options(limit, concurrency)
    items = driver.take_round_robin(load_items(path, split), limit, key=lambda item: item["graph"], seed=seed)
    # the tuned generator is another model than the plain one it replaces: runs and reports name it
    tuned = tuned_spec(context.generator_model, context.tuned_generator)
    model = driver.model_name(tuned or context.generator_model)
    out = Path(out_dir) if out_dir else driver.default_out_dir(
        "toolformer", Path(path).name if path else "prompts", split, model.replace(":", "-"))

    if solve is None:
        from graphreason.workflows.toolformer import solve as toolformer_solve

        solve = toolformer_solve

    def solve_item(item: dict[str, Any]) -> dict[str, Any]:
        if gold:
            output = dict(solve(item["answer"], replace(context), has_calls=True))
        else:
            output = dict(solve(item["question"], replace(context)))
        output["answer"] = output.get("annotated", "")  # the runner records the answer as the prediction
        output["details"] = record_details(output)
        return output

    meta = {
        "title": "Graph-ToolFormer evaluation" + (" (gold annotations: oracle)" if gold else ""),
        "path": str(path) if path else "Graph_Toolformer/prompt (data root)",
        "split": split,
        "limit": limit,
        "gold": gold,
        "generator_model": model,
        "tuned_generator": context.tuned_generator,
        "execute_calls": context.execute_calls,
        "grammar": bool(tuned) and context.grammar,  # only the embedded tuned generator is constrained
        "few_shot": 0 if tuned else context.few_shot,  # the tuned generator is shown no examples
        "embedding_model": context.embedding_model,
        "max_tokens": context.max_tokens,
    }
    return driver.run_eval(
        items, {model: solve_item}, out, meta, TOOLFORMER_REPORT,
        score_fn=lambda item, output: score(item, output, executed=context.execute_calls),
        concurrency=concurrency, progress=progress, settings={model: driver.answer_settings(meta, context)},
    )
