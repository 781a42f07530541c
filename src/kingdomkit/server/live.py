"""One table in play: its game, its state (the replay of its actions), the checks an action
must pass, and what each seat or a spectator is shown.

Chance is drawn here, never by a client: the outcome at step `seq` comes from a generator
seeded by the table's secret seed and `seq`, so a replay after a restart draws the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from time import time
from typing import Any

from kingdomkit.core.protocol import CHANCE, TERMINAL, Game, KingdomkitError
from kingdomkit.core.registry import make_game
from kingdomkit.server.board import board, words
from kingdomkit.server.setups import title, variant_names

HUMAN, BOT = "human", "bot"
STAND_IN, CLOCK = "stand-in", "clock"  # who made a move that its seat's person did not choose
OPEN, RUNNING, FINISHED = "open", "running", "finished"
LOG_LENGTH = 30  # the latest decisions a view carries; the rest is read with `log_page`
POSITION_CACHE = 16  # positions kept per table (seats and spectators of recent versions)


class RefusedError(KingdomkitError):
    """An action or request the table turns down; `status` is the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Seat:
    index: int
    kind: str  # HUMAN or BOT
    bot: str | None  # the level or bot spec of a bot seat
    name: str | None  # the display name of whoever sits there
    holder: str | None  # the identity (guest or account) that took a human seat
    token: str  # secret: the seat's invite link
    stand_in: str | None = None  # a bot playing for the holder, who left
    time_used: float = 0.0  # seconds spent on this seat's decisions
    reserved: str | None = None  # a rematch's seat kept for this identity: only it takes it

    @property
    def driver(self) -> str | None:
        """The bot that plays this seat now (its own, or a stand-in), None for a person."""
        return self.bot if self.kind == BOT else self.stand_in

    def public(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name if self.kind == HUMAN else self.bot,
            "taken": self.kind == BOT or self.holder is not None,
            "stand_in": self.stand_in,
            "time_used": round(self.time_used, 1),
            "kept": self.reserved is not None and self.holder is None,
        }


@dataclass(frozen=True)
class Clock:
    """A table's time control: seconds per decision and per seat for the game (None: none)."""

    move_seconds: float | None = None
    game_seconds: float | None = None

    @property
    def on(self) -> bool:
        return self.move_seconds is not None or self.game_seconds is not None

    def allowed(self, seat: Seat) -> float:
        """Seconds `seat` has for the decision it is starting (inf without a clock)."""
        left = float("inf")
        if self.move_seconds is not None:
            left = self.move_seconds
        if self.game_seconds is not None:
            left = min(left, max(0.0, self.game_seconds - seat.time_used))
        return left


NO_CLOCK = Clock()


