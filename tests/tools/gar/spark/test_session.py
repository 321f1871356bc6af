"""Spark session settings without starting Spark: parsing, validation, local defaults, the logging profile."""

from __future__ import annotations

import os

import pytest

from graphreason.tools.gar.spark import session
from graphreason.tools.gar.spark.session import SparkSettings, SparkUnavailableError, parse_conf


def test_settings_are_parsed_and_checked() -> None:
    assert parse_conf("spark.a=1, spark.b=x=y") == {"spark.a": "1", "spark.b": "x=y"}
    assert parse_conf(["spark.executor.memory=8g"]) == {"spark.executor.memory": "8g"}
    assert parse_conf(None) == {}
    with pytest.raises(SparkUnavailableError, match="key=value"):
        parse_conf("spark.a")
    with pytest.raises(SparkUnavailableError, match="spark.\\* keys; got executor.memory"):
        SparkSettings(conf={"executor.memory": "2g"})
    with pytest.raises(SparkUnavailableError, match="master URL is empty"):
        SparkSettings(master=" ")


def test_local_masters_get_two_partitions_per_core_one_on_one_core_and_clusters_their_own() -> None:
    assert session._local_partitions("local[3]") == 6
    assert session._local_partitions("local") == session._local_partitions("local[1]") == 1
    assert session._local_partitions("local[*]") == 2 * (os.cpu_count() or 2)
    assert session._local_partitions("spark://head:7077") is None


def test_the_logging_profile_ships_beside_the_session_module() -> None:
    profile = os.path.join(os.path.dirname(session.__file__), "log4j2.properties")
    text = open(profile, encoding="utf-8").read()
    assert "rootLogger.level = error" in text and "SYSTEM_ERR" in text
    # PySpark's gateway at the root's level: Spark then skips its "Setting default log level" lines
    assert "logger.pyshell.name = org.apache.spark.api.python.PythonGatewayServer" in text
    assert "logger.pyshell.level = error" in text
