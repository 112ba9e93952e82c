"""The Spark session the jobs run in: local by default, any cluster with ``--master``, or the caller's.

An active session (a test's, a notebook's, the one ``spark-submit`` made) is used as it is. Otherwise
one is built: ``local[*]`` unless a master is given or ``spark-submit`` already decided it, the UI
and the progress bar off (a job takes seconds; the UI would only hold a port), the session time zone
UTC (snapshots are UTC), and for local mode the driver bound to loopback and few shuffle partitions
(the aggregates are small; 200 partitions and adaptive re-planning would cost more than
the work). Python workers run the
interpreter the driver runs, so they find the same packages.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["DEFAULT_MASTER", "common_conf", "get_spark", "local_conf"]

DEFAULT_MASTER = "local[*]"


def local_conf(shuffle_partitions: int | None = None) -> dict[str, str]:
    """Settings for a single-machine session (also used by the tests' shared session)."""
    if shuffle_partitions is None:
        shuffle_partitions = max(2, min(16, os.cpu_count() or 2))
    return {
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
        "spark.default.parallelism": str(shuffle_partitions),
        # adaptive execution re-plans between stages; on one machine and job-sized data it costs
        # more than it saves
        "spark.sql.adaptive.enabled": "false",
    }


def common_conf() -> dict[str, str]:
    return {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
    }


def get_spark(master: str | None = None, app_name: str = "mqadmin-analyze") -> SparkSession:
    """The active session, or a new one configured as the module docstring says."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # pyspark warns about pandas versions on import; the jobs do not use pandas
    warnings.filterwarnings("ignore", message=".*does not yet fully support pandas.*", category=FutureWarning)
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    under_submit = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit / pyspark shell set the master
    if master is None and not under_submit:
        master = DEFAULT_MASTER
    builder = SparkSession.builder.appName(app_name)
    conf = common_conf()
    if master is not None:
        builder = builder.master(master)
        if master.startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            conf.update(local_conf())
    for k, v in conf.items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
