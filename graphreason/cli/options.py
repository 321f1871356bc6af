"""Command-line pieces shared by the ``graphreason`` sub-commands (kept free of heavy imports)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def positive(text: str) -> int:
    """argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_eval_run_options(
    parser: argparse.ArgumentParser, *, items: str, verb: str, out: str, limit: str
) -> None:
    """How an eval works through its ``items``: ``--limit``, ``--concurrency``, ``--out``, ``--no-progress``.

    ``verb`` says what happens to one item ("answered"), ``out`` the default run
    folder, ``limit`` how the first N are chosen.
    """
    parser.add_argument("--limit", type=positive, default=None, help=limit)
    parser.add_argument(
        "--concurrency", type=positive, default=1, help=f"{items} {verb} in parallel (default 1)"
    )
    parser.add_argument(
        "--out", default=None, help=f"run folder (default: ./{out} under the current directory); rerun to resume"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def eval_run_values(args: argparse.Namespace) -> dict[str, Any]:
    """What :func:`add_eval_run_options` parsed, under the keyword names every eval function takes."""
    return {
        "limit": args.limit,
        "concurrency": args.concurrency,
        "out_dir": args.out,
        "progress": not args.no_progress,
    }


def add_json_option(parser: argparse.ArgumentParser, what: str = "the full output") -> None:
    """``--json``: print ``what`` as JSON instead of the streamed trace."""
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON instead")


def add_gar_master_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """``--model``, ``--embedding`` and ``--base-url`` of a GAR master, in a "models" group (returned)."""
    group = parser.add_argument_group("models")
    group.add_argument(
        "--model",
        default="local",
        help="master model spec: local (embedded SmolLM2), openai:MODEL or scripted:FILE.json (default: local)",
    )
    group.add_argument(
        "--embedding", default="minilm", help="library retrieval encoder: minilm (default), mpnet or hash"
    )
    group.add_argument(
        "--base-url", default=None, help="base URL of an OpenAI-compatible endpoint for openai:MODEL"
    )
    add_request_options(group)
    return group


def _seconds(text: str) -> float:
    """argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def non_negative(text: str) -> int:
    """argparse type: an integer of 0 or more."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def add_request_options(group: argparse._ArgumentGroup) -> None:
    """``--timeout`` and ``--max-retries`` of openai:MODEL requests (the client library's own retries)."""
    group.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        help="seconds one request to an openai:MODEL endpoint may take (default 60, or $GRAPHREASON_TIMEOUT)",
    )
    group.add_argument(
        "--max-retries",
        type=non_negative,
        default=None,
        help="retries of a failed request: timeouts, refused connections, HTTP 429 and 5xx (default 2, or "
        "$GRAPHREASON_MAX_RETRIES); one model call gives up after at most "
        "(max-retries + 1) x timeout seconds plus 0.5-8 s backoff between attempts",
    )


# the options that name a model, in every sub-command that has them
_MODEL_OPTIONS = (
    "reasoner_model",
    "master_model",
    "model",
    "reflector_model",
    "judge_model",
    "metric_judge_model",
    "agent_model",
    "generator_model",
)


@contextmanager
def prepared_models(args: argparse.Namespace, probe_seconds: float = 5.0) -> Iterator[None]:
    """Within the block: ``--timeout`` / ``--max-retries`` apply, every spec checked, endpoints probed.

    Entered before any graph or index is loaded, so a misspelt spec or a dead
    endpoint is reported in seconds rather than after minutes of set-up.
    Raises ``ModelConfigError`` (bad input) or ``ModelUnavailableError``. The
    limits are process-wide, so they are put back on exit (in-process callers
    such as tests then see no leftover).
    """
    from graphreason.workflows.models.factory import request_limit_overrides, set_request_limits

    before = request_limit_overrides()
    set_request_limits(getattr(args, "timeout", None), getattr(args, "max_retries", None))
    try:
        _check_models(args, probe_seconds)
        yield
    finally:
        set_request_limits(**before)


def _check_models(args: argparse.Namespace, probe_seconds: float) -> None:
    from graphreason.workflows.models.factory import ModelConfigError, ModelSpec, make_chat_model
    from graphreason.workflows.models.invoke import endpoint_of, probe_endpoint

    seen: set[str | None] = set()
    for option in _MODEL_OPTIONS:
        value = getattr(args, option, None)
        if (
            value is None
            or (option == "agent_model" and value == "rules")
            or (
                option == "generator_model" and value == "gold"  # eval toolformer's oracle: no model
            )
        ):
            continue
        flag = {"reasoner_model": "--model", "master_model": "--model"}.get(
            option, "--" + option.replace("_", "-")
        )
        try:
            spec = ModelSpec.parse(str(value), base_url=getattr(args, "base_url", None))
        except ModelConfigError as exc:
            raise ModelConfigError(f"{flag} {value!r}: {exc}") from None
        if spec.backend != "openai":
            continue
        model = make_chat_model(spec)
        if endpoint_of(model) not in seen:  # one probe per endpoint, however many roles use it
            seen.add(endpoint_of(model))
            probe_endpoint(model, timeout=min(probe_seconds, spec.timeout))
