"""``mqadmin doctor``: named checks of a cluster's health, run at the same time within a deadline.

Each check (:mod:`mqadmin.doctor.catalog`) reads the cluster through one shared
:class:`~mqadmin.doctor.view.ClusterView` and gives findings: a severity, the resource, the numbers
that show it, why it matters and the ``mqadmin`` command that fixes or investigates it. A check that
could not run says so (:class:`~mqadmin.doctor.findings.Status`); it never passes for healthy. The
command line is :mod:`mqadmin.cli.commands.doctor`; the exporter gives the same findings as series.
"""
