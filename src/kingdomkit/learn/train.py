"""Fitting the network to records: minibatches with Adam, and how well it predicts new ones.

The loss is the cross-entropy between the expert's visit distribution and the network's
masked policy, plus `value_weight` times the squared errors of each seat's value (after the
sigmoid) against its target and of the points head (in units of POINTS_SCALE), as AlphaZero's
(a cross-entropy against outcomes near 0.5 would sit near its floor of 0.69 and say little).
The weight is there because those errors are tiny: relative outcomes crowd around 0.5 (a
variance of about 0.003 in 2-player Kingdomino), so at weight 1 the policy's gradient drowns
the value's and the value head learns a few per cent of what it could (docs/learning.md has
the measurements that chose the default).

`validate` measures the network on records it has not trained on (an iteration's fresh
games, before it trains on them): how far its policy is from the targets (the cross-entropy
less the targets' own entropy, a KL divergence), how often its likeliest move is the one the
expert visited most (where there was a choice: the search plays its most visited move, so this
is nearer to what changes a game than the divergence, which also weighs the moves it never
plays), and the share of the value and points targets' variance it explains. Training losses
fall as a network memorises its window; these do not.
`fit_scales` fixes the input scales once, from the first records: one over the largest value
of each input channel and feature (one-hots stay 1, scores and domino numbers come near 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from kingdomkit.bots.network import POINTS_SCALE
from kingdomkit.learn.model import PolicyValueNet
from kingdomkit.learn.records import Records
from kingdomkit.learn.symmetries import drawn


@dataclass(frozen=True)
class Losses:
    """Mean losses over the records trained on."""

    policy: float
    value: float
    points: float


@dataclass(frozen=True)
class Validation:
    """How well a network predicts records it has not trained on (see the card)."""

    policy_kl: float  # nats
    policy_agreement: float  # share of decisions with a choice whose likeliest move is the expert's
    value_explained: float  # 1 - mean squared error / variance of the targets
    points_explained: float


def fit_scales(model: PolicyValueNet, records: Records) -> None:
    """Set the model's input scales from `records` (see the card), and from their images
    where they are kept once (each input's largest value carried by every map of an orbit)."""
    cells = np.abs(records.planes).max(axis=0).reshape(-1)
    vector = np.abs(records.vector).max(axis=0)
    if len(records.orbits):
        cells = np.maximum(cells, cells[records.orbits.planes_map].max(axis=(0, 1)))
        vector = np.maximum(vector, vector[records.orbits.vector_map].max(axis=(0, 1)))
    planes = cells.reshape(records.planes.shape[1], -1).max(axis=1).astype(np.float32)
    vector = vector.astype(np.float32)
    with torch.no_grad():
        model.plane_scale.copy_(torch.from_numpy(1.0 / np.maximum(planes, 1.0)))
        model.vector_scale.copy_(torch.from_numpy(1.0 / np.maximum(vector, 1.0)))


def train(
    model: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    records: Records,
    samples: int,
    batch: int,
    seed: int,
    value_weight: float = 1.0,
    step: Callable[[int], None] | None = None,
) -> Losses:
    """Train on `samples` records drawn from `records` in shuffled passes (a last pass cut
    short), in minibatches of `batch`, a record kept once turned by a symmetry drawn each
    time (symmetries.py); `step(n)` after each minibatch of n records (a progress bar). The
    mean losses over the samples."""
    generator = np.random.default_rng(seed)
    passes = -(-samples // max(len(records), 1))
    order = np.concatenate([generator.permutation(len(records)) for _ in range(passes)])[:samples]
    totals = np.zeros(3)
    model.train()
    for start in range(0, len(order), batch):
        # a minibatch at a time: a window of a million records as float32 would take gigabytes
        index = order[start : start + batch]
        planes, vector = records.planes[index], records.vector[index]
        mask, policy_target = records.mask[index], records.policy[index]
        drawn(records.orbits, records.orbit[index], planes, vector, mask, policy_target, generator)
        logits, value_logits, points_out = model(
            torch.from_numpy(planes.astype(np.float32)), torch.from_numpy(vector)
        )
        masks = torch.from_numpy(mask)
        policy = torch.from_numpy(policy_target.astype(np.float32))
        value = torch.from_numpy(records.value[index])
        points = torch.from_numpy(records.points[index] / POINTS_SCALE)
        policy_loss = -(policy * log_policy(logits, masks)).sum(dim=1).mean()
        value_loss = torch.mean((torch.sigmoid(value_logits) - value) ** 2)
        points_loss = torch.mean((points_out - points) ** 2)
        loss = policy_loss + value_weight * (value_loss + points_loss)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        size = len(index)
        totals += size * np.array([policy_loss.item(), value_loss.item(), points_loss.item()])
        if step is not None:
            step(size)
    model.eval()
    return Losses(*(float(t / max(len(order), 1)) for t in totals))


def log_policy(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """The log of the network's policy over the legal actions (`masks`), from its logits."""
    return torch.log_softmax(logits.masked_fill(~masks, -1e9), dim=1)


def validate(model: PolicyValueNet, records: Records, batch: int = 1024) -> Validation:
    """`model`'s policy divergence and explained variances on `records` (see the card)."""
    if not len(records):
        return Validation(math.nan, math.nan, math.nan, math.nan)
    model.eval()
    cross = entropy = 0.0
    agreed = choices = 0
    values, points = [], []
    with torch.no_grad():
        for start in range(0, len(records), batch):
            part = slice(start, start + batch)
            logits, value_logits, points_out = model(
                torch.from_numpy(records.planes[part].astype(np.float32)),
                torch.from_numpy(records.vector[part]),
            )
            logs = log_policy(logits, torch.from_numpy(records.mask[part])).numpy()
            targets = records.policy[part].astype(np.float32)
            same, asked = agreement(logs, targets, records.mask[part])
            agreed, choices = agreed + same, choices + asked
            cross -= float((targets * logs).sum())
            entropy -= float((targets * np.log(np.where(targets > 0, targets, 1.0))).sum())
            values.append(torch.sigmoid(value_logits).numpy())
            points.append(points_out.numpy() * POINTS_SCALE)
    return Validation(
        (cross - entropy) / len(records),
        agreed / choices if choices else math.nan,
        explained(np.concatenate(values), records.value),
        explained(np.concatenate(points), records.points),
    )


FIGURES = ("policy KL", "policy agrees", "value explained", "points explained")


def figures(check: Validation) -> list[str]:
    """`check`'s figures as the tables of `learn.holdout` and `learn.screen` show them, under
    FIGURES."""
    return [
        f"{check.policy_kl:.3f}",
        f"{check.policy_agreement:.1%}",
        f"{check.value_explained:.3f}",
        f"{check.points_explained:.3f}",
    ]


def agreement(
    logs: np.ndarray[Any, Any], targets: np.ndarray[Any, Any], masks: np.ndarray[Any, Any]
) -> tuple[int, int]:
    """Of the decisions with more than one legal move and a search behind them (targets that
    sum to more than 0), how many whose likeliest move by `logs` is one of the targets'
    likeliest (a tie of visits counts either move), and how many there were."""
    asked = (masks.sum(axis=1) > 1) & (targets.sum(axis=1) > 0)
    chosen = targets[np.arange(len(targets)), logs.argmax(axis=1)]
    same = chosen == targets.max(axis=1)
    return int((same & asked).sum()), int(asked.sum())


def explained(predicted: np.ndarray[Any, Any], target: np.ndarray[Any, Any]) -> float:
    """The share of `target`'s variance that `predicted` explains (1 - MSE / variance); nan
    when the targets do not vary."""
    variance = float(np.var(target))
    if variance <= 0.0:
        return math.nan
    return 1.0 - float(np.mean((predicted - target) ** 2)) / variance
