"""Command modules, one per family; each defines the commands :mod:`mqadmin.cli.registry` places in it.

A command gathers its answer once and hands it to ``inv.out.emit`` as one result
(:class:`mqadmin.cli.results.Result`): ``text()`` is the Java tool's output byte for byte,
``data()`` the ``mqadmin/v1`` document, ``layout`` its ``--output table`` columns. The result keeps
what the servers sent in the order received; the Java collection orders (``java_hash_order``,
``java_string_sort_key``, ``MessageQueue.java_sort_key``, ...) are applied only inside ``text()``,
and documents list their items by a natural key (names sorted, queues by topic, broker, queue id).
A fixed message beside its document is a :class:`~mqadmin.cli.results.Plain`.
"""
