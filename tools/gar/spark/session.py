"""One Spark session per process for GAR's Spark engine, built from :class:`SparkSettings`.

pyspark is an optional dependency (``pip install 'graphreason[spark]'``) and
needs a Java runtime; both are checked before anything starts, each with a
message that says what to install. The session is created on first use, reused
by every later run in the process, and stopped when the process exits.
"""

from __future__ import annotations

import atexit
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from graphreason.tools.gar.vertex.graph import VertexProgramError


class SparkUnavailableError(VertexProgramError):
    """The Spark engine cannot start here (no pyspark, no Java) or cannot run what was asked."""


# Supersteps between reliable checkpoints on a cluster: a lost executor's rounds since the last one are
# recomputed from lineage (GraphX's Pregel cuts every spark.graphx.pregel.checkpointInterval, which its docs
# suggest setting to 10). benchmarks/bench_gar_spark.py --checkpoint-interval measures the cost per superstep.
CLUSTER_CHECKPOINT_INTERVAL = 10


@dataclass(frozen=True)
class SparkSettings:
    """Where and how the Spark engine runs.

    ``master`` is any Spark master URL: ``local[*]`` (this machine, every core),
    ``local[2]``, ``spark://host:7077`` (a standalone cluster), ``yarn`` or
    ``k8s://https://host:443``. ``conf`` holds extra ``spark.*`` settings
    (e.g. ``spark.executor.memory``); ``ui`` turns the Spark web UI on.
    """

    master: str = "local[*]"
    app_name: str = "graphreason-gar"
    conf: dict[str, str] = field(default_factory=dict)
    ui: bool = False
    checkpoint_dir: str | None = None  # reliable checkpoints: a folder every executor reaches (unset: the cache's)
    checkpoint_interval: int | None = None  # supersteps between reliable checkpoints; 0: a local cut every round
    event_log: bool | None = None  # Spark's event log, for its history server (unset: on for a cluster)

    def __post_init__(self) -> None:
        if not self.master.strip():
            raise SparkUnavailableError("the Spark master URL is empty; use e.g. local[*] or spark://host:7077")
        bad = [k for k in self.conf if not k.startswith("spark.")]
        if bad:
            raise SparkUnavailableError(f"Spark settings must be spark.* keys; got {', '.join(sorted(bad))}")
        every = self.checkpoint_interval
        if every is not None and (isinstance(every, bool) or not isinstance(every, int) or not 0 <= every <= 10_000):
            raise SparkUnavailableError(f"the checkpoint interval must be 0 to 10000 supersteps, got {every!r}")

    @property
    def local(self) -> bool:
        """The driver is the only executor (``local``, ``local[N]``, ``local[*]``)."""
        return self.master == "local" or self.master.startswith("local[")

    @property
    def interval(self) -> int:
        """Supersteps between reliable checkpoints. Unset: 0 in local mode, where the driver is the only
        executor and a lost executor is a lost run anyway (each round is cut locally, in memory), and
        :data:`CLUSTER_CHECKPOINT_INTERVAL` on a cluster."""
        if self.checkpoint_interval is not None:
            return self.checkpoint_interval
        return 0 if self.local else CLUSTER_CHECKPOINT_INTERVAL

    @property
    def logs_events(self) -> bool:
        return (not self.local) if self.event_log is None else self.event_log


def parse_conf(items: list[str] | str | None) -> dict[str, str]:
    """``["spark.a=1", "spark.b=x"]`` (or one comma-separated string) as a dict, with clear errors."""
    if not items:
        return {}
    if isinstance(items, str):
        items = [part for part in items.split(",") if part.strip()]
    conf: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SparkUnavailableError(f"a Spark setting must read key=value, got {item!r}")
        conf[key.strip()] = value.strip()
    return conf


