"""Request processors by family, each a class whose ``handlers()`` maps request codes to handlers.

``send`` (10, 310, 320, 36), ``pull`` (11), ``offsets`` (14, 15, 29-32, 43, 45, 308, 314),
``query`` (12, 33), ``clients`` (34, 35, 38, 41, 42, 46, 203, 204, 222, 223, 307, 309, 328),
``admin_topics``, ``admin_broker`` and ``admin_groups`` (the admin codes), ``static_topic`` (513)
and ``static_forward`` (a static topic's logical queues, here or on their broker), ``acl_admin``,
``auth``, ``ha``, ``broker_ops`` and ``cold_data``.

A processor is built by the composition root (:mod:`mqadmin.broker.server`) with keyword arguments
naming the tables and services it uses (:mod:`mqadmin.broker.services`), never the whole broker.
Handlers answer with :func:`mqadmin.broker.wire.answer` and refuse by raising a
:class:`~mqadmin.protocol.headers.base.HeaderError` (or returning a refusal): the server answers
what a handler raises, in one place (its handler table's error policy, writing as
:func:`mqadmin.broker.wire.error_answer`). Nothing below this package imports it.
"""
