"""Reading a topic's messages in parallel: queue offset ranges, pulling them, the batch reader.

:mod:`.ranges` plans (one range per message queue, large ones split), :mod:`.pull` reads a range
from its broker (chunks of up to 1,024 offsets, several pulls in flight), :mod:`.columns` decodes
the pulled records straight into Arrow columns, :mod:`.datasource` is the batch reader of the
``rocketmq`` data source (the whole source, with streams and the sink, is
:mod:`mqadmin.pipeline.stream.datasource`).
"""
