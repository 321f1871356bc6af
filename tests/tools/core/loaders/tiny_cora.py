"""A hand-made five-paper copy of the Cora files, for tests that must not need the shared data."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

PAPERS = {
    "1": ("Alpha graph\n learning methods  ", "Neural_Networks"),
    "2": ("Beta kernel machines study", "Theory"),
    "3": ("Gamma rule induction systems", "Rule_Learning"),
    "4": ("Delta neural field models", "Neural_Networks"),
    "5": ("Epsilon reinforcement agents work", "Reinforcement_Learning"),
}
# LINQS order "<cited> <citing>": 2, 3 and 4 cite paper 1; 4 cites 2; 5 cites 3 and 4.
CITES = "1\t2\n1\t3\n1\t4\n2\t4\n3\t5\n4\t5\n"


def write_tiny_cora(folder: Path, with_jsonl: bool = True) -> Path:
    """The Cora file set for :data:`PAPERS` / :data:`CITES`; returns the ``cora`` folder."""
    cora = folder / "cora"
    cora.mkdir(parents=True)
    rows = ["paper_id,title,abstract"] + [
        f'{pid},"{title}","Abstract of paper {pid}."' if pid != "5" else f'{pid},"{title}",nan'
        for pid, (title, _) in PAPERS.items()
    ]
    (cora / "node_info.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (cora / "cora.cites").write_text(CITES, encoding="utf-8")
    if with_jsonl:
        lines = [
            json.dumps({"node_id": i, "paper_id": int(pid), "text": "...", "label": label})
            for i, (pid, (_, label)) in enumerate(PAPERS.items())
        ]
        (cora / "cora_text_graph_complete.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    content = "".join(f"{pid}\t0\t1\t{label}\n" for pid, (_, label) in PAPERS.items()).encode()
    with tarfile.open(cora / "cora.tgz", "w:gz") as tar:
        info = tarfile.TarInfo("cora/cora.content")
        info.size = len(content)
        tar.addfile(info, io.BytesIO(content))
    return cora
