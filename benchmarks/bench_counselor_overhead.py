"""LangGraph overhead per Graph Counselor step, measured with the scripted model.

One step is four nodes (plan, think, act, observe). The scripted model costs
microseconds, so wall time per step minus the graph-function time is the
orchestration overhead: state merges, prompt rendering, event streaming.

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

    from workflows.counselor import CounselorContext
    from workflows.counselor.graph import graph
    from workflows.models.scripted import ScriptedChatModel

    def one_run() -> tuple[float, float, int]:
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
        tools = out["usage"].get("tool_seconds", 0.0)
        return wall, tools, len(out["trials"][0]["steps"])

    one_run()  # warm-up: loads the graph and builds the hash index
    per_step = []
    for _ in range(args.runs):
        wall, tools, steps = one_run()
        per_step.append((wall - tools) / steps * 1000)
    print(f"Counselor orchestration overhead, {args.steps} steps x {args.runs} runs (scripted model)")
    print(
        f"  per step: median {statistics.median(per_step):.3f} ms, max {max(per_step):.3f} ms (target <= 2 ms)"
    )


if __name__ == "__main__":
    main()