class LiveTable:
    """A table's game and state; every change goes through `play`."""

    def __init__(
        self,
        table_id: str,
        game_name: str,
        options: dict[str, Any],
        seed: int,
        seats: list[Seat],
        actions: list[tuple[int, int]],
        clock: Clock = NO_CLOCK,
        rated: bool = False,
        hints: bool = False,
        review: dict[str, Any] | None = None,
        owner: str | None = None,
        made_by: dict[int, str] | None = None,
        changes: int = 0,
        turn_started: float | None = None,
    ) -> None:
        self.id = table_id
        self.owner = owner  # the identity that created the table (its share of the bots)
        self.made_from: str | None = None  # where from (limits.address_key), for its limit
        self.clock = clock
        self.rated = rated
        self.hints = hints  # may the seat to act ask for the analyst's advice?
        self.review = review  # the graded decisions, once a finished game is reviewed
        self.reviewing = False  # a review is being made
        # the clock of the seat to act runs from here: wall time, as any process reads it
        self.turn_started = time() if turn_started is None else turn_started
        # how many times the stored table was changed: a write is accepted only against the
        # count it was loaded with, so two processes never both change the same version
        self.changes = changes
        self.game_name = game_name
        self.options = options
        self.game: Game[Any] = make_game(game_name, options)
        self.seed = seed
        self.seats = seats
        self.actions: list[tuple[int, int]] = []  # (player or CHANCE, action), in order
        # the actions a stand-in bot or the clock chose for a person, by index
        self.made_by: dict[int, str] = {}
        self.decisions: list[dict[str, Any]] = []  # each decision labelled, for the log
        # after the game: each rated seat's rating before and after (set when stored), and
        # the rematch a seated player proposed (its table, and that player's seat)
        self.rating_changes: list[dict[str, Any]] | None = None
        self.rematch: str | None = None
        self.rematch_by: int | None = None
        self._positions: dict[tuple[int, int | None, bool], dict[str, Any]] = {}
        self.state = self.game.initial_state()
        # the position before the latest decision and that decision: the model's `last`
        self.last_decision: tuple[Any, int] | None = None
        made_by = made_by or {}
        for player, action in actions:
            self._apply(player, action, made_by.get(len(self.actions)))

    # -- facts -----------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """How many actions (chance included) have been played: a client's action names the
        version it saw, so a stale one is refused."""
        return len(self.actions)

    @property
    def to_act(self) -> int:
        return self.game.current_player(self.state)

    @property
    def finished(self) -> bool:
        return self.to_act == TERMINAL

    @property
    def status(self) -> str:
        if self.finished:
            return FINISHED
        if any(s.kind == HUMAN and s.holder is None for s in self.seats):
            return OPEN
        return RUNNING

    def final(self) -> dict[str, Any]:
        """A finished game's outcome as the lobby lists it: each seat's score, the winners."""
        return {
            "scores": [
                int(score) if score == int(score) else round(score, 2)
                for score in self.game.scores(self.state)
            ],
            "winners": list(self.game.winners(self.state)),
        }

    @property
    def share(self) -> str:
        """The identity whose share of the bot workers the table's jobs use: its owner, else
        (an old or uploaded table) the table itself."""
        return self.owner or f"table {self.id}"

    def awaits(self, version: int, driver: str | None) -> bool:
        """Is the move at `version` still to be played, by `driver` (the seat's bot or
        stand-in; None: a person)? A bot's move found no longer due is never played."""
        return (
            self.version == version
            and self.status == RUNNING
            and self.seats[self.to_act].driver == driver
        )

    def seat_of(self, holder: str | None) -> int | None:
        """The seat `holder` sits in (the first one, if several), or None."""
        if holder is None:
            return None
        return next((s.index for s in self.seats if s.holder == holder), None)

    def kept_for(self, holder: str | None) -> int | None:
        """The seat of this rematch kept for `holder`, not taken yet, or None."""
        if holder is None:
            return None
        return next(
            (s.index for s in self.seats if s.reserved == holder and s.holder is None), None
        )

    # -- playing ---------------------------------------------------------------------------
    def check(self, seat: int | None, action: Any, version: Any) -> int:
        """The action as an int, if `seat` may play it now; else `RefusedError` says why."""
        if self.status == OPEN:
            raise RefusedError(409, "the game starts when every seat is taken")
        if self.finished:
            raise RefusedError(409, "the game is over")
        if seat is None:
            raise RefusedError(403, "you have no seat at this table: spectators cannot act")
        if type(version) is not int or type(action) is not int:
            raise RefusedError(422, "an action is {'action': <id>, 'version': <the version seen>}")
        if version != self.version:
            raise RefusedError(
                409,
                f"the game has moved on (you saw version {version}, it is at {self.version}):"
                " look again and choose anew",
            )
        if self.to_act != seat:
            raise RefusedError(409, "it is not your turn")
        if self.seats[seat].stand_in is not None:
            raise RefusedError(409, "a bot plays for you: take your seat back first")
        if action not in self.game.legal_actions(self.state):
            raise RefusedError(422, f"action {action} is not legal now")
        return action

    def play(self, action: int, by: str | None = None) -> list[tuple[int, int]]:
        """Apply a checked decision and the chance outcomes that follow it, charging its time
        to the seat's clock when a person decided; the new actions. `by` says who chose it
        when not the seat itself (STAND_IN, CLOCK)."""
        start = len(self.actions)
        seat = self.seats[self.to_act]
        now = time()
        if seat.kind == HUMAN and by != STAND_IN and self.clock.on:
            seat.time_used += now - self.turn_started
        self._apply(self.to_act, action, by)
        self.draw()
        self.turn_started = now
        return self.actions[start:]

    def time_left(self) -> float:
        """Seconds the person to act has left for this decision (inf without a clock)."""
        seat = self.seats[self.to_act]
        return self.clock.allowed(seat) - (time() - self.turn_started)

    def waiting(self) -> tuple[str | None, float | None]:
        """What the table waits for, as it is stored for the job sweep: (BOT, None) a bot's
        (or stand-in's) move, (HUMAN, deadline) a person's, with the wall time their clock
        runs out (None without a clock), (None, None) nothing (open or finished)."""
        if self.status != RUNNING:
            return None, None
        seat = self.seats[self.to_act]
        if seat.driver is not None:
            return BOT, None
        return HUMAN, self.turn_started + self.clock.allowed(seat) if self.clock.on else None

    def draw(self) -> list[tuple[int, int]]:
        """Play every chance outcome due now (drawn from the table's seed); the new actions."""
        start = len(self.actions)
        while self.to_act == CHANCE:
            rng = random.Random(f"kingdomkit/{self.seed}/chance/{len(self.actions)}")
            self._apply(CHANCE, self.game.sample_chance(self.state, rng))
        return self.actions[start:]

    def start_clocks(self) -> None:
        """The game starts (its last seat is taken): the first decision's time runs from now."""
        self.turn_started = time()

    def apply_stored(self, player: int, action: int, by: str | None) -> None:
        """Apply an action another process played and stored (already checked there)."""
        self._apply(player, action, by)

    def _apply(self, player: int, action: int, by: str | None = None) -> None:
        if by is not None:
            self.made_by[len(self.actions)] = by
        before = self.state
        self.state = self.game.apply(before, action)
        if player >= 0:
            # The log says it in words for everyone (the game never names a secret there),
            # with the engine's notation beside for tools.
            entry: dict[str, Any] = {
                "seat": player,
                "text": words(self.game).move_sentence(
                    before, action, self.state, self._who(player)
                ),
                "notation": self.game.action_to_string(before, action),
            }
            if by is not None:
                entry["by"] = by
            self.decisions.append(entry)
            self.last_decision = (before, action)
        elif self.decisions:
            # What chance showed everyone after a decision (a new line, a building turned up)
            # is told with it; what it showed before the first decision, the board shows.
            names = [self._who(p) for p in range(len(self.seats))]
            said = words(self.game).chance_sentence(before, action, self.state, names)
            if said is not None:
                self.decisions[-1].setdefault("then", []).append(said)
        self.actions.append((player, action))

    def _who(self, player: int) -> str:
        """The seat's name as the log's sentences say it (as the client names seats)."""
        seat = self.seats[player]
        if seat.kind == BOT:
            return f"{seat.bot} (bot)"
        return seat.name or f"seat {player + 1}"

    def bot_seed(self) -> str:
        """The seed of the bot about to move (from the table's seed and the step)."""
        return f"kingdomkit/{self.seed}/bot/{len(self.actions)}"

    # -- what people see -------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` (None: a spectator) may see, with its legal actions when it is
        its turn."""
        to_act = self.to_act
        view: dict[str, Any] = {
            "table": self.id,
            "game": self.game_name,
            "score_unit": self.game.score_unit,
            "options": self.options,
            "names": {  # the game and its variants as people know them
                "game": title(self.game_name),
                "variants": variant_names(self.game_name, self.options),
            },
            "version": self.version,
            "decisions": len(self.decisions),
            "status": self.status,
            "seats": [s.public() for s in self.seats],
            "you": seat,
            "maker": self.seat_of(self.owner),  # who may cancel it while it waits for players
            "to_act": to_act if to_act >= 0 else None,
            **self._position(seat, self._choosing(seat)),
            "log": self.decisions[-LOG_LENGTH:],
            "log_start": max(0, len(self.decisions) - LOG_LENGTH),  # the index of log[0]
        }
        if self.clock.on:
            view["clock"] = {
                "move_seconds": self.clock.move_seconds,
                "game_seconds": self.clock.game_seconds,
                "left": round(self.time_left(), 1) if self.status == RUNNING else None,
            }
        view["rated"] = self.rated
        view["hints"] = self.hints
        if self.finished:
            view["result"] = self.game.result(self.state)
            view["review"] = (
                "ready" if self.review is not None else "making" if self.reviewing else "none"
            )
            if self.rating_changes:
                view["ratings"] = self.rating_changes
            if self.rematch is not None:
                view["rematch"] = {"table": self.rematch, "by": self.rematch_by}
        return view

    def _choosing(self, seat: int | None) -> bool:
        """Is `seat` to choose now (its turn, the game running, no bot standing in)?"""
        return (
            seat is not None
            and self.to_act == seat
            and self.status == RUNNING
            and self.seats[seat].stand_in is None
        )

    def _position(self, seat: int | None, mine: bool) -> dict[str, Any]:
        """The board, state, scores and legal actions as `seat` sees them now: kept until the
        next action, since every connection of the seat and every reload asks again."""
        key = (self.version, seat, mine)
        cached = self._positions.get(key)
        if cached is not None:
            return cached
        game, state = self.game, self.state
        seen = game.view(state, seat)
        legal = []
        if mine:
            drawn, said = board(game), words(game)
            legal = [
                {
                    "id": a,
                    "label": said.move_label(state, a),
                    "notation": game.action_to_string(state, a),
                    "move": drawn.move_model(state, a) if drawn is not None else {},
                }
                for a in game.legal_actions(state)
            ]
        position = {
            "board": game.render(state, seat),
            "model": model(game, seen, seat, self.last_decision),
            "legal": legal,
            "scores": list(game.scores(seen)),  # as things stand, from what this seat sees
        }
        if len(self._positions) > POSITION_CACHE:
            self._positions.clear()
        self._positions[key] = position
        return position

    def log_page(self, since: int, limit: int) -> dict[str, Any]:
        """At most `limit` entries of the log from the `since`-th decision on (the log is the
        same for everyone): how a client reads the log back to move 1."""
        total = len(self.decisions)
        if not 0 <= since <= total:
            raise RefusedError(422, f"the log has {total} entries: 'since' is 0 to {total}")
        entries = self.decisions[since : since + limit]
        return {"since": since, "total": total, "entries": entries}

    def view_at(self, step: int) -> dict[str, Any]:
        """A finished game after its first `step` decisions (and the draws that followed them),
        as a spectator saw it then: the replay viewer's frames."""
        if not self.finished:
            raise RefusedError(409, "a game can be replayed once it is over")
        if not 0 <= step <= len(self.decisions):
            raise RefusedError(422, f"the game has {len(self.decisions)} decisions, not {step}")
        game = self.game
        state = game.initial_state()
        made = 0
        last: tuple[Any, int] | None = None
        for player, action in self.actions:
            if player >= 0:
                if made == step:
                    break
                made += 1
                last = (state, action)
            state = game.apply(state, action)
        seen = game.view(state, None)
        to_act = game.current_player(state)
        return {
            "table": self.id,
            "game": self.game_name,
            "score_unit": game.score_unit,
            "step": step,
            "steps": len(self.decisions),
            "seats": [s.public() for s in self.seats],
            "to_act": to_act if to_act >= 0 else None,
            "board": game.render(state, None),
            "model": model(game, seen, None, last),
            "scores": list(game.scores(seen)),  # as they stood at this step
            "log": self.decisions[:step][-LOG_LENGTH:],
            "log_start": max(0, step - LOG_LENGTH),
            "next": self.decisions[step] if step < len(self.decisions) else None,
        }


def model(
    game: Game[Any], seen: Any, seat: int | None, last: tuple[Any, int] | None
) -> dict[str, Any]:
    """The view model of `seen` (`seat`'s view), with what the latest decision did when the
    game tells it (`last`: the position before that decision, and the decision). A game with
    no board has the model {"version": 0}: the browser shows its text board."""
    drawn = board(game)
    if drawn is None:
        return {"version": 0}
    shown = {"version": drawn.view_model_version, **drawn.view_model(seen, seat)}
    if last is not None:
        made = drawn.last_model(game.view(last[0], seat), last[1], seen)
        if made is not None:
            shown["last"] = made
    return shown
