"""Start-up time of the CLI: what a user waits for before anything happens.

Each command runs ``--repeat`` times in a fresh process (the first run also
warms the file cache and is not counted); the median and the range of the wall
times are printed, with whether the process imported langgraph or torch.
``--help`` and ``--version`` must not import the methods; a method's own
``--help`` builds its options from every method context and costs more.

    python benchmarks/bench_cli_startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CLI = str(Path(sys.executable).parent / "graphreason")
COMMANDS = (["--help"], ["--version"], ["run", "--help"], ["run", "gar", "--help"])
# after the command ran, report whether heavy packages were imported (python -X importtime is too noisy)
PROBE = (
    "import runpy, sys; sys.argv = ['graphreason', *sys.argv[1:]]\n"
    "try:\n    runpy.run_module('graphreason.cli', run_name='__main__')\n"
    "except SystemExit:\n    pass\n"
    "print('IMPORTED', *[m for m in ('langgraph', 'torch', 'langchain_core') if m in sys.modules], file=sys.stderr)\n"
)


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([CLI, *argv], capture_output=True, check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    return time.perf_counter() - start


def imported(argv: list[str]) -> str:
    run = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True)
    line = next((x for x in run.stderr.splitlines() if x.startswith("IMPORTED")), "IMPORTED")
    return ", ".join(line.split()[1:]) or "none of langgraph / torch / langchain_core"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'command':<28} {'median s':>9} {'min-max s':>13}  imports")
    for argv in COMMANDS:
        timed(argv)  # warm-up
        times = [timed(argv) for _ in range(args.repeat)]
        label = "graphreason " + " ".join(argv)
        print(f"{label:<28} {statistics.median(times):>9.2f} {min(times):>6.2f}-{max(times):<6.2f}  {imported(argv)}")


if __name__ == "__main__":
    main()
