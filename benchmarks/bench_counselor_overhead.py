"""LangGraph overhead per Graph Counselor step, measured with the scripted model.

One step is four nodes (plan, think, act, observe). Wall time per step minus
graph-function time and minus the time inside the three chat-model invocations
is the orchestration overhead (state merges, routing, prompt rendering, events);
the figure with the LangChain invocation machinery included is printed too.

    python benchmarks/bench_counselor_overhead.py [--steps 50] [--runs 5]
Target: <= 2 ms per step.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "mini_academic.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("GRAPHREASON_CACHE", tempfile.mkdtemp(prefix="gr-bench-"))

    from graphreason.workflows.counselor import CounselorContext
    from graphreason.workflows.counselor.graph import graph
    from graphreason.workflows.models.scripted import ScriptedChatModel

    def one_run() -> tuple[float, float, float, int]:
        script = []
        for i in range(1, args.steps + 1):
            script += [f"Plan {i}: count", f"Thought {i}: count", f"Action {i}: Degree[p2, cited_by]"]
        model = ScriptedChatModel(script=script)
        ctx = CounselorContext(
            graph=str(FIXTURE),
            embedding_model="hash",
            reasoner_model=model,
            reflector_model=model,
            judge_model=model,
            max_steps=args.steps,
            max_reflections=0,
        )
        start = time.perf_counter()
        out = graph.invoke({"question": "How many papers cite p2?"}, context=ctx)
        wall = time.perf_counter() - start
        usage = out["usage"]
        return (
            wall,
            usage.get("tool_seconds", 0.0),
            usage.get("llm_seconds", 0.0),
            len(out["trials"][0]["steps"]),
        )

    one_run()  # warm-up: loads the graph and builds the hash index
    total, graph_only = [], []
    for _ in range(args.runs):
        wall, tools, llm, steps = one_run()
        total.append((wall - tools) / steps * 1000)
        graph_only.append((wall - tools - llm) / steps * 1000)
    print(f"Counselor overhead per step, {args.steps} steps x {args.runs} runs (scripted model)")
    print(
        f"  LangGraph + workflow code (model calls excluded): median {statistics.median(graph_only):.3f} ms, "
        f"max {max(graph_only):.3f} ms (target <= 2 ms)"
    )
    print(
        f"  including 3 LangChain chat-model invocations:      median {statistics.median(total):.3f} ms, "
        f"max {max(total):.3f} ms"
    )


if __name__ == "__main__":
    main()
