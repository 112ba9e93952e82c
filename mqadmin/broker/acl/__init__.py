"""ACL 1.0 of the development broker (``aclEnable=true``, ``plain_acl.yml``), beside
:mod:`mqadmin.broker.auth` (ACL 2.0, 5.x users and policies).

``accounts`` reads the account files into tables (Java's ``PlainPermissionManager``), ``addresses`` matches
their white-list patterns, ``validator`` checks every request against the tables before its handler
(Java's ``PlainAccessValidator``), and ``edit`` changes the files for the ACL admin codes (50-54).
Nothing here imports a processor or the server: the server builds the validator and hands it on.
"""
