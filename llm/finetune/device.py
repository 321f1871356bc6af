"""Which torch device a training run may use, checked before any model loads.

``cpu`` always works; ``cuda``, ``cuda:N`` and ``mps`` only where this machine
has that GPU. Anything else (a typo, a path) is refused with one line naming
the accepted forms and what this machine has, instead of a traceback from
deep inside torch after the model has loaded. Only a GPU name imports torch.
"""

from __future__ import annotations

import re

DEVICE_FORMS = "cpu, cuda, cuda:N or mps"
_GPU = re.compile(r"cuda(?::(\d{1,4}))?|mps")


def available_devices() -> list[str]:
    """The device names this machine accepts: ``cpu``, then ``cuda`` and ``cuda:0``... and ``mps`` if present."""
    import torch

    names = ["cpu"]
    if torch.cuda.is_available():
        names += ["cuda", *(f"cuda:{i}" for i in range(torch.cuda.device_count()))]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        names.append("mps")
    return names


def check_device(name: str) -> str:
    """``name`` when it is a device this machine has; a ValueError saying what is accepted otherwise."""
    if name == "cpu":
        return name
    match = _GPU.fullmatch(name)
    if match is None:
        raise ValueError(f"expected {DEVICE_FORMS}, got {name!r} (devices here: {', '.join(available_devices())})")
    import torch

    here = ", ".join(available_devices())
    if name == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            raise ValueError(f"'mps' needs an Apple GPU (Metal) and this machine has none (devices here: {here})")
        return name
    if not torch.cuda.is_available():
        raise ValueError(f"{name!r} needs a CUDA GPU and this machine has none (devices here: {here})")
    index, count = match.group(1), torch.cuda.device_count()
    if index is not None and int(index) >= count:
        raise ValueError(f"{name!r} names GPU {int(index)}, but this machine has only {count} (devices here: {here})")
    return name
