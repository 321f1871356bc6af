"""What a run context may ask for when it comes from a server client.

The CLI and the Python API are *trusted*: the person at the keyboard already
owns the machine, so ``--base-url``, ``scripted:FILE`` and any graph path work.
A run context sent to ``langgraph dev`` (or any LangGraph API server) is
*untrusted*: whoever reaches the port writes it. There the policy is

* endpoints and keys come from the server's own configuration (environment,
  ``.env``, ``langgraph.json`` "env"); a context may pick a model
  (``local``, ``openai:MODEL``; another provider of ``init_chat_model`` only
  when the owner lists it in ``GRAPHREASON_PROVIDERS``; only the specs in
  ``GRAPHREASON_MODELS`` when the owner sets it) but never a base URL, which
  would receive the key;
* numbers are bounded: every numeric field of a run context declares the most
  a client may ask for (steps, tokens, seconds, memory), which the owner may
  change with ``GRAPHREASON_SERVER_LIMITS`` (:func:`check_server_limit`);
* ``scripted:FILE`` specs are refused (they read a file of the client's choice);
* graph paths are relative to the data root (or a folder listed in
  ``GRAPHREASON_GRAPH_DIRS``) and must resolve inside it, symlinks followed;
  embedders are presets only (a model folder is the owner's choice);
* files only the owner may choose (a store's database) are refused outright,
  and a name field (a dataset's name) never takes a path, in any process.

Which field is which is declared on the field's type in the run context
(:mod:`graphreason.workflows.run_context`: ``ModelName``, ``GraphSpec``,
``DataPath``, ...); the context applies :func:`check_untrusted_context` to
every declared field when it is built.

Trust is decided from the environment only, never from the request:
``GRAPHREASON_SERVER=1`` marks a process as a server; a LangGraph API server is
recognised by the ``LANGSERVE_GRAPHS`` variable it sets for its graphs, so the
policy holds even when ``langgraph dev`` is started by hand.
``GRAPHREASON_TRUST_CLIENTS=1`` switches the policy off, for tests and for a
single-user server that nobody else can reach.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path, PurePath, PurePosixPath

from graphreason.settings import (
    data_root,
    graph_dirs,
    served_models,
    served_providers,
    server_limits,
    server_mode,
    trust_clients,
)

# Embedders that name no file; hash:<dim> is capped so a client cannot ask for a huge matrix.
EMBEDDING_PRESETS = ("minilm", "minilm-static", "mpnet", "hash")
MAX_HASH_DIM = 4096


class PolicyError(ValueError):
    """A run context from a server client asks for something only the server's owner may choose."""


def context_is_untrusted() -> bool:
    """True when run contexts come from clients of a server (see the module docstring)."""
    if trust_clients():
        return False
    return serving_process()


def serving_process() -> bool:
    """True in a server process (``GRAPHREASON_SERVER`` or a LangGraph API server), trusted or not."""
    return server_mode() or bool(os.environ.get("LANGSERVE_GRAPHS"))


def allowed_roots() -> list[Path]:
    """Folders an untrusted context may name files in: the data root and ``GRAPHREASON_GRAPH_DIRS`` (resolved,
    since every candidate path is compared to them after its symlinks are followed)."""
    return [data_root().resolve(), *(folder.resolve() for folder in graph_dirs())]


def check_relative_spec(spec: str, what: str = "graph") -> None:
    """The part of the path rule that needs no disk access (safe inside an event loop).

    An untrusted spec is a path relative to an allowed root: absolute paths,
    ``~`` and ``..`` components are refused here; symlinks are caught by
    :func:`confine_path` when the file is opened.
    """
    text = str(spec).strip()
    if any(ord(char) < 32 for char in text):  # a NUL or another control character names no file
        raise PolicyError(
            f"{what} {text!r} is refused: a path may not hold control characters (such as NUL); name a file "
            "inside the server's data root as a plain relative path."
        )
    parts = PurePosixPath(text.replace("\\", "/")).parts
    if not text or text.startswith(("/", "~")) or PurePath(text).is_absolute() or ".." in parts:
        # the message names no server folder: the client should learn nothing about the disk
        raise PolicyError(
            f"{what} {text!r} is refused: a server client may only name files inside the server's data "
            "root (or a folder its owner lists in GRAPHREASON_GRAPH_DIRS), as a path relative to it; "
            "absolute paths, '~', '..' and symlinks leading out are not allowed."
        )


