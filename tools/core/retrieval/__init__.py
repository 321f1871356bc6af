"""Dense retrieval behind one interface (:class:`Retriever`): node texts (FAISS) and short text lists."""

from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.retrieval.embedders import (
    Embedder,
    HashEmbedder,
    SentenceTransformerEmbedder,
    assemble_mpnet,
    get_embedder,
    minilm_path,
    mpnet_path,
)
from graphreason.tools.core.retrieval.node_index import EXACT_LIMIT, NodeIndex, build_node_index, node_text
from graphreason.tools.core.retrieval.texts import TextRetriever, cached_text_retriever, shared_embedder

__all__ = [
    "EXACT_LIMIT",
    "Embedder",
    "HashEmbedder",
    "NodeIndex",
    "Retriever",
    "SentenceTransformerEmbedder",
    "TextRetriever",
    "assemble_mpnet",
    "build_node_index",
    "cached_text_retriever",
    "get_embedder",
    "minilm_path",
    "mpnet_path",
    "node_text",
    "shared_embedder",
]
