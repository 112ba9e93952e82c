"""``python -m mqadmin.namesrv start ...``: the same as ``mqadmin namesrv start ...``."""

from mqadmin.cli.commands.namesrv import group

if __name__ == "__main__":
    group(prog_name="mqadmin namesrv")
