"""Snapshot collector and PySpark analytics.

- :mod:`.collector` takes one snapshot of every cluster through the admin API
  (:class:`mqadmin.admin.api.MQAdmin`); :mod:`.writer` stores it as Parquet in the layout of
  :mod:`.layout`, with the columns of :mod:`.schema`. No JVM needed.
- :mod:`.jobs` are the Spark jobs (lag, throughput, skew, idle, report) and their runner.
- :mod:`.export` reads a topic's messages: queue ranges, pipelined pulls into Arrow columns, the
  batch reader (a small export runs in-process, :mod:`.export.inprocess`).
- :mod:`.stream` is the one ``rocketmq`` Spark data source (``register(spark)``): batch and
  streaming reads (offsets per queue in the checkpoint, optional commits to a consumer group) and
  the at-least-once sink (deterministic ``UNIQ_KEY`` per row).
- :mod:`.preflight` judges options and ``--input`` before any JVM starts; :mod:`.progress` draws
  the progress line of a slow run on a terminal.
- :mod:`.cli` holds ``mqadmin analyze``, :mod:`.snapshot_command` and :mod:`.export.command` the
  other two commands; pyspark and pyarrow are imported only when one of them runs.
"""