def _resolved(path: Path, spec: str, what: str) -> Path:
    """``path.resolve()``, with a symlink loop (or a name the system cannot take) refused in the policy's words."""
    try:
        return path.resolve()
    except (RuntimeError, OSError, ValueError):
        raise PolicyError(
            f"{what} {str(spec).strip()!r} is refused: it cannot be resolved to a file (a symlink loop, or a "
            "name the system does not take); name a file inside the server's data root."
        ) from None


def confine_path(spec: str, what: str = "graph") -> Path:
    """Resolve ``spec`` inside an allowed root, or raise :class:`PolicyError`.

    The relative spec is looked up under each root in turn; ``resolve()``
    follows symlinks, so a link inside a root that leads out is caught by the
    containment test. Reads the disk: call it where blocking is fine.
    """
    check_relative_spec(spec, what)
    roots = allowed_roots()
    candidates = [_resolved(root / str(spec).strip(), spec, what) for root in roots]
    inside = [c for c in candidates if any(c.is_relative_to(root) for root in roots)]
    if not inside:
        raise PolicyError(
            f"{what} {str(spec).strip()!r} is refused: it leads out of the server's data folders "
            "through a symlink; name a file inside the data root."
        )
    # the first one that exists; else the first, so the loader says what is missing
    return next((c for c in inside if c.exists()), inside[0])


def confine_file(path: Path, spec: str, what: str = "graph") -> Path:
    """``path`` (a file about to be opened) if it resolves inside an allowed root; for untrusted contexts only.

    :func:`confine_path` checks the folder a client names; a file inside it may
    still be a symlink leading out (``mine/graph.json -> /etc/...``), so every
    file a loader opens for a client goes through here. A no-op in trusted processes.
    """
    if not context_is_untrusted():
        return path
    resolved = _resolved(Path(path), spec, what)
    if not any(resolved.is_relative_to(root) for root in allowed_roots()):
        raise PolicyError(
            f"{what} {str(spec).strip()!r} is refused: one of its files leads out of the server's data "
            "folders through a symlink; name files that are inside the data root."
        )
    return path


def server_folders() -> list[tuple[Path, str]]:
    """Folders of the server a client must not learn, each with the placeholder that replaces it."""
    from graphreason.settings import REPO_ROOT, cache_root

    folders = [(root, "<data root>") for root in allowed_roots()]
    folders += [(cache_root(), "<cache>"), (REPO_ROOT, "<server>"), (Path.cwd(), "<server>"), (Path.home(), "~")]
    found: list[tuple[Path, str]] = []
    for folder, label in folders:
        for form in {folder, folder.expanduser().resolve()}:
            found.append((form, label))
    return sorted(found, key=lambda item: -len(str(item[0])))  # longest first: /a/b before /a


def scrub_paths(text: str) -> str:
    """``text`` with every server folder (data root, cache, install, home) replaced by a placeholder."""
    for folder, label in server_folders():
        name = str(folder)
        if len(name) > 1 and name in text:
            text = text.replace(name, label)
    return text


