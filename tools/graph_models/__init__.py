"""Graph-ToolFormer's graph model hub: trained graph models as registry tools.

* :mod:`graphreason.tools.graph_models.base` - the :class:`GraphModel` contract (train on
  demand, cache, report) and :class:`GraphModelError`;
* :mod:`graphreason.tools.graph_models.hub` - models by domain and dataset, loaded lazily.
"""
