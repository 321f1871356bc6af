"""The run settings every method shares, declared once: endpoint, sampling, request limits.

Each method's runtime context (``workflows/<method>/context.py``) extends
:class:`RunContext` with its own roles and limits. A field's metadata holds
its description (what Studio shows and what ``--help`` prints) and, where the
command line spells it differently, its flag; :mod:`graphreason.context_options`
turns the fields into CLI options, so a default is written in one place only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from tools.policy import check_untrusted_context

MAX_REQUEST_TIMEOUT = 600.0  # seconds; a client cannot hold a server worker longer on one request


def describe(
    text: str, *, flag: str | None = None, cli: bool = True, negate: str | None = None
) -> dict[str, Any]:
    """Field metadata: ``text`` for Studio and ``--help``; how the field appears on the command line.

    ``flag`` renames the option (``reasoner_model`` is ``--model``); ``negate``
    gives a boolean that defaults to true a switch-off flag (``--no-planner``);
    ``cli=False`` keeps a field off the command line (set from Python or Studio).
    """
    meta: dict[str, Any] = {"description": text, "cli": cli}
    if flag:
        meta["flag"] = flag
    if negate:
        meta["negate"] = negate
    return meta


@dataclass(kw_only=True)
class RunContext:
    """Settings shared by every method's context (sampling defaults are overridden per method).

    Model fields take a spec string: ``local`` (embedded SmolLM2), ``openai:MODEL``
    (the configured OpenAI-compatible endpoint) or, from the CLI and Python only,
    ``scripted:FILE.json``. A context sent by a server client is checked by
    :mod:`tools.policy`.
    """

    embedding_model: str = field(
        default="minilm",
        metadata=describe(
            "Sentence encoder for retrieval: minilm (embedded default), mpnet, hash (tests) or a local model folder.",
            flag="--embedding",
        ),
    )
    base_url: str | None = field(
        default=None,
        metadata=describe(
            "Base URL of an OpenAI-compatible endpoint for openai:MODEL specs (CLI and Python only; "
            "a server uses its own OPENAI_BASE_URL and refuses this field from clients)."
        ),
    )
    temperature: float = field(default=0.7, metadata=describe("Sampling temperature of the main role."))
    top_p: float = field(default=0.9, metadata=describe("Nucleus sampling top-p of every role."))
    max_tokens: int = field(default=256, metadata=describe("Token budget of one reply of the main role."))
    seed: int | None = field(
        default=None, metadata=describe("Sampling seed passed to backends that accept one.")
    )
    timeout: float | None = field(
        default=None,
        metadata=describe(
            "Seconds one request to an openai:MODEL endpoint may take (unset: $GRAPHREASON_TIMEOUT or 60).",
            cli=False,  # the CLI's --timeout also bounds the endpoint probe, so it is added with the probe
        ),
    )
    max_retries: int | None = field(
        default=None,
        metadata=describe(
            "Retries of a failed endpoint request (unset: $GRAPHREASON_MAX_RETRIES or 2).", cli=False
        ),
    )

    # the fields naming a model, checked by the server policy; each method lists its roles
    MODEL_FIELDS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        if not (0.0 <= self.temperature <= 2.0):
            raise ValueError(f"temperature must be in [0, 2], got {self.temperature}")
        if not (0.0 < self.top_p <= 1.0):
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {self.max_tokens}")
        if self.timeout is not None and not (
            0 < self.timeout <= MAX_REQUEST_TIMEOUT and math.isfinite(self.timeout)
        ):
            raise ValueError(f"timeout must be in (0, {MAX_REQUEST_TIMEOUT:g}] seconds, got {self.timeout}")
        if self.max_retries is not None and not (0 <= self.max_retries <= 10):
            raise ValueError(f"max_retries must be in 0..10, got {self.max_retries}")

    def check_policy(self, *, graph_fields: tuple[str, ...] = ()) -> None:
        """Refuse what a server client may not set (see :mod:`tools.policy`)."""
        check_untrusted_context(
            self,
            model_fields=self.MODEL_FIELDS,
            embedding_fields=("embedding_model",),
            graph_fields=graph_fields,
        )

    def request_params(self) -> dict[str, Any]:
        """What every role's model spec takes from the context (unset values leave the spec's default)."""
        return {
            "base_url": self.base_url,
            "top_p": self.top_p,
            "seed": self.seed,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }


def with_settings(context: Any, settings: dict[str, Any], error: type[Exception] = ValueError) -> Any:
    """A copy of ``context`` with ``settings`` (field name -> value) applied and validated.

    Unknown names and invalid values raise ``error`` with the context's own
    message, so an eval reports them as its configuration errors.
    """
    known = {f.name for f in fields(context)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise error(
            f"unknown setting(s) {', '.join(unknown)}; {type(context).__name__} has {', '.join(sorted(known))}"
        )
    try:
        return replace(context, **settings)
    except (ValueError, TypeError) as exc:
        raise error(str(exc)) from exc


def shared_settings(context: RunContext) -> dict[str, Any]:
    """The :class:`RunContext` fields of ``context``: what a sub-run (another method's context) inherits."""
    return {f.name: getattr(context, f.name) for f in fields(RunContext)}
