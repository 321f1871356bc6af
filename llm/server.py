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

Who may ask: every request passes the project's request guard
(:mod:`graphreason.llm.http_guard`, the one in front of ``langgraph dev`` too): the
``Host`` must be a loopback name (or one in ``GRAPHREASON_ALLOWED_HOSTS``), a browser's
``Origin`` a loopback page or Studio (or one in ``GRAPHREASON_ALLOWED_ORIGINS``), and a
body JSON; so a web page, or DNS rebinding, cannot use the owner's model. The server binds
127.0.0.1 unless told otherwise. With ``--token`` (or ``GRAPHREASON_MODEL_SERVER_TOKEN``)
every request must carry ``Authorization: Bearer <token>``; an OpenAI client sends its
API key that way, so ``OPENAI_API_KEY=<token>`` is all a client needs.

Limits, for clients that send too much or on purpose send nonsense:

* A request body may hold at most ``--max-body-bytes`` bytes (default ``GRAPHREASON_MAX_BODY_BYTES``, else 1 MiB,
  :data:`DEFAULT_MAX_BODY_BYTES`). A larger ``Content-Length`` is refused before a byte of
  the body is read, and the bytes actually received are counted while reading, so a
  missing or false length (chunked uploads) cannot get past it: 413, with the limit and
  the flag in the error message. JSON text never decodes to more characters than it has
  bytes, so this also bounds the message text.
* At most :data:`MAX_MESSAGES` messages, and arrays/objects nested at most
  :data:`MAX_JSON_DEPTH` deep (checked on the raw text before parsing); deeper JSON is a 400.
