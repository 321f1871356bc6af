"""What every LoRA fine-tuning target of ``graphreason train`` shares: its options and its run.

``train generator`` (Graph-ToolFormer) and ``train agent`` (GraphAgent) differ
only in their data; the loop, checkpoints, exact resume, validation loss and
card are :mod:`graphreason.llm.finetune.train`'s. :func:`add_training_target`
adds a target with the shared options; :func:`run_training` checks ``--out``/``--resume``
before any model loads, builds the data with the target's function and trains.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphreason.cli.options import positive


def _rate(text: str) -> float:
    """argparse type: a learning rate, a finite number > 0."""
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def _device(text: str) -> str:
    """argparse type: a torch device this machine has (torch is imported only for a GPU name)."""
    from graphreason.llm.finetune.device import check_device

    try:
        return check_device(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_training_target(
    targets: argparse._SubParsersAction, name: str, *, summary: str, description: str, out: str, max_length: int,
    lr: float, eval_every: int, max_length_help: str,
) -> argparse.ArgumentParser:
    """A ``train NAME`` LoRA target with the shared options (steps, batch, length, rate, validation,
    checkpoints, seed, device); the caller adds the options of its data."""
    parser = targets.add_parser(name, help=summary, description=description)
    parser.add_argument(
        "--steps", type=positive, default=None, help="optimizer steps (default: one pass, examples/batch)"
    )
    parser.add_argument("--batch-size", type=positive, default=8, help="examples per step (default 8)")
    parser.add_argument(
        "--micro-batch", type=positive, default=None,
        help="examples per forward/backward pass, at most --batch-size; the step's gradient is still the "
        "whole batch's (default: the whole batch in one pass; smaller needs less memory)",
    )
    parser.add_argument("--max-length", type=positive, default=max_length, help=max_length_help)
    parser.add_argument("--lr", type=_rate, default=lr, help=f"peak learning rate (default {lr:g})")
    parser.add_argument(
        "--eval-every", type=positive, default=eval_every, help=f"validation loss every N steps (default {eval_every})"
    )
    parser.add_argument(
        "--lora-layers", type=positive, default=None,
        help="LoRA on the top N decoder layers only; no gradient flows below them, so steps are faster "
        "(default: every layer)",
    )
    parser.add_argument("--save-every", type=positive, default=50, help="checkpoint every N steps (default 50)")
    parser.add_argument(
        "--init-adapter",
        default=None,
        help="start from this trained adapter folder (a second stage); its card's time is added to the total",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of data mix, LoRA init and batch order")
    parser.add_argument("--out", default=out, help=f"output folder (default {out})")
    parser.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in --out")
    parser.add_argument("--threads", type=positive, default=None, help="torch threads (default: torch's choice)")
    parser.add_argument(
        "--device",
        type=_device,
        default="cpu",
        help="torch device: cpu, cuda, cuda:N or mps, where this machine has it (default cpu)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


Data = tuple[list[Any], list[Any], dict[str, Any]]


def run_training(args: argparse.Namespace, target: str, build: Callable[[Any], Data], card_data: dict[str, Any]) -> int:
    """Check ``--out``, build ``(train, validation, info)`` with ``build(tokenizer)``, train, print the result."""
    if importlib.util.find_spec("peft") is None:
        raise ValueError(f"training the {target} needs peft: pip install -e '.[finetune]'")
    from graphreason.llm.finetune.base_model import load_base
    from graphreason.llm.finetune.train import (
        TrainConfig,
        latest_checkpoint,
        read_checkpoint_info,
        train_generator,
    )

    if args.micro_batch is not None and args.micro_batch > args.batch_size:
        raise ValueError(f"--micro-batch ({args.micro_batch}) must not exceed --batch-size ({args.batch_size})")
    checkpoint = latest_checkpoint(args.out)
    if args.resume and checkpoint is None:
        raise ValueError(f"--resume: no checkpoint in {Path(args.out) / 'checkpoints'}")
    if checkpoint is not None and not args.resume:
        raise ValueError(f"{args.out} already holds checkpoints: pass --resume, or choose another --out")
    if checkpoint is not None:  # read as JSON only: an older version's checkpoint is refused before any model loads
        read_checkpoint_info(checkpoint)
    if args.threads is not None:
        import torch

        torch.set_num_threads(args.threads)
    model, tokenizer = load_base()
    n_layers = int(model.config.num_hidden_layers)
    if args.lora_layers is not None and args.lora_layers > n_layers:  # refused before the data is built
        raise ValueError(f"--lora-layers is {args.lora_layers}, but the model has {n_layers} layers")
    train, validation, info = build(tokenizer)
    print(
        f"examples: {info['train_examples']} train, {info['validation_examples']} validation; "
        f"dropped over {args.max_length} tokens: {info['dropped_over_max_length']}",
        flush=True,
    )
    print(f"token lengths: {info['token_lengths']}", flush=True)
    steps = args.steps or max(1, math.ceil(len(train) / args.batch_size))
    config = TrainConfig(
        out_dir=args.out,
        steps=steps,
        batch_size=args.batch_size,
        micro_batch=args.micro_batch,
        lr=args.lr,
        eval_every=args.eval_every,
        save_every=args.save_every,
        seed=args.seed,
        threads=args.threads,
        device=args.device,
        resume=args.resume,
        progress=not args.no_progress,
        init_adapter=args.init_adapter,
        lora_layers=args.lora_layers,
    )
    card = {**card_data, "data": {**card_data.get("data", {}), **info}, "command": "graphreason " + " ".join(sys.argv[1:])}
    result = train_generator(model, tokenizer, train, validation, config, card=card)
    keys = ("trainable_parameters", "examples_seen", "training_seconds", "final_train_loss", "validation_loss")
    print(json.dumps({k: result.card[k] for k in keys}))
    print(f"adapter: {result.adapter_dir}\ncard   : {Path(args.out) / 'card.json'}")
    return 0
