"""How ``--output table`` is to draw a command's document: the layout a command gives and the view the
user asks for. Apart from the renderers, so that results, output and the table drawing all read them
without importing each other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["TableLayout", "TableView"]


@dataclass(slots=True, frozen=True)
class TableLayout:
    """How ``--output table`` draws a command's lists, where the general rules would not read well.

    ``columns`` names, per list member of the document (``"brokers"``), the record keys to show as
    columns (``a.b`` for a nested one), one row per record; a key in ``always`` (an error) is added
    as a column when any record has it. ``keep`` are the columns never dropped nor cut at 80
    columns besides the natural key's (``mqadmin.cli.tables``); ``priority`` lists the columns most
    important first (those last in it go first when the table is too wide; default: left to right).
    """

    columns: Mapping[str, tuple[str, ...]]
    always: tuple[str, ...] = ("error",)
    keep: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    priority: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(slots=True, frozen=True)
class TableView:
    """The options that change how ``--output table`` reads (not what it holds): ``wide``, every
    column, whole, however wide; ``sort_by``, columns to sort rows by (``-col``: descending) instead
    of the natural key; ``headers``, header rows and title lines (``--no-headers``: rows only)."""

    wide: bool = False
    sort_by: tuple[str, ...] = ()
    headers: bool = True
