"""Dense retrieval over node texts: embedders plus a per-type FAISS node index."""

from tools.retrieval.base import Retriever
from tools.retrieval.embedders import (
    Embedder,
    HashEmbedder,
    SentenceTransformerEmbedder,
    assemble_mpnet,
    get_embedder,
    minilm_path,
    mpnet_path,
)
from tools.retrieval.node_index import EXACT_LIMIT, NodeIndex, build_node_index, node_text

__all__ = [
    "EXACT_LIMIT",
    "Embedder",
    "HashEmbedder",
    "NodeIndex",
    "Retriever",
    "SentenceTransformerEmbedder",
    "assemble_mpnet",
    "build_node_index",
    "get_embedder",
    "minilm_path",
    "mpnet_path",
    "node_text",
]
