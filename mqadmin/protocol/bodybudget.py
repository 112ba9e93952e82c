"""A request's body against the budget its code declares (:mod:`mqadmin.protocol.requests`), for the
two places that check it: our servers before any handler, the admin client before sending.

No code declares a body budget under :data:`SMALLEST`, so a smaller body is never looked up.
"""

from __future__ import annotations

__all__ = ["SMALLEST", "over_budget"]

SMALLEST = 64 * 1024
"""No request code's declared body budget is smaller (a test of the registry holds it so)."""


def over_budget(code: int, size: int) -> int | None:
    """The body budget ``code`` declares when ``size`` bytes are over it, else None (an undeclared
    code has none here: what refuses it is the server's own rules)."""
    if size <= SMALLEST:
        return None
    from mqadmin.protocol.requests import declared  # the registry, for a body big enough to be over one

    decl = declared(code)
    if decl is None or size <= decl.budget.body:
        return None
    return decl.budget.body
