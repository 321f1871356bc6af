"""Hostile server clients against any run context: what every :class:`RunContext` subclass must refuse.

:func:`assert_refuses_hostile_clients` reads a context class's declared field
kinds (:func:`graphreason.workflows.run_context.field_kinds`), so a new method's
context is covered without a list of its fields here. It builds the context as
a ``langgraph dev`` client would (``GRAPHREASON_SERVER=1``, clients not
trusted, a private data root with a symlink leading out of it) and checks that

* every hostile value on every declared field is refused, with a message
  naming the field and nothing about the server's folders;
* the values a client may use (the defaults, a preset model or embedder, a
  known graph, a path inside the data root) are accepted;
* no field that looks like a path, model or URL was left without a declared kind;
* every numeric field declares the most a client may set it to: a value above
  it, NaN and infinity are refused naming the field (and how the owner raises
  it), the maximum itself passes, ``GRAPHREASON_SERVER_LIMITS`` raises it, and
  a trusted process (CLI, Python) is not bound by it;
* a model field names only the providers the owner enabled: every other
  provider ``init_chat_model`` knows is refused until ``GRAPHREASON_PROVIDERS``
  lists it.

The environment is restored afterwards, whatever happens.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import typing
from collections.abc import Iterator
from dataclasses import MISSING, dataclass, fields
from pathlib import Path, PurePath
from typing import Any, Literal, get_args, get_origin

from graphreason.tools.core.policy import looks_like_path
from graphreason.workflows.run_context import (
    DATA_PATH,
    EMBEDDER,
    ENDPOINT,
    GRAPH,
    MODEL,
    NAME,
    OWNER_PATH,
    TEXT,
    RunContext,
    field_kinds,
    server_maxima,
)

# a field whose name holds one of these and that can hold text must declare what it names
SUSPECT_WORDS = ("path", "file", "dir", "graph", "model", "url")
ATTACKER_URL = "http://attacker.invalid/v1"
HOW_TO_DECLARE = (
    "type it ModelName/OptionalModelName, GraphSpec, DataPath, OwnerPath, PlainName, EmbedderName, "
    "EndpointURL or PlainText (graphreason.workflows.run_context), or list it in MODEL_FIELDS"
)
_TRUST_VARIABLES = (
    "GRAPHREASON_SERVER",
    "GRAPHREASON_TRUST_CLIENTS",
    "LANGSERVE_GRAPHS",
    "GRAPHREASON_MODELS",
    "GRAPHREASON_GRAPH_DIRS",
    "GRAPHREASON_DATA_ROOT",
    "GRAPHREASON_PROVIDERS",
    "GRAPHREASON_SERVER_LIMITS",
)


@dataclass(frozen=True)
class World:
    """The untrusted server's disk: its data root, a folder outside it, a symlink leading there."""

    root: Path  # the data root; holds mine/graph.json and escape -> outside
    outside: Path


