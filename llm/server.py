"""A small OpenAI-compatible HTTP server for any LangChain chat model.

It exposes the embedded model to any OpenAI client, and gives our tests a real
HTTP server for the ``openai:`` backend::

    python -m graphreason.llm.server --model local --host 127.0.0.1 --port 8765

This module builds only the embedded model (spec ``local``). Every spec of the
model factory (``scripted:FILE``, ``openai:MODEL`` as a proxy) is served by the same
code through ``python -m graphreason.cli.model_server``, which passes the factory to
:func:`main`: this layer never imports the workflows.

Endpoints: ``POST /v1/chat/completions`` (``n=1``; ``stream=true`` answers with
server-sent ``chat.completion.chunk`` events ending in ``data: [DONE]``),
``GET /v1/models`` and ``GET /health``. Request options ``temperature``, ``top_p``,
``max_tokens`` (or ``max_completion_tokens``), ``seed`` and ``stop`` are passed to
the model call. The embedded model cannot call tools or promise JSON, so requests
that ask for it (``tools``, a forcing ``tool_choice``, a non-text ``response_format``,
the legacy ``functions``) get a 400 naming the field instead of being ignored.
Once listening, the server prints ``serving on http://HOST:PORT/v1``.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

log = logging.getLogger(__name__)


class BadRequest(ValueError):
    """The request body is not a chat completion request we can serve."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.param, self.code = param, code


def _error(
    status: int, message: str, kind: str, param: str | None = None, code: str | None = None
) -> JSONResponse:
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return JSONResponse(body, status_code=status)


def refuse_unsupported(body: dict[str, Any]) -> None:
    """Raise :class:`BadRequest` for options this server would otherwise have to ignore."""
    why = "the served model cannot call tools; send the request without it"
    tools = body.get("tools")
    if tools:
        raise BadRequest(f"'tools' is not supported: {why}", "tools", "unsupported_parameter")
    if body.get("functions") or body.get("function_call") not in (None, "none", "auto"):
        name = "functions" if body.get("functions") else "function_call"
        raise BadRequest(f"'{name}' is not supported: {why}", name, "unsupported_parameter")
    if body.get("tool_choice") not in (None, "none", "auto"):
        raise BadRequest(f"'tool_choice' is not supported: {why}", "tool_choice", "unsupported_parameter")
    fmt = body.get("response_format")
    if fmt is not None and not (isinstance(fmt, dict) and fmt.get("type") == "text"):
        kind = fmt.get("type") if isinstance(fmt, dict) else fmt
        raise BadRequest(
            f"'response_format' of type {kind!r} is not supported: the served model cannot guarantee "
            "JSON output; leave response_format out (or use type 'text') and parse the reply yourself",
            "response_format",
            "unsupported_parameter",
        )


def _text(content: Any, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if not (isinstance(part, dict) and part.get("type") == "text"):
                raise BadRequest(f"{where}: only text content parts are supported")
            parts.append(str(part.get("text", "")))
        return "".join(parts)
    raise BadRequest(f"{where}: content must be a string or a list of text parts")


def parse_messages(raw: Any) -> list[BaseMessage]:
    """LangChain messages for the ``messages`` array of a chat completion request."""
    if not isinstance(raw, list) or not raw:
        raise BadRequest("'messages' must be a non-empty list")
    messages: list[BaseMessage] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise BadRequest(f"messages[{i}] must be an object")
        role = item.get("role")
        content = _text(item.get("content"), f"messages[{i}]")
        if role in ("system", "developer"):
            messages.append(SystemMessage(content=content))
        elif role == "user":
            messages.append(HumanMessage(content=content))
        elif role == "assistant":
            messages.append(AIMessage(content=content))
        elif role == "tool":
            messages.append(ToolMessage(content=content, tool_call_id=str(item.get("tool_call_id", ""))))
        else:
            raise BadRequest(f"messages[{i}] has unsupported role {role!r}")
    return messages


def _number(body: dict[str, Any], key: str, kind: type, low: float | None = None) -> Any:
    value = body.get(key)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (kind is int and int(value) != value)
    ):
        raise BadRequest(f"'{key}' must be {'an integer' if kind is int else 'a number'}")
    if low is not None and value < low:
        raise BadRequest(f"'{key}' must be >= {low}")
    return kind(value)


