"""``mqadmin demo``: the main job on the embedded default (see :mod:`mqadmin.demo`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mqadmin.cli.registry import define


@define
@click.command("demo")
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep the servers' files in this folder instead of a temporary one.",
)
def demo(keep: Path | None) -> None:
    """Start a name server and a broker on loopback, run real commands against them, stop them."""
    from mqadmin.demo import run_demo

    failures = run_demo(echo=click.echo, keep=keep)
    if failures:
        click.echo(f"demo: {failures} step(s) failed", err=True)
        sys.exit(1)