def check_model_value(value: object, field: str) -> None:
    """Refuse model specs that read files (``scripted:``) or are not spec strings."""
    if not isinstance(value, str):
        raise PolicyError(f"{field} must be a model spec string such as 'local' or 'openai:MODEL'")
    if value.strip().lower().startswith("scripted"):
        raise PolicyError(
            f"{field}={value!r} is refused: scripted models read a file and are for tests and the CLI, "
            "not for server clients; use 'local' or 'openai:MODEL'"
        )
    provider = value.strip().partition(":")[0].strip().lower()
    providers = enabled_providers()
    if provider not in providers:
        raise PolicyError(
            f"{field}={value!r} is refused: a server client may name the providers {', '.join(providers)}; "
            f"the server's owner enables others with GRAPHREASON_PROVIDERS (another provider would receive "
            "this server's requests, and may pick up its keys)"
        )
    allowed = configured_models()
    if allowed and value.strip() not in allowed:
        raise PolicyError(f"{field}={value!r} is refused: this server offers {', '.join(allowed)}")


# What a server client may name without the owner's say: the embedded model, the GAR rule-following
# stand-ins (rules, gold: no model at all) and the owner's own OpenAI-compatible endpoint.
DEFAULT_PROVIDERS = ("local", "rules", "gold", "openai")


def enabled_providers() -> list[str]:
    """The model providers a server's clients may name: the defaults plus ``GRAPHREASON_PROVIDERS``."""
    return list(dict.fromkeys((*DEFAULT_PROVIDERS, *served_providers())))


def configured_models() -> list[str]:
    """The model specs a server's owner offers (``GRAPHREASON_MODELS``, comma-separated); empty = any."""
    return served_models()


def check_base_url(value: object, field: str = "base_url") -> None:
    """Refuse any client-chosen endpoint: it would receive the server's API key."""
    if value not in (None, ""):
        raise PolicyError(
            f"{field} is refused: a server client may not choose the endpoint (it would receive the "
            "server's API key). The server uses its own OPENAI_BASE_URL; leave base_url unset."
        )


def check_model_spec(backend: str, base_url: str | None) -> None:
    """Last line behind the contexts: the model factory calls this for every model it builds.

    In a server process no scripted model is built and no endpoint other than
    the configured ``OPENAI_BASE_URL`` is contacted, whichever code path asked.
    """
    if not context_is_untrusted():
        return
    if backend == "scripted":
        check_model_value("scripted:", "model")
    if base_url and base_url != os.environ.get("OPENAI_BASE_URL"):
        check_base_url(base_url)


def server_limit(field: str, declared: float | None) -> float | None:
    """The most a server client may set the numeric field ``field`` to: the owner's, else ``declared``."""
    return server_limits().get(field, declared)


def check_server_limit(value: object, field: str, declared: float | None, default: object = None) -> None:
    """Refuse a client's number that is not finite or exceeds the field's server maximum.

    A no-op in trusted processes; ``None`` (unset: the method's own bounded
    default) always passes. A field that declares no maximum (and has none in
    ``GRAPHREASON_SERVER_LIMITS``) takes only its ``default`` from a client.
    """
    if value is None or isinstance(value, bool) or not context_is_untrusted():
        return
    if not isinstance(value, int | float) or not math.isfinite(value):
        raise PolicyError(f"{field}={value!r} is refused: a server client must give a finite number")
    limit = server_limit(field, declared)
    if limit is None and value != default:
        raise PolicyError(
            f"{field}={value:g} is refused: {field} declares no maximum for server clients, who may only "
            f"leave it at {default}; the server's owner may allow more with GRAPHREASON_SERVER_LIMITS={field}=N"
        )
    if limit is not None and value > limit:
        raise PolicyError(
            f"{field}={value:g} is refused: this server lets a client set {field} to at most {limit:g}; "
            f"its owner may change that with GRAPHREASON_SERVER_LIMITS={field}=N"
        )


def check_embedding_model(value: object, field: str = "embedding_model") -> None:
    """Only presets: a model folder is server configuration, not a client's choice."""
    key = value.strip() if isinstance(value, str) else ""
    if key in EMBEDDING_PRESETS:
        return
    size = key.partition(":")[2] if key.startswith("hash:") else ""
    if size.isdigit() and 1 <= int(size) <= MAX_HASH_DIM:
        return
    raise PolicyError(
        f"{field}={value!r} is refused: a server client may choose {', '.join(EMBEDDING_PRESETS)} "
        f"or hash:<dim> (dim 1 to {MAX_HASH_DIM}); model folders are set by the server's owner"
    )


