"""The run settings every method shares, declared once: endpoint, sampling, request limits.

Each method's runtime context (``workflows/<method>/context.py``) extends
:class:`RunContext` with its own roles and limits, declaring only its own
fields (and the defaults it changes). A field is declared with :func:`setting`:
its metadata holds its description (what Studio shows and what ``--help``
prints) and, where the command line spells it differently, its flag;
:mod:`graphreason.context_options` turns the fields into CLI options, so a
default is written in one place only. Every ``Literal`` field (a method's
``mode``) is checked against its values here, and the fields naming a model
are found here for the server policy.

Model-spec fields are typed :data:`ModelName` (``Optional`` form:
:data:`OptionalModelName`): a string annotated with the LangGraph templates'
``{"__template_metadata__": {"kind": "llm"}}``, which Studio reads as "offer a
model picker". The annotation also puts that key into the JSON schema the
server exposes (pydantic drops plain dicts in ``Annotated``), and it is how the
server policy finds the fields naming a model.
"""

from __future__ import annotations

import functools
import math
import typing
from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any, ClassVar, Literal, get_args, get_origin

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


def setting(default: Any, text: str, **how: Any) -> Any:
    """A context field: its ``default`` and description; ``how`` as :func:`describe` takes it."""
    return field(default=default, metadata=describe(text, **how))


class _SchemaHint(dict):
    """``Annotated`` metadata that reads as the templates' plain dict and is copied into the JSON schema.

    pydantic (which builds the schema ``langgraph dev`` serves) ignores foreign
    ``Annotated`` objects unless they offer this hook.
    """

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        schema.update(self)
        return schema


LLM_PICKER = _SchemaHint({"__template_metadata__": {"kind": "llm"}})
ModelName = Annotated[str, LLM_PICKER]
OptionalModelName = Annotated[str | None, LLM_PICKER]


# The spec forms a model field takes, as its description shows them.
SPEC_FORMS = (
    "local (embedded SmolLM2), openai:MODEL or another provider:MODEL of langchain's init_chat_model "
    "(scripted:FILE.json from the CLI and Python only)"
)


def main_model(role: str) -> Any:
    """The field of a method's main model (``--model``, default ``local``); ``role`` says what the model does."""
    return setting("local", f"{role}: {SPEC_FORMS}.", flag="--model")


@functools.cache  # contexts are built per run; their classes never change
def literal_choices(context_cls: type) -> dict[str, tuple[Any, ...]]:
    """The fields of ``context_cls`` typed ``Literal[...]`` (such as ``mode``), with their allowed values."""
    hints = typing.get_type_hints(context_cls)
    return {
        f.name: get_args(hints[f.name]) for f in fields(context_cls) if get_origin(hints[f.name]) is Literal
    }


@functools.cache
def model_field_names(context_cls: type) -> tuple[str, ...]:
    """The fields of ``context_cls`` annotated as model specs, in declaration order."""
    hints = typing.get_type_hints(context_cls, include_extras=True)
    return tuple(
        f.name
        for f in fields(context_cls)
        if any(meta is LLM_PICKER for meta in getattr(hints.get(f.name), "__metadata__", ()))
    )


@dataclass(kw_only=True)
class RunContext:
    """Settings shared by every method's context (sampling defaults are overridden per method).

    Model fields (typed :data:`ModelName`, so Studio offers a model picker) take
    a spec string: ``local`` (embedded SmolLM2), ``openai:MODEL`` (the configured
    OpenAI-compatible endpoint), another ``provider:MODEL`` of ``init_chat_model``
    or, from the CLI and Python only, ``scripted:FILE.json``; Python callers may
    also pass a chat model (see :mod:`workflows.models.factory`). A context
    sent by a server client is checked by :mod:`tools.policy`.
    """

    embedding_model: str = setting(
        "minilm",
        "Sentence encoder for retrieval: minilm (embedded default), mpnet, hash (tests) or a local model folder.",
        flag="--embedding",
    )
    base_url: str | None = setting(
        None,
        "Base URL of an OpenAI-compatible endpoint for openai:MODEL specs (CLI and Python only; "
        "a server uses its own OPENAI_BASE_URL and refuses this field from clients).",
    )
    temperature: float = setting(0.7, "Sampling temperature of the main role.")
    top_p: float = setting(0.9, "Nucleus sampling top-p of every role.")
    max_tokens: int = setting(256, "Token budget of one reply of the main role.")
    seed: int | None = setting(None, "Sampling seed passed to backends that accept one.")
    timeout: float | None = setting(
        None,
        "Seconds one request to an openai:MODEL endpoint may take (unset: $GRAPHREASON_TIMEOUT or 60).",
        cli=False,  # the CLI's --timeout also bounds the endpoint probe, so it is added with the probe
    )
    max_retries: int | None = setting(
        None, "Retries of a failed endpoint request (unset: $GRAPHREASON_MAX_RETRIES or 2).", cli=False
    )

    # Model fields not typed ModelName (the server policy checks these too); typed ones are found alone.
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
        for name, choices in literal_choices(type(self)).items():  # e.g. a method's mode
            value = getattr(self, name)
            if value not in choices:
                raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(map(str, choices))}")

    @classmethod
    def model_fields(cls) -> tuple[str, ...]:
        """Every field naming a model: those typed :data:`ModelName`, then any listed in ``MODEL_FIELDS``."""
        return tuple(dict.fromkeys((*model_field_names(cls), *cls.MODEL_FIELDS)))

    def check_policy(self, *, graph_fields: tuple[str, ...] = ()) -> None:
        """Refuse what a server client may not set (see :mod:`tools.policy`)."""
        check_untrusted_context(
            self,
            model_fields=self.model_fields(),
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
