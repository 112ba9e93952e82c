"""``snapshot``, ``analyze`` and ``export``: the Spark pipeline's commands (mqadmin's own, not Java).

The commands live in :mod:`mqadmin.pipeline.cli`; here the ones that talk to a cluster get the
CLI's connection rules (``-n``, contexts, ``NAMESRV_ADDR``, credentials, TLS, ``--timeout``).
"""

from __future__ import annotations

import dataclasses

import click

from mqadmin.admin.settings import AdminSettings
from mqadmin.cli.connection import CommonValues, resolve_settings
from mqadmin.cli.registry import define
from mqadmin.pipeline.cli import pipeline_commands

__all__ = ["COMMANDS"]


def _settings(namesrv: str | None, timeout: float | None) -> AdminSettings:
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root().obj if ctx is not None else None
    common = root if isinstance(root, CommonValues) else CommonValues()
    if timeout is not None:
        common = dataclasses.replace(common, timeout=timeout)
    return resolve_settings(namesrv, common)


COMMANDS: dict[str, click.Command] = pipeline_commands(_settings)
"""The commands :func:`~mqadmin.pipeline.cli.pipeline_commands` makes, each filed in the registry."""
for _cmd in COMMANDS.values():
    define(_cmd)
