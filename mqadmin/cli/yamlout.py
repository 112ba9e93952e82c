"""``--output yaml``: the ``--json`` data as one YAML document, written by PyYAML's safe dumper.

PyYAML quotes every string a YAML 1.1 reader would take for something else (``".5"``, ``".inf"``,
``"yes"``, ``"0x1"``, ``"~"``, ``"2024-01-01"``...), so what a reader loads is what ``--json``
prints. Block style, keys in the data's order, no anchors or aliases (a value repeated in the data is
written out again), Unicode as is, long strings on one line.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["dump_yaml"]

_Base: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_Base):  # type: ignore[valid-type,misc]
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _plain_tuple(dumper: yaml.SafeDumper, data: tuple[Any, ...]) -> yaml.Node:
    return dumper.represent_list(list(data))


_Dumper.add_representer(tuple, _plain_tuple)


def dump_yaml(value: Any) -> str:
    """One YAML document (``---`` first) for a JSON-compatible value."""
    text: str = yaml.dump(
        value,
        Dumper=_Dumper,
        explicit_start=True,
        default_flow_style=False,
        sort_keys=False,
        allow_unicode=True,
        width=2**31 - 1,
    )
    return text
