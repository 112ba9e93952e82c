"""A cluster as code: manifests of topics, groups, order configs and access; diff; apply.

:mod:`.loader` reads and checks manifest files (:mod:`.schema`: the published JSON Schema and its
checker, with lines), :mod:`.state` reads what a cluster holds, :mod:`.export` writes that as a
manifest, :mod:`.plan` is the diff of the two as the changes an apply makes, and :mod:`.apply` makes
them. Everything goes through the admin API (:mod:`mqadmin.admin`); ``mqadmin manifest``, ``diff``
and ``apply`` are this package's commands.
"""
