"""Ship a trained adapter: fp16 LoRA weights, its config and the run's card, in a folder the engine can merge.

    python -m graphreason.llm.finetune.export RUN_DIR DEST [--scores SUMMARY.json]

``RUN_DIR`` is a ``graphreason train generator --out`` folder (``adapter/`` and
``card.json``). fp16 halves the file (4.9 M parameters: 19.5 MB in fp32,
9.8 MB in fp16); the engine merges in float64 and rounds once to fp32, so the
fp16 rounding of A and B is the only loss. ``--scores`` copies an eval
``summary.json`` (``graphreason eval toolformer``) into the card, so the card
carries the validation scores of exactly the shipped bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import torch

from graphreason.llm.engine.adapter import ADAPTER_CONFIG as CONFIG
from graphreason.llm.engine.adapter import ADAPTER_WEIGHTS as WEIGHTS


def export_adapter(run_dir: Path | str, dest: Path | str, scores: dict[str, Any] | None = None) -> Path:
    """Write ``dest/{adapter_model.safetensors (fp16), adapter_config.json, card.json}``; returns ``dest``."""
    from safetensors.torch import load_file, save_file

    run, out = Path(run_dir), Path(dest)
    source = run / "adapter"
    if not (source / WEIGHTS).is_file() or not (run / "card.json").is_file():
        raise FileNotFoundError(f"{run} is not a finished training run (needs adapter/{WEIGHTS} and card.json)")
    out.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.to(torch.float16).contiguous() for k, v in load_file(str(source / WEIGHTS)).items()}
    save_file(tensors, str(out / WEIGHTS), metadata={"format": "pt"})
    shutil.copyfile(source / CONFIG, out / CONFIG)
    card = json.loads((run / "card.json").read_text())
    card["shipped"] = {
        "dtype": "float16",
        "bytes": (out / WEIGHTS).stat().st_size,
        "sha256": hashlib.sha256((out / WEIGHTS).read_bytes()).hexdigest(),
    }
    if scores is not None:
        card["validation_scores"] = scores
    (out / "card.json").write_text(json.dumps(card, indent=2, default=str) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Export a trained generator adapter in fp16 with its card.")
    parser.add_argument("run_dir", help="the train generator --out folder")
    parser.add_argument("dest", help="destination folder (e.g. llm/adapters/toolformer-generator)")
    parser.add_argument("--scores", default=None, help="an eval summary.json to record in the card")
    args = parser.parse_args(argv)
    scores = json.loads(Path(args.scores).read_text()) if args.scores else None
    out = export_adapter(args.run_dir, args.dest, scores)
    print(f"exported to {out} ({(out / WEIGHTS).stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
