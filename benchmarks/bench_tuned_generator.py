"""The tuned Graph-ToolFormer generator against the plain embedded model: decoding speed and time per question.

Two measurements, each alternating plain and tuned rounds so that load on the
machine hits both alike:

* decode speed: the same prompt prefilled, then a fixed number of greedy tokens
  with no stop (merged weights have the plain model's shapes, so this is the
  engine's speed with each weight set; the target is tuned >= 90% of plain);
* per question: the workflow's generator call on validation inputs, each model
  with its own prompt (plain: instruction + 4 retrieved examples; tuned: the
  short prompt it was trained on), tokens/s and seconds per question; the tuned
  model both decoding freely and held to the call grammar (the default), which
  prices the grammar's checks.

    python benchmarks/bench_tuned_generator.py [--rounds 3] [--tokens 96] [--questions 8] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

from graphreason.llm.engine.chatml import DEFAULT_SYSTEM_PROMPT
from graphreason.llm.engine.cpu_threads import apply_thread_choice
from graphreason.llm.engine.local_smollm import LocalEngine, get_engine

PROMPT = "Input: What is the topic of paper #1033 in the cora bibliographic network?\nOutput:"


@torch.no_grad()
def decode_tokens_per_second(engine: LocalEngine, tokens: int) -> float:
    """Greedy decoding of ``tokens`` tokens after the prompt, ignoring end tokens (prefill excluded)."""
    ids = engine.fit_prompt([("system", DEFAULT_SYSTEM_PROMPT), ("user", PROMPT)], tokens)[0]
    logits = engine.decoder(torch.tensor(ids), 0)
    position = len(ids)
    started = time.perf_counter()
    for _ in range(tokens):
        token = int(logits.argmax())
        logits = engine.decoder(torch.tensor([token]), position)
        position += 1
    engine._cached = []  # the decoder cache now holds this run's tokens, not a prompt the engine knows
    return tokens / (time.perf_counter() - started)


def questions(n: int) -> list[str]:
    from graphreason.tools.toolformer.loaders.prompts import iter_prompt_files, read_prompts
    from graphreason.tools.toolformer.loaders.split import split_records

    chosen: list[str] = []
    files = [f for _, f in iter_prompt_files(None) if f.name == "prompts_train"]
    for file in files:
        _, validation = split_records(read_prompts(file))
        chosen.extend(r.input for r in validation[: max(1, n // len(files))])
    return chosen[:n]


def per_question(tuned: bool, inputs: list[str], grammar: bool = True) -> tuple[float, float]:
    """``(tokens/s, seconds per question)`` of the workflow's generator call."""
    from graphreason.workflows.toolformer import ToolformerContext, solve

    context = ToolformerContext(tuned_generator=tuned, grammar=grammar, execute_calls=False)
    tokens, seconds = 0, 0.0
    for text in inputs:
        usage = solve(text, context)["usage"]
        tokens += usage["output_tokens"]
        seconds += usage["llm_seconds"]
    return tokens / seconds, seconds / len(inputs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=96)
    parser.add_argument("--questions", type=int, default=8, help="validation inputs for the per-question rows")
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: the engine's choice)")
    args = parser.parse_args()
    if args.threads:  # the engine applies its thread choice at load: pass it through its variable
        os.environ["GRAPHREASON_THREADS"] = str(args.threads)
    apply_thread_choice()
    engines = {"plain": get_engine(), "tuned": get_engine(adapter="toolformer")}
    speeds: dict[str, list[float]] = {name: [] for name in engines}
    for _ in range(args.rounds):
        for name, engine in engines.items():
            speeds[name].append(decode_tokens_per_second(engine, args.tokens))
    plain, tuned = (statistics.median(speeds[n]) for n in ("plain", "tuned"))
    print(f"decode ({args.tokens} tokens, median of {args.rounds}, {torch.get_num_threads()} threads): "
          f"plain {plain:.1f} tokens/s, tuned {tuned:.1f} tokens/s = {100 * tuned / plain:.1f}% of plain")
    inputs = questions(args.questions)
    for name, is_tuned, grammar in (
        ("plain, 4 examples", False, False), ("tuned, free", True, False), ("tuned, grammar", True, True),
    ):
        rate, each = per_question(is_tuned, inputs, grammar)
        print(f"per question ({len(inputs)} validation inputs), {name:17s}: {rate:5.1f} tokens/s, {each:5.2f} s each")


if __name__ == "__main__":
    main()
