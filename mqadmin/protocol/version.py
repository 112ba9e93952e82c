"""RocketMQ versions as the wire carries them: ordinals of Java's ``MQVersion.Version`` enum.

Every frame's ``version`` field is an ordinal of that enum (409 is 4.9.8, 479 is 5.3.3), and peers
switch behaviour on it (standard JSON route bodies from 401 on, for instance). The enum is the same
in 4.9.8 and 5.3.3: 613 names, from V3_0_0_SNAPSHOT to V5_9_9 and then HIGHER_VERSION. It is
generated here rather than spelled out, and the tests pin the result.
"""

from __future__ import annotations

import re

__all__ = [
    "CURRENT",
    "HIGHER_VERSION",
    "NAMES",
    "V4_9_8",
    "V5_0_0",
    "V5_0_0_SNAPSHOT",
    "V5_3_3",
    "version_name",
    "version_ordinal",
]

# The 3.0.0 pre-releases, in enum order, before the regular SNAPSHOT/release pairs start.
_PRELUDE: tuple[str, ...] = (
    "V3_0_0_SNAPSHOT",
    "V3_0_0_ALPHA1",
    "V3_0_0_BETA1",
    "V3_0_0_BETA2",
    "V3_0_0_BETA3",
    "V3_0_0_BETA4",
    "V3_0_0_BETA5",
    "V3_0_0_BETA6_SNAPSHOT",
    "V3_0_0_BETA6",
    "V3_0_0_BETA7_SNAPSHOT",
    "V3_0_0_BETA7",
    "V3_0_0_BETA8_SNAPSHOT",
    "V3_0_0_BETA8",
    "V3_0_0_BETA9_SNAPSHOT",
    "V3_0_0_BETA9",
    "V3_0_0_FINAL",
)

# (major, minor, patches) of every later release; each one is preceded by its _SNAPSHOT.
# 3.0 runs to .15, 3.1 and 3.2 start at .0, 3.3 to 3.9 start at .1, all of 4.x and 5.x are .0 to .9.
_SERIES: tuple[tuple[int, int, range], ...] = (
    (3, 0, range(1, 16)),
    (3, 1, range(10)),
    (3, 2, range(10)),
    *((3, minor, range(1, 10)) for minor in range(3, 10)),
    *((major, minor, range(10)) for major in (4, 5) for minor in range(10)),
)


def _names() -> tuple[str, ...]:
    names = list(_PRELUDE)
    for major, minor, patches in _SERIES:
        for patch in patches:
            release = f"V{major}_{minor}_{patch}"
            names += (f"{release}_SNAPSHOT", release)
    names.append("HIGHER_VERSION")
    return tuple(names)


NAMES: tuple[str, ...] = _names()
"""Java ``MQVersion.Version.values()``: ``NAMES[ordinal]`` is the Java name."""

_ORDINALS: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

V4_9_8: int = _ORDINALS["V4_9_8"]  # 409
V5_0_0_SNAPSHOT: int = _ORDINALS["V5_0_0_SNAPSHOT"]  # first 5.x ordinal
V5_0_0: int = _ORDINALS["V5_0_0"]
V5_3_3: int = _ORDINALS["V5_3_3"]  # 479
HIGHER_VERSION: int = len(NAMES) - 1  # 612
CURRENT: int = V5_3_3
"""What we put in the ``version`` field: we speak as the 5.3.3 tools do."""

_DOTTED = re.compile(r"(?i)v?(\d+)\.(\d+)\.(\d+)(?:[-_.]?(snapshot))?")
"""``4.9.8``, ``v5.0.0-SNAPSHOT``: compiled on first use (only user input is read this way)."""


def version_name(ordinal: int) -> str:
    """Java name of a version ordinal, as ``MQVersion.getVersionDesc`` prints it.

    Java clamps ordinals past the end to the last name, ``HIGHER_VERSION``; a negative ordinal
    makes Java throw, where we answer the number as text so a bad peer cannot break a listing.
    """
    if ordinal < 0:
        return str(ordinal)
    return NAMES[min(ordinal, HIGHER_VERSION)]


def version_ordinal(name: str) -> int:
    """Ordinal of a version given as the Java name (``V4_9_8``) or dotted (``4.9.8``, ``5.0.0-SNAPSHOT``).

    Raises ValueError for a name the enum does not have: this parses user input.
    """
    text = name.strip()
    ordinal = _ORDINALS.get(text.upper())
    if ordinal is None:
        m = _DOTTED.fullmatch(text)
        if m:
            major, minor, patch, snapshot = m.groups()
            key = f"V{int(major)}_{int(minor)}_{int(patch)}" + ("_SNAPSHOT" if snapshot else "")
            ordinal = _ORDINALS.get(key)
    if ordinal is None:
        raise ValueError(f"unknown RocketMQ version: {name!r}")
    return ordinal
