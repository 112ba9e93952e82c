"""The development broker: ``mqadmin broker start``, a single-node broker real clients use.

``server`` wires it together (the composition root); ``acl`` is ACL 1.0, ``auth`` ACL 2.0;
``config`` holds the Java settings; ``topics``, ``groups`` and ``offsets`` are the persisted tables;
``clients`` the connected producers and consumers; ``longpoll`` the parked pulls; ``schedule``
delayed delivery; ``transactions`` half messages; ``stats`` the runtime figures; ``registration``
the name-server registration; ``processors`` the request handlers; ``store`` the durable message
store; ``startup`` the process.
"""
