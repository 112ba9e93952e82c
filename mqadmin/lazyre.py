"""Regular expressions compiled on first use: start-up.

``re`` and a module's patterns cost a command 3 to 5 ms when compiled at import, for patterns most
runs never use (an error's wording, an odd name). A :class:`LazyPattern` is written where a compiled
pattern was and compiles on its first match; flags go inline (``(?i)``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

__all__ = ["LazyPattern"]


class LazyPattern:
    """``re.compile(source)`` when first used; ``match``, ``fullmatch``, ``search``, ``sub``,
    ``finditer`` and ``findall`` as the compiled pattern's."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            import re

            self._compiled = re.compile(self.source)
        return self._compiled

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.match(text, pos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.search(text, pos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count)

    def findall(self, text: str) -> list[str]:
        return self.compiled.findall(text)
