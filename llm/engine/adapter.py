"""LoRA adapters applied to the embedded model's weights at load time, so a tuned model runs at full engine speed.

An adapter is a peft LoRA folder (``adapter_config.json`` plus
``adapter_model.safetensors``). Loading a tuned engine reads the one converted
base model and adds ``(alpha / r) * B @ A`` to each adapted projection in memory,
so generation costs exactly what the plain model costs: same shapes, same kernels.
No merged copy of the model is written: the disk holds one base model, whatever
the number of adapters.

What an adapter does keep on disk is small: its int8 activation scales, measured
on the merged weights with a few task dialogues added to the everyday ones
(the tuned model's activations are what the scales must cover). They live in
``models/smollm2-135m+NAME-DIGEST/`` (a few kB), keyed by a digest of the
adapter's bytes, so a new adapter never reuses old scales.

Names: peft saves ``...layers.3.self_attn.q_proj.lora_A.weight``; the engine
calls the same matrix ``layers.3.wq``. :func:`graphreason.llm.engine.llama_net.read_gguf`
undoes GGUF's Q/K row permutation, so both sides share the transformers layout
and the map below is one-to-one with no reordering.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import torch

from graphreason.llm.engine.weights import (
    CACHE_FORMAT,
    CALIBRATION_DIALOGUES,
    LocalModelError,
    build_once,
    calibration_maxima,
    read_converted,
    read_meta,
    replace_folder,
    temp_tag,
)
from graphreason.settings import cache_dir

ADAPTERS_DIR = Path(__file__).resolve().parents[1] / "adapters"
# adapters shipped with the project: name -> folder under ADAPTERS_DIR
SHIPPED = {"toolformer": "toolformer-generator", "graphagent": "graphagent-agent", "counselor": "counselor-reasoner"}
# the two files of a peft LoRA folder (training, export and merge all read these names)
ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"

_PEFT_TO_ENGINE = {
    "self_attn.q_proj": "wq", "self_attn.k_proj": "wk", "self_attn.v_proj": "wv", "self_attn.o_proj": "wo",
    "mlp.gate_proj": "w_gate", "mlp.up_proj": "w_up", "mlp.down_proj": "w_down",
}
_LORA_KEY = re.compile(r"(?:.*\.)?layers\.(\d+)\.(self_attn\.[qkvo]_proj|mlp\.(?:gate|up|down)_proj)\.lora_([AB])\.weight")

# Calibration dialogues in the tuned generator's prompt form, written for this purpose only.
CALL_DIALOGUES = [
    (
        "Input: What is the topic of paper #1035 in the cora bibliographic network?\nOutput:",
        'The topic of paper #1035 in the cora bibliographic network is [GR(GL("cora"), "graph_bert:topic", paper#1035)-->r].',
    ),
    (
        "Input: The diamond graph has a diameter of [TBR].\nOutput:",
        'The diamond graph has a diameter of [GR(GL("gpr", {"diamond_graph"}), "toolx:diameter")-->r].',
    ),
    (
        "Input: How likely will user #u12 be interested in movie #i7 in Movielens?\nOutput:",
        "The likelihood that user #u12 will be interested in movie #i7 in Movielens is "
        '[GR(GL("movielens"), "bpr:recommendation", user#u12, movie#i7)-->r].',
    ),
    (
        "Input: According to the WordNet knowledge graph, the relation between entity #dog.n.01 and "
        "entity #canine.n.02 is [TBR].\nOutput:",
        "According to the WordNet knowledge graph, the relation between entity #dog.n.01 and entity "
        '#canine.n.02 is [GR(GL("wordnet"), "transe:relation", entity#dog.n.01, entity#canine.n.02)-->r].',
    ),
]


# Calibration dialogues in the tuned GraphAgent's prompt form (workflows/graphagent/tuned.py), written for
# this purpose only: a made-up node, not a node of any dataset.
AGENT_DIALOGUES = [
    (
        "Classify node 4711 of demo, titled \"Learning to rank with boosted trees\".\n"
        "Labels: Theory, Neural_Networks, Rule_Learning\nCommands: get_features, get_neighbors, answer\n"
        "Found so far:\n(nothing yet)\nDecision 1 of 6. Reply with one JSON command.",
        '{"thoughts": {"text": "Read the paper first.", "criticism": "", "speak": ""}, '
        '"command": {"name": "get_features", "args": {"node_id": "4711"}}}',
    ),
    (
        "Classify node 4711 of demo, titled \"Learning to rank with boosted trees\".\n"
        "Labels: Theory, Neural_Networks, Rule_Learning\nCommands: get_features, get_neighbors, answer\n"
        "Found so far:\n- step 1: get_features(4711) -> Node 4711. Title: Learning to rank with boosted "
        "trees Content: We combine weak rules into a ranking function and bound its error.\n"
        "- step 2: get_neighbors(4711) -> Node 4711 has 2 neighbours. Known labels of its neighbours "
        "(training nodes): Theory x1. - 12: Boosting margins [label: Theory] - 13: Rank aggregation\n"
        "Decision 3 of 6. Reply with one JSON command.",
        '{"thoughts": {"text": "Known neighbour labels: Theory x1.", "criticism": "", "speak": ""}, '
        '"command": {"name": "answer", "args": {"label": "Theory", "reason": "1 of 1 labelled neighbours is '
        'Theory"}}}',
    ),
]
# the task dialogues each shipped adapter's int8 scales are measured on, beside the everyday ones
ADAPTER_DIALOGUES = {"toolformer": CALL_DIALOGUES, "graphagent": AGENT_DIALOGUES}


def shipped_adapter(name: str) -> Path:
    """Folder of a shipped adapter, by its short name (``toolformer``)."""
    if name not in SHIPPED:
        raise LocalModelError(f"unknown adapter {name!r}; shipped adapters: {', '.join(sorted(SHIPPED))}")
    folder = ADAPTERS_DIR / SHIPPED[name]
    for needed in (ADAPTER_CONFIG, ADAPTER_WEIGHTS):
        if not (folder / needed).is_file():
            raise LocalModelError(f"adapter {name!r} is incomplete: {folder / needed} is missing")
    return folder


def adapter_digest(folder: Path) -> str:
    """First 12 hex digits of the SHA-256 of the adapter's config and weights (the cache key)."""
    digest = hashlib.sha256()
    for name in (ADAPTER_CONFIG, ADAPTER_WEIGHTS):
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:12]


