"""mqadmin: the Apache RocketMQ admin toolkit, name server and development broker in Python."""

__version__ = "0.1.0"
