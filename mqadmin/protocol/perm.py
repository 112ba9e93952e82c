"""Java's ``PermName``: the permission bits of a topic or a broker, their text, and what is valid.

One small module of constants, so that a command that only checks a bit (``sendMessage`` asks for a
writable queue) does not load the topic config bodies, and so that every side writes ``RW-`` alike.
"""

from __future__ import annotations

__all__ = ["PERM_INHERIT", "PERM_PRIORITY", "PERM_READ", "PERM_WRITE", "perm_is_valid", "perm_to_string"]

PERM_PRIORITY = 0x1 << 3
PERM_READ = 0x1 << 2
PERM_WRITE = 0x1 << 1
PERM_INHERIT = 0x1 << 0


def perm_to_string(perm: int) -> str:
    """``PermName.perm2String``: ``R``/``W``/``X`` or ``-`` (6 → ``RW-``)."""
    return (
        ("R" if perm & PERM_READ else "-")
        + ("W" if perm & PERM_WRITE else "-")
        + ("X" if perm & PERM_INHERIT else "-")
    )


def perm_is_valid(perm: int) -> bool:
    """``PermName.isValid``: 0 <= perm < PERM_PRIORITY."""
    return 0 <= perm < PERM_PRIORITY
