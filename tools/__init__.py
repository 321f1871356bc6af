"""Layer 1: the one graph layer shared by every method.

Graph store and loaders, graph functions and the call language, retrieval
(FAISS + sentence-transformers), exposed as LangChain tools.
"""