def _local_partitions(master: str) -> int | None:
    """Shuffle partitions of a ``local[N]`` / ``local[*]`` master: two per core, so a slow task does not hold
    the others back, and one on a single core, whose tasks run one after the other anyway, so a second
    partition only adds its overhead to each round; None for a cluster."""
    if master == "local":
        return 1
    if master.startswith("local[") and master.endswith("]"):
        inner = master[6:-1].split(",")[0]
        cores = (os.cpu_count() or 2) if inner == "*" else (int(inner) if inner.isdigit() else 2)
        return 1 if cores == 1 else 2 * cores
    return None


def java_available() -> bool:
    """Whether a Java runtime can be found (JAVA_HOME or ``java`` on PATH)."""
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return True
    return shutil.which("java") is not None


def require_pyspark() -> Any:
    """The pyspark module, or a clear error naming the extra to install."""
    try:
        import pyspark
    except ImportError as exc:
        raise SparkUnavailableError(
            "the Spark engine needs pyspark, which `make demo` does not install: run "
            "`pip install -e '.[spark]'` in the project's checkout (Java 17 or 21 too), or use --engine compiled"
        ) from exc
    return pyspark


_lock = threading.Lock()
_session: Any = None
_settings: SparkSettings | None = None


def get_session(settings: SparkSettings | None = None) -> Any:
    """The process's Spark session, created on first use with ``settings``.

    A later call with different settings gets an error rather than a silent
    reuse of the first session's master (a JVM holds one SparkContext).
    """
    global _session, _settings
    settings = settings or SparkSettings()
    with _lock:
        if _session is not None:
            if settings != _settings:
                raise SparkUnavailableError(
                    f"this process already runs a Spark session on {_settings.master!r} "  # type: ignore[union-attr]
                    f"({_settings.app_name!r}); one process holds one session: stop it first or use the same settings"
                )
            return _session
        require_pyspark()
        if not java_available():
            raise SparkUnavailableError(
                "the Spark engine needs a Java runtime (Java 17 or 21): install one (e.g. apt install "
                "openjdk-17-jre-headless) or set JAVA_HOME; or run with --engine compiled"
            )
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.master(settings.master).appName(settings.app_name)
        local = _local_partitions(settings.master)
        own = None  # the cluster `graphreason spark up` started, when the master is its
        logging = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
        defaults = {
            "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{logging}",  # errors only
            "spark.ui.enabled": "true" if settings.ui else "false",
            "spark.ui.showConsoleProgress": "false",
            # a run is hundreds of small jobs: keep the status store of finished ones small
            "spark.sql.ui.retainedExecutions": "50",
            "spark.ui.retainedJobs": "100",
            "spark.ui.retainedStages": "100",
        }
        if local is not None:
            # One machine: the supersteps shuffle small tables, Spark's default of 200 partitions is for
            # big ones; adaptive re-planning costs more than it saves on such small tables; and the driver
            # is also the executor.
            defaults.update(
                {
                    "spark.sql.shuffle.partitions": str(local),
                    "spark.sql.adaptive.enabled": "false",
                    "spark.driver.memory": "2g",
                }
            )
        else:
            # Executors of their own: keep the same planner choices as local mode; the shuffle width is set
            # from the executors' cores once they have registered (below).
            defaults["spark.sql.adaptive.enabled"] = "false"
            own = _own_cluster(settings.master)
            if own is not None:  # a cluster `graphreason spark up` started: each executor takes what its worker offers
                defaults["spark.executor.memory"] = str(own.spec["memory"])
        if settings.interval:
            # a checkpoint's files are deleted once no round refers to it any more
            defaults["spark.cleaner.referenceTracking.cleanCheckpoints"] = "true"
        if settings.logs_events:
            events = event_log_dir()
            defaults.update({"spark.eventLog.enabled": "true", "spark.eventLog.dir": events.as_uri()})
        for key, value in {**defaults, **settings.conf}.items():
            builder = builder.config(key, value)
        try:
            session = builder.getOrCreate()
        except Exception as exc:  # a JVM that would not start: say which master and why
            raise SparkUnavailableError(f"Spark could not start on {settings.master!r}: {exc}") from exc
        session.sparkContext.setLogLevel("ERROR")
        if settings.interval:
            session.sparkContext.setCheckpointDir(settings.checkpoint_dir or str(_cache("spark-checkpoints")))
        if local is None and "spark.sql.shuffle.partitions" not in settings.conf:
            session.conf.set("spark.sql.shuffle.partitions", str(_cluster_partitions(session, own)))
        _session, _settings = session, settings
        return session


