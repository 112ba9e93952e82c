"""Command modules, one per family; each exposes ``COMMANDS: dict[str, click.Command]``."""
