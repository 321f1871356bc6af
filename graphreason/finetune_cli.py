"""``graphreason train generator``: LoRA fine-tuning of the embedded SmolLM2 as Graph-ToolFormer's generator.

    graphreason train generator --threads 2 --out runs/generator     stage 1 of the shipped recipe (80 min on 2 CPU cores)
    graphreason train generator --threads 2 --out runs/generator --resume   continue from the newest checkpoint
    graphreason train generator --init-adapter runs/generator/adapter --mix gpr=900,... --out runs/stage2
                                                                    a second stage, weighted to hard datasets
    make train-generator                                             both shipped stages (113 min) and the export
    python -m llm.finetune.export runs/generator llm/adapters/toolformer-generator   ship it (fp16 + card)

Data: our training side of prompts_train (tools.loaders.toolformer_split), a
balanced mix over datasets; the validation loss uses the held-out slice.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from graphreason.options import non_negative, positive

PROMPT_FORMS = ("workflow", "short")


def _rate(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def add_train_parser(models: argparse._SubParsersAction) -> None:
    """The ``generator`` target under ``train`` (``models`` is train's sub-parsers, dest ``target``)."""
    gen = models.add_parser(
        "generator", help="fine-tune the embedded SmolLM2 (LoRA) to write Graph-ToolFormer's API calls",
        description="LoRA fine-tuning of SmolLM2-135M-Instruct on Graph-ToolFormer's prompts_train "
        "(our training split; the validation loss uses the held-out 160-per-dataset slice). "
        "Checkpoints go to --out; --resume continues the newest one exactly.",
    )
    gen.add_argument("--path", default=None, help="prompt folder (default: Graph_Toolformer/prompt in the data root)")
    gen.add_argument(
        "--examples", type=positive, default=None,
        help="training examples, spread evenly over the datasets (default 4800: 300 per dataset, one pass "
        "took 80 min on 2 CPU cores; with --mix, the mix's total)",
    )
    gen.add_argument("--per-dataset", type=non_negative, default=None, help="cap per dataset instead of an even spread")
    gen.add_argument(
        "--mix", default=None,
        help="weighted mix, e.g. gpr=900,twitter=200: records drawn from each named dataset; the others take "
        "--per-dataset (0 unless given)",
    )
    gen.add_argument(
        "--init-adapter", default=None,
        help="start from this trained adapter folder (a second stage, e.g. runs/generator-short/adapter); "
        "its card's time is added to the total",
    )
    gen.add_argument("--steps", type=positive, default=None, help="optimizer steps (default: one pass, examples/batch)")
    gen.add_argument("--batch-size", type=positive, default=8, help="examples per step (default 8)")
    gen.add_argument(
        "--max-length", type=positive, default=320,
        help="longest example in tokens; longer ones are dropped, not cut (default 320: above the p99 of both forms)",
    )
    gen.add_argument("--lr", type=_rate, default=2e-4, help="peak learning rate (default 2e-4)")
    gen.add_argument("--eval-every", type=positive, default=100, help="validation loss every N steps (default 100)")
    gen.add_argument("--val-per-dataset", type=positive, default=4, help="validation records per dataset (default 4)")
    gen.add_argument("--save-every", type=positive, default=50, help="checkpoint every N steps (default 50)")
    gen.add_argument(
        "--prompt-form", choices=PROMPT_FORMS, default="short",
        help="short: only 'Input: ...\\nOutput:', what the workflow sends to the tuned generator (default; half "
        "the tokens, twice the speed); workflow: the few-shot workflow's instruction with no examples",
    )
    gen.add_argument("--seed", type=int, default=0, help="seed of data mix, LoRA init and batch order")
    gen.add_argument("--out", default="runs/generator", help="output folder (default runs/generator)")
    gen.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in --out")
    gen.add_argument("--threads", type=positive, default=None, help="torch threads (default: torch's choice)")
    gen.add_argument("--device", default="cpu", help="torch device (default cpu; cuda on a GPU machine)")
    gen.add_argument("--no-progress", action="store_true", help="no progress bar")
    gen.set_defaults(handler=cmd_train_generator)


def prompt_function(form: str) -> Any:
    """The user-turn text for an input: the workflow's own zero-shot prompt, or the short form."""
    if form == "workflow":
        from workflows.toolformer.prompts import generation_prompt

        return lambda text: generation_prompt(text, [])
    if form == "short":
        from workflows.toolformer.prompts import tuned_prompt

        return tuned_prompt
    raise ValueError(f"prompt form must be one of {PROMPT_FORMS}, got {form!r}")


def cmd_train_generator(args: argparse.Namespace) -> int:
    import importlib.util

    if importlib.util.find_spec("peft") is None:
        raise ValueError("training the generator needs peft: pip install -e '.[finetune]'")
    from llm.finetune.base_model import load_base
    from llm.finetune.data import parse_mix, training_data
    from llm.finetune.train import TrainConfig, latest_checkpoint, train_generator

    if args.resume and latest_checkpoint(args.out) is None:
        raise ValueError(f"--resume: no checkpoint in {Path(args.out) / 'checkpoints'}")
    if not args.resume and latest_checkpoint(args.out) is not None:
        raise ValueError(f"{args.out} already holds checkpoints: pass --resume, or choose another --out")
    if args.threads is not None:
        import torch

        torch.set_num_threads(args.threads)
    counts = parse_mix(args.mix) if args.mix else None
    examples = args.examples if args.examples is not None or counts else 4800
    per_dataset = args.per_dataset if args.per_dataset is not None or not counts else 0
    model, tokenizer = load_base()
    train, validation, info = training_data(
        tokenizer, prompt_function(args.prompt_form), root=args.path, examples=examples,
        per_dataset=per_dataset, val_per_dataset=args.val_per_dataset, max_length=args.max_length,
        seed=args.seed, counts=counts,
    )
    print(f"examples: {info['train_examples']} train, {info['validation_examples']} validation; "
          f"dropped over {args.max_length} tokens: {info['dropped_over_max_length']}", flush=True)
    print(f"token lengths: {info['token_lengths']}", flush=True)
    steps = args.steps or max(1, math.ceil(len(train) / args.batch_size))
    config = TrainConfig(
        out_dir=args.out, steps=steps, batch_size=args.batch_size, lr=args.lr, eval_every=args.eval_every,
        save_every=args.save_every, seed=args.seed, threads=args.threads, device=args.device,
        resume=args.resume, progress=not args.no_progress, init_adapter=args.init_adapter,
    )
    card = {
        "data": {"source": "Graph_Toolformer/prompt/**/prompts_train", "prompt_form": args.prompt_form, **info},
        "split": "tools.loaders.toolformer_split: 160 validation records per dataset (seed 0), never trained on",
        "command": "graphreason " + " ".join(sys.argv[1:]),
    }
    result = train_generator(model, tokenizer, train, validation, config, card=card)
    print(json.dumps({k: result.card[k] for k in (
        "trainable_parameters", "examples_seen", "training_seconds", "final_train_loss", "validation_loss")}))
    print(f"adapter: {result.adapter_dir}\ncard   : {Path(args.out) / 'card.json'}")
    return 0
