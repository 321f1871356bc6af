"""The run settings every method shares, declared once: endpoint, sampling, request limits.

Each method's runtime context (``workflows/<method>/context.py``) extends
:class:`RunContext` with its own roles and limits, declaring only its own
fields (and the defaults it changes). A field is declared with :func:`setting`:
its metadata holds its description (what Studio shows and what ``--help``
prints) and, where the command line spells it differently, its flag;
:mod:`graphreason.cli.context_options` turns the fields into CLI options, so a
default is written in one place only. Every ``Literal`` field (a method's
``mode``) is checked against its values here.

Each field also has an environment variable, ``GRAPHREASON_<METHOD>_<FIELD>``
(:func:`env_name`): in the CLI and Python, a field the constructor was not
given takes that variable's value where one is set, checked like any other
value; a server's untrusted clients always get the declared defaults.

Safe by construction: every field that names something a server client could
abuse (a model, a graph, a file, an endpoint) says so in its type, and
:class:`RunContext` applies the server trust policy
(:mod:`graphreason.tools.core.policy`) to each declared field whenever a
context is built, after all validation, in every subclass: a method's context
writes no policy code. The declared types (all plain strings to Python, the
CLI and the JSON schema; the marker is ``Annotated`` metadata) are

* :data:`ModelName` / :data:`OptionalModelName`: a model spec (see below);
* :data:`GraphSpec`: a known graph name or a path to a graph (a server client:
  relative to the data root, never leading out of it);
* :data:`DataPath`: a file or folder, under the same rule;
* :data:`OwnerPath`: a file only the server's owner may choose (refused from
  clients whatever its value);
* :data:`PlainName`: a name that is never read as a path (refused if it looks
  like one, in any process);
* :data:`EmbedderName`: an embedder preset (a server client) or a model folder;
* :data:`EndpointURL`: an endpoint, which a server client may not set;
* :data:`PlainText`: a string that names nothing on disk (declared so the
  security tests know it was considered).

Model-spec fields are typed :data:`ModelName` (``Optional`` form:
:data:`OptionalModelName`): a string annotated with the LangGraph templates'
``{"__template_metadata__": {"kind": "llm"}}``, which Studio reads as "offer a
model picker". The annotation also puts that key into the JSON schema the
server exposes (pydantic drops plain dicts in ``Annotated``), and it is how the
server policy finds the fields naming a model.

A path read by a method goes through :meth:`RunContext.path_of`, which confines
a server client's path to the data root with symlinks followed (building a
context reads no disk: the server builds it inside its event loop).
"""

from __future__ import annotations

import functools
import math
import os
import types
import typing
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, get_args, get_origin

from graphreason.settings import parse_flag
from graphreason.tools.core.policy import (
    PolicyError,
    check_plain_name,
    check_server_limit,
    check_untrusted_context,
    context_is_untrusted,
    resolve_path,
    server_limit,
)

MAX_REQUEST_TIMEOUT = 600.0  # seconds; a client cannot hold a server worker longer on one request
MAX_CLIENT_TOKENS = 4096  # the most tokens a server client may ask of one reply (every role's budget)


def describe(
    text: str,
    *,
    flag: str | None = None,
    cli: bool = True,
    negate: str | None = None,
    low: float | None = None,
    high: float | None = None,
    server_max: float | None = None,
) -> dict[str, Any]:
    """Field metadata: ``text`` for Studio and ``--help``; how the field appears on the command line.

    ``flag`` renames the option (``reasoner_model`` is ``--model``); ``negate``
    gives a boolean that defaults to true a switch-off flag (``--no-planner``);
    ``cli=False`` keeps a field off the command line (set from Python or Studio).
    ``low`` / ``high`` bound a number (inclusive); :class:`RunContext` checks them
    for every field that declares them, so no context writes its own range check.
    ``server_max`` is the most a server client may ask for (steps, tokens,
    seconds: what one request may cost the server); every numeric field has
    one, or a ``high`` that serves as one (:func:`server_maxima`).
    """
    meta: dict[str, Any] = {"description": text, "cli": cli}
    if flag:
        meta["flag"] = flag
    if negate:
        meta["negate"] = negate
    if low is not None or high is not None:
        meta["bounds"] = (low, high)
    if server_max is not None:
        meta["server_max"] = server_max
    return meta


