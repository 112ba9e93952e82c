"""What a command returns: one result object that renders itself as the Java tool's text and as the
document of the ``mqadmin/v1`` JSON contract.

A command gathers its answer once into a result; :meth:`Output.emit <mqadmin.cli.output.Output.emit>`
asks it for :meth:`Result.text` (text mode) or :meth:`Result.data` (``--json``, YAML, tables), with its
:attr:`Result.layout` for ``--output table``. So the text and the document cannot drift apart, and
the Java collection orders (``java_hash_order``, ``java_string_sort_key``, ...) are applied only where
the Java text needs them: inside ``text()``, never while the data is gathered.

Results of a fan-out carry the failures met on the way (``errors``): the document lists them under
``errors`` (last, and only when there are any); the text leaves them out, as they are on stderr.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mqadmin.cli.tablelayout import TableLayout

__all__ = ["Errors", "Plain", "Result", "with_errors"]

Errors = list[dict[str, Any]]
"""The failures of a fan-out as the contract writes them (``Invocation.error_list()``)."""


def with_errors(doc: dict[str, Any], errors: Errors) -> dict[str, Any]:
    """``doc`` with its ``errors`` member when there are any."""
    return {**doc, "errors": errors} if errors else doc


class Result(ABC):
    """A command's answer, able to render itself both ways."""

    layout: ClassVar[TableLayout | None] = None
    """How ``--output table`` draws the document (None: the general rules)."""

    @abstractmethod
    def text(self) -> str:
        """The Java tool's text, byte for byte."""

    @abstractmethod
    def data(self) -> Any:
        """The JSON document (before the contract's ``apiVersion`` and conforming)."""


@dataclass(slots=True)
class Plain(Result):
    """An answer whose Java text is a fixed message (``add broker to ... success``) beside its document."""

    doc: dict[str, Any]
    message: str
    errors: Errors = field(default_factory=list)

    def text(self) -> str:
        return self.message

    def data(self) -> dict[str, Any]:
        return with_errors(self.doc, self.errors)