def check_owner_path(value: object, field: str) -> None:
    """Refuse any value in a field that names a file only the server's owner may choose."""
    if value not in (None, ""):
        raise PolicyError(
            f"{field} is refused: it names a file on the server, and only the server's owner may "
            f"choose it; leave {field} unset"
        )


def looks_like_path(text: str) -> bool:
    """True for text that reads as a file or folder (or is empty) rather than a name."""
    text = text.strip()
    return not text or any(mark in text for mark in ("/", "\\", "~")) or text.startswith(".")


def check_plain_name(value: object, field: str, path_fields: Iterable[str] = ()) -> None:
    """A name field never takes a path: in any process, since a loader could read a path given there.

    Raises :class:`PolicyError` for a server client, ``ValueError`` elsewhere;
    the message points at ``path_fields``, where a path belongs.
    """
    if isinstance(value, str) and not looks_like_path(value):
        return
    where = ", ".join(path_fields)
    raise (PolicyError if context_is_untrusted() else ValueError)(
        f"{field} {value!r} is refused: {field} is a name, not a path"
        + (f"; a file or folder goes in {where}" if where else "")
    )


def resolve_path(spec: str, what: str = "path") -> Path:
    """The file or folder a path field names, for the process's trust.

    A server client's path is confined to the allowed roots (:func:`confine_path`,
    symlinks followed); elsewhere a relative path is looked up in the working
    directory, then under the data root. Reads the disk.
    """
    if context_is_untrusted():
        return confine_path(spec, what)
    path = Path(spec).expanduser()
    if not path.exists() and not path.is_absolute() and (data_root() / path).exists():
        return (data_root() / path).resolve()
    return path.resolve()


def check_untrusted_context(
    context: object,
    *,
    model_fields: Iterable[str] = (),
    embedding_fields: Iterable[str] = (),
    graph_fields: Iterable[str] = (),
    path_fields: Iterable[str] = (),
    owner_fields: Iterable[str] = (),
    endpoint_fields: Iterable[str] = (),
) -> None:
    """Apply the policy to a run context's fields; a no-op in trusted processes.

    ``graph_fields`` take a known graph name or a path relative to an allowed
    root, ``path_fields`` such a path only, ``owner_fields`` nothing at all;
    ``endpoint_fields`` (and a ``base_url`` attribute, declared or not) must
    stay unset. No disk access: contexts are built inside the server's event
    loop, so symlinks are caught when a path is opened (:func:`confine_path`).
    """
    if not context_is_untrusted():
        return
    endpoints = (*endpoint_fields, *(("base_url",) if hasattr(context, "base_url") else ()))
    for name in dict.fromkeys(endpoints):
        check_base_url(getattr(context, name), name)
    for name in model_fields:
        value = getattr(context, name)
        if value not in (None, ""):  # unset: the role uses another role's model
            check_model_value(value, name)
    for name in embedding_fields:
        check_embedding_model(getattr(context, name), name)
    for name in owner_fields:
        check_owner_path(getattr(context, name), name)
    known = _known_graph_names() if graph_fields else set()
    for name, names_allowed in (*((n, True) for n in graph_fields), *((n, False) for n in path_fields)):
        value = getattr(context, name)
        if value is None or (names_allowed and isinstance(value, str) and value.strip().lower() in known):
            continue
        if not isinstance(value, str):
            raise PolicyError(f"{name} must be a path string relative to the server's data root")
        check_relative_spec(value, what=name)


def _known_graph_names() -> set[str]:
    from graphreason.tools.core.loaders import KNOWN_GRAPHS  # the loaders import this module

    return set(KNOWN_GRAPHS)