def check_bounds(context: Any) -> None:
    """Refuse a number outside the ``low`` / ``high`` its field declares (unset optional fields pass)."""
    for item in fields(context):
        bounds = item.metadata.get("bounds")
        value = getattr(context, item.name)
        if bounds is None or value is None:
            continue
        low, high = bounds
        inside = not (isinstance(value, float) and math.isnan(value))
        inside = inside and (low is None or value >= low) and (high is None or value <= high)
        if not inside:
            if high is None:
                rule = f"at least {low:g}"
            elif low is None:
                rule = f"at most {high:g}"
            else:
                rule = f"in {low:g}..{high:g}" if isinstance(low, int) and isinstance(high, int) else f"in [{low:g}, {high:g}]"
            raise ValueError(f"{item.name} must be {rule}, got {value}")


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


class FieldKind:
    """``Annotated`` metadata saying what a string field names, for the server policy.

    pydantic and the CLI ignore it (the field stays a plain ``str`` in the JSON
    schema and on the command line); :func:`field_kinds` finds it.
    """

    __slots__ = ("name", "rule")

    def __init__(self, name: str, rule: str) -> None:
        self.name = name
        self.rule = rule  # what a server client may put there, in a few words

    def __repr__(self) -> str:
        return f"FieldKind({self.name!r})"


GRAPH = FieldKind("graph", "a known graph name or a path relative to the data root")
DATA_PATH = FieldKind("path", "a path relative to the data root")
OWNER_PATH = FieldKind("owner_path", "nothing: only the server's owner may set it")
NAME = FieldKind("name", "a name, never a path")
EMBEDDER = FieldKind("embedder", "an embedder preset")
ENDPOINT = FieldKind("endpoint", "nothing: the server uses its own endpoint")
TEXT = FieldKind("text", "anything: it names nothing on disk")

GraphSpec = Annotated[str, GRAPH]
DataPath = Annotated[str | None, DATA_PATH]
OwnerPath = Annotated[str | None, OWNER_PATH]
PlainName = Annotated[str, NAME]
EmbedderName = Annotated[str, EMBEDDER]
EndpointURL = Annotated[str | None, ENDPOINT]
PlainText = Annotated[str, TEXT]

MODEL = "model"  # the kind field_kinds gives model fields (marked by LLM_PICKER or listed in MODEL_FIELDS)


# The spec forms a model field takes, as its description shows them.
SPEC_FORMS = (
    "local (embedded SmolLM2), openai:MODEL or another provider:MODEL of langchain's init_chat_model "
    "(provider/MODEL also reads; scripted:FILE.json from the CLI and Python only)"
)


def names_embedded_model(model: object) -> bool:
    """True for a ``local`` spec: the embedded SmolLM2 (with or without an adapter after the colon)."""
    return isinstance(model, str) and model.strip().lower().partition(":")[0] == "local"


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


@functools.cache
def field_kinds(context_cls: type) -> dict[str, str]:
    """The declared kind of each field of ``context_cls`` that has one (``model``, ``graph``, ``path``, ...).

    Model fields are those typed :data:`ModelName` and those listed in the
    class's ``MODEL_FIELDS``; the others carry a :class:`FieldKind` in their
    ``Annotated`` type. A field declared as two kinds is a mistake (TypeError).
    """
    hints = typing.get_type_hints(context_cls, include_extras=True)
    listed = set(getattr(context_cls, "MODEL_FIELDS", ()))
    kinds: dict[str, str] = {}
    for item in fields(context_cls):
        metadata = getattr(hints.get(item.name), "__metadata__", ())
        found = {meta.name for meta in metadata if isinstance(meta, FieldKind)}
        if item.name in listed or any(meta is LLM_PICKER for meta in metadata):
            found.add(MODEL)
        if len(found) > 1:
            raise TypeError(f"{context_cls.__name__}.{item.name} is declared as {' and '.join(sorted(found))}")
        if found:
            kinds[item.name] = found.pop()
    return kinds


def _is_number_type(hint: Any) -> bool:
    """``int``, ``float`` or either of them ``| None`` (``bool`` is not a number here)."""
    if hint in (int, float):
        return True
    args = get_args(hint)
    return bool(args) and type(None) in args and all(a in (int, float, type(None)) for a in args)


@functools.cache
def number_fields(context_cls: type) -> dict[str, tuple[bool, bool]]:
    """Each numeric field of ``context_cls``: ``(whole numbers only, None allowed)``."""
    hints = typing.get_type_hints(context_cls)
    found = {}
    for item in fields(context_cls):
        hint = hints[item.name]
        if _is_number_type(hint):
            kinds = set(get_args(hint) or (hint,)) - {type(None)}
            found[item.name] = (kinds == {int}, type(None) in get_args(hint))
    return found