* Numbers must be finite: ``NaN``, ``Infinity`` and overflowing literals such as ``1e400``
  (which Python's json module would otherwise accept) are a 400. ``temperature`` must lie
  in [0, 2], ``top_p`` in (0, 1], ``max_tokens``/``max_completion_tokens`` in
  [1, :data:`MAX_REPLY_TOKENS`] and ``seed`` must be a 64-bit integer; the 400 names the parameter.
* A streaming client that hangs up stops generation: the connection is checked before
  each chunk is pulled from the model, and the model's stream is closed (the embedded
  engine's worker thread stops at its next token). A client that is gone before its
  reply starts never reaches the model. A non-streaming reply that has started runs to
  completion in its worker thread even if the client leaves meanwhile (a blocking model
  call cannot be interrupted); ``max_tokens`` bounds what that costs.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from itertools import accumulate
from typing import Any

import uvicorn
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from graphreason.llm.http_guard import RequestGuard
from graphreason.settings import max_body_bytes as configured_max_body_bytes
from graphreason.settings import model_server_token, parse_token

log = logging.getLogger(__name__)

DEFAULT_MAX_BODY_BYTES = 1 << 20  # 1 MiB: thousands of pages of text, far more than any prompt needs
MAX_JSON_DEPTH = 64  # a chat request nests about 4 deep; this leaves room and keeps the parser shallow
MAX_MESSAGES = 1024
MAX_REPLY_TOKENS = 32_768  # beyond any served model's context; a larger request is a mistake or an attack
SEED_RANGE = (-(2**63), 2**63 - 1)  # what a 64-bit generator seed can hold
# Status that access logs show for a request whose client left before its reply (nginx's convention).
CLIENT_GONE = 499


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


class BodyTooLarge(ValueError):
    """The request body is larger than the server accepts."""

    def __init__(self, limit: int) -> None:
        size = f"{limit} bytes" + (f" ({limit / (1 << 20):g} MiB)" if limit >= 1 << 20 else "")
        super().__init__(
            f"request body is larger than this server's limit of {size}; send a smaller request, "
            "or, as the server's owner, restart it with a larger --max-body-bytes"
        )
        self.limit = limit


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with :class:`BodyTooLarge` as soon as it is known to exceed ``limit`` bytes.

    A declared ``Content-Length`` over the limit is refused before reading; the bytes
    that arrive are counted too, so a chunked body or a false length is cut off at the
    limit instead of being buffered whole.
    """
    declared = request.headers.get("content-length")
    if declared is not None:
        declared = declared.strip()
        if not (declared.isascii() and declared.isdigit()):
            raise BadRequest("the Content-Length header must be a whole number of bytes")
        if int(declared) > limit:
            raise BodyTooLarge(limit)
    body = bytearray()
    async for piece in request.stream():
        body += piece
        if len(body) > limit:
            raise BodyTooLarge(limit)
    return bytes(body)


# A JSON string (escapes included), or an unterminated one up to the end of the text. The
# possessive quantifiers make every match attempt linear and never retried, so hostile
# input (say a million escaped quotes) cannot make the scan quadratic.
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in the JSON ``text``, found without parsing (brackets in strings skipped)."""
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _no_constant(name: str) -> Any:
    raise BadRequest(f"request body holds {name}, which is not a JSON number; numbers must be finite")


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        shown = literal if len(literal) <= 40 else literal[:37] + "..."
        raise BadRequest(
            f"request body holds the number {shown}, too large for a float; numbers must be finite"
        )
    return value


def parse_body(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body.

    Refuses (with :class:`BadRequest`) text that is not UTF-8 JSON, arrays/objects nested
    deeper than :data:`MAX_JSON_DEPTH` (checked before the parser recurses) and
    non-finite numbers (``NaN``, ``Infinity``, ``1e400``), which Python's json module
    would otherwise accept.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("request body must be JSON") from None
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise BadRequest(
            f"request body nests arrays/objects {depth} levels deep; at most {MAX_JSON_DEPTH} are accepted",
            code="json_too_deep",
        )
    try:
        body = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except BadRequest:
        raise
    except RecursionError:  # cannot happen after the depth check; kept so that it never becomes a 500
        raise BadRequest(
            f"request body nests arrays/objects too deep; at most {MAX_JSON_DEPTH} levels"
        ) from None
    except ValueError:
        raise BadRequest("request body must be JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("request body must be a JSON object")
    return body


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
        raise BadRequest("'messages' must be a non-empty list", "messages")
    if len(raw) > MAX_MESSAGES:
        raise BadRequest(
            f"'messages' holds {len(raw)} messages; at most {MAX_MESSAGES} are accepted", "messages"
        )
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


def _number(
    body: dict[str, Any], key: str, kind: type, low: float, high: float, low_included: bool = True
) -> Any:
    """``body[key]`` as ``kind`` when it is a finite number from ``low`` to ``high``; None when absent."""
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequest(f"'{key}' must be {'an integer' if kind is int else 'a number'}", key)
    if isinstance(value, float) and not math.isfinite(value):
        raise BadRequest(f"'{key}' must be a finite number, got {value}", key)
    if kind is int and isinstance(value, float) and not value.is_integer():
        raise BadRequest(f"'{key}' must be an integer", key)
    # compared before converting: a huge JSON integer must not overflow float()
    if not (low <= value if low_included else low < value) or value > high:
        low_text, high_text = (str(low), str(high)) if kind is int else (f"{low:g}", f"{high:g}")
        lowest = f">= {low_text}" if low_included else f"> {low_text}"
        shown = value if isinstance(value, float) or abs(value) < 10**30 else "a number of over 30 digits"
        raise BadRequest(f"'{key}' must be {lowest} and <= {high_text}, got {shown}", key)
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
    max_completion = _number(body, "max_completion_tokens", int, 1, MAX_REPLY_TOKENS)
    max_tokens = _number(body, "max_tokens", int, 1, MAX_REPLY_TOKENS)  # checked even when overridden
    options = {
        "temperature": _number(body, "temperature", float, 0.0, 2.0),
        "top_p": _number(body, "top_p", float, 0.0, 1.0, low_included=False),
        "max_tokens": max_completion if max_completion is not None else max_tokens,
        "seed": _number(body, "seed", int, *SEED_RANGE),
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


async def relay_while_connected(
    request: Request, events: Iterator[str], chunks: Iterator[Any]
) -> AsyncIterator[str]:
    """``events`` for as long as the client of ``request`` listens, then the model's stream ``chunks`` closed.

    The connection is checked before each event is pulled (in a worker thread, as the
    model computes while it is pulled), so a client that hangs up costs at most the
    chunk in progress. Closing ``chunks`` is what stops the producer: a generator's
    ``finally`` runs, and the embedded engine's worker thread stops at its next token.
    It is closed here, not left to the garbage collector, which may take minutes.
    """
    try:
        while not await request.is_disconnected():
            event = await run_in_threadpool(next, events, None)
            if event is None:
                return
            yield event
        log.info("streaming client went away; generation stopped")
    finally:  # also when the response is cancelled (the server saw the hang-up first)
        for stream in (events, chunks):
            close = getattr(stream, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # a failing close must not hide why the stream ended
                    log.exception("closing the model stream failed")


def create_app(
    model: BaseChatModel, model_name: str = "local", max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    token: str | None = None,
) -> Starlette:
    """A Starlette app serving ``model`` under the OpenAI chat-completions API, behind the request guard.

    ``max_body_bytes`` is the largest request body accepted; ``token``, when given, the bearer
    token every request must carry (see the module doc for all limits).
    """
    if max_body_bytes < 1:
        raise ValueError(f"max_body_bytes must be at least 1, got {max_body_bytes}")
    started = int(time.time())

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "model": model_name})

    async def models(_request: Request) -> JSONResponse:
        entry = {"id": model_name, "object": "model", "created": started, "owned_by": "graphreason"}
        return JSONResponse({"object": "list", "data": [entry]})

    async def chat_completions(request: Request) -> Response:
        try:
            body = parse_body(await read_body(request, max_body_bytes))
            messages = parse_messages(body.get("messages"))
            stop, options = parse_options(body)
        except ClientDisconnect:
            return Response(status_code=CLIENT_GONE)
        except BodyTooLarge as exc:
            return _error(413, str(exc), "invalid_request_error", code="request_too_large")
        except BadRequest as exc:
            return _error(400, str(exc), "invalid_request_error", exc.param, exc.code)
        if await request.is_disconnected():  # nobody would read the reply: do not compute it
            log.info("client went away before its reply was started; the model was not called")
            return Response(status_code=CLIENT_GONE)
        if body.get("stream"):
            return await _stream_response(request, messages, stop, options, body.get("stream_options") or {})
        try:
            # Model calls block (the local model computes in this process), so keep them off the event loop.
            # Such a call cannot be interrupted: if the client leaves now, the reply is computed and dropped.
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
        request: Request,
        messages: list[BaseMessage],
        stop: list[str] | None,
        options: dict[str, Any],
        stream_options: dict,
    ) -> Response:
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
            relay_while_connected(request, events, chunks),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache"},
        )

    routes = [
        Route("/health", health, methods=["GET"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/v1/chat/completions", chat_completions, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    # Host, Origin, JSON bodies and the token; body sizes stay with the route (read_body counts them)
    app.add_middleware(RequestGuard, limit=None, token=token, error=_guard_error)
    return app


def _guard_error(status: int, message: str) -> dict[str, Any]:
    """A request guard refusal in OpenAI's error form."""
    kind = "authentication_error" if status == 401 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": "request_refused"}}


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


def _positive_int(text: str) -> int:
    """argparse type: a whole number of 1 or more (``_`` separators allowed)."""
    digits = text.strip().replace("_", "")
    if not (digits.isascii() and digits.isdigit()) or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text!r}")
    return int(digits)


def _token(text: str) -> str:
    try:
        return parse_token(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
    parser.add_argument(
        "--max-body-bytes",
        type=_positive_int,
        default=configured_max_body_bytes(DEFAULT_MAX_BODY_BYTES),
        help="largest request body accepted, in bytes; larger ones get a 413 "
        f"(default: $GRAPHREASON_MAX_BODY_BYTES or {DEFAULT_MAX_BODY_BYTES})",
    )
    parser.add_argument(
        "--token", type=_token, default=model_server_token(),
        help="bearer token every request must carry (default: $GRAPHREASON_MODEL_SERVER_TOKEN; unset: none)",
    )
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)

    logging.basicConfig(level=args.log_level.upper())
    try:
        model = make_model(args.model)
    except ValueError as exc:
        parser.error(str(exc))
    warm_up(model)
    app = create_app(model, args.served_name or args.model, max_body_bytes=args.max_body_bytes, token=args.token)
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