@contextlib.contextmanager
def environment(**values: str | None) -> Iterator[None]:
    """Set (or, for None, remove) environment variables for the block, then restore them."""
    saved = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def untrusted_server() -> Iterator[World]:
    """A process that takes run contexts from untrusted clients, with a private data root."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        root, outside = Path(tmp) / "data", Path(tmp) / "outside"
        (root / "mine").mkdir(parents=True)
        outside.mkdir()
        (root / "mine" / "graph.json").write_text(json.dumps({}), encoding="utf-8")
        (outside / "graph.json").write_text(json.dumps({"secret": True}), encoding="utf-8")
        (root / "escape").symlink_to(outside, target_is_directory=True)
        unset = {name: None for name in _TRUST_VARIABLES}
        with environment(**{**unset, "GRAPHREASON_SERVER": "1", "GRAPHREASON_DATA_ROOT": str(root)}):
            yield World(root=root.resolve(), outside=outside.resolve())


def _can_hold_text(annotation: Any) -> bool:
    """True when a field of this type could carry a path, a spec or a URL (``str``, ``Path``, ``Any``, ...)."""
    if annotation in (str, bytes, Any, object):
        return True
    if isinstance(annotation, type) and issubclass(annotation, (PurePath, os.PathLike)):
        return True
    origin = get_origin(annotation)
    if origin is Literal:  # a fixed set of values names nothing a client chose
        return False
    if origin is not None:  # unions and containers: any member
        return any(_can_hold_text(arg) for arg in get_args(annotation) if arg is not Ellipsis)
    return False


def undeclared_suspect_fields(context_cls: type) -> list[str]:
    """Fields of ``context_cls`` that look like a path, model or URL and hold text, but declare no kind."""
    hints = typing.get_type_hints(context_cls)
    kinds = field_kinds(context_cls)
    return [
        item.name
        for item in fields(context_cls)
        if item.name not in kinds
        and any(word in item.name.lower() for word in SUSPECT_WORDS)
        and _can_hold_text(hints[item.name])
    ]


def _first_known_graph() -> str:
    from graphreason.tools.core.loaders import KNOWN_GRAPHS

    return next(iter(KNOWN_GRAPHS))


def _build(context_cls: type, values: dict[str, Any]) -> Any:
    try:
        return context_cls(**values)
    except (ValueError, TypeError) as exc:
        raise AssertionError(f"{context_cls.__name__}({values}) was refused but should pass: {exc}") from exc


def _expect_refusal(
    context_cls: type, values: dict[str, Any], names: tuple[str, ...], world: World, *, opened: str = ""
) -> None:
    """``context_cls(**values)`` must be refused naming one of ``names``; when ``opened`` names a path
    field, a refusal when that path is opened (``path_of``: symlinks are only seen on disk) also counts."""
    label = f"{context_cls.__name__}({', '.join(f'{k}={v!r}' for k, v in values.items())})"
    try:
        context = context_cls(**values)
    except ValueError as exc:  # PolicyError is a ValueError; a method's own validation may refuse first
        refusal: ValueError = exc
    else:
        if not opened:
            raise AssertionError(f"{label} was accepted from an untrusted client")
        try:
            where = context.path_of(opened)
        except ValueError as exc:
            refusal = exc
        else:
            raise AssertionError(f"{label} was accepted from an untrusted client and opens {where}")
    message = str(refusal)
    assert any(name in message for name in names), f"{label}: the refusal names none of {names}: {message}"
    echoed = message
    for value in values.values():  # the refusal may quote the client's own value back
        echoed = echoed.replace(str(value), "")
    assert str(world.root) not in echoed, f"{label}: the refusal shows the server's data root: {message}"


def _model_cases(context_cls: type, name: str, world: World) -> None:
    endpoints = tuple(n for n, kind in field_kinds(context_cls).items() if kind == ENDPOINT.name)
    for spec in ("scripted:/etc/passwd", f"scripted:{world.outside / 'graph.json'}", " Scripted:x.json"):
        _expect_refusal(context_cls, {name: spec}, (name,), world)
    for endpoint in endpoints:  # a model of the client's choice at an endpoint of the client's choice
        _expect_refusal(context_cls, {name: "openai:x", endpoint: ATTACKER_URL}, (name, endpoint), world)
    for spec in ("local", "openai:gpt-4o-mini"):
        _build(context_cls, {name: spec})
    with environment(GRAPHREASON_MODELS="local"):  # the owner offers some models only
        _expect_refusal(context_cls, {name: "openai:not-offered"}, (name,), world)
        _build(context_cls, {name: "local"})
    for provider in _other_providers():  # each would get the server's requests (and may find its keys)
        _expect_refusal(context_cls, {name: f"{provider}:some-model"}, (name, "GRAPHREASON_PROVIDERS"), world)
        _expect_refusal(context_cls, {name: f"{provider}/some-model"}, (name, "GRAPHREASON_PROVIDERS"), world)
    with environment(GRAPHREASON_PROVIDERS="langsmith"):  # the owner enables one more
        _build(context_cls, {name: "langsmith:some-model"})


def _other_providers() -> list[str]:
    """Every provider ``init_chat_model`` knows besides openai (none found: a short list of common ones)."""
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS
    except ImportError:
        return ["anthropic", "langsmith", "ollama", "mistralai"]
    return sorted(name for name in _BUILTIN_PROVIDERS if name != "openai")


def _above(value: float, is_int: bool) -> float:
    return int(value) + 1 if is_int else value * 1.5 + 1.0


def assert_numbers_bounded(context_cls: type) -> None:
    """Every numeric field of ``context_cls`` has a server maximum, enforced for untrusted clients only."""
    maxima = server_maxima(context_cls)
    undeclared = sorted(name for name, most in maxima.items() if most is None)
    assert not undeclared, (
        f"{context_cls.__name__}: numeric field(s) {', '.join(undeclared)} declare no server maximum; "
        "give each setting(..., server_max=N) (or high=N)"
    )
    hints = typing.get_type_hints(context_cls)
    defaults = {item.name: item.default for item in fields(context_cls)}
    for name, most in maxima.items():
        is_int = int in get_args(hints[name]) or hints[name] is int
        at_most = int(most) if is_int else most
        too_much = _above(most, is_int)
        nullable = type(None) in get_args(hints[name])
        with untrusted_server() as world:
            _expect_refusal(context_cls, {name: too_much}, (name,), world)
            if not is_int:
                for odd in (float("nan"), float("inf")):
                    _expect_refusal(context_cls, {name: odd}, (name,), world)
            # not numbers (JSON lets a client send any of these): the policy's message, never a TypeError
            for odd in ("1e9", [1e9], True, *(() if nullable else (None,)), *((2.5,) if is_int else ())):
                message = _refusal_message(context_cls, {name: odd})
                kind = "a whole number" if is_int else "a number"
                assert f"{name}={odd!r} is refused: {name} takes {kind}" in message, (context_cls.__name__, message)
            if _fits_other_checks(context_cls, name, at_most):
                _build(context_cls, {name: at_most})
            if _fits_other_checks(context_cls, name, too_much):  # only the server maximum refuses it
                message = _refusal_message(context_cls, {name: too_much})
                assert "GRAPHREASON_SERVER_LIMITS" in message, (
                    f"{context_cls.__name__}.{name}: the refusal does not say how the owner raises it: {message}"
                )
                with environment(GRAPHREASON_SERVER_LIMITS=f"{name}={too_much}"):  # the owner raises it
                    _build(context_cls, {name: too_much})
                with environment(GRAPHREASON_SERVER=None, GRAPHREASON_TRUST_CLIENTS="1"):  # CLI, Python
                    _build(context_cls, {name: too_much})
        assert defaults[name] is None or defaults[name] <= most, f"{context_cls.__name__}.{name}: default above max"


def _refusal_message(context_cls: type, values: dict[str, Any]) -> str:
    try:
        context_cls(**values)
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{context_cls.__name__}({values}) was accepted from an untrusted client")


def _fits_other_checks(context_cls: type, name: str, value: Any) -> bool:
    """Whether ``value`` passes the method's own rules (checked in a trusted process)."""
    with environment(GRAPHREASON_SERVER=None, GRAPHREASON_TRUST_CLIENTS="1"):
        try:
            context_cls(**{name: value})
        except ValueError:
            return False
    return True