def check_number_types(context: Any) -> None:
    """A numeric field holds a number of its kind before anything compares it: the message says so.

    A string, a list, ``True`` or (where unset is not allowed) ``None`` is refused; a whole-number
    field takes an integral float as that integer (2.0 -> 2) and refuses 2.5. Raises the policy's
    :class:`PolicyError` for a server client, ``ValueError`` elsewhere.
    """
    for name, (whole, nullable) in number_fields(type(context)).items():
        value = getattr(context, name)
        if value is None and nullable:
            continue
        kind = "a whole number" if whole else "a number"
        wrong = value is None or isinstance(value, bool) or not isinstance(value, int | float)
        if not wrong and whole and isinstance(value, float):
            wrong = not (math.isfinite(value) and value.is_integer())
            if not wrong:
                setattr(context, name, int(value))
        if wrong:
            raise (PolicyError if context_is_untrusted() else ValueError)(
                f"{name}={value!r} is refused: {name} takes {kind}" + (" or null (unset)" if nullable else "")
            )


@functools.cache
def server_maxima(context_cls: type) -> dict[str, float | None]:
    """Each numeric field of ``context_cls`` with the most a server client may set it to, as declared.

    The declared maximum is the field's ``server_max``, or its ``high`` bound
    (whichever is lower); ``None`` marks a numeric field that declares neither
    (a test requires there be none). ``GRAPHREASON_SERVER_LIMITS`` overrides
    these at run time (:func:`graphreason.tools.core.policy.server_limit`).
    """
    hints = typing.get_type_hints(context_cls)
    maxima: dict[str, float | None] = {}
    for item in fields(context_cls):
        if not _is_number_type(hints[item.name]):
            continue
        high = item.metadata.get("bounds", (None, None))[1]
        declared = [v for v in (high, item.metadata.get("server_max")) if v is not None]
        maxima[item.name] = min(declared) if declared else None
    return maxima


def fields_of_kind(context_cls: type, kind: str) -> tuple[str, ...]:
    """The fields of ``context_cls`` declared as ``kind``, in declaration order."""
    return tuple(name for name, declared in field_kinds(context_cls).items() if declared == kind)


ENV_PREFIX = "GRAPHREASON_"


def base_type(annotation: Any) -> Any:
    """The type a field's text is read as: ``int | None`` -> ``int`` (a union of several types: ``str``)."""
    if get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else str
    return annotation


@functools.cache
def env_key(context_cls: type) -> str:
    """The method part of ``context_cls``'s environment variables: ``COUNSELOR`` for Graph Counselor's context.

    It is the class's ``ENV_KEY`` when set, else the package under ``workflows`` that declares the class
    (so a method's package name), else the class name without ``Context``.
    """
    declared = getattr(context_cls, "ENV_KEY", "")
    if declared:
        return declared.upper()
    parts = context_cls.__module__.split(".")
    if "workflows" in parts[:-1]:
        return parts[parts.index("workflows") + 1].upper()
    return context_cls.__name__.removesuffix("Context").upper()


def env_name(context_cls: type, name: str) -> str:
    """The environment variable that sets field ``name``'s default: ``GRAPHREASON_<METHOD>_<FIELD>``."""
    return f"{ENV_PREFIX}{env_key(context_cls)}_{name.upper()}"


