"""The PySpark jobs: lag, throughput, skew, idle, and the HTML report that shows them.

Each job is a pure function from snapshot DataFrames to a result DataFrame (:mod:`.lag`,
:mod:`.throughput`, :mod:`.skew`, :mod:`.idle`; :mod:`.report` renders HTML), usable from any PySpark
program. :mod:`.runner` reads an input path, applies ``--since``/``--until`` and writes the result;
``python -m mqadmin.pipeline.jobs`` and ``spark-submit mqadmin/pipeline/jobs/__main__.py`` run it.
Importing this package does not import pyspark; the job modules do.
"""
