"""How far can exact match go on graph loading? Bounds from the data, and beam search against greedy.

Graph-loading outputs name a graph and describe its nodes and links in the
annotators' own words (``GL("human-brain-connectome-graph", "all brain
regions", "all connected fibers")``), so API-Gen Acc there measures guessing
that wording. This prints, for our validation slice of graph loading:

* how many gold calls stand verbatim among the training outputs (the most any
  copy-from-training method could hit), and how many the training output of
  the nearest training input (word overlap) would hit;
* with ``--beams N`` (N > 1), the tuned adapter decoded by transformers with N
  beams and with greedy search, API-Gen Acc of both (fp32, no grammar; slow:
  about 7 s per reply with 4 beams on 2 cores).

    python benchmarks/bench_graph_loading_ceiling.py [--beams 4] [--limit 160] [--threads 2]
"""

from __future__ import annotations

import argparse
import re
import time

from graphreason.evals.toolformer.metrics import api_calls_as_written, api_gen_scores
from graphreason.llm.finetune.data import chat_prompt
from graphreason.tools.toolformer.loaders.prompts import PromptRecord, iter_prompt_files, read_prompts
from graphreason.tools.toolformer.loaders.split import split_records
from graphreason.workflows.toolformer.prompts import tuned_prompt


def graph_loading_split() -> tuple[list[PromptRecord], list[PromptRecord]]:
    for dataset, path in iter_prompt_files():
        if dataset == "graph_loading" and path.name == "prompts_train":
            return split_records(read_prompts(path, problems=[]))
    raise SystemExit("no graph_loading prompts_train under the data root")


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def data_bounds(train: list[PromptRecord], val: list[PromptRecord]) -> tuple[int, int]:
    """(gold calls found verbatim in training, hits of copying the nearest training input's call)."""
    seen = {tuple(api_calls_as_written(r.output)) for r in train}  # the metric's string form of the calls
    verbatim = sum(tuple(api_calls_as_written(r.output)) in seen for r in val)
    train_words = [(_words(r.input), r) for r in train]
    nearest_hits = 0
    for record in val:
        words = _words(record.input)
        _, best = max(train_words, key=lambda pair: len(words & pair[0]) / len(words | pair[0]))
        nearest_hits += api_gen_scores(best.output, record.output)["api_gen_acc"] == 1.0
    return verbatim, nearest_hits


def beam_hits(val: list[PromptRecord], beams: int) -> tuple[int, float]:
    """(exact hits, seconds per reply) of the tuned adapter decoded with ``beams`` beams (1: greedy)."""
    import torch
    from peft import PeftModel

    from graphreason.llm.engine.adapter import shipped_adapter
    from graphreason.llm.finetune.base_model import load_base

    model, tokenizer = load_base()
    model = PeftModel.from_pretrained(model, str(shipped_adapter("toolformer"))).merge_and_unload().eval()
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    hits, start = 0, time.perf_counter()
    for record in val:
        ids = tokenizer(chat_prompt(tuned_prompt(record.input)), return_tensors="pt").input_ids
        with torch.no_grad():
            out = model.generate(ids, max_new_tokens=160, num_beams=beams, do_sample=False, eos_token_id=end)
        reply = tokenizer.decode(out[0, ids.shape[1] :], skip_special_tokens=True).split("\n")[0].strip()
        hits += api_gen_scores(reply, record.output)["api_gen_acc"] == 1.0
    return hits, (time.perf_counter() - start) / max(1, len(val))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beams", type=int, default=1, help="beam width to compare with greedy (1: data bounds only)")
    parser.add_argument("--limit", type=int, default=160, help="validation records decoded with --beams")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    train, val = graph_loading_split()
    verbatim, nearest = data_bounds(train, val)
    print(f"graph loading: {len(train)} training, {len(val)} validation records")
    print(f"gold calls found verbatim among training outputs: {verbatim}/{len(val)}")
    print(f"copying the nearest training input's call: {nearest}/{len(val)} exact")
    if args.beams > 1:
        import torch

        torch.set_num_threads(args.threads)
        chosen = val[: args.limit]
        for width in (args.beams, 1):
            hits, seconds = beam_hits(chosen, width)
            label = f"{width} beams" if width > 1 else "greedy"
            print(f"{label:>8}: {hits}/{len(chosen)} exact ({100 * hits / len(chosen):.2f}%), {seconds:.1f} s per reply")


if __name__ == "__main__":
    main()