def _own_cluster(master: str) -> Any:
    """The cluster `graphreason spark up` started here, when ``master`` is its URL; else None."""
    from graphreason.tools.gar.spark.cluster import ClusterError, read_cluster

    try:
        cluster = read_cluster()
    except ClusterError:
        return None
    return cluster if cluster is not None and cluster.master_url == master else None


def _cache(*parts: str) -> Any:
    from graphreason.settings import cache_dir

    return cache_dir(*parts)


def event_log_dir() -> Any:
    """Where event logs go (under the cache): ``spark-class org.apache.spark.deploy.history.HistoryServer``
    with ``spark.history.fs.logDirectory`` set to it shows every past run's supersteps."""
    return _cache("spark-events")


def _cluster_partitions(session: Any, cluster: Any, wait: float = 30.0) -> int:
    """Two shuffle partitions per executor core, counted once the executors have registered: every worker's,
    on a ``cluster`` `graphreason spark up` started (at most ``wait`` seconds), else the first one's."""
    sc = session.sparkContext
    sc.parallelize([0], 1).count()
    expected = len(cluster.worker_pids) if cluster is not None else 1
    deadline = time.monotonic() + wait
    while sc._jsc.sc().getExecutorMemoryStatus().size() - 1 < expected and time.monotonic() < deadline:
        time.sleep(0.25)  # (the driver's own entry is one of the statuses)
    return max(2, 2 * int(sc.defaultParallelism))


def run_info() -> dict[str, Any]:
    """Where the running session's work can be watched: application id, master, web UI, event log,
    checkpoint folder and interval (what a run's trace records)."""
    if _session is None or _settings is None:
        return {}
    sc = _session.sparkContext
    info: dict[str, Any] = {"application_id": sc.applicationId, "master": sc.master}
    info["ui"] = sc.uiWebUrl if _settings.ui else None
    conf = sc.getConf()
    if conf.get("spark.eventLog.enabled", "false") == "true":
        # Spark 4 writes rolling event logs by default: a folder eventlog_v2_<application id>
        rolling = conf.get("spark.eventLog.rolling.enabled", "true") == "true"
        name = f"eventlog_v2_{sc.applicationId}" if rolling else sc.applicationId
        info["event_log"] = conf.get("spark.eventLog.dir", "").rstrip("/") + "/" + name
    else:
        info["event_log"] = None
    info["checkpoint_interval"] = _settings.interval
    info["checkpoint_dir"] = sc.getCheckpointDir() if _settings.interval else None
    return info


def checkpoint_interval() -> int:
    """Supersteps between reliable checkpoints of the running session (0: local cuts; no session: 0)."""
    return _settings.interval if _settings is not None else 0


def ui_url() -> str | None:
    """The running session's web UI address, when the UI is on."""
    if _session is None or _settings is None or not _settings.ui:
        return None
    return _session.sparkContext.uiWebUrl


def stop_session() -> None:
    """Stop the process's session (a later :func:`get_session` starts a new one)."""
    global _session, _settings
    with _lock:
        if _session is not None:
            folder = _session.sparkContext.getCheckpointDir() if _settings and _settings.interval else None
            _session.stop()
            if folder and folder.startswith("file:"):  # this run's checkpoints, on a local or mounted path
                shutil.rmtree(folder[5:], ignore_errors=True)
        _session, _settings = None, None


atexit.register(stop_session)
