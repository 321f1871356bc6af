"""Training speed of the generator's LoRA fine-tuning (issue 10): examples per second on this machine.

Runs a few optimizer steps of the real loop (LoRA r=16 on every projection,
AdamW, batch 8) on balanced training examples in both prompt forms and prints
examples/s after a warm-up step. The issue quotes 1.2 examples/s for ~75-token
prompts on a quiet 2-core machine; keep the machine quiet while this runs.
``--lora-layers all,10`` also times LoRA on the top 10 layers only (``train --lora-layers``),
where no gradient flows below the adapted layers.

    python benchmarks/bench_finetune_speed.py [--steps 4] [--batch-size 8] [--threads 2] [--lora-layers all,10]
"""

from __future__ import annotations

import argparse
import copy
import time

import torch

from graphreason.cli.methods.toolformer import PROMPT_FORMS, prompt_function
from graphreason.llm.finetune.base_model import load_base
from graphreason.llm.finetune.data import collate, length_summary
from graphreason.llm.finetune.train import TrainConfig, add_lora
from graphreason.tools.toolformer.training_data import training_data


def examples_per_second(model, train, batch_size: int, steps: int, pad_id: int) -> float:
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=2e-4)
    timed = 0.0
    for step in range(steps + 1):  # step 0 warms up (allocations, kernel choice)
        batch = collate(train[step * batch_size : (step + 1) * batch_size], pad_id)
        start = time.perf_counter()
        loss = model(**batch).loss
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step:
            timed += time.perf_counter() - start
    return steps * batch_size / timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-length", type=int, default=320)
    parser.add_argument("--lora-layers", default="all", help="comma-separated: all, or N for the top N layers")
    args = parser.parse_args()
    layer_choices = [None if part.strip() == "all" else int(part) for part in args.lora_layers.split(",")]
    torch.set_num_threads(args.threads)
    base, tokenizer = load_base()
    pad_id = tokenizer.pad_token_id
    print(f"torch threads {torch.get_num_threads()}, batch {args.batch_size}, {args.steps} timed steps")
    for form in PROMPT_FORMS:
        train, _, _ = training_data(
            tokenizer, prompt_function(form), examples=(args.steps + 1) * args.batch_size,
            val_per_dataset=1, max_length=args.max_length,
        )
        lengths = length_summary([len(e.input_ids) for e in train])
        for layers in layer_choices:  # the loop's LoRA settings, on every layer or the top ones
            model = add_lora(copy.deepcopy(base), TrainConfig(out_dir="unused", lora_layers=layers))
            model.train()
            rate = examples_per_second(model, train, args.batch_size, args.steps, pad_id)
            where = "all layers" if layers is None else f"top {layers} layers"
            print(f"{form:9s} median {lengths['median']:.0f} tokens (max {lengths['max']}), LoRA on {where}: "
                  f"{rate:.2f} examples/s")


if __name__ == "__main__":
    main()
