"""The admin API (async), like Java DefaultMQAdminExt."""
