"""The ext field order of an unsigned request, as the Java 5.3.3 tool writes it.

fastjson writes ``extFields`` in the iteration order of the Java ``HashMap`` behind it. Unsigned, that
map is made by ``makeCustomHeaderToNet`` (``new HashMap<>()``, 16 buckets) from the header class's
fields in declaration order: putting the keys in that order and then in bucket order gives the very
header bytes the Java tool sends. A signed request's order is :mod:`mqadmin.admin.signing`'s.
"""

from __future__ import annotations

from mqadmin.protocol.javacoll import remembered_hash_order

__all__ = ["ordered_fields"]

_UNSIGNED_CAPACITY = 16


def ordered_fields(fields: dict[str, str | None] | None) -> dict[str, str] | None:
    """Header fields (in the Java header class's declaration order) as an unsigned request sends them.

    ``None`` values are dropped, as Java skips null fields; no fields at all means no ``extFields``.
    """
    if not fields:
        return None
    present = {k: v for k, v in fields.items() if v is not None}
    if not present:
        return None
    return {k: present[k] for k in remembered_hash_order(tuple(present), _UNSIGNED_CAPACITY)}
