"""Layer 4: question sets, metrics, the resumable runner and reports."""
