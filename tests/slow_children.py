"""The suite's two slowest child processes, started with the session (tests/conftest.py) beside the other tests.

``graphreason demo`` and a conversion with scalar kernels and one thread (see
tests/integration/test_local_model.py) each keep about one core busy for half
a minute and share nothing. The rest of the suite keeps about one core of a
2-core machine busy (measured: 7m42s of CPU time in a 7m43s run), so both
children start before the first test, and their tests run last
(tests/conftest.py), when the children have finished, instead of waiting for
them. A child whose test is not selected is not started. Under pytest-xdist
(``make test``) the first worker starts them and any worker reads their results.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from graphreason.settings import data_root
from tests.conftest import SlowChild, start_slow_child

REPO = Path(__file__).resolve().parents[1]
CHILD_LIMIT_S = 900  # a safety net for a hung child only
DEMO_DATA = "cora-citeseer-text"  # the graph the demo's Counselor part reads


def _demo(workdir: Path) -> SlowChild:
    """``graphreason demo`` as a user runs it (tracebacks off, the session's cache)."""
    env = dict(os.environ)
    env.pop("GRAPHREASON_DEBUG", None)
    argv = [str(Path(sys.executable).parent / "graphreason"), "demo"]
    return start_slow_child(argv, workdir, env=env, cwd=REPO, limit_s=CHILD_LIMIT_S)


def _scalar_conversion(workdir: Path) -> SlowChild:
    """A conversion into the empty cache ``workdir/cache`` with scalar kernels (not AVX2) and one thread."""
    env = dict(os.environ, GRAPHREASON_CACHE=str(workdir / "cache"), GRAPHREASON_THREADS="1")
    env["ATEN_CPU_CAPABILITY"] = "default"
    code = "from graphreason.llm.engine.local_smollm import load_engine; load_engine(64, 'fp32')"
    return start_slow_child([sys.executable, "-c", code], workdir, env=env, cwd=REPO, limit_s=CHILD_LIMIT_S)


# fixture name -> how to start its child, and whether it can run here
SLOW_CHILDREN: dict[str, tuple[Callable[[Path], SlowChild], Callable[[], bool]]] = {
    "demo_run": (_demo, lambda: (data_root() / DEMO_DATA).exists()),
    "scalar_conversion": (_scalar_conversion, lambda: True),
}
