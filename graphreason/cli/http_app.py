"""The project's HTTP layer for ``langgraph dev`` (``langgraph.json``: ``http.app``).

LangGraph's server mounts this app's middleware in front of its own routes,
and runs its lifespan beside its own. Every request passes the project's request guard
(:class:`graphreason.llm.http_guard.RequestGuard`, shared with the model server), which checks its
Host, Origin, JSON bodies and their size (8 MiB unless ``GRAPHREASON_MAX_BODY_BYTES`` says
otherwise); that module's docstring says what each refusal guards against.

Crons (``/runs/crons``, ``/threads/{id}/runs/crons``) and batches (``/runs/batch``) are
refused (403) unless the owner enables them (``GRAPHREASON_ALLOW_CRONS``,
``GRAPHREASON_ALLOW_BATCHES``): a cron outlives its request and fires again after a
restart, and a batch starts hundreds of runs in one request.

On shutdown the lifespan cancels every run still working
(:func:`graphreason.runtime.cancel.cancel_all`: searches stop, sandbox children are
killed), and a watchdog ends the process if it still lingers
:data:`SHUTDOWN_SECONDS` later, so a stop or restart never waits on a run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.responses import JSONResponse

from graphreason.llm.http_guard import RequestGuard, host_name, origin_allowed  # noqa: F401  (offered here too)
from graphreason.runtime.cancel import cancel_all
from graphreason.settings import allow_batches, allow_crons
from graphreason.tools.core.policy import serving_process

log = logging.getLogger(__name__)

SHUTDOWN_SECONDS = 8.0  # after shutdown begins, the process ends within this (the issue asks for 10)


_CRONS = re.compile(r"^/(?:threads/[^/]+/)?runs/crons(?:/|$)")
_BATCH = re.compile(r"^/runs/batch/?$")


def route_refusal(method: str, path: str) -> str | None:
    """Why a client may not use this route (crons and batches are the owner's to enable), or None."""
    if method == "GET":
        return None
    if _CRONS.match(path) and not allow_crons():
        return "crons are off on this server; its owner may enable them with GRAPHREASON_ALLOW_CRONS=1"
    if _BATCH.match(path) and not allow_batches():
        return "batches of runs are off on this server; its owner may enable them with GRAPHREASON_ALLOW_BATCHES=1"
    return None


class ClientRoutes:
    """ASGI middleware refusing the routes :func:`route_refusal` names (403)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            why = route_refusal(scope.get("method", "GET"), scope.get("path", ""))
            if why is not None:
                await JSONResponse({"error": "RouteDisabled", "detail": why}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _exit_if_still_running(seconds: float) -> None:
    """Last resort after shutdown began: a thread that never reached a check must not hold the process."""

    def watchdog() -> None:
        log.warning("graphreason: shutdown still waiting after %.0f s; ending the process", seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, watchdog)
    timer.daemon = True
    timer.start()


@contextlib.asynccontextmanager
async def lifespan(_app: Starlette) -> AsyncIterator[None]:
    yield
    stopped = cancel_all("the server is shutting down")
    if stopped:
        log.info("graphreason: cancelled %d run step(s) still working at shutdown", stopped)
    if serving_process():  # a LangGraph server: never a test or a program that mounts this app itself
        _exit_if_still_running(SHUTDOWN_SECONDS)


app = Starlette(lifespan=lifespan)
app.add_middleware(ClientRoutes)
app.add_middleware(RequestGuard)  # added last, so it runs first
