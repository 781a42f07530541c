"""The optional libraries of the arena (numpy, matplotlib, Ray), imported only when used."""

from __future__ import annotations

import importlib
from types import ModuleType

from kingdomkit.core.protocol import KingdomkitError

INSTALL = "pip install 'kingdomkit[arena]'"


def require(module: str, purpose: str) -> ModuleType:
    """`module` imported, or a KingdomkitError saying that `purpose` needs the arena extra."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise KingdomkitError(
            f"{purpose} needs {module.split('.')[0]}, which the arena extra installs: {INSTALL}"
        ) from None