def _embedder_cases(context_cls: type, name: str, world: World) -> None:
    for value in (str(world.outside), "mine", "../outside", "hash:99999999"):
        _expect_refusal(context_cls, {name: value}, (name,), world)
    for value in ("minilm", "hash", "hash:64"):
        _build(context_cls, {name: value})


def _endpoint_cases(context_cls: type, name: str, world: World) -> None:
    for value in (ATTACKER_URL, "http://127.0.0.1:1/v1"):
        _expect_refusal(context_cls, {name: value}, (name,), world)
    _build(context_cls, {name: None})


def _path_cases(context_cls: type, name: str, world: World) -> None:
    """Graph and data paths: a client names files inside the data root, by relative path only."""
    for value in (
        str(world.outside / "graph.json"),  # absolute, outside
        str(world.root / "mine"),  # absolute, even inside: clients name paths relative to the root
        "../outside/graph.json",
        "mine/../../outside",
        "~/graph.json",
    ):
        _expect_refusal(context_cls, {name: value}, (name,), world)
    for value in ("escape", "escape/graph.json"):  # a symlink inside the root that leads out
        _expect_refusal(context_cls, {name: value}, (name,), world, opened=name)
    for value in ("mine", "mine/graph.json"):
        where = _build(context_cls, {name: value}).path_of(name)
        assert where.is_relative_to(world.root), f"{context_cls.__name__}.{name}={value!r} opens {where}"


