"""The mqadmin command line."""
