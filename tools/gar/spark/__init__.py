"""GAR's Spark engine: the kernel algorithms' supersteps on Spark DataFrames, for graphs beyond one machine.

* :mod:`graphreason.tools.gar.spark.session` - the process's Spark session and its settings;
* :mod:`graphreason.tools.gar.spark.edges` - an edge-list dataset (Parquet / CSV) as a checked simple graph;
* :mod:`graphreason.tools.gar.spark.pregel` - :func:`run_spark`, the Pregel executor.

Importing this package does not import pyspark; starting a session does.
"""