def parse_options(body: dict[str, Any]) -> tuple[list[str] | None, dict[str, Any]]:
    """Stop sequences and the model-call keyword options found in a request body."""
    refuse_unsupported(body)
    if body.get("stream") not in (None, True, False):
        raise BadRequest("'stream' must be true or false", "stream")
    options_field = body.get("stream_options")
    if options_field is not None and not isinstance(options_field, dict):
        raise BadRequest("'stream_options' must be an object", "stream_options")
    n = body.get("n", 1)
    if n not in (1, None):
        raise BadRequest("only n=1 is supported")
    stop = body.get("stop")
    if isinstance(stop, str):
        stop = [stop]
    elif stop is not None and not (isinstance(stop, list) and all(isinstance(s, str) for s in stop)):
        raise BadRequest("'stop' must be a string or a list of strings")
    options = {
        "temperature": _number(body, "temperature", float, 0.0),
        "top_p": _number(body, "top_p", float, 0.0),
        "max_tokens": _number(body, "max_completion_tokens", int, 1) or _number(body, "max_tokens", int, 1),
        "seed": _number(body, "seed", int),
    }
    return stop or None, {k: v for k, v in options.items() if v is not None}


def completion_body(message: AIMessage, model_name: str) -> dict[str, Any]:
    """OpenAI ``chat.completion`` JSON for one reply message."""
    usage = message.usage_metadata or {}
    reply: dict[str, Any] = {"role": "assistant", "content": _text(message.content, "reply")}
    finish = (message.response_metadata or {}).get("finish_reason") or "stop"
    if message.tool_calls:
        reply["tool_calls"] = [
            {
                "id": call.get("id") or f"call_{uuid.uuid4().hex[:12]}",
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(call["args"])},
            }
            for call in message.tool_calls
        ]
        finish = "tool_calls"
    prompt_tokens = int(usage.get("input_tokens", 0))
    completion_tokens = int(usage.get("output_tokens", 0))
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model_name,
        "choices": [{"index": 0, "message": reply, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _sse(payload: Any) -> str:
    return f"data: {json.dumps(payload)}\n\n"


def stream_events(first: Any, rest: Iterator[Any], model_name: str, include_usage: bool) -> Iterator[str]:
    """Server-sent events in the OpenAI ``chat.completion.chunk`` format for a LangChain chunk stream.

    ``first`` is the stream's first chunk (pulled before the response started, so
    that a failing call still gets a proper HTTP error); ``rest`` the remainder.
    A failure mid-stream is sent as an ``error`` event before ``[DONE]``.
    """
    head = {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
    }
    head["model"] = model_name

    def event(delta: dict[str, Any], finish: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return _sse({**head, "choices": [choice]})

    yield event({"role": "assistant", "content": ""})
    finish, prompt_tokens, completion_tokens = "stop", 0, 0
    chunk = first
    try:
        while chunk is not None:
            text = _text(chunk.content, "reply")
            if text:
                yield event({"content": text})
            usage = chunk.usage_metadata or {}
            prompt_tokens += int(usage.get("input_tokens", 0))
            completion_tokens += int(usage.get("output_tokens", 0))
            finish = (chunk.response_metadata or {}).get("finish_reason") or finish
            chunk = next(rest, None)
    except Exception as exc:  # headers are sent: report in-band, as OpenAI does
        log.exception("model call failed while streaming")
        message = f"model call failed: {type(exc).__name__}: {exc}"
        yield _sse({"error": {"message": message, "type": "server_error", "param": None, "code": None}})
        yield "data: [DONE]\n\n"
        return
    yield event({}, finish)
    if include_usage:
        total = prompt_tokens + completion_tokens
        usage_body = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": total,
        }
        yield _sse({**head, "choices": [], "usage": usage_body})
    yield "data: [DONE]\n\n"


def create_app(model: BaseChatModel, model_name: str = "local") -> Starlette:
    """A Starlette app serving ``model`` under the OpenAI chat-completions API."""
    started = int(time.time())

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "model": model_name})

    async def models(_request: Request) -> JSONResponse:
        entry = {"id": model_name, "object": "model", "created": started, "owned_by": "graphreason"}
        return JSONResponse({"object": "list", "data": [entry]})

    async def chat_completions(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "request body must be JSON", "invalid_request_error")
        try:
            if not isinstance(body, dict):
                raise BadRequest("request body must be a JSON object")
            messages = parse_messages(body.get("messages"))
            stop, options = parse_options(body)
        except BadRequest as exc:
            return _error(400, str(exc), "invalid_request_error", exc.param, exc.code)
        if body.get("stream"):
            return await _stream_response(messages, stop, options, body.get("stream_options") or {})
        try:
            # Model calls block (the local model computes in this process), so keep them off the event loop.
            reply = await run_in_threadpool(model.invoke, messages, stop=stop, **options)
        except ValueError as exc:
            return _error(400, str(exc), "invalid_request_error")
        except Exception as exc:  # the client gets the reason instead of a dropped connection
            log.exception("model call failed")
            return _error(500, f"model call failed: {type(exc).__name__}: {exc}", "server_error")
        if not isinstance(reply, AIMessage):
            return _error(500, f"model returned {type(reply).__name__}, not an AI message", "server_error")
        return JSONResponse(completion_body(reply, model_name))

    async def _stream_response(
        messages: list[BaseMessage], stop: list[str] | None, options: dict[str, Any], stream_options: dict
    ) -> Any:
        chunks = model.stream(messages, stop=stop, **options)
        try:
            # The first chunk comes before any byte is sent, so bad options still get a 400.
            first = await run_in_threadpool(next, chunks, None)
        except ValueError as exc:
            return _error(400, str(exc), "invalid_request_error")
        except Exception as exc:
            log.exception("model call failed")
            return _error(500, f"model call failed: {type(exc).__name__}: {exc}", "server_error")
        events = stream_events(first, chunks, model_name, bool(stream_options.get("include_usage")))
        return StreamingResponse(
            events, media_type="text/event-stream", headers={"cache-control": "no-cache"}
        )

    routes = [
        Route("/health", health, methods=["GET"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/v1/chat/completions", chat_completions, methods=["POST"]),
    ]
    return Starlette(routes=routes)


def warm_up(model: BaseChatModel) -> None:
    """Load the embedded model before serving, so that /health means 'ready to answer'."""
    from graphreason.llm.engine.local_smollm import LocalChatModel, get_engine

    if isinstance(model, LocalChatModel):
        started = time.perf_counter()
        engine = get_engine(model.n_ctx, model.precision, model.adapter)
        log.warning(
            "embedded model ready in %.1fs, using %d torch thread(s)",
            time.perf_counter() - started,
            engine.threads,
        )


LOCAL_SPECS = ("local", "local:smollm2-135m")


def local_model(spec: str) -> BaseChatModel:
    """The embedded model for the spec ``local``; other specs need the model factory (see the module doc)."""
    if spec.strip().lower() not in LOCAL_SPECS:
        raise ValueError(
            f"python -m graphreason.llm.server serves only the embedded model (--model local), not {spec!r}; "
            "serve other model specs with python -m graphreason.cli.model_server"
        )
    from graphreason.llm.engine.local_smollm import LocalChatModel

    return LocalChatModel()


def main(argv: list[str] | None = None, make_model: Callable[[str], BaseChatModel] = local_model) -> None:
    """Command-line entry point; ``make_model`` turns the ``--model`` spec into a chat model.

    A spec that ``make_model`` refuses (``ValueError``) ends with a usage error (exit status 2).
    """
    parser = argparse.ArgumentParser(description="Serve a chat model over the OpenAI chat-completions API.")
    parser.add_argument("--model", default="local", help="model spec (default: local)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--served-name", default=None, help="model id reported to clients (default: the spec)"
    )
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)

    logging.basicConfig(level=args.log_level.upper())
    try:
        model = make_model(args.model)
    except ValueError as exc:
        parser.error(str(exc))
    warm_up(model)
    app = create_app(model, args.served_name or args.model)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level)
    AnnouncingServer(config).run()


class AnnouncingServer(uvicorn.Server):
    """A uvicorn server that prints its base URL once its socket is listening."""

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self.servers and self.servers[0].sockets:
            host, port = self.servers[0].sockets[0].getsockname()[:2]  # the real port, also for --port 0
            shown = f"[{host}]" if ":" in host else host
            print(f"serving on http://{shown}:{port}/v1", flush=True)


if __name__ == "__main__":
    main()
