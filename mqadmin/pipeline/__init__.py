"""Snapshot collector and PySpark analytics."""
