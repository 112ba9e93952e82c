"""Where mqadmin keeps its own files: ``$MQADMIN_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/mqadmin``, else
``~/.config/mqadmin``. A module of its own so that a command can see whether a file is there without
importing what reads it."""

from __future__ import annotations

import os

__all__ = ["config_dir", "contexts_path"]


def config_dir() -> str:
    base = os.environ.get("MQADMIN_CONFIG_DIR")
    if base:
        return base
    xdg = os.environ.get("XDG_CONFIG_HOME")
    root = xdg if xdg else os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "mqadmin")


def contexts_path() -> str:
    """The contexts file (:mod:`mqadmin.cli.contexts`)."""
    return os.path.join(config_dir(), "contexts.json")
