"""A masked policy-and-value network for Kingdomino observations (PyTorch; the `train` extra).

The kingdom planes, with 14 more that give the domino to place on every square (its squares'
terrains and crowns), go through a small residual convolution stack, the rest of the observation
(line, kings, unseen dominoes, seats, counters) through a two-layer MLP whose output is added
to every square. Placements are scored where they happen: a 1x1 convolution gives 4 logits
(one per direction of square 2) on each square of the kingdom, which is exactly the layout of
Kingdomino's placement actions (`CLAIMS + direction * cells + cell`, a row of `side + 1`
cells, the last a guard column that is never legal). Each claim is scored from its slot of the
line with the pooled board and the MLP's summary, the discard from the summary. Illegal
actions get a logit of -1e9.

    net = KingdominoPolicy.for_game(game)
    logits, value = net(batch_observation(observations))   # numpy dict -> tensors
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from kingdomkit.core.protocol import Game
from kingdomkit.rl.observation import observer

ILLEGAL_LOGIT = -1e9
FLAT_ARRAYS = ("line", "kings", "unseen", "seats", "counters")
DOMINO_PLANES = 14  # the acting domino's terrains and crowns, on every square


def batch_observation(observation: dict[str, Any]) -> dict[str, torch.Tensor]:
    """A vector env's observation ({"observation": {...}, "action_mask"}) as float tensors
    (numbers of the flat arrays squashed with log1p: counts and scores stay small)."""
    arrays = observation["observation"]
    count = len(observation["action_mask"])
    flat = np.concatenate([arrays[name].reshape(count, -1) for name in FLAT_ARRAYS], axis=1)
    kingdoms = arrays["kingdoms"]
    side = kingdoms.shape[-1]
    domino = np.broadcast_to(
        acting_domino(arrays["kings"])[:, :, None, None], (count, DOMINO_PLANES, side, side)
    )
    return {
        "kingdoms": torch.from_numpy(np.concatenate([kingdoms, domino], axis=1)).float(),
        "flat": torch.log1p(torch.from_numpy(flat.astype(np.float32))),
        "line": torch.log1p(torch.from_numpy(arrays["line"].astype(np.float32))),
        "mask": torch.from_numpy(observation["action_mask"]).bool(),
    }


def acting_domino(kings: Any) -> Any:
    """(N, 14): the terrains and crowns of the domino the acting king places (zeros when it
    claims in the first round), from `kings` (encoding.py: the acting flag in column P + 2,
    the domino's 15 values from P + 4, the last its number, left out)."""
    players = kings.shape[2] - 19
    acting = kings[:, :, players + 2 : players + 3]
    return (acting * kings[:, :, players + 4 : players + 18]).sum(axis=1, dtype=np.uint8)


class KingdominoPolicy(nn.Module):
    """Policy logits over the game's actions and a value, for the seat-0 player."""

    def __init__(
        self,
        planes: int,
        side: int,
        flat: int,
        line_width: int,
        actions: int,
        channels: int = 32,
        hidden: int = 128,
    ) -> None:
        super().__init__()
        self.side = side
        self.actions = actions
        self.context = nn.Sequential(
            nn.Linear(flat, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.inject = nn.Linear(hidden, channels)
        self.stem = nn.Conv2d(planes, channels, 3, padding=1)
        self.blocks = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(3))
        self.placements = nn.Conv2d(channels, 4, 1)
        summary = hidden + 2 * channels
        self.claims = nn.Sequential(
            nn.Linear(summary + line_width, hidden), nn.ReLU(), nn.Linear(hidden, 1)
        )
        self.discard = nn.Linear(summary, 1)
        self.value = nn.Sequential(nn.Linear(summary, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    @classmethod
    def for_game(cls, game: Game[Any], channels: int = 32, hidden: int = 128) -> KingdominoPolicy:
        spec = observer(game).spec()
        planes, side, _ = spec["kingdoms"].shape
        planes += DOMINO_PLANES
        flat = sum(int(np.prod(spec[name].shape)) for name in FLAT_ARRAYS)
        line_width = spec["line"].shape[1]
        return cls(planes, side, flat, line_width, game.num_actions, channels, hidden)

    def forward(self, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        context = self.context(batch["flat"])
        x = functional.relu(self.stem(batch["kingdoms"]) + self.inject(context)[:, :, None, None])
        for block in self.blocks:
            x = functional.relu(x + block(x))
        placements = functional.pad(self.placements(x), (0, 1)).flatten(1)  # guard column
        summary = torch.cat([context, x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
        line = batch["line"]  # each slot scored with the board: (N, 4, line_width)
        pairs = torch.cat([summary[:, None, :].expand(-1, line.shape[1], -1), line], dim=2)
        claims = self.claims(pairs).squeeze(2)
        logits = torch.cat([claims, placements, self.discard(summary)], dim=1)
        logits = logits.masked_fill(~batch["mask"], ILLEGAL_LOGIT)
        return logits, self.value(summary).squeeze(1)


def act(
    net: KingdominoPolicy, batch: dict[str, torch.Tensor], greedy: bool = False
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(actions, their log-probabilities, values) for a batch; rows with no legal action
    (a finished game) play action 0, which the environment ignores."""
    mask = batch["mask"]
    ended = ~mask.any(dim=1)
    if ended.any():
        batch = dict(batch, mask=mask.clone())
        batch["mask"][ended, 0] = True
    logits, values = net(batch)
    distribution = torch.distributions.Categorical(logits=logits)
    if greedy:
        actions = logits.argmax(dim=1)
    else:
        actions = distribution.sample()  # type: ignore[no-untyped-call]
    log_probs: torch.Tensor = distribution.log_prob(actions)  # type: ignore[no-untyped-call]
    return actions, log_probs, values
