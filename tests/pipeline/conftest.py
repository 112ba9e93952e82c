"""Shared fixtures of the pipeline tests: one local Spark session, one synthetic history, and one
real standalone cluster and one Spark Connect server.

Spark takes 10-20 s to start, so every test that needs it shares the session below; the jobs'
runner finds it as the active session and uses it as it is. For the same reason the tests that run on
a standalone cluster (a master and two workers) or on a Connect server share one of each, started the
first time a test asks for it and stopped when the session ends.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.pipeline import spark_cluster, synth

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.jobs.io import Snapshots


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    warnings.filterwarnings("ignore", message=".*does not yet fully support pandas.*", category=FutureWarning)
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.jobs.session import common_conf, local_conf

    builder = SparkSession.builder.master("local[2]").appName("mqadmin-pipeline-tests")
    for k, v in {**common_conf(), **local_conf(2)}.items():
        builder = builder.config(k, v)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic history of :mod:`tests.pipeline.synth`, written with the real writer."""
    root = tmp_path_factory.mktemp("snapshots")
    synth.write_history(root)
    return root


@pytest.fixture(scope="session")
def snaps(spark: SparkSession, history: Path) -> Iterator[Snapshots]:
    """The history read back through the jobs' reader, cached for the whole session."""
    from mqadmin.pipeline.jobs.io import Snapshots, read_snapshots

    raw = read_snapshots(spark, str(history))
    cached = Snapshots(
        raw.queue_offsets.cache(), raw.group_offsets.cache(), raw.broker_stats.cache(), raw.missing.cache()
    )
    yield cached
    for df in (cached.queue_offsets, cached.group_offsets, cached.broker_stats, cached.missing):
        df.unpersist()


@pytest.fixture(scope="session")
def standalone_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[spark_cluster.Standalone]:
    """A master and two workers (1 core each); a test's application runs alone on them, and finds
    which executors ran its tasks with :meth:`~tests.pipeline.spark_cluster.Standalone.executor_logs`."""
    with spark_cluster.standalone(tmp_path_factory.mktemp("spark-standalone"), workers=2) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def connect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[spark_cluster.Connect]:
    """One Spark Connect server; each client gets a session of its own on it."""
    with spark_cluster.connect_server(tmp_path_factory.mktemp("spark-connect")) as server:
        yield server
