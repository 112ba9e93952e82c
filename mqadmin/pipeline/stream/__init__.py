"""RocketMQ in Spark pipelines: the streaming source and the sink of the ``rocketmq`` data source.

- :mod:`.datasource` is the one ``rocketmq`` data source (``register(spark)``, public as
  :mod:`mqadmin.spark`): batch reads go to
  :mod:`mqadmin.pipeline.export`, streaming reads to :mod:`.source`, writes to :mod:`.sink`.
- :mod:`.options` judges the options on the driver; :mod:`.offsets` holds the stream offsets
  (``{"topic": {"broker:queueId": next offset}}``) and the read-limit arithmetic; :mod:`.queues`
  finds the queues and their min/max offsets on every trigger.
- The checkpoint is the source of truth: offsets committed to a ``group`` only make the lag show.
- The sink is at least once; a deterministic ``UNIQ_KEY`` per row lets readers drop duplicates.
"""
