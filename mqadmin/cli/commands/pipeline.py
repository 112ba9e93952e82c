"""``snapshot`` and ``analyze``: the Spark pipeline's commands (mqadmin's own, not Java ones).

The commands live in :mod:`mqadmin.pipeline.cli`; here the snapshot command gets the CLI's
connection rules (``-n``, contexts, ``NAMESRV_ADDR``, credentials, TLS, ``--timeout``).
"""

from __future__ import annotations

import dataclasses

import click

from mqadmin.admin.settings import AdminSettings
from mqadmin.cli.connection import CommonValues, resolve_settings
from mqadmin.pipeline.cli import analyze_group, snapshot_command

__all__ = ["COMMANDS"]


def _settings(namesrv: str | None, timeout: float | None) -> AdminSettings:
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root().obj if ctx is not None else None
    common = root if isinstance(root, CommonValues) else CommonValues()
    if timeout is not None:
        common = dataclasses.replace(common, timeout=timeout)
    return resolve_settings(namesrv, common)


snapshot_cmd = snapshot_command(_settings)

COMMANDS: dict[str, click.Command] = {"analyze": analyze_group, "snapshot": snapshot_cmd}
