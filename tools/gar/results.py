"""Where GAR writes an answer too large to carry: one folder per run, under the results root.

Both a Spark run on an edge dataset (Parquet, :mod:`graphreason.tools.gar.spark.answers`) and a run
whose list or mapping answer exceeds ``answer_items`` (JSON, :mod:`graphreason.workflows.gar.written`)
name their folder here, so every written answer sits at ``<root>/<time>-<algorithm>-<id>/``.
"""

from __future__ import annotations

import time
import uuid

from graphreason.settings import cache_dir


def results_root() -> str:
    """The default folder of written answers (under the cache); on a cluster, give a folder every executor reaches."""
    return str(cache_dir("gar-results"))


def run_folder(algorithm: str, root: str | None = None) -> str:
    """A new run folder's path (not created): ``<root>/<time>-<algorithm>-<id>``, ``root`` defaulting to :func:`results_root`.

    A string, not a Path: on a cluster the root may be a URI (``hdfs://``, ``s3a://``).
    """
    base = (root or results_root()).rstrip("/")
    return f"{base}/{time.strftime('%Y%m%d-%H%M%S')}-{algorithm}-{uuid.uuid4().hex[:6]}"
