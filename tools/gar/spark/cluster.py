"""A Spark standalone cluster on this machine: one master JVM and N worker JVMs, started and stopped by the project.

``graphreason spark up --workers 2 --cores 1 --memory 2g`` runs
:func:`start_cluster`; ``graphreason spark down`` runs :func:`stop_cluster`. Every
process is started from the installed pyspark's own ``bin/spark-class`` (no
separate Spark download): ``org.apache.spark.deploy.master.Master`` once and
``org.apache.spark.deploy.worker.Worker`` per worker, each its own JVM in its
own process group, so they outlive the command that started them. The start
waits until every worker has registered with the master (read from the
master's ``/json`` status page), then writes ``cluster.json`` in the cluster's
folder (under the cache: ``spark-cluster/<name>``) with the master URL, the web
UI address, each process's pid and its log file.

A GAR run then uses the cluster with ``--spark-master spark://HOST:PORT``: its
executors are launched by the workers, one per worker, in processes of their
own. For a cluster of several machines, start the master and the workers with
Spark's own scripts on those machines and point ``--spark-master`` at the
master; the docs' Spark page says what the checkpoint and result folders then need.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from graphreason.tools.gar.spark.session import SparkUnavailableError, java_available, require_pyspark

STATE_FILE = "cluster.json"
MEMORY = re.compile(r"^[1-9][0-9]*[mMgG]$")
# The master and worker daemons only schedule; the executors they launch get the memory a worker offers.
DAEMON_MEMORY = "256m"
REGISTER_SECONDS = 90.0


class ClusterError(SparkUnavailableError):
    """The standalone cluster cannot be started, found or stopped as asked."""


@dataclass(frozen=True)
class ClusterSpec:
    """What to start: ``workers`` worker JVMs offering ``cores`` cores and ``memory`` (e.g. ``1g``) each."""

    workers: int = 2
    cores: int = 1
    memory: str = "1g"
    host: str = "127.0.0.1"
    port: int = 0  # the master's port; 0: a free one
    ui_port: int = 0  # the master's web UI port; 0: a free one

    def __post_init__(self) -> None:
        if not 1 <= self.workers <= 64:
            raise ClusterError(f"workers must be 1 to 64, got {self.workers}")
        if not 1 <= self.cores <= 256:
            raise ClusterError(f"cores per worker must be 1 to 256, got {self.cores}")
        if not MEMORY.match(self.memory):
            raise ClusterError(f"memory per worker must read like 512m or 2g, got {self.memory!r}")
        for name, port in (("port", self.port), ("ui_port", self.ui_port)):
            if not 0 <= port <= 65535:
                raise ClusterError(f"{name} must be 0 (any free port) to 65535, got {port}")


@dataclass
class Cluster:
    """A started cluster, as written to (and read back from) its ``cluster.json``."""

    folder: str
    master_url: str
    ui_url: str
    spec: dict[str, Any]
    master_pid: int
    worker_pids: list[int]
    logs: dict[str, str] = field(default_factory=dict)
    started: str = ""

    @property
    def workers(self) -> int:
        return len(self.worker_pids)

    def alive_workers(self, timeout: float = 5.0) -> int:
        """How many workers the master lists as ALIVE right now."""
        return int(_master_status(self.ui_url, timeout).get("aliveworkers", 0))


def spark_home() -> Path:
    """The installed pyspark's folder: its ``bin/spark-class`` and ``jars/`` are a complete Spark."""
    pyspark = require_pyspark()
    return Path(pyspark.__file__).resolve().parent


def cluster_folder(name: str = "local") -> Path:
    """Where cluster ``name`` keeps its state file, logs and worker folders (under the cache)."""
    from graphreason.settings import cache_dir

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", name):
        raise ClusterError(f"a cluster name is letters, digits, '.', '_' or '-' (64 at most), got {name!r}")
    return cache_dir("spark-cluster", name)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _env(folder: Path, host: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SPARK_HOME=str(spark_home()),
        SPARK_LOCAL_IP=host,  # bind and advertise this address, not the machine's first interface
        SPARK_LOG_DIR=str(folder / "logs"),
        SPARK_WORKER_DIR=str(folder / "work"),
        SPARK_DAEMON_MEMORY=DAEMON_MEMORY,
        SPARK_NO_DAEMONIZE="1",
    )
    return env


def _spawn(args: list[str], env: dict[str, str], log: Path) -> int:
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(spark_home() / "bin" / "spark-class"), *args],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env,
            start_new_session=True,  # its own process group: outlives `spark up`, stopped as a group
        )  # fmt: skip
    return proc.pid


def _master_status(ui_url: str, timeout: float = 5.0) -> dict[str, Any]:
    with urllib.request.urlopen(ui_url.rstrip("/") + "/json/", timeout=timeout) as reply:  # noqa: S310 (our own master)
        return json.loads(reply.read().decode("utf-8"))


def _tail(path: str | Path, lines: int = 8) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(text[-lines:]) or "(empty log)"


def read_cluster(name: str = "local") -> Cluster | None:
    """The cluster ``name`` started earlier, or None when none is recorded."""
    path = cluster_folder(name) / STATE_FILE
    if not path.exists():
        return None
    try:
        return Cluster(**json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"{path} is not a cluster state file ({exc}); delete it after stopping the JVMs") from exc


