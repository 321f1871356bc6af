"""Embedded SmolLM2-135M-Instruct: load times and generation speed.

Prints the cold start (GGUF conversion into an empty cache), the warm start (cache
present) and greedy generation speed over a few prompts (128 new tokens each) for
each precision and thread count. Tokens/s is wall-clock, prompt processing included;
tokens per CPU-second is printed too because it is less sensitive to other load on
the machine (compare it with the thread count).

    python benchmarks/bench_embedded_model.py [--threads 1,2] [--precisions int8,fp16,fp32]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

import torch

from graphreason.llm.engine.cpu_threads import apply_thread_choice
from graphreason.llm.engine.local_smollm import load_engine
from graphreason.llm.engine.weights import model_cache_dir
from graphreason.settings import CACHE

PROMPTS = [
    "Write a long story about a dragon who learns to read.",
    "Explain in detail how a search engine ranks web pages.",
    "Describe the water cycle step by step, with examples.",
]


def timed_load(precision: str) -> float:
    start = time.perf_counter()
    load_engine(2048, precision)
    return time.perf_counter() - start


def load_times() -> None:
    """Cold and warm load in a throw-away cache, so the user's cache is left alone."""
    scratch = tempfile.mkdtemp(prefix="bench-smollm-")
    try:
        with CACHE.set_to(scratch):
            cold = timed_load("int8")
            warm = timed_load("int8")
            size = sum(p.stat().st_size for p in model_cache_dir().rglob("*") if p.is_file())
        print(f"cold start (convert GGUF + load int8): {cold:6.1f} s   cache size {size / 2**20:.0f} MiB")
        print(f"warm start (load cache, int8)        : {warm:6.1f} s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def generation_speed(precision: str, threads: int, max_tokens: int) -> None:
    torch.set_num_threads(threads)
    started = time.perf_counter()
    engine = load_engine(2048, precision)
    load = time.perf_counter() - started
    engine.generate([("user", "Hello")], max_tokens=4)  # warm-up
    tokens, wall, cpu = 0, 0.0, 0.0
    for prompt in PROMPTS:
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        result = engine.generate([("user", prompt)], max_tokens=max_tokens, temperature=0.0)
        wall += time.perf_counter() - wall_start
        cpu += time.process_time() - cpu_start
        tokens += result.completion_tokens
    print(
        f"{precision:5s} threads={threads}  load {load:5.1f} s  {tokens:4d} tokens in {wall:5.1f} s"
        f"  = {tokens / wall:6.1f} tokens/s  ({tokens / cpu:6.1f} per CPU-second)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="2", help="comma-separated torch thread counts")
    parser.add_argument("--precisions", default="int8,fp16,fp32")
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--skip-cold", action="store_true", help="skip the cold-start conversion")
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    # The engine applies this choice once per process; the runs below then set each count explicitly.
    auto = apply_thread_choice()
    print(f"automatic thread choice: {auto.threads} ({auto.reason})")
    if not args.skip_cold:
        load_times()
    load_engine(2048, "fp32")  # make sure the user's cache exists before timing warm loads
    for threads in (int(t) for t in args.threads.split(",")):
        for precision in args.precisions.split(","):
            generation_speed(precision, threads, args.max_tokens)


if __name__ == "__main__":
    main()
