"""Command results: one object renders the Java text and the JSON document, and ``Output.emit``
takes only that object. The Java collection orders stay in the text renderers (checked on the
source with ``ast``, with a planted offender that the check must catch)."""

from __future__ import annotations

import ast
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mqadmin.cli.output import Output
from mqadmin.cli.results import Plain, Result, with_errors
from mqadmin.cli.tablelayout import TableLayout

CLI = Path(__file__).resolve().parents[2] / "mqadmin" / "cli"

JAVA_ORDERS = {
    "java_hash_order",
    "java_hash_dict",
    "java_string_sort_key",
    "java_sort_key",
    "concurrent_hash_order",
    "properties_order",
    "hash_set_copy_order",
    "hash_ordered",
    "sorted_queues",
    "_java_hash_map_after_put_alls",
}


@dataclass(frozen=True, slots=True)
class _Topics(Result):
    layout: ClassVar[TableLayout | None] = TableLayout({"topics": ("name",)})

    names: list[str]

    def text(self) -> str:
        return "".join(f"{n}\n" for n in self.names)

    def data(self) -> dict[str, Any]:
        return {"topics": [{"name": n, "size": 1} for n in sorted(self.names)], "rate": float("nan")}


@dataclass(frozen=True, slots=True)
class _UnlaidTopics(_Topics):
    layout = None


def _run(fmt: str, result: Result) -> bytes:
    buf = io.BytesIO()
    Output(fmt, buf).emit(result)
    return buf.getvalue()


def test_text_mode_writes_the_java_text_only() -> None:
    assert _run("text", _Topics(["b", "a"])) == b"b\na\n"


def test_json_mode_writes_the_document_with_its_version() -> None:
    doc = json.loads(_run("json", _Topics(["b", "a"])))
    assert doc["apiVersion"] == "mqadmin/v1"
    assert doc["topics"] == [{"name": "a", "size": 1}, {"name": "b", "size": 1}]
    assert doc["rate"] is None  # NaN is no JSON number: null


def test_table_mode_uses_the_result_layout() -> None:
    out = _run("table", _Topics(["orders", "payments"])).decode()
    assert "orders" in out and "payments" in out
    assert "size" not in out  # the layout shows only its columns
    assert "size" in _run("table", _UnlaidTopics(["orders"])).decode()


def test_text_mode_keeps_the_document_for_a_watch() -> None:
    out = Output("text", io.BytesIO())
    out.emit(Plain({"path": "/tmp/x"}, "export /tmp/x success"))
    assert out.seen == [{"path": "/tmp/x"}]


def test_the_two_argument_form_is_gone() -> None:
    out = Output("json", io.BytesIO())
    with pytest.raises(TypeError):
        out.emit({"topics": []}, lambda: "")  # type: ignore[arg-type, misc]


def test_a_result_must_render_both_ways() -> None:
    class TextOnly(Result):
        def text(self) -> str:
            return ""

    with pytest.raises(TypeError):
        TextOnly()  # type: ignore[abstract]


def test_errors_are_added_only_when_there_are_any_and_the_input_is_not_changed() -> None:
    doc: dict[str, Any] = {"brokers": []}
    assert with_errors(doc, []) is doc
    failed = with_errors(doc, [{"message": "down"}])
    assert failed == {"brokers": [], "errors": [{"message": "down"}]}
    assert "errors" not in doc
    plain = Plain({"result": False}, "false", [{"message": "down"}])
    assert json.loads(_run("json", plain))["errors"] == [{"message": "down"}]
    assert _run("text", plain) == b"false"


def test_text_that_is_not_valid_utf8_is_written_as_the_bytes_received() -> None:
    raw = b"caf\xe9".decode("utf-8", "surrogateescape")
    assert _run("text", Plain({}, raw + "\n")) == b"caf\xe9\n"


# ------------------------------------------------------------------------------------- the source


def _java_orders_in_data(source: str) -> list[str]:
    """``Class.data`` methods of Result subclasses that call a Java collection-order helper."""
    found = []
    for cls in ast.walk(ast.parse(source)):
        if not isinstance(cls, ast.ClassDef):
            continue
        if not any(isinstance(b, ast.Name) and b.id == "Result" for b in cls.bases):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "data":
                for node in ast.walk(fn):
                    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
                    if name in JAVA_ORDERS:
                        found.append(f"{cls.name}.data: {name}")
    return found


def _emits_with_more_than_the_result(source: str) -> list[int]:
    """Lines of ``....out.emit(...)`` calls given anything besides one result (and ``compact``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit":
            target = node.func.value
            if isinstance(target, ast.Attribute) and target.attr == "out":
                extra = [k.arg for k in node.keywords if k.arg != "compact"]
                if len(node.args) != 1 or extra or isinstance(node.args[0], ast.Lambda):
                    lines.append(node.lineno)
    return lines


def _sources() -> list[Path]:
    return sorted(CLI.rglob("*.py"))


def test_no_data_renderer_applies_a_java_order() -> None:
    offenders = {str(p.relative_to(CLI)): _java_orders_in_data(p.read_text()) for p in _sources()}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_every_emit_passes_one_result() -> None:
    offenders = {str(p.relative_to(CLI)): _emits_with_more_than_the_result(p.read_text()) for p in _sources()}
    assert {k: v for k, v in offenders.items() if v} == {}
    assert sum(p.read_text().count("inv.out.emit(") for p in _sources()) > 60


def test_the_source_checks_catch_a_planted_offender() -> None:
    planted = (
        "class Bad(Result):\n"
        "    def data(self):\n"
        "        return {'topics': java_hash_order(self.names)}\n"
        "def run(inv):\n"
        "    inv.out.emit({'topics': []}, lambda: '')\n"
    )
    assert _java_orders_in_data(planted) == ["Bad.data: java_hash_order"]
    assert _emits_with_more_than_the_result(planted) == [5]
