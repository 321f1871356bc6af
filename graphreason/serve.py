"""Start ``langgraph dev`` for this repo's ``langgraph.json`` on a free loopback port."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from tools.config import REPO_ROOT

HOST = "127.0.0.1"


def free_port(host: str = HOST) -> int:
    """A port the OS reports free right now (bind to port 0, read it back, release it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int, host: str = HOST) -> bool:
    """True when nothing listens on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
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


def serve_command(port: int, config: Path, reload: bool = True) -> list[str]:
    """The ``langgraph dev`` command line for ``port`` and ``config``."""
    cmd = [
        langgraph_executable(),
        "dev",
        "--no-browser",
        "--host",
        HOST,
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


def serve(port: int | None = None, config: Path | None = None, reload: bool = True) -> int:
    """Run ``langgraph dev`` in the foreground until Ctrl-C; returns its exit code."""
    config = Path(config or REPO_ROOT / "langgraph.json").resolve()
    if not config.is_file():
        raise FileNotFoundError(f"langgraph config {config} not found")
    if port is None:
        port = free_port()
    elif not port_is_free(port):
        # langgraph dev would silently move to a random port; say so instead.
        raise OSError(f"port {port} on {HOST} is already in use; omit --port to pick a free one")
    url = f"http://{HOST}:{port}"
    print(f"Serving {config.name} with langgraph dev at {url}", flush=True)
    print(f"  API docs : {url}/docs", flush=True)
    print(f"  Studio   : https://smith.langchain.com/studio/?baseUrl={url}", flush=True)
    print("  Ctrl-C stops the server.", flush=True)
    process = subprocess.Popen(serve_command(port, config, reload), cwd=config.parent, env=serve_env())
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
