"""Layer 2: memories shared by the methods.

* ``longterm`` - a LangGraph ``Store`` with a semantic index (GraphAgent's past episodes);
* ``summaries`` - a bounded short-term buffer of observation summaries (GraphAgent);
* ``working`` - Graph-ToolFormer's working memory: a FIFO cache of executed calls and bound variables.

The Counselor's scratchpad and reflection list live in its workflow state.
"""
