"""The bundled name server: request processors, KV store, config and process, over :mod:`mqadmin.route`.

Shape (imports point down the list):

- :mod:`~mqadmin.namesrv.server` is the composition root (``NamesrvController``, Java's name): the
  route tables, the KV store, the config and the processors behind a remoting server, housekeeping,
  and the worker pool. ``controller`` means only the HA controller (:mod:`mqadmin.controller`).
- :mod:`~mqadmin.namesrv.processor` answers every request code as 5.3.3 does.
- :mod:`~mqadmin.namesrv.routequery` is the one place a GET_ROUTEINFO_BY_TOPIC query is decided:
  a ``RouteQuery`` read once from the request (topic, standard JSON or not, zone), and
  ``answer(query, source)`` giving the body, NOT_FOUND, FORWARD or NOT_READY. Its two sources are
  the route tables (``RouteTables``: order configs, zones, ``needWaitForService``) and a worker's
  replica of plain route bodies (:mod:`~mqadmin.namesrv.replica`), which forwards the rest.
- :mod:`~mqadmin.namesrv.fastpath` answers route queries straight from their frames, as the remoting
  connection's frame pre-filter, whenever that answer is a body; every other frame goes down the
  generic path (the processor, or a worker's handlers), which asks the same decision, so the bytes
  on the wire are the same either way.
- :mod:`~mqadmin.namesrv.worker` and :mod:`~mqadmin.namesrv.workers` run more processes on the same
  port: a worker answers route queries from its replica and passes everything else to the primary.
- :mod:`~mqadmin.namesrv.kvconfig`, :mod:`~mqadmin.namesrv.config`, :mod:`~mqadmin.namesrv.startup`
  and :mod:`~mqadmin.namesrv.remarks` hold the KV store, the config beans, the command line and
  Java's error texts.
"""
