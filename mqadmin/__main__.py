"""``python -m mqadmin``: the same as the ``mqadmin`` console script."""

from mqadmin.cli.main import main

main()
