"""Reading a topic's messages in parallel: queue offset ranges, pulling them, the Spark data source.

:mod:`.ranges` plans (one range per message queue, large ones split), :mod:`.pull` reads a range
from its broker, :mod:`.datasource` is the ``rocketmq`` PySpark data source built on both.
"""