def _env_value(context_cls: type, item: Any, raw: str) -> Any:
    """``raw`` (an environment value) read as field ``item``'s type; ValueError names the variable."""
    hint = typing.get_type_hints(context_cls)[item.name]
    nullable, kind = type(None) in get_args(hint), base_type(hint)
    text = raw.strip()
    where = f"{env_name(context_cls, item.name)}={raw!r}"
    if nullable and text.lower() in ("none", "null", "unset"):
        return None
    if kind is bool:
        try:
            return parse_flag(text)
        except ValueError:
            raise ValueError(f"{where} is refused: {item.name} takes true or false") from None
    if kind in (int, float):
        try:
            value = int(text) if kind is int else float(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise ValueError(f"{where} is refused: {item.name} takes {noun}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{where} is refused: {item.name} takes a finite number")
        return value
    return raw  # strings, Literal choices (checked with the field's other rules)


def env_default(context_cls: type, item: Any) -> tuple[Any, str | None]:
    """Field ``item``'s default as the environment sets it: ``(value, variable)``, or ``(declared, None)``.

    An unset or blank variable leaves the declared default; a value the field's type cannot take
    raises ``ValueError`` naming the variable.
    """
    name = env_name(context_cls, item.name)
    raw = os.environ.get(name, "")
    if raw.strip():
        return _env_value(context_cls, item, raw), name
    return item.default, None


def _apply_env_defaults(context: Any) -> dict[str, str]:
    """Fields left out of the constructor take their ``GRAPHREASON_<METHOD>_<FIELD>`` value, where set.

    Returns the fields set this way, each with its variable.

    Only in the CLI and Python: a server client's context keeps the declared defaults, so what the
    owner's environment says never meets the checks made for clients.
    """
    if context_is_untrusted():
        return {}
    given = getattr(context, "_given", None)
    if given is None:  # built without __new__'s record (a copy): nothing was left out
        return {}
    applied = {}
    for item in fields(context):
        if item.init and item.name not in given:
            value, variable = env_default(type(context), item)
            if variable is not None:
                object.__setattr__(context, item.name, value)
                applied[item.name] = variable
    return applied


@functools.cache
def _post_init_owner(context_cls: type) -> type:
    """The class whose ``__post_init__`` a ``context_cls`` instance runs first (the outermost one)."""
    return next(k for k in context_cls.__mro__ if "__post_init__" in vars(k))


def _then_trust_policy(owner: type, post_init: Any) -> Any:
    """``post_init`` followed by the trust policy, when ``owner``'s is the outermost ``__post_init__``.

    Every ``__post_init__`` of a :class:`RunContext` subclass is wrapped this
    way, so the policy runs once per context, after all of its validation,
    even when a subclass forgets to call ``super().__post_init__()``.
    """

    @functools.wraps(post_init)
    def __post_init__(self: RunContext) -> None:
        outermost = _post_init_owner(type(self)) is owner
        if not outermost:
            post_init(self)
            return
        # before any check, so an environment value is checked like any other
        from_env = _apply_env_defaults(self)
        try:
            check_number_types(self)  # before any __post_init__ compares a number
            self._canonical_model_specs()
            post_init(self)
        except ValueError as exc:
            named = [variable for name, variable in from_env.items() if name in str(exc)]
            if not named or any(variable in str(exc) for variable in named):
                raise
            raise ValueError(f"{exc} (set by {', '.join(named)})") from exc
        self._apply_trust_policy()

    __post_init__._trust_owner = owner  # type: ignore[attr-defined]
    return __post_init__


@dataclass(kw_only=True)
class RunContext:
    """Settings shared by every method's context (sampling defaults are overridden per method).

    Model fields (typed :data:`ModelName`, so Studio offers a model picker) take
    a spec string: ``local`` (embedded SmolLM2), ``openai:MODEL`` (the configured
    OpenAI-compatible endpoint), another ``provider:MODEL`` of ``init_chat_model``
    (``provider/MODEL``, the LangGraph templates' form, is read the same way)
    or, from the CLI and Python only, ``scripted:FILE.json``; Python callers may
    also pass a chat model (see :mod:`graphreason.workflows.models.factory`).

    Every context is checked against the server trust policy
    (:mod:`graphreason.tools.core.policy`) when it is built, field by declared
    kind (see the module docstring); subclasses declare their fields' kinds
    and write no policy code.
    """

    embedding_model: EmbedderName = setting(
        "minilm",
        "Sentence encoder for retrieval: minilm (embedded default), mpnet, hash (tests) or a local model folder.",
        flag="--embedding",
    )
    base_url: EndpointURL = setting(
        None,
        "Base URL of an OpenAI-compatible endpoint for openai:MODEL specs (CLI and Python only; "
        "a server uses its own OPENAI_BASE_URL and refuses this field from clients).",
    )
    temperature: float = setting(0.7, "Sampling temperature of the main role.", server_max=2.0)
    top_p: float = setting(0.9, "Nucleus sampling top-p of every role.", server_max=1.0)
    max_tokens: int = setting(256, "Token budget of one reply of the main role.", server_max=MAX_CLIENT_TOKENS)
    seed: int | None = setting(None, "Sampling seed passed to backends that accept one.", server_max=2**32 - 1)
    timeout: float | None = setting(
        None,
        "Seconds one request to an openai:MODEL endpoint may take (unset: $GRAPHREASON_TIMEOUT or 60).",
        server_max=MAX_REQUEST_TIMEOUT,
        cli=False,  # the CLI's --timeout also bounds the endpoint probe, so it is added with the probe
    )
    max_retries: int | None = setting(
        None, "Retries of a failed endpoint request (unset: $GRAPHREASON_MAX_RETRIES or 2).", cli=False,
        server_max=10,
    )

    # Model fields not typed ModelName (the server policy checks these too); typed ones are found alone.
    MODEL_FIELDS: ClassVar[tuple[str, ...]] = ()
    # The method part of the fields' environment variables (see env_key); by default the method's package.
    ENV_KEY: ClassVar[str] = ""

    def __new__(cls, *args: Any, **kwargs: Any) -> RunContext:
        # which fields the caller gave: the others may take their GRAPHREASON_<METHOD>_<FIELD> value
        self = super().__new__(cls)
        object.__setattr__(self, "_given", frozenset(kwargs))
        return self

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("__post_init__")
        if own is not None:
            if hasattr(own, "_trust_owner"):  # a class rebuilt by @dataclass(slots=True): wrap the original
                own = own.__wrapped__
            cls.__post_init__ = _then_trust_policy(cls, own)  # type: ignore[method-assign]

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
        check_bounds(self)  # every field declared with low / high, in every subclass
        for name, choices in literal_choices(type(self)).items():  # e.g. a method's mode
            value = getattr(self, name)
            if value not in choices:
                raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(map(str, choices))}")

    @classmethod
    def model_fields(cls) -> tuple[str, ...]:
        """Every field naming a model: those typed :data:`ModelName`, then any listed in ``MODEL_FIELDS``."""
        return tuple(dict.fromkeys((*model_field_names(cls), *cls.MODEL_FIELDS)))

    def _canonical_model_specs(self) -> None:
        """Model specs in ``provider/model`` form become ``provider:model`` before anything reads them."""
        from graphreason.workflows.models.factory import canonical_spec

        for name in self.model_fields():
            value = getattr(self, name)
            if isinstance(value, str) and "/" in value:
                object.__setattr__(self, name, canonical_spec(value))

    def _apply_trust_policy(self) -> None:
        """Refuse what a server client may not set, field by declared kind (runs on every build).

        Name fields are checked in every process (a path there would bypass
        the path rule); the rest only for server clients.
        """
        cls = type(self)
        paths = (*fields_of_kind(cls, GRAPH.name), *fields_of_kind(cls, DATA_PATH.name))
        for name in fields_of_kind(cls, NAME.name):
            check_plain_name(getattr(self, name), name, paths)
        defaults = {item.name: item.default for item in fields(cls)}
        for name, declared in server_maxima(cls).items():
            # a number without a declared maximum: a client may only leave it at its default
            check_server_limit(getattr(self, name), name, declared, default=defaults[name])
        check_untrusted_context(
            self,
            model_fields=self.model_fields(),
            embedding_fields=fields_of_kind(cls, EMBEDDER.name),
            graph_fields=fields_of_kind(cls, GRAPH.name),
            path_fields=fields_of_kind(cls, DATA_PATH.name),
            owner_fields=fields_of_kind(cls, OWNER_PATH.name),
            endpoint_fields=fields_of_kind(cls, ENDPOINT.name),
        )

    def budget(self, name: str) -> float | None:
        """The numeric field ``name`` as a budget: its value, else for a server client its server maximum.

        For budgets whose unset value means "no limit" (GAR's ``engine_seconds``, ``parse_seconds`` and
        ``answer_items``): the CLI and Python keep no limit, while a server client that sets none still
        gets the most it may ask for.
        """
        value = getattr(self, name)
        if value is not None or not context_is_untrusted():
            return value
        return server_limit(name, server_maxima(type(self))[name])

    def path_of(self, name: str) -> Path:
        """The file or folder that the path field ``name`` names (reads the disk).

        A server client's path must resolve inside the data root (or a folder in
        ``GRAPHREASON_GRAPH_DIRS``), symlinks followed; elsewhere a relative path
        is looked up in the working directory, then under the data root. Only
        fields declared :data:`GraphSpec` or :data:`DataPath` are paths.
        """
        if field_kinds(type(self)).get(name) not in (GRAPH.name, DATA_PATH.name):
            raise ValueError(f"{type(self).__name__}.{name} is not declared as a graph or data path")
        value = getattr(self, name)
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name} is unset; it names no file or folder")
        return resolve_path(value, name)

    def request_params(self) -> dict[str, Any]:
        """What every role's model spec takes from the context (unset values leave the spec's default)."""
        return {
            "base_url": self.base_url,
            "top_p": self.top_p,
            "seed": self.seed,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }


RunContext.__post_init__ = _then_trust_policy(RunContext, RunContext.__post_init__)  # type: ignore[method-assign]


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
