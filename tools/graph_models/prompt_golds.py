"""The (id, gold answer) pairs of Graph-ToolFormer's topic and molecule prompts.

Each ``prompts_train`` line reads ``Input: ... Output: ... [GR(GL("cora"),
"graph_bert:topic", paper#106590)-->r] ... Reasoning Result: Probabilistic
Methods.``; this module pulls out the node or instance id of the call and the
gold value (trailing period removed), so the graph models can be checked
against the prompts' own answers.
"""

from __future__ import annotations

import re
from pathlib import Path

from graphreason.settings import data_root
from graphreason.tools.core.errors import GraphFileError

PROMPT_DIR = Path("Graph_Toolformer/prompt")
FAMILY = {
    "cora": "bibliographic_networks",
    "citeseer": "bibliographic_networks",
    "mutag": "molecular_graphs",
    "ptc": "molecular_graphs",
    "proteins": "molecular_graphs",
    "nci1": "molecular_graphs",
}
_CALL_ID = re.compile(r"(?:paper|instance)#([^\s,)\]]+)\s*\)")
_GOLD = re.compile(r"Reasoning Result:\s*(.*?)\s*$")


def prompt_golds(dataset: str, *, split: str = "train") -> list[tuple[str, str]]:
    """``[(id, gold), ...]`` of ``<family>/<dataset>/prompts_<split>``, in file order."""
    key = dataset.strip().lower()
    if key not in FAMILY:
        raise GraphFileError(f"no topic or molecule prompts for {dataset!r}; known: {', '.join(FAMILY)}")
    path = data_root() / PROMPT_DIR / FAMILY[key] / key / f"prompts_{split}"
    if not path.is_file():
        raise GraphFileError(f"prompt file {path} not found")
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        call, gold = _CALL_ID.search(line), _GOLD.search(line)
        if call is None or gold is None:
            raise GraphFileError(f"{path} line {number}: no paper#/instance# call or no Reasoning Result")
        pairs.append((call.group(1), gold.group(1).removesuffix(".")))
    return pairs
