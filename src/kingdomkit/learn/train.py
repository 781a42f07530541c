"""Fitting the network to records: epochs of minibatches with Adam.

The loss is the cross-entropy between the expert's visit distribution and the network's
masked policy, plus the squared error of each seat's value (after the sigmoid) against the
game's relative outcome, as AlphaZero's (a cross-entropy against outcomes near 0.5 would sit
near its floor of 0.69 and say little in the curve), plus the squared error of the points head
(in units of POINTS_SCALE).
`fit_scales` fixes the input scales once, from the first records: one over the largest value
of each input channel and feature (one-hots stay 1, scores and domino numbers come near 1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from kingdomkit.bots.network import POINTS_SCALE
from kingdomkit.learn.model import PolicyValueNet
from kingdomkit.learn.records import Records


@dataclass(frozen=True)
class Losses:
    """Mean losses of the last epoch."""

    policy: float
    value: float
    points: float


def fit_scales(model: PolicyValueNet, records: Records) -> None:
    """Set the model's input scales from `records` (see the card)."""
    planes = np.abs(records.planes).max(axis=(0, 2, 3)).astype(np.float32)
    vector = np.abs(records.vector).max(axis=0).astype(np.float32)
    with torch.no_grad():
        model.plane_scale.copy_(torch.from_numpy(1.0 / np.maximum(planes, 1.0)))
        model.vector_scale.copy_(torch.from_numpy(1.0 / np.maximum(vector, 1.0)))


def train(
    model: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    records: Records,
    epochs: int,
    batch: int,
    seed: int,
    step: Callable[[], None] | None = None,
) -> Losses:
    """`epochs` passes over `records` in shuffled minibatches of `batch`; `step()` after each
    epoch (a progress bar). The last epoch's mean losses."""
    generator = np.random.default_rng(seed)
    planes = torch.from_numpy(records.planes.astype(np.float32))
    vector = torch.from_numpy(records.vector)
    masks = torch.from_numpy(records.mask)
    policy = torch.from_numpy(records.policy)
    value = torch.from_numpy(records.value)
    points = torch.from_numpy(records.points / POINTS_SCALE)
    losses = Losses(0.0, 0.0, 0.0)
    model.train()
    for _ in range(epochs):
        order = torch.from_numpy(generator.permutation(len(records)))
        totals = np.zeros(3)
        count = 0
        for start in range(0, len(records), batch):
            index = order[start : start + batch]
            logits, value_logits, points_out = model(planes[index], vector[index])
            logits = logits.masked_fill(~masks[index], -1e9)
            policy_loss = -(policy[index] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            value_loss = torch.mean((torch.sigmoid(value_logits) - value[index]) ** 2)
            points_loss = torch.mean((points_out - points[index]) ** 2)
            loss = policy_loss + value_loss + points_loss
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            size = len(index)
            totals += size * np.array([policy_loss.item(), value_loss.item(), points_loss.item()])
            count += size
        losses = Losses(*(float(t / max(count, 1)) for t in totals))
        if step is not None:
            step()
    model.eval()
    return losses
