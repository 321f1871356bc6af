"""What a new user's machine does: clone, set up, run the suite and the demo, with an empty cache.

Clones this repository's committed HEAD into ``--where`` (beside the checkout by default, so the
clone finds the same ``../shared`` data), then times, with ``GRAPHREASON_CACHE`` pointing at an empty
folder and ``CI=true``:

* ``make .venv``: the set-up (the package caches of pip and uv are whatever this machine has);
* ``make dev``: the dev extras the suite needs (pytest, ruff, pyspark, the server), which ``make test``
  would otherwise install first;
* ``make test``: ruff, the import contracts, the docs build and pytest (its own seconds are read from
  pytest's summary line, with the count of tests passed and failed);
* ``make demo`` twice: once on the cache the suite left, once more warm.

Writes ``benchmarks/results/fresh_clone-<commit>.json``, one file per commit measured, so the docs'
plot of suite and demo time per release reads them all.

    python benchmarks/fresh_clone.py [--where DIR] [--no-demo]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import write_result  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> tuple[float, int, str]:
    """Run ``cmd``; (seconds, exit status, the output's last 4,000 characters)."""
    began = time.monotonic()
    with log.open("w") as out:
        code = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, check=False).returncode
    text = log.read_text(errors="replace")
    return round(time.monotonic() - began, 1), code, text[-4000:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--where", type=Path, default=REPO.parent / "fresh-clone-bench")
    parser.add_argument("--no-demo", action="store_true")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                            check=True).stdout.strip()  # fmt: skip
    shutil.rmtree(args.where, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(REPO), str(args.where)], check=True)
    cache = Path(tempfile.mkdtemp(prefix="graphreason-cache-"))
    env = {**os.environ, "GRAPHREASON_CACHE": str(cache), "CI": "true"}
    logs = Path(tempfile.mkdtemp(prefix="fresh-clone-logs-"))
    figures: dict = {}
    setup_s, code, tail = timed(["make", ".venv"], args.where, env, logs / "setup.log")
    figures.update(setup_s=setup_s, setup_ok=code == 0)
    if code != 0:
        raise SystemExit(f"make .venv failed:\n{tail}")
    dev_s, code, tail = timed(["make", "dev"], args.where, env, logs / "dev.log")
    figures.update(dev_setup_s=dev_s, dev_setup_ok=code == 0)
    if code != 0:
        raise SystemExit(f"make dev failed:\n{tail}")
    test_s, code, tail = timed(["make", "test"], args.where, env, logs / "test.log")
    summary = re.findall(r"=+ (.*?) in ([\d.]+)s", tail)
    counts = summary[-1][0] if summary else ""
    figures.update(
        make_test_s=test_s,
        make_test_ok=code == 0,
        pytest_s=float(summary[-1][1]) if summary else None,
        tests_passed=int(m.group(1)) if (m := re.search(r"(\d+) passed", counts)) else 0,
        tests_failed=int(m.group(1)) if (m := re.search(r"(\d+) failed", counts)) else 0,
    )
    if not args.no_demo:
        for label in ("demo_after_suite_s", "demo_warm_s"):  # each with its exit status as <label without _s>_ok
            seconds, code, tail = timed(["make", "demo"], args.where, env, logs / f"{label}.log")
            figures[label] = seconds
            figures[label[: -len("_s")] + "_ok"] = code == 0
    print(figures)
    write_result(f"fresh_clone-{commit}", figures, measured=commit)  # the clone's commit, whatever HEAD is by now
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
