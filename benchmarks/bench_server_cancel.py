"""A cancel of a served run at any age: a GAR search cancelled at 300 s stops, and the next client's run starts.

LangGraph's in-memory runtime stops listening for a run's cancel message 240 s after the run
began; the project watches each served run's cancellation itself. This starts a real
``langgraph dev`` (the repo's config, a fake OpenAI-compatible endpoint for the master), starts
an exact Hamiltonian-path search that would take minutes (the owner raised ``search_seconds``
with ``GRAPHREASON_SERVER_LIMITS``), cancels it at ``--after`` seconds, and measures:

* how long after the cancel request the run stops reading ``running``;
* the cores the server's processes use over the ``--idle`` seconds after that;
* how long the next client's small GAR run takes to answer.

Writes ``benchmarks/results/server_cancel.json``.

    python benchmarks/bench_server_cancel.py [--after 300] [--idle 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from record import write_result  # noqa: E402

from tests.integration.graph_server import graph_server, served_config  # noqa: E402
from tests.integration.test_server_security import (  # noqa: E402
    Endpoint,
    _busy,
    _run_status,
    _start_search,
    http,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--after", type=float, default=300.0, help="age of the run at the cancel, seconds")
    parser.add_argument("--idle", type=float, default=2.0, help="seconds over which the server's cores are measured")
    args = parser.parse_args()
    endpoint = Endpoint()
    try:
        with tempfile.TemporaryDirectory() as folder:
            tmp = Path(folder)
            env_file = tmp / ".env"
            env_file.write_text(f"OPENAI_API_KEY=sk-bench\nOPENAI_BASE_URL={endpoint.url}\n")
            env = {"GRAPHREASON_SERVER_LIMITS": f"search_seconds={args.after * 3:g},search_max_steps={10**12}"}
            with graph_server(tmp, env, config=served_config(tmp, env_file), test_hooks=False) as served:
                figures = measure(served["base"], served["process"].pid, args.after, args.idle)
    finally:
        endpoint.close()
    print(json.dumps(figures, indent=1))
    write_result("server_cancel", figures)


def measure(base: str, pgid: int, after: float, idle: float) -> dict:
    began = time.monotonic()
    thread, run_id = _start_search(base, seconds=after * 3, steps=10**12)
    while time.monotonic() - began < after:
        time.sleep(1.0)
        if _run_status(base, thread, run_id) != "running" and time.monotonic() - began > 30:
            raise SystemExit(f"the search ended by itself after {time.monotonic() - began:.0f} s: nothing to cancel")
    busy_before = _busy(pgid, 2.0)
    age = time.monotonic() - began
    asked = time.monotonic()
    status, _, raw = http("POST", f"{base}/threads/{thread}/runs/{run_id}/cancel", None)
    if status not in (200, 202, 204):
        raise SystemExit(f"the cancel was refused: {status} {raw[:300]!r}")
    while _run_status(base, thread, run_id) == "running":
        if time.monotonic() - asked > 60:
            raise SystemExit("the run still reads running 60 s after its cancel")
        time.sleep(0.1)
    stopped = time.monotonic() - asked
    cores_after = _busy(pgid, idle)
    body = {
        "assistant_id": "gar",
        "input": {"question": "Edges: (0,1) (1,2). Is there a path from 0 to 2?"},
        "context": {"master_model": "openai:fake", "embedding_model": "hash", "llm_parse": False},
    }
    start = time.monotonic()
    status, _, raw = http("POST", f"{base}/runs/wait", body)
    next_run = time.monotonic() - start
    answered = status == 200 and b'"answer"' in raw
    print(f"cancel at {age:.0f} s: the run stopped reading running {stopped:.2f} s after the request; "
          f"{cores_after:.2f} cores over the next {idle:g} s (before: {busy_before:.2f}); "
          f"the next client's run {'answered' if answered else 'did NOT answer'} in {next_run:.1f} s")  # fmt: skip
    return {
        "run_age_at_cancel_s": round(age, 1),
        "runtime_listener_s": 240,
        "cores_before_cancel": round(busy_before, 2),
        "stopped_after_cancel_s": round(stopped, 2),
        "idle_window_s": idle,
        "cores_after_cancel": round(cores_after, 2),
        "next_run_answered": answered,
        "next_run_s": round(next_run, 1),
        "final_status": _run_status(base, thread, run_id),
    }


if __name__ == "__main__":
    main()
