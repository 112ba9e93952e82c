"""The admin API loads a family when one of its names is first used, and is then exactly the class
with every family: the generated index is current, the family list is complete and in the order the
type checker sees, and each lazily composed class answers every name as the full class does."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import mqadmin.admin
from mqadmin.admin import family_index
from mqadmin.admin.api import FAMILIES, compose, family_class
from mqadmin.admin.core import AdminCore

API = Path(mqadmin.admin.__file__).parent / "api.py"


def test_index_is_current() -> None:
    assert Path(family_index.__file__).read_text() == family_index.render(), (
        "stale: run python -m mqadmin.admin.family_index"
    )


def test_family_list_is_complete_and_in_the_typed_order() -> None:
    found = set()
    for info in pkgutil.iter_modules(mqadmin.admin.__path__):
        module = importlib.import_module(f"mqadmin.admin.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, AdminCore) and cls.__module__ == module.__name__ and cls.__name__.endswith(
                ("Ops", "OpsAdmin")
            ):
                found.add(f"{cls.__module__}:{cls.__name__}")
    assert found == set(FAMILIES)
    classes = [n for n in ast.walk(ast.parse(API.read_text())) if isinstance(n, ast.ClassDef)]
    typed = [[ast.unparse(b) for b in c.bases] for c in classes if c.name == "_Families"]
    assert [f.split(":")[1] for f in FAMILIES] in typed  # the bases mypy sees


def test_no_family_redefines_the_core() -> None:
    assert family_index.overridden_core_names() == []


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_composed_alone_answers_as_the_full_class(family: str) -> None:
    full = compose(frozenset(FAMILIES))
    alone = compose(frozenset({family, *family_index.COMES_WITH.get(family, ())}))
    for name in dir(family_class(family)):
        if name.startswith("__"):
            continue
        assert getattr(alone, name) is getattr(full, name), name


def test_a_name_server_command_loads_the_name_server_family_only() -> None:
    code = (
        "import sys\n"
        "from mqadmin.admin.api import MQAdmin\n"
        "from mqadmin.admin.settings import AdminSettings\n"
        "a = MQAdmin(AdminSettings(namesrv_addrs=('127.0.0.1:1',)))\n"
        "a.examine_topic_route_info\n"
        "print(sorted(m for m in sys.modules if m.startswith('mqadmin.admin.')))\n"
        "a.examine_topic_stats\n"  # an override: its family comes with its static-topic subclass
        "print(type(a).examine_topic_stats.__qualname__)\n"
        "b = MQAdmin(AdminSettings(namesrv_addrs=('127.0.0.1:1',)))\n"
        "b.fetch_all_topic_list\n"  # a second admin takes the class the first one composed
        "print(type(b) is type(a), type(b).fetch_all_topic_list.__qualname__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    first, override, second = out.splitlines()
    families = [m for m in eval(first) if m not in ("mqadmin.admin.errors", "mqadmin.admin.fanout",
                "mqadmin.admin.settings", "mqadmin.admin.signing", "mqadmin.admin.core", "mqadmin.admin.api",
                "mqadmin.admin.family_index")]  # fmt: skip
    assert families == ["mqadmin.admin.namesrv"]
    assert override == "StaticTopicOps.examine_topic_stats"
    assert second == "True NamesrvOps.fetch_all_topic_list"
