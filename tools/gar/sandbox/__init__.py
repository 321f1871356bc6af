"""A sandbox for LLM-designed vertex algorithms (GAR: designed code is untrusted).

* :mod:`graphreason.tools.gar.sandbox.validate` - static whitelist check of the source (:class:`SandboxViolation`);
* :mod:`graphreason.tools.gar.sandbox.run` - run it in a resource-limited child process (:func:`run_designed`);
* :mod:`graphreason.tools.gar.sandbox.check` - compare it with the reference solver on small random graphs.
"""

from graphreason.tools.gar.sandbox.run import SandboxResult, run_designed
from graphreason.tools.gar.sandbox.validate import SandboxViolation, ValidatedSource, validate_source

__all__ = ["SandboxResult", "SandboxViolation", "ValidatedSource", "run_designed", "validate_source"]
