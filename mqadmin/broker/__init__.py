"""The development broker: ``mqadmin broker start``, a single-node broker real clients use.

Three layers, imports pointing down only (no cycle inside the package):

- the composition root, ``server`` (Java's ``BrokerController``): builds the tables and services,
  hands each processor the few it uses, registers the handlers behind one gate (``admission``) and
  one error policy (its handler table's, answering as ``wire.error_answer`` writes), and runs the
  housekeeping; ``startup`` is the process;
- ``processors``: the request handlers by family, each given its services by keyword;
- the state: ``config`` (the Java settings), ``topics``, ``groups``, ``offsets``, ``static_topics``
  and ``cold_data`` (the persisted tables), ``clients`` (connected producers and consumers),
  ``longpoll`` (parked pulls), ``schedule`` (delayed delivery), ``transactions`` (half messages),
  ``stats``, ``registration`` (the name-server registration: a topic change returns the future of
  its own registration), ``ha`` (controller mode), ``store`` (the durable message store), ``acl``
  (ACL 1.0) and ``auth`` (ACL 2.0), and ``services``: what several processors share (the message
  writer that wakes parked pulls, the client notifier, the live config). ``wire`` writes answers as
  a 4.9.8 broker does, for processors and state alike.

A state module never imports a processor or the server; a processor never imports the server.
"""
