"""The admin API is ``MQAdmin`` holding one ``AdminCore``, with each family of requests a plain class
over it, built lazily as an attribute: no family inherits from the core or from another family (one
it asks is given to its constructor), the attributes name the family modules, and a name-server
command loads the name-server family only."""

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
from mqadmin.admin import api
from mqadmin.admin.api import MQAdmin
from mqadmin.admin.core import AdminCore
from mqadmin.admin.family import Family
from mqadmin.admin.settings import AdminSettings

ADMIN = Path(mqadmin.admin.__file__).parent
FAMILY_ATTRS = sorted(n for n, v in vars(MQAdmin).items() if isinstance(v, api.cached_property))


def _family_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for info in pkgutil.iter_modules(mqadmin.admin.__path__):
        module = importlib.import_module(f"mqadmin.admin.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Family) and cls is not Family and cls.__module__ == module.__name__:
                found[info.name] = cls
    return found


def test_every_family_is_an_attribute_named_after_its_module() -> None:
    families = _family_classes()
    assert sorted(families) == FAMILY_ATTRS
    admin = MQAdmin(AdminSettings(namesrv_addrs=("127.0.0.1:1",)))
    for name, cls in families.items():
        family = getattr(admin, name)
        assert type(family) is cls
        assert getattr(admin, name) is family  # built once per admin
        assert family.core is admin.core
        for dep, value in vars(family).items():  # the families it asks are the admin's own
            if isinstance(value, Family):
                assert value is getattr(admin, dep), f"{name}.{dep}"


@pytest.mark.parametrize("module", sorted(_family_classes()))
def test_a_family_is_a_plain_class_over_the_core(module: str) -> None:
    cls = _family_classes()[module]
    assert cls.__bases__ == (Family,), "a family gets another one in its constructor, not by inheriting"
    assert not issubclass(cls, AdminCore)


def test_no_runtime_composition_is_left() -> None:
    assert not issubclass(MQAdmin, AdminCore)
    assert not (ADMIN / "family_index.py").exists()
    for path in ADMIN.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.Attribute) and node.attr == "__class__" and isinstance(
                node.ctx, ast.Store)), f"{path.name} swaps a class at run time"  # fmt: skip
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                assert path.name == "__init__.py", f"{path.name} resolves names at run time"


def test_an_unknown_name_is_an_attribute_error() -> None:
    admin = MQAdmin(AdminSettings(namesrv_addrs=("127.0.0.1:1",)))
    with pytest.raises(AttributeError):
        admin.examine_topic_route_info  # type: ignore[attr-defined]  # noqa: B018  # a family's name, not the admin's
    with pytest.raises(AttributeError):
        admin.namesrv.create_and_update_topic_config  # type: ignore[attr-defined]  # noqa: B018


def _modules_after(code: str) -> list[str]:
    prog = f"import sys\n{code}\nprint(sorted(m for m in sys.modules if m.startswith('mqadmin.')))\n"
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, check=True).stdout
    return list(eval(out.splitlines()[-1]))


FAMILY_MODULES = {f"mqadmin.admin.{m}" for m in FAMILY_ATTRS}


def test_a_name_server_family_loads_no_other_family() -> None:
    loaded = _modules_after(
        "from mqadmin.admin.api import MQAdmin\n"
        "from mqadmin.admin.settings import AdminSettings\n"
        "MQAdmin(AdminSettings(namesrv_addrs=('127.0.0.1:1',))).namesrv\n"
    )
    assert FAMILY_MODULES & set(loaded) == {"mqadmin.admin.namesrv"}


def test_topic_route_command_loads_the_name_server_family_only() -> None:
    """``mqadmin topicRoute`` run in a fresh interpreter (a refused name server: the request fails,
    the loading is the same): of the families, only the name server's is imported."""
    loaded = _modules_after(
        "from mqadmin.cli.main import main\n"
        "try:\n"
        "    main(['topicRoute', '-n', '127.0.0.1:1', '-t', 'T'])\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    assert "mqadmin.cli.commands.topic_route" in loaded  # the command did run
    assert "mqadmin.cli.commands.topic" not in loaded  # nor the other topic list commands
    assert FAMILY_MODULES & set(loaded) == {"mqadmin.admin.namesrv"}
    assert "mqadmin.protocol.bodies.consumption" not in loaded
