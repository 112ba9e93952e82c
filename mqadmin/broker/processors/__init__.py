"""Request processors by family, each a class whose ``handlers()`` maps request codes to handlers.

``send`` (10, 310, 320, 36), ``pull`` (11), ``offsets`` (14, 15, 29-32, 43, 45, 308, 314),
``query`` (12, 33), ``clients`` (34, 35, 38, 41, 42, 46, 203, 204, 222, 223, 307, 309, 328),
``admin_topics``, ``admin_broker`` and ``admin_groups`` (the admin codes); ``wire`` holds what they
share: header parsing with Java's errors, and responses written as a 4.9.8 broker writes them.
"""
