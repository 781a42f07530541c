"""Training the `neural` bot's policy-value network (the `train` extra: PyTorch).

    python -m kingdomkit.learn kingdomino --players 2 --out runs/learn-2p

An expert-iteration loop (docs/learning.md): an expert search plays itself, its root visit
distributions and the games' outcomes become training records (with the encoder's
symmetries, or one drawn in training: symmetries.py), the network (model.py, the same as
bots/network.py in torch) learns them, and each iteration ends with a checkpoint and a point
of the learning curve (strength against fixed opponents). Nothing below this package
imports it; torch is imported only here.
"""

from __future__ import annotations

import sys
from typing import NoReturn

TRAIN_EXTRA = ("torch", "numpy", "matplotlib")  # what the train extra brings


def without_train_extra(missing: ModuleNotFoundError, command: str) -> NoReturn:
    """Leave `command` with the line that installs what is missing, when it is part of the
    train extra; any other missing module is a fault, raised again."""
    if missing.name not in TRAIN_EXTRA:
        raise missing
    sys.exit(f"{command} needs {missing.name}: pip install 'kingdomkit[train]'")
