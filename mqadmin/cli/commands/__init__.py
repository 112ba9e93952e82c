"""Command modules, one per family; each defines the commands :mod:`mqadmin.cli.registry` places in it."""
