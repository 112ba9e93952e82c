"""mqadmin: the Apache RocketMQ admin toolkit, name server and development broker in Python."""

__version__ = "0.1.0"

API_VERSION = "mqadmin/v1"
"""The version of the JSON contract every ``--json`` document carries (its schemas: ``mqadmin schema``)."""