def read_lora_config(folder: Path) -> float:
    """The scale ``alpha / r`` (``alpha / sqrt(r)`` under rsLoRA); refuses what a plain merge cannot honour."""
    try:
        config = json.loads((folder / ADAPTER_CONFIG).read_text())
        r, alpha = int(config["r"]), float(config["lora_alpha"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LocalModelError(f"cannot read the LoRA config in {folder}: {exc}") from None
    for flag in ("use_dora", "fan_in_fan_out"):
        if config.get(flag):
            raise LocalModelError(f"adapter in {folder} uses {flag}, which this merge does not support")
    if config.get("bias", "none") != "none" or config.get("modules_to_save"):
        raise LocalModelError(f"adapter in {folder} trains biases or whole modules; only LoRA matrices merge")
    if r < 1:
        raise LocalModelError(f"adapter in {folder} has rank {r}")
    return alpha / r**0.5 if config.get("use_rslora") else alpha / r


def lora_deltas(folder: Path) -> dict[str, torch.Tensor]:
    """``engine weight name -> scale * B @ A`` in fp32 for every adapted matrix in ``folder``."""
    from safetensors.torch import load_file

    scale = read_lora_config(folder)
    tensors = load_file(str(folder / ADAPTER_WEIGHTS))
    pairs: dict[str, dict[str, torch.Tensor]] = {}
    for key, value in tensors.items():
        match = _LORA_KEY.fullmatch(key)
        if match is None:
            raise LocalModelError(f"unexpected tensor {key!r} in {folder}: only LoRA A/B matrices merge")
        layer, module, side = match.groups()
        pairs.setdefault(f"layers.{layer}.{_PEFT_TO_ENGINE[module]}", {})[side] = value
    deltas = {}
    for name, pair in pairs.items():
        if set(pair) != {"A", "B"}:
            raise LocalModelError(f"adapter in {folder} has only lora_{''.join(pair)} for {name}")
        deltas[name] = scale * (pair["B"].double() @ pair["A"].double())
    return {name: delta.float() for name, delta in deltas.items()}


def merge_weights(weights: dict[str, torch.Tensor], deltas: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A copy of ``weights`` with each delta added; a delta for a missing or other-shaped matrix is refused."""
    merged = dict(weights)
    for name, delta in deltas.items():
        base = weights.get(name)
        if base is None or base.shape != delta.shape:
            got = "missing" if base is None else tuple(base.shape)
            raise LocalModelError(f"adapter does not fit the model: {name} is {got}, delta {tuple(delta.shape)}")
        merged[name] = base + delta
    return merged


def adapter_cache_dir(name: str, digest: str) -> Path:
    """The cache entry of one adapter's int8 scales."""
    return cache_dir("models", f"smollm2-135m+{name}-{digest}")


# the files of an adapter's cache entry (meta.json, written last, marks it finished)
ADAPTER_FILES = ("activation_maxima.safetensors",)
# what the entry holds: scales for weights merged at load time (an entry without it is an old full merged copy)
_ENTRY_KIND = "scales"


def adapter_is_current(folder: Path, base_meta: dict[str, Any], digest: str) -> bool:
    meta = read_meta(folder)
    return (
        meta.get("format") == CACHE_FORMAT
        and meta.get("kind") == _ENTRY_KIND
        and meta.get("adapter_digest") == digest
        and meta.get("source_size") == base_meta.get("source_size")
        and all((folder / n).is_file() for n in ADAPTER_FILES)
    )


def ensure_adapter_scales(base_folder: Path, name: str, adapter_folder: Path | None = None) -> tuple[Path, bool]:
    """``(folder, built)``: the cache entry of adapter ``name``'s int8 scales, measured once.

    ``base_folder`` is a finished conversion of the plain model. ``adapter_folder``
    defaults to the shipped adapter of that name. An older entry of the same
    adapter that held a full merged copy of the model is replaced, freeing its disk.
    """
    adapter_folder = adapter_folder or shipped_adapter(name)
    digest = adapter_digest(adapter_folder)
    base_meta = read_meta(base_folder)
    folder = adapter_cache_dir(name, digest)
    built = build_once(
        folder, lambda: adapter_is_current(folder, base_meta, digest),
        lambda: _measure_scales(base_folder, adapter_folder, folder, name, digest, base_meta),
    )
    return folder, built


def adapted_weights(base_folder: Path, adapter_folder: Path) -> tuple[Any, dict[str, torch.Tensor]]:
    """The base model's config and weights with the adapter's deltas added, in memory."""
    config, base_weights = read_converted(base_folder)
    return config, merge_weights(base_weights, lora_deltas(adapter_folder))


def _measure_scales(
    base_folder: Path, adapter_folder: Path, folder: Path, name: str, digest: str, base_meta: dict
) -> None:
    from safetensors.torch import save_file
    from tokenizers import Tokenizer

    config, weights = adapted_weights(base_folder, adapter_folder)
    tokenizer = Tokenizer.from_file(str(base_folder / "tokenizer" / "tokenizer.json"))
    task = ADAPTER_DIALOGUES.get(name, CALL_DIALOGUES)
    maxima = calibration_maxima(config, weights, tokenizer, [*CALIBRATION_DIALOGUES, *task])
    meta = {
        **base_meta, "kind": _ENTRY_KIND, "adapter": name, "adapter_digest": digest,
        "adapter_source": str(adapter_folder),
    }
    staging = folder.with_name(f"{folder.name}{temp_tag()}")
    staging.mkdir(parents=True)
    save_file({k: v.contiguous() for k, v in maxima.items()}, str(staging / "activation_maxima.safetensors"))
    (staging / "meta.json").write_text(json.dumps(meta, indent=2))
    replace_folder(staging, folder)