def start_cluster(spec: ClusterSpec | None = None, name: str = "local", wait: float = REGISTER_SECONDS) -> Cluster:
    """Start a master and ``spec.workers`` workers; return once all have registered (or raise, stopping them)."""
    spec = spec or ClusterSpec()
    if not java_available():
        raise ClusterError("a Spark cluster needs a Java runtime (17 or 21): install one or set JAVA_HOME")
    folder = cluster_folder(name)
    old = read_cluster(name)
    if old is not None and _running(old.master_pid):
        raise ClusterError(
            f"cluster {name!r} is already up at {old.master_url} (web UI {old.ui_url}); "
            "stop it first with `graphreason spark down`"
        )
    port = spec.port or free_port(spec.host)
    ui_port = spec.ui_port or free_port(spec.host)
    env = _env(folder, spec.host)
    logs = {"master": str(folder / "logs" / "master.out")}
    master_pid = _spawn(
        ["org.apache.spark.deploy.master.Master", "--host", spec.host, "--port", str(port), "--webui-port", str(ui_port)],
        env, Path(logs["master"]),
    )  # fmt: skip
    master_url = f"spark://{spec.host}:{port}"
    ui_url = f"http://{spec.host}:{ui_port}"
    deadline = time.monotonic() + wait
    # Workers started before the master listens back off for seconds before they retry: start them after it.
    while not _answers(ui_url):
        if not alive(master_pid) or time.monotonic() > deadline:
            _stop_pids([master_pid])
            raise ClusterError(f"the Spark master did not start:\n{_tail(logs['master'])}")
        time.sleep(0.25)
    worker_pids = []
    for i in range(spec.workers):
        logs[f"worker-{i + 1}"] = str(folder / "logs" / f"worker-{i + 1}.out")
        worker_pids.append(
            _spawn(
                [
                    "org.apache.spark.deploy.worker.Worker", "--host", spec.host, "--cores", str(spec.cores),
                    "--memory", spec.memory, "--webui-port", "0", "--work-dir", str(folder / "work" / f"worker-{i + 1}"),
                    master_url,
                ],
                env, Path(logs[f"worker-{i + 1}"]),
            )  # fmt: skip
        )
    cluster = Cluster(
        folder=str(folder), master_url=master_url, ui_url=ui_url, spec=asdict(spec), master_pid=master_pid,
        worker_pids=worker_pids, logs=logs, started=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    )  # fmt: skip
    (folder / STATE_FILE).write_text(json.dumps(asdict(cluster), indent=1), encoding="utf-8")
    registered, why = 0, "the master has not answered yet"
    while time.monotonic() < deadline:
        daemons = [("master", master_pid), *((f"worker-{i + 1}", p) for i, p in enumerate(worker_pids))]
        dead = [label for label, pid in daemons if not alive(pid)]
        if dead:
            why = f"{dead[0]} exited:\n{_tail(logs[dead[0]])}"
            break
        try:
            registered = cluster.alive_workers(timeout=2.0)
        except OSError:
            registered = 0
        if registered >= spec.workers:
            return cluster
        time.sleep(0.5)
    else:
        why = f"{registered} of {spec.workers} workers registered within {wait:.0f} s; master log:\n{_tail(logs['master'])}"
    stop_cluster(name)
    raise ClusterError(f"the Spark cluster did not come up: {why}")


def _answers(ui_url: str) -> bool:
    try:
        _master_status(ui_url, timeout=1.0)
    except (OSError, ValueError):
        return False
    return True


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live Spark daemon of ours (a reused pid of another program does not count)."""
    if not alive(pid):
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"org.apache.spark.deploy" in f.read()
    except OSError:
        return False


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (an executor is a child of its worker's JVM)."""
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            for task in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{task}/children", encoding="ascii") as f:
                    kids = [int(k) for k in f.read().split()]
                out.extend(kids)
                todo.extend(kids)
        except OSError:
            continue
    return out


def kill_worker(cluster: Cluster, index: int = 0) -> list[int]:
    """SIGKILL worker ``index`` and its executor, as a machine lost mid-run would; the pids killed (none when
    that worker is not running)."""
    pid = cluster.worker_pids[index]
    if not _running(pid):
        return []
    killed = []
    for victim in [pid, *descendants(pid)]:
        try:
            os.kill(victim, signal.SIGKILL)
        except ProcessLookupError:
            continue
        killed.append(victim)
    return killed


def stop_cluster(name: str = "local", grace: float = 10.0) -> list[int]:
    """Stop the cluster ``name`` (workers, then the master; SIGTERM, then SIGKILL after ``grace`` s); the pids stopped."""
    cluster = read_cluster(name)
    if cluster is None:
        return []
    groups = [p for p in [*cluster.worker_pids, cluster.master_pid] if _running(p)]
    _stop_pids(groups, grace)
    (Path(cluster.folder) / STATE_FILE).unlink(missing_ok=True)
    return groups


def _stop_pids(groups: list[int], grace: float = 10.0) -> None:
    """SIGTERM each daemon's process group, then SIGKILL whatever of it (executors too) is left after ``grace`` s."""
    victims = [pid for p in groups for pid in (p, *descendants(p))]
    for pid in groups:
        try:
            os.killpg(pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(alive(p) for p in victims):
        time.sleep(0.2)
    for pid in victims:
        if alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and has not exited (a zombie not yet reaped counts as gone)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
