"""Start ``langgraph dev`` for this repo's ``langgraph.json`` on a free loopback port."""

from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from graphreason.settings import REPO_ROOT

HOST = "127.0.0.1"


def _family(host: str) -> socket.AddressFamily:
    """IPv6 for addresses such as ``::`` and ``::1``, else IPv4."""
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def free_port(host: str = HOST) -> int:
    """A port the OS reports free right now (bind to port 0, read it back, release it)."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int, host: str = HOST) -> bool:
    """True when nothing listens on ``host:port``."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def langgraph_executable() -> str:
    """The ``langgraph`` command installed next to this interpreter (else the one on PATH)."""
    beside = Path(sys.executable).parent / "langgraph"
    if beside.exists():
        return str(beside)
    found = shutil.which("langgraph")
    if not found:
        raise FileNotFoundError(
            "the 'langgraph' command was not found; install the dev extras (pip install -e '.[dev]')"
        )
    return found


def is_loopback(host: str) -> bool:
    """True when ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_command(port: int, config: Path, reload: bool = True, host: str = HOST) -> list[str]:
    """The ``langgraph dev`` command line for ``host``, ``port`` and ``config``."""
    cmd = [
        langgraph_executable(),
        "dev",
        "--no-browser",
        "--host",
        host,
        "--port",
        str(port),
        "--config",
        str(config),
    ]
    if not reload:
        cmd.append("--no-reload")
    return cmd


def serve_env() -> dict[str, str]:
    """The environment for the server: analytics and LangSmith tracing off unless set."""
    env = dict(os.environ)
    env.setdefault("LANGGRAPH_CLI_NO_ANALYTICS", "1")
    env.setdefault("LANGSMITH_TRACING", "false")
    return env


def clients_line() -> str:
    """Who the server answers, as its start says it (GRAPHREASON_CLIENT_TOKENS; see graphreason/cli/serve_auth.py)."""
    from graphreason.cli.serve_auth import DEFAULT_QUOTAS, QUOTA_WORDS, check_quota_names, quota
    from graphreason.settings import client_tokens

    names = sorted(set(client_tokens().values()))
    if not names:
        return (
            "no client tokens (GRAPHREASON_CLIENT_TOKENS unset): local-only, every request has the owner's full "
            "access"
        )
    check_quota_names()
    others = [n for n in names if n != "owner"]
    owner = "owner has full access; " if "owner" in names else "no owner token; "
    quotas = ", ".join(f"{quota(name):,} {QUOTA_WORDS[name]}" for name in DEFAULT_QUOTAS)
    return (
        f"{len(others)} client token(s) ({', '.join(others) or 'none'}): {owner}each client sees only its own "
        f"work; at most {quotas} (GRAPHREASON_CLIENT_QUOTAS)"
    )


def serve(
    port: int | None = None, config: Path | None = None, reload: bool = True, host: str = HOST
) -> int:
    """Run ``langgraph dev`` in the foreground until Ctrl-C; returns its exit code."""
    config = Path(config or REPO_ROOT / "langgraph.json").expanduser().resolve()
    if not config.is_file():
        raise FileNotFoundError(f"langgraph config {config} not found")
    if not is_loopback(host):
        # the server runs models with this machine's keys and reads its data: say so loudly
        print(
            f"graphreason: warning: --host {host} makes the server reachable from other machines; "
            "anyone who can connect can start runs on your model endpoints. Use it on trusted networks only. "
            "Requests are answered only for loopback host names unless GRAPHREASON_ALLOWED_HOSTS lists the "
            "names clients use (e.g. this machine's address).",
            file=sys.stderr,
            flush=True,
        )
    if port is None:
        port = free_port(host)
    elif not port_is_free(port, host):
        # langgraph dev would silently move to a random port; say so instead.
        raise OSError(f"port {port} on {host} is already in use; omit --port to pick a free one")
    shown = HOST if host in ("0.0.0.0", "::") else host  # a wildcard address is reached locally as loopback
    shown = f"[{shown}]" if ":" in shown else shown  # IPv6 literals need brackets in a URL
    url = f"http://{shown}:{port}"
    print(f"Serving {config} with langgraph dev at {url}", flush=True)
    print(f"  API docs : {url}/docs", flush=True)
    print(f"  Studio   : https://smith.langchain.com/studio/?baseUrl={url}", flush=True)
    print(f"  Clients  : {clients_line()}", flush=True)
    print("  Ctrl-C stops the server.", flush=True)
    process = subprocess.Popen(serve_command(port, config, reload, host), cwd=config.parent, env=serve_env())
    restore = _sigterm_as_interrupt()
    try:
        return process.wait()
    except KeyboardInterrupt:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        return 0
    finally:
        restore()


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _sigterm_as_interrupt():
    """Treat SIGTERM like Ctrl-C so a terminated ``serve`` also stops its server child."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    return lambda: signal.signal(signal.SIGTERM, previous)
