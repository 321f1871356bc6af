"""What every layer may use at run time, beside the settings: stopping a run's work and announcing first-use costs.

:mod:`graphreason.runtime.cancel` (a served run's cancel token, checked by long loops) and
:mod:`graphreason.runtime.first_use` (the line that announces a one-time cost) import nothing of the
project but :mod:`graphreason.settings`; the layer contract of ``pyproject.toml`` places them just
above it, below ``llm``.
"""
