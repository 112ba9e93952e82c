"""Reading a topic's messages in parallel: queue offset ranges, pulling them, the batch reader.

:mod:`.ranges` plans (one range per message queue, large ones split), :mod:`.pull` reads a range
from its broker to its end or fails (chunks of up to 1,024 offsets, several pulls in flight, bounded
retries), :mod:`.columns` decodes the pulled records straight into Arrow columns, each judged by the
one rule of :mod:`.checks`, :mod:`.datasource` is the batch reader of the
``rocketmq`` data source (the whole source, with streams and the sink, is
:mod:`mqadmin.pipeline.stream.datasource`).
"""