def _graph_cases(context_cls: type, name: str, world: World) -> None:
    _path_cases(context_cls, name, world)
    _build(context_cls, {name: _first_known_graph()})


def _owner_path_cases(context_cls: type, name: str, world: World) -> None:
    for value in ("experience.sqlite", "mine/graph.json", str(world.outside / "store.sqlite")):
        _expect_refusal(context_cls, {name: value}, (name,), world)
    _build(context_cls, {name: None})


def _name_cases(context_cls: type, name: str, world: World) -> None:
    for value in (str(world.outside), "../outside", "./mine", "mine/graph.json", "~", ""):
        _expect_refusal(context_cls, {name: value}, (name,), world)
    default = next(item.default for item in fields(context_cls) if item.name == name)
    _build(context_cls, {name: default if isinstance(default, str) and not looks_like_path(default) else "cora"})


_CASES = {
    MODEL: _model_cases,
    EMBEDDER.name: _embedder_cases,
    ENDPOINT.name: _endpoint_cases,
    GRAPH.name: _graph_cases,
    DATA_PATH.name: _path_cases,
    OWNER_PATH.name: _owner_path_cases,
    NAME.name: _name_cases,
    TEXT.name: None,  # names nothing: no hostile value exists
}


def assert_refuses_hostile_clients(context_cls: type) -> None:
    """Check ``context_cls`` (a :class:`RunContext` subclass) against hostile server clients.

    Raises ``AssertionError`` (naming the field and the value) when a hostile
    value is accepted, a benign one refused, a refusal does not name its field,
    or a path/model/URL-looking field declares no kind.
    """
    if not (isinstance(context_cls, type) and issubclass(context_cls, RunContext)):
        raise TypeError(f"{context_cls!r} is not a RunContext subclass")
    missing = [f.name for f in fields(context_cls) if f.default is MISSING and f.default_factory is MISSING]
    assert not missing, f"{context_cls.__name__}: fields without a default ({', '.join(missing)}) cannot be left out"
    undeclared = undeclared_suspect_fields(context_cls)
    assert not undeclared, (
        f"{context_cls.__name__} declares {', '.join(undeclared)} without saying what it names, so the server "
        f"policy cannot check it: {HOW_TO_DECLARE}"
    )
    kinds = field_kinds(context_cls)
    unknown = sorted({kind for kind in kinds.values() if kind not in _CASES})
    assert not unknown, f"no hostile cases for the field kind(s) {', '.join(unknown)}: add them to {__name__}"
    with untrusted_server() as world:
        _build(context_cls, {})  # every default passes on a server
        for name, kind in kinds.items():
            cases = _CASES[kind]
            if cases is not None:
                cases(context_cls, name, world)
    assert_numbers_bounded(context_cls)
