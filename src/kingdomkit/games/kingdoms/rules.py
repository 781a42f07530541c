"""Knizia's Kingdoms (2010 edition, with the Wizard) as a pure state machine, with its hidden
information (version history at the bottom of this card).

An epoch, as steps (rulebook "Setup", "Play", "Scoring", "The Second & Third Epochs"):

    FIRST   chance: who starts. Epoch 1: any player; later: the player with the most gold
            (a tie: any of the tied players; one candidate is a chance node of one outcome)
    DEAL    chance, once per player: the secret starting tile (not with no_luck)
    PLAY    the player to act places a castle, or draws a tile, or places their starting
            tile (no_luck: takes a face-up tile); passes only when none is possible
    DRAW    chance: the tile drawn from the supply, then
    PLACE   the drawer places it on an empty space

The epoch ends when the board is full (or nobody can act: Down to the Last Castle); every
row, then every column, is scored (score_as_you_go: each line as soon as it is full). Then
rank-1 castles go back to their owners, the others leave the game, and every tile goes back
into the supply. The game ends after the third epoch (Down to the Last Castle: after the epoch
in which a player placed their last castle).

Actions (198; actions.py):

    0 .. 119     place a castle: (rank - 1) * 30 + space
    120          draw a tile from the supply
    121 .. 150   place the starting tile: 121 + space
    151 .. 180   place the tile drawn or taken: 151 + space
    181 .. 196   no_luck: take a face-up tile of type t: 181 + t
    197          pass

Chance outcomes: FIRST, a player; DEAL and DRAW, a tile type (tiles.py).

Versions: 1, the first. The state remembers the spaces filled this epoch and each scored
epoch's board (for the score sheets of the view model); the rules never read them, and so the
version is unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kingdomkit.core.protocol import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    KingdomkitError,
)
from kingdomkit.games.kingdoms import board as bd
from kingdomkit.games.kingdoms import codec, records
from kingdomkit.games.kingdoms.actions import (
    CASTLE_BASE,
    DRAW_ACTION,
    NUM_ACTIONS,
    PASS_ACTION,
    PLACE_BASE,
    START_BASE,
    TAKE_BASE,
)
from kingdomkit.games.kingdoms.options import EPOCHS, START_GOLD, Setup, parse_options
from kingdomkit.games.kingdoms.state import (
    DEAL,
    DRAW,
    FIRST,
    HIDDEN,
    NO_TILE,
    OVER,
    PHASE_NAMES,
    PLACE,
    PLAY,
    KingdomsState,
    Scored,
)
from kingdomkit.games.kingdoms.tiles import FULL_SUPPLY, RANKS, TYPES

LINES_OF_SPACE = tuple(
    tuple(i for i, line in enumerate(bd.LINES) if space in line) for space in range(bd.SPACES)
)


class Kingdoms(Game[KingdomsState]):
    name = "kingdoms"
    version = 1
    score_unit = "gold"
    min_players = 2
    max_players = 4

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.setup: Setup = parse_options(options or {})
        self.options = self.setup.to_options()
        self.num_players = self.setup.players
        self.num_actions = NUM_ACTIONS
        self.num_chance_outcomes = len(TYPES)

    def __repr__(self) -> str:
        return f"Kingdoms({self.options})"

    def max_game_length(self) -> int:
        """A bound: an epoch is the first player, the deals and, for each space filled, at
        most a draw, its tile and its placement after every other player's pass. Down to the
        Last Castle goes on while everyone has castles, and each epoch but the last takes at
        least the castles the supply cannot fill the board without."""
        players = self.num_players
        epoch = 1 + players + bd.SPACES * (players + 2)
        if not self.setup.down_to_the_last_castle:
            return EPOCHS * epoch
        castles = players * sum(self.setup.castles)
        return (1 + castles // (bd.SPACES - sum(FULL_SUPPLY))) * epoch

    # -- the state machine -------------------------------------------------------------
    def initial_state(self) -> KingdomsState:
        players = self.num_players
        return KingdomsState(
            FIRST,
            0,
            (bd.EMPTY,) * bd.SPACES,
            FULL_SUPPLY,
            (NO_TILE,) * players,
            (self.setup.castles,) * players,
            (START_GOLD,) * players,
            0,
            0,
            NO_TILE,
            0,
        )

    def current_player(self, state: KingdomsState) -> int:
        phase = state.phase
        if phase in (PLAY, PLACE):
            return state.turn
        return TERMINAL if phase == OVER else CHANCE

    def legal_actions(self, state: KingdomsState) -> tuple[int, ...]:
        phase = state.phase
        if phase == PLACE:
            return tuple(PLACE_BASE + s for s in _empties(state.board))
        if phase != PLAY:
            return ()
        player = state.turn
        empties = _empties(state.board)
        actions: list[int] = []
        for rank, count in enumerate(state.castles[player]):
            if count:
                base = CASTLE_BASE + rank * bd.SPACES
                actions.extend(base + s for s in empties)
        if self.setup.no_luck:
            actions.extend(TAKE_BASE + t for t, n in enumerate(state.supply) if n)
        elif supply_size(state):
            actions.append(DRAW_ACTION)
        if state.starting[player] != NO_TILE:
            actions.extend(START_BASE + s for s in empties)
        actions.sort()
        return tuple(actions) if actions else (PASS_ACTION,)

    def chance_outcomes(self, state: KingdomsState) -> tuple[tuple[int, float], ...]:
        phase = state.phase
        if phase == FIRST:
            players = self.first_candidates(state)
            return tuple((p, 1.0 / len(players)) for p in players)
        if phase in (DEAL, DRAW):
            total = sum(state.supply)
            return tuple((t, n / total) for t, n in enumerate(state.supply) if n)
        return ()

    def sample_chance(self, state: KingdomsState, rng: random.Random) -> int:
        if state.phase == FIRST:
            players = self.first_candidates(state)
            return players[int(rng.random() * len(players))]
        pick = int(rng.random() * sum(state.supply))
        for tile, count in enumerate(state.supply):
            if pick < count:
                return tile
            pick -= count
        raise ValueError("the supply is empty")

    def first_candidates(self, state: KingdomsState) -> list[int]:
        """Who may start the epoch: anyone in the first; else the richest (rulebook "The
        Second & Third Epochs"; a tie is drawn among the tied, docs/rules-notes.md)."""
        if state.epoch == 0:
            return list(range(self.num_players))
        most = max(state.gold)
        return [p for p, gold in enumerate(state.gold) if gold == most]

    def apply(self, state: KingdomsState, action: int) -> KingdomsState:
        phase = state.phase
        if phase == PLAY:
            return self._play(state, action)
        if phase == PLACE:
            space = action - PLACE_BASE
            board = _with(state.board, space, state.held)
            placed = state._replace(board=board, held=NO_TILE, placed=(*state.placed, space))
            return self._after_placement(placed, space)
        if phase == DRAW:
            supply = _with(state.supply, action, state.supply[action] - 1)
            return state._replace(phase=PLACE, supply=supply, held=action)
        if phase == DEAL:
            return self._deal(state, action)
        if phase == FIRST:
            if self.setup.no_luck:
                return state._replace(phase=PLAY, first=action, turn=action)
            return state._replace(phase=DEAL, first=action, turn=0)
        raise IllegalActionError("the game is over; no action can be played")

    def _deal(self, state: KingdomsState, tile: int) -> KingdomsState:
        player = state.turn
        supply = _with(state.supply, tile, state.supply[tile] - 1)
        starting = _with(state.starting, player, tile)
        if player + 1 < self.num_players:
            return state._replace(supply=supply, starting=starting, turn=player + 1)
        return state._replace(phase=PLAY, supply=supply, starting=starting, turn=state.first)

    def _play(self, state: KingdomsState, action: int) -> KingdomsState:
        player = state.turn
        if action < DRAW_ACTION:
            rank, space = divmod(action - CASTLE_BASE, bd.SPACES)
            hand = state.castles[player]
            castles = _with(state.castles, player, _with(hand, rank, hand[rank] - 1))
            board = _with(state.board, space, bd.castle(player, rank + 1))
            placed = (*state.placed, space)
            return self._after_placement(
                state._replace(board=board, castles=castles, placed=placed), space
            )
        if action == DRAW_ACTION:
            return state._replace(phase=DRAW)
        if action < PLACE_BASE:
            space = action - START_BASE
            board = _with(state.board, space, state.starting[player])
            starting = _with(state.starting, player, NO_TILE)
            placed = (*state.placed, space)
            return self._after_placement(
                state._replace(board=board, starting=starting, placed=placed), space
            )
        if action == PASS_ACTION:
            return self._next_turn(state)
        tile = action - TAKE_BASE
        supply = _with(state.supply, tile, state.supply[tile] - 1)
        return state._replace(phase=PLACE, supply=supply, held=tile)

    def _after_placement(self, state: KingdomsState, space: int) -> KingdomsState:
        if self.setup.score_as_you_go:
            for line in LINES_OF_SPACE[space]:
                if not state.scored >> line & 1 and bd.line_full(state.board, bd.LINES[line]):
                    state = self._score_line(state, line)
        return self._next_turn(state)

    def _next_turn(self, state: KingdomsState) -> KingdomsState:
        if bd.EMPTY not in state.board or not self._anyone_can_act(state):
            return self._end_epoch(state)
        return state._replace(phase=PLAY, turn=(state.turn + 1) % self.num_players)

    def _anyone_can_act(self, state: KingdomsState) -> bool:
        if supply_size(state) or any(tile != NO_TILE for tile in state.starting):
            return True
        return any(any(hand) for hand in state.castles)

    def _score_line(self, state: KingdomsState, line: int) -> KingdomsState:
        gains = bd.line_gold(state.board, bd.LINES[line], self.num_players)
        gold = tuple(g + d for g, d in zip(state.gold, gains, strict=True))
        return state._replace(gold=gold, scored=state.scored | 1 << line)

    def _end_epoch(self, state: KingdomsState) -> KingdomsState:
        for line in range(len(bd.LINES)):
            if not state.scored >> line & 1:
                state = self._score_line(state, line)
        setup = self.setup
        past = (*state.past, Scored(state.board, state.placed))
        if setup.down_to_the_last_castle:
            over = any(not any(hand) for hand in state.castles)
        else:
            over = state.epoch + 1 == EPOCHS
        if over:
            return state._replace(phase=OVER, held=NO_TILE, past=past)
        castles = state.castles
        if not setup.down_to_the_last_castle:
            # Rank-1 castles go back to their owners; the others leave the game.
            returned = [0] * self.num_players
            for square in state.board:
                if bd.is_castle(square) and bd.castle_rank(square) == 1:
                    returned[bd.castle_owner(square)] += 1
            castles = tuple(
                (hand[0] + back, *hand[1:]) for hand, back in zip(castles, returned, strict=True)
            )
        return KingdomsState(
            FIRST,
            state.epoch + 1,
            (bd.EMPTY,) * bd.SPACES,
            FULL_SUPPLY,
            (NO_TILE,) * self.num_players,
            castles,
            state.gold,
            0,
            0,
            NO_TILE,
            0,
            (),
            past,
        )

    def placement(self, state: KingdomsState, action: int) -> tuple[int, int] | None:
        """The (space, square) that `action` puts on the board, or None if it puts nothing."""
        if state.phase == PLACE:
            return action - PLACE_BASE, state.held
        if state.phase != PLAY or action == DRAW_ACTION or action >= PLACE_BASE:
            return None
        if action < DRAW_ACTION:
            rank, space = divmod(action - CASTLE_BASE, bd.SPACES)
            return space, bd.castle(state.turn, rank + 1)
        return action - START_BASE, state.starting[state.turn]

    def placed_board(self, state: KingdomsState, action: int) -> tuple[int, ...]:
        """The board right after `action` (the board an epoch is scored on: `apply` clears it
        when a new epoch starts)."""
        placed = self.placement(state, action)
        if placed is None:
            return state.board
        space, square = placed
        return (*state.board[:space], square, *state.board[space + 1 :])

    # -- hidden information --------------------------------------------------------------
    def view(self, state: KingdomsState, player: int | None) -> KingdomsState:
        """What `player` sees (None: a spectator): their own starting tile and the tile they
        hold, the counts of the tiles they have not seen, the size of the supply; not the
        other players' starting tiles nor a tile another player has drawn and not placed."""
        starting = list(state.starting)
        supply = list(state.supply)
        for other, tile in enumerate(starting):
            if other != player and tile >= 0:
                starting[other] = HIDDEN
                supply[tile] += 1
        held = state.held
        if state.phase == PLACE and state.turn != player and held >= 0 and not self.setup.no_luck:
            supply[held] += 1
            held = HIDDEN
        return state._replace(starting=tuple(starting), supply=tuple(supply), held=held)

    def resample(self, state: KingdomsState, player: int, rng: random.Random) -> KingdomsState:
        """A full state that `player` cannot tell from `state`: the tiles hidden from them
        dealt at random from the tiles they have not seen."""
        seen = self.view(state, player)
        pool = [tile for tile, count in enumerate(seen.supply) for _ in range(count)]
        rng.shuffle(pool)
        starting = tuple(pool.pop() if tile == HIDDEN else tile for tile in seen.starting)
        held = pool.pop() if seen.held == HIDDEN else seen.held
        supply = [0] * len(TYPES)
        for tile in pool:
            supply[tile] += 1
        return seen._replace(starting=starting, held=held, supply=tuple(supply))

    def conceal(self, actions: Sequence[int], player: int, rng: random.Random) -> list[int]:
        """The deals of other players' starting tiles never played, and a tile another
        player has drawn and not yet placed, drawn again at random from the tiles `player`
        has not seen in that epoch; every other action is kept."""
        concealed = list(actions)
        hidden: dict[int, list[int]] = {}  # epoch -> indices of hidden draws and deals
        seen: dict[int, list[int]] = {}  # epoch -> tiles `player` saw leave the supply
        dealt: dict[tuple[int, int], int] = {}  # (epoch, owner) -> index of the deal
        state = self.initial_state()
        for index, action in enumerate(actions):
            epoch, phase = state.epoch, state.phase
            if phase == DEAL:
                if state.turn == player:
                    seen.setdefault(epoch, []).append(action)
                else:
                    dealt[(epoch, state.turn)] = index
            elif phase == DRAW:
                pending = index == len(actions) - 1 and state.turn != player
                (hidden if pending else seen).setdefault(epoch, []).append(
                    index if pending else action
                )
            elif phase == PLAY and action >= TAKE_BASE and action != PASS_ACTION:
                seen.setdefault(epoch, []).append(action - TAKE_BASE)
            elif phase == PLAY and START_BASE <= action < PLACE_BASE and state.turn != player:
                seen.setdefault(epoch, []).append(actions[dealt.pop((epoch, state.turn))])
            state = self.apply(state, action)
        for (epoch, _), index in dealt.items():
            hidden.setdefault(epoch, []).append(index)
        for epoch, indices in hidden.items():
            unseen = list(FULL_SUPPLY)
            for tile in seen.get(epoch, []):
                unseen[tile] -= 1
            pool = [tile for tile, count in enumerate(unseen) for _ in range(count)]
            for index, tile in zip(sorted(indices), rng.sample(pool, len(indices)), strict=True):
                concealed[index] = tile
        return concealed

    # -- scores ------------------------------------------------------------------------
    def scores(self, state: KingdomsState) -> tuple[float, ...]:
        return tuple(float(g) for g in state.gold)

    def winners(self, state: KingdomsState) -> tuple[int, ...]:
        """The most gold wins; equal gold shares the victory (rulebook "Game End")."""
        most = max(state.gold)
        return tuple(p for p, gold in enumerate(state.gold) if gold == most)

    # -- text, records, serialisation --------------------------------------------------------
    # codec.py and records.py take the game first, so their functions serve as methods.
    action_to_string = codec.action_to_string
    parse_action = codec.parse_action
    events = records.events
    event_actions = records.event_actions
    result = records.result

    def state_to_json(self, state: KingdomsState) -> dict[str, Any]:
        data = state._asdict()
        for key in ("board", "supply", "starting", "gold"):
            data[key] = list(data[key])
        data["castles"] = [list(hand) for hand in state.castles]
        data["placed"] = list(state.placed)
        data["past"] = [{"board": list(e.board), "placed": list(e.placed)} for e in state.past]
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> KingdomsState:
        try:
            players = self.num_players
            state = KingdomsState(
                int(data["phase"]),
                int(data["epoch"]),
                tuple(int(s) for s in data["board"]),
                tuple(int(n) for n in data["supply"]),
                tuple(int(t) for t in data["starting"]),
                tuple(tuple(int(n) for n in hand) for hand in data["castles"]),
                tuple(int(g) for g in data["gold"]),
                int(data["first"]),
                int(data["turn"]),
                int(data["held"]),
                int(data["scored"]),
                tuple(int(s) for s in data.get("placed", ())),
                tuple(
                    Scored(tuple(int(s) for s in e["board"]), tuple(int(s) for s in e["placed"]))
                    for e in data.get("past", ())
                ),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise KingdomkitError(f"malformed Kingdoms state: {error}") from None
        if (
            len(state.board) != bd.SPACES
            or len(state.supply) != len(TYPES)
            or len(state.starting) != players
            or len(state.gold) != players
            or len(state.castles) != players
            or any(len(hand) != RANKS for hand in state.castles)
            or state.phase not in range(len(PHASE_NAMES))
            or any(len(e.board) != bd.SPACES for e in state.past)
        ):
            raise KingdomkitError("malformed Kingdoms state: wrong sizes")
        return state

    def render(self, state: KingdomsState, player: int | None = None) -> str:
        from kingdomkit.games.kingdoms.notation import board_to_notation

        seen = self.view(state, player)
        lines = [
            f"epoch {state.epoch + 1}, {PHASE_NAMES[state.phase]}, gold "
            + " ".join(f"{chr(65 + p)}:{g}" for p, g in enumerate(state.gold))
        ]
        lines.append(board_to_notation(state.board))
        size = supply_size(seen)
        return "\n".join(lines) + f"\nsupply: {size} tile{'' if size == 1 else 's'}"


def supply_size(state: KingdomsState) -> int:
    """How many tiles lie face down in the supply (also in a view, where `supply` counts
    the hidden tiles too)."""
    hidden = sum(1 for tile in state.starting if tile == HIDDEN) + (state.held == HIDDEN)
    return sum(state.supply) - hidden


def _empties(board: tuple[int, ...]) -> list[int]:
    return [s for s, square in enumerate(board) if square == bd.EMPTY]


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


__all__ = [
    "DEAL",
    "DRAW",
    "DRAW_ACTION",
    "FIRST",
    "HIDDEN",
    "NO_TILE",
    "OVER",
    "PASS_ACTION",
    "PLACE",
    "PLACE_BASE",
    "PLAY",
    "START_BASE",
    "TAKE_BASE",
    "Kingdoms",
    "KingdomsState",
    "supply_size",
]
