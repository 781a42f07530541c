"""The policy-value network of bots/network.py in PyTorch, for training, and its export.

The modules carry the names of the network file's arrays (`conv1.weight`, ..., and the input
scales as buffers), so that a state dict is a network file's arrays and back: `export` and
`from_network` are plain copies, and the numpy forward equals this one (tested).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from kingdomkit.bots.network import POINTS_SCALE, Layout, Network, Sizes


class PolicyValueNet(nn.Module):
    """See bots/network.py's card: the same layers, in torch."""

    plane_scale: torch.Tensor  # buffers: the input scales, saved with the weights
    vector_scale: torch.Tensor
    on: torch.Tensor  # buffers not saved: the actions on the board, and their cells
    cells: torch.Tensor

    def __init__(self, layout: Layout, sizes: Sizes) -> None:
        super().__init__()
        k, r, h, t = sizes.channels, sizes.reduced, sizes.hidden, sizes.trunk
        c, s, v, j = layout.channels, layout.side, layout.features, sizes.value_hidden
        self.register_buffer("plane_scale", torch.ones(c))
        self.register_buffer("vector_scale", torch.ones(layout.features))
        self.conv1 = nn.Conv2d(c, k, 3, padding=1)
        self.conv2 = nn.Conv2d(k, k, 3, padding=1)
        self.reduce = nn.Conv2d(k, r, 1)
        self.vector = nn.Linear(v, h)
        self.trunk = nn.Linear(r * s * s + h, t)
        self.policy = nn.Linear(t, layout.actions)
        self.board_policy = nn.Conv2d(k, layout.action_planes, 1) if sizes.board_policy else None
        cells = torch.tensor(layout.action_cells or [-1], dtype=torch.long)
        on = torch.nonzero(cells >= 0).flatten()
        self.register_buffer("on", on, persistent=False)  # not in the network file
        self.register_buffer("cells", cells[on], persistent=False)
        self.value_hidden = nn.Linear(v + k, j) if j else None
        heads = j + v + k if j else t
        self.value = nn.Linear(heads, layout.players)
        self.points = nn.Linear(heads, layout.players)

    def forward(
        self, planes: torch.Tensor, vector: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Logits, value logits (before the sigmoid) and points in units of POINTS_SCALE,
        from unscaled inputs."""
        relu = torch.relu
        x = planes * self.plane_scale[None, :, None, None]
        board = relu(self.conv2(relu(self.conv1(x))))
        x = relu(self.reduce(board)).flatten(1)
        scaled = vector * self.vector_scale
        v = relu(self.vector(scaled))
        trunk = relu(self.trunk(torch.cat([x, v], dim=1)))
        heads = trunk
        if self.value_hidden is not None:
            outlook = torch.cat([scaled, board.mean(dim=(2, 3))], dim=1)
            heads = torch.cat([relu(self.value_hidden(outlook)), outlook], dim=1)
        logits = self.policy(trunk)
        if self.board_policy is not None:
            cells = self.board_policy(board).flatten(1)[:, self.cells]
            logits = logits.index_add(1, self.on, cells)
        return logits, self.value(heads), self.points(heads)


def export(model: PolicyValueNet, header: dict[str, Any]) -> Network:
    """The numpy network with `model`'s weights (save it with `save_network`)."""
    arrays = {
        name: tensor.detach().cpu().numpy().astype(np.float32)
        for name, tensor in model.state_dict().items()
    }
    return Network(header, arrays)


def from_network(network: Network) -> PolicyValueNet:
    """A torch model holding `network`'s weights (to train on from a saved network)."""
    model = PolicyValueNet(network.layout, network.sizes)
    model.load_state_dict({name: torch.from_numpy(a.copy()) for name, a in network.arrays.items()})
    return model


def torch_outputs(
    model: PolicyValueNet, planes: np.ndarray[Any, Any], vector: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Logits, values (after the sigmoid) and points as numpy's `Network.forward` gives them."""
    with torch.no_grad():
        logits, values, points = model(torch.from_numpy(planes), torch.from_numpy(vector))
    return (
        logits.numpy(),
        torch.sigmoid(values).numpy(),
        (points * POINTS_SCALE).numpy(),
    )
