"""The lobby and the tables: creating, joining and acting, and the bots' turns.

Every change of a table happens under its lock, in this order: check, apply in memory, commit
(in a worker thread), then broadcast. If the commit fails, the table is reloaded from the
database, so memory never runs ahead of what is stored; views wait for a commit under way
(`settled`), so no one is shown a move that is not stored. Bot moves are computed outside the
lock (in a worker process) and then go through the same path with the version they saw.

On a shared database (PostgreSQL, `jobs` given) other processes change tables too. A commit
is accepted only against the change count the table was loaded with (store.py): a process
that lost the race reloads the table and checks the request again. What the others commit is
heard through the database (`heard`, from fanout.py) and sent to this process's sockets; the
tables read for a change or a view are checked against the stored count first. Bot moves,
time-outs, hints and reviews are then jobs in the durable queue (jobs.py) that any worker runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from kingdomkit.bots.levels import LEVELS
from kingdomkit.core.protocol import KingdomkitError
from kingdomkit.core.record import replay_record
from kingdomkit.core.registry import GAMES, game_info, make_game
from kingdomkit.server.analysts import Analysts
from kingdomkit.server.bots import TIMEOUT_BOT, hint, review
from kingdomkit.server.chat import CHAT_SHOWN, author_key, message, speaker
from kingdomkit.server.hub import Hub
from kingdomkit.server.live import (
    BOT,
    CLOCK,
    FINISHED,
    HUMAN,
    NO_CLOCK,
    OPEN,
    RUNNING,
    STAND_IN,
    Clock,
    LiveTable,
    RefusedError,
    Seat,
)
from kingdomkit.server.metrics import Recorder
from kingdomkit.server.presence import ALIVE_SECONDS, Presence
from kingdomkit.server.scheduler import DroppedError, Scheduler
from kingdomkit.server.setups import refusal, title
from kingdomkit.server.store import Changed, StaleError, Store
from kingdomkit.server.text import (
    NAME_LIMIT,
    TABLE_ID_LIMIT,
    TOKEN_LIMIT,
    clean_name,
    clean_text,
    could_be_id,
)

if TYPE_CHECKING:
    from kingdomkit.server.jobs import Jobs
    from kingdomkit.server.limits import Guard

log = logging.getLogger("kingdomkit.server")
T = TypeVar("T")
STALE_RETRIES = 5  # checks of a request against a table another process just changed
ADVICE_SECONDS = 600.0  # a hint asked of the shared queue's workers waits at most this
MIN_CLOCK, MAX_CLOCK = 5.0, 24 * 3600.0
# The stand-in another seated person puts on a seat whose holder left: not their choice, so
# that nobody can hand an absent opponent's seat to a weak bot.
STAND_IN_BOT = "medium"
SEAT_BOTS = (*LEVELS, "random")  # what a bot seat may be
RECORD_HOLDER = "record"  # holds the seats of an uploaded game: taken, and nobody's
KEPT_FINISHED = 256  # finished tables kept in memory; one asked for again is reloaded
# Why a table is gone (withdrawn before its game began), as its open pages are told.
GONE = {
    "cancelled": "The player who made this table cancelled it before its game began.",
    "unplayed": "Nobody took this table's free seats in time, so it was withdrawn before its"
    " game began.",
}
TIDY_SECONDS = 300.0  # at most this between looks for open tables that waited too long


def catch_up(table: LiveTable, changed: Changed) -> None:
    """Bring `table` to what another process stored (store.since): its new actions
    applied, its seats, clock start and results as stored."""
    for player, action, by in changed.actions:
        table.apply_stored(player, action, by)
    table.seats[:] = changed.seats
    table.changes = changed.changes
    if changed.turn_started is not None:
        table.turn_started = changed.turn_started
    table.review = changed.review
    if table.review is not None:
        table.reviewing = False
    table.rating_changes = changed.rating_changes
    table.rematch, table.rematch_by = changed.rematch, changed.rematch_by


def checked_bot(bot: Any) -> str:
    """A bot a seat may have: one of the levels (a free bot spec could ask the server for
    minutes of search per move); RefusedError if not."""
    if not isinstance(bot, str) or bot not in SEAT_BOTS:
        raise RefusedError(422, f"unknown bot {bot!r} (levels: {', '.join(SEAT_BOTS)})")
    return bot


class Tables:
    """Every table, loaded from the store on first use. Unfinished tables stay in memory; of
    the finished ones, only the most recently used stay, so a long-running server does not
    hold every game it ever served."""

    def __init__(
        self,
        store: Store,
        bots: Scheduler,
        hub: Hub,
        jobs: Jobs | None = None,
        analysts: Analysts | None = None,
    ) -> None:
        self.store = store
        # The search of hints and of reviews, one for both so that they agree: each game's
        # own (a fixed number of playouts: the same answer on any machine) unless set.
        self.analysts = analysts or Analysts()
        self.bots = bots
        self.hub = hub
        self.jobs = jobs  # the shared database's job queue; None: this process's own workers
        self.advice: dict[tuple[str, int], asyncio.Event] = {}  # hints awaited from workers
        self.ended: Callable[[str], None] | None = None  # forgets a session ended elsewhere
        self.presence = Presence()  # who has tables open in the other processes
        self.guard: Guard | None = None  # whose WebSocket counts are shared (share_sockets)
        self.telling = asyncio.Lock()  # announcements go out in the order they were made
        if jobs is not None:
            hub.elsewhere = self.presence.holders
            hub.on_presence = self._announce
        self.live: OrderedDict[str, LiveTable] = OrderedDict()  # least recently used first
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kingdomkit-writer")
        self.metrics = Recorder()  # the app sets its Metrics (metrics.py)

    # -- lobby -----------------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        holder: str,
        name: str | None,
        clock: Clock = NO_CLOCK,
        rated: bool = False,
        hints: bool = False,
        made_from: str | None = None,
    ) -> tuple[LiveTable, int | None]:
        """A new table; its creator takes the first human seat (if any), `made_from` the
        digest of the creator's address (limits.address_key). Raises RefusedError."""
        if game_name not in GAMES:
            known = ", ".join(title(name) for name in sorted(GAMES))
            raise RefusedError(422, f"unknown game {game_name!r}: this server plays {known}")
        options = dict(options)
        options.setdefault("players", len(seats) or game_info(game_name).default_players)
        try:
            game = make_game(game_name, options)
        except KingdomkitError as error:
            raise RefusedError(422, refusal(error)) from None
        if len(seats) != game.num_players:
            raise RefusedError(
                422,
                f"a game of {game.num_players} players needs {game.num_players} seats,"
                f" not {len(seats)}",
            )
        made = [self._seat(i, spec) for i, spec in enumerate(seats)]
        first_human = next((s for s in made if s.kind == HUMAN), None)
        if first_human is not None:
            first_human.holder, first_human.name = holder, clean_name(name)
        for limit in (clock.move_seconds, clock.game_seconds):
            if limit is not None and not MIN_CLOCK <= limit <= MAX_CLOCK:
                raise RefusedError(
                    422, f"a time limit is {MIN_CLOCK:g} seconds to {MAX_CLOCK / 3600:g} hours"
                )
        table = LiveTable(
            secrets.token_urlsafe(9),
            game_name,
            options,
            secrets.randbits(62),
            made,
            [],
            clock,
            rated,
            hints,
            owner=holder,
        )
        table.made_from = made_from
        table.draw()
        await self._write(self.store.create, table)
        self._keep(table)
        self._next(table)
        return table, None if first_human is None else first_human.index

    @staticmethod
    def _seat(index: int, spec: Mapping[str, Any]) -> Seat:
        kind = spec.get("kind")
        token = secrets.token_urlsafe(16)
        if kind == HUMAN:
            return Seat(index, HUMAN, None, None, None, token)
        if kind == BOT:
            return Seat(index, BOT, checked_bot(spec.get("bot", "medium")), None, None, token)
        raise RefusedError(422, f"seat {index}: kind is 'human' or 'bot', not {kind!r}")

    async def get(self, table_id: str) -> LiveTable:
        if not could_be_id(table_id, TABLE_ID_LIMIT):
            raise RefusedError(404, "no table has this id")  # not worth asking the database
        table = self.live.get(table_id)
        if table is not None:
            self.live.move_to_end(table_id)
            return table
        loaded = await asyncio.to_thread(self.store.load, table_id)
        if loaded is None:
            raise RefusedError(404, f"no table {table_id!r}")
        table = self.live.get(table_id)  # another request may have loaded it meanwhile
        if table is None:
            table = loaded
            self._keep(table)
        return table

    def _keep(self, table: LiveTable) -> None:
        """Hold `table` in memory, and let go of the least recently used finished tables
        beyond KEPT_FINISHED. A table being reviewed is kept (its review is written to the
        object in memory); nothing changes a finished table under its lock, so its lock goes
        with it."""
        self.live[table.id] = table
        idle = [t for t in self.live.values() if t.finished and not t.reviewing]
        for old in idle[: max(0, len(idle) - KEPT_FINISHED)]:
            del self.live[old.id]
            lock = self.locks.get(old.id)
            if lock is not None and not lock.locked():
                del self.locks[old.id]

    async def _write(self, work: Callable[..., T], *args: Any) -> T:
        """Run a database write on the one writer thread: writes queue in order instead of
        contending for the database's lock (SQLite sleeps and retries when it is taken)."""
        with self.metrics.writing(work.__name__):
            return await asyncio.get_running_loop().run_in_executor(self.writer, work, *args)

    async def settled(self, table_id: str) -> LiveTable:
        """The table once no change of it is being committed, for views: a reader is never
        shown a move that is not stored yet (and could still be rolled back)."""
        await self.get(table_id)  # an unknown table is refused before a lock is made for it
        async with self.lock(table_id):
            return await self.current(table_id)  # reloaded if the commit failed

    async def current(self, table_id: str) -> LiveTable:
        """The table as stored now (call under its lock): on a shared database, one another
        process changed since it was loaded here is loaded again."""
        table = await self.get(table_id)
        if self.jobs is not None:
            stored = await asyncio.to_thread(self.store.changes, table_id)
            if stored != table.changes:
                changed = await asyncio.to_thread(self.store.since, table)
                if changed is not None:
                    catch_up(table, changed)  # here, in the loop: no view sees it half done
                else:
                    loaded = await asyncio.to_thread(self.store.load, table_id)
                    if loaded is None:
                        raise RefusedError(404, f"no table {table_id!r}")
                    self.live[table_id] = table = loaded  # replaced, never missing meanwhile
        return table

    async def _retried(self, change: Callable[[], Awaitable[T]]) -> T:
        """`change()`, checked again while another process's write got there first (the
        failed commit dropped the table from memory: it is read again)."""
        for _ in range(STALE_RETRIES - 1):
            try:
                return await change()
            except StaleError:
                continue
        return await change()

    def lock(self, table_id: str) -> asyncio.Lock:
        return self.locks.setdefault(table_id, asyncio.Lock())

    async def join(
        self, table_id: str, holder: str, name: Any, token: str | None, index: int | None
    ) -> int:
        """Seat `holder`: at the seat of the invite `token`, or at `index`, or at the first free
        human seat. A holder already seated keeps its seat."""
        return await self._retried(lambda: self._join(table_id, holder, name, token, index))

    async def _join(
        self, table_id: str, holder: str, name: Any, token: str | None, index: int | None
    ) -> int:
        await self.get(table_id)
        async with self.lock(table_id):
            table = await self.current(table_id)
            mine = table.seat_of(holder)
            if mine is not None:
                return mine
            kept_index = table.kept_for(holder)
            kept = None if kept_index is None else table.seats[kept_index]
            seat = kept or self._free_seat(table, token, index)
            # a kept seat keeps its name unless another is given
            named = seat.name if kept is not None and name is None else clean_name(name)
            seat.holder, seat.name = holder, named
            if table.status == RUNNING:
                table.start_clocks()  # the last seat: the game starts now
            await self._commit_seat(table, seat)
        await self.hub.broadcast(table)
        self._next(table)
        return seat.index

    @staticmethod
    def _free_seat(table: LiveTable, token: str | None, index: int | None) -> Seat:
        if table.status == FINISHED:
            raise RefusedError(409, "the game is over")
        if token is not None:
            if not could_be_id(token, TOKEN_LIMIT):  # compare_digest takes only ASCII
                raise RefusedError(404, "this invitation is not for this table")
            seat = next((s for s in table.seats if secrets.compare_digest(s.token, token)), None)
            if seat is None:
                raise RefusedError(404, "this invitation is not for this table")
        elif index is not None:
            if not 0 <= index < len(table.seats):
                raise RefusedError(422, f"there is no seat {index}")
            seat = table.seats[index]
        else:
            free = [s for s in table.seats if s.kind == HUMAN and s.holder is None]
            seat = next((s for s in free if s.reserved is None), None)
            if seat is None and free:
                kept = " and ".join(str(s.name) for s in free)
                raise RefusedError(409, f"this rematch's free seats are kept for {kept}")
            if seat is None:
                raise RefusedError(409, "every seat is taken")
        if seat.kind != HUMAN or seat.holder is not None:
            raise RefusedError(409, f"seat {seat.index + 1} is taken")
        if seat.reserved is not None:
            raise RefusedError(409, f"seat {seat.index + 1} is kept for {seat.name}, for a rematch")
        return seat

    async def _commit_seat(self, table: LiveTable, seat: Seat) -> None:
        try:
            await self._write(self.store.save_seat, table, seat)
        except BaseException:
            self.live.pop(table.id, None)  # reload from what is stored
            raise

    async def stand_in(
        self, table_id: str, holder: str | None, index: int, bot: str | None
    ) -> None:
        """Have `bot` play seat `index` for its holder (None: the holder takes it back). The
        holder may do either at any time; another seated person may put a stand-in on a seat
        whose holder has no connection open to the table (they left)."""
        await self._retried(lambda: self._stand_in(table_id, holder, index, bot))

    async def _stand_in(
        self, table_id: str, holder: str | None, index: int, bot: str | None
    ) -> None:
        await self.get(table_id)
        async with self.lock(table_id):
            table = await self.current(table_id)
            if not 0 <= index < len(table.seats) or table.seats[index].kind != HUMAN:
                raise RefusedError(422, f"seat {index} is not a person's seat")
            seat = table.seats[index]
            if table.finished:
                raise RefusedError(409, "the game is over")
            own = holder is not None and seat.holder == holder
            if bot is None:
                if not own:
                    raise RefusedError(403, "only the seat's holder takes it back")
            elif not own:
                if table.seat_of(holder) is None:
                    raise RefusedError(403, "only people seated at this table can do this")
                if seat.holder is None or self.hub.connected(table_id, seat.holder):
                    raise RefusedError(409, "its holder is still here")
            if bot is None:
                seat.stand_in = None
            else:
                seat.stand_in = checked_bot(bot) if own else STAND_IN_BOT
            await self._commit_seat(table, seat)
        await self.hub.broadcast(table)
        self._next(table)

    async def hint(self, table_id: str, holder: str | None) -> list[dict[str, Any]]:
        """The analyst's estimate of every legal action of the caller's seat, searched from
        that seat's view only (tables with hints on)."""
        table = await self.get(table_id)
        if not table.hints:
            raise RefusedError(403, "hints are off at this table")
        seat = table.seat_of(holder)
        if seat is None or table.to_act != seat or table.status != RUNNING:
            raise RefusedError(409, "hints are for the seat whose turn it is")
        if table.seats[seat].stand_in is not None:
            raise RefusedError(409, "a bot plays for you: take your seat back first")
        if self.jobs is not None:
            return await self._asked_advice(table, str(holder))
        moves = [action for _, action in table.actions]
        advice: list[dict[str, Any]] = await self.bots.analysis.run(
            str(holder),
            f"hint {table.id}@{table.version}",
            hint,
            table.game_name,
            table.options,
            moves,
            self.analysts.spec(table.game_name),
            str(table.seed),
        )
        return advice

    async def _asked_advice(self, table: LiveTable, key: str) -> list[dict[str, Any]]:
        """The hint at the table's decision now, from the shared queue's workers: kept once
        made, so asking again (anywhere) answers at once."""
        assert self.jobs is not None
        at = (table.id, table.version)
        event = self.advice.setdefault(at, asyncio.Event())
        try:
            found = await asyncio.to_thread(self.store.advice, *at)
            if found is None:
                await self.jobs.ask_hint(table, key)
                try:
                    async with asyncio.timeout(ADVICE_SECONDS):
                        while found is None:
                            await event.wait()
                            event.clear()
                            found = await asyncio.to_thread(self.store.advice, *at)
                except TimeoutError:
                    raise RefusedError(503, "the analysts are busy: ask again later") from None
        finally:
            self.advice.pop(at, None)
        return found

    async def start_review(self, table_id: str, holder: str | None = None) -> LiveTable:
        """Grade every decision of a finished game (in the background, in the share of
        `holder`, the one who asks); the table (as stored: another process may have
        finished it a moment ago)."""
        table = await self.settled(table_id)
        if not table.finished:
            raise RefusedError(409, "a game is reviewed once it is over")
        if table.review is None and not table.reviewing:
            table.reviewing = True
            if self.jobs is not None:
                await self.jobs.ask_review(table, holder or table.share)
            else:
                self._spawn(self._review(table, holder or table.share))
        return table

    async def _review(self, table: LiveTable, key: str) -> None:
        try:
            moves = [action for _, action in table.actions]
            table.review = await self.bots.analysis.run(
                key,
                f"review {table.id}",
                review,
                table.game_name,
                table.options,
                moves,
                self.analysts.spec(table.game_name),
                str(table.seed),
            )
            await self._write(self.store.save_review, table)
        except Exception:
            log.exception("the review of table %s failed", table.id)
        finally:
            table.reviewing = False
        await self.hub.broadcast(table)

    async def upload(self, record: Any) -> LiveTable:
        """A finished table made from an uploaded record, to replay and review it."""
        try:
            replayed = replay_record(record)
        except KingdomkitError as error:
            raise RefusedError(422, f"this record cannot be read: {error}") from None
        game = replayed.game
        if not game.is_terminal(replayed.final_state):
            raise RefusedError(422, "the record's game is not finished")
        pairs, state = [], game.initial_state()
        for action in replayed.actions:
            pairs.append((game.current_player(state), action))
            state = game.apply(state, action)
        # cut rather than refused when long: `kingdomkit simulate` names seats by bot spec
        names = [
            clean_text(name, f"the record's name of seat {i}", NAME_LIMIT, cut=True)
            for i, name in enumerate(record["players"])
        ]
        seats = [
            Seat(i, HUMAN, None, name, RECORD_HOLDER, secrets.token_urlsafe(16))
            for i, name in enumerate(names)
        ]
        table = LiveTable(
            secrets.token_urlsafe(9),
            record["game"],
            dict(record["options"]),
            secrets.randbits(62),
            seats,
            pairs,
        )
        await self._write(self.store.create, table)
        self._keep(table)
        return table

    async def adopt(self, old: str, new: str) -> None:
        """A guest signed in: the seats of their guest identity are their account's now."""
        await self._write(self.store.adopt, old, new)
        for table in list(self.live.values()):
            if any(old in (seat.holder, seat.reserved) for seat in table.seats):
                self.live.pop(table.id, None)  # read again: its change count moved on
        for table in self.live.values():
            for seat in table.seats:
                if seat.holder == old:
                    seat.holder = new
                if seat.reserved == old:
                    seat.reserved = new

    async def listing(self, status: str | None, holder: str | None) -> list[dict[str, Any]]:
        """The lobby's tables, `holder`'s first, those waiting for `holder` to move first of
        all (marked `your_turn`)."""
        rows = await asyncio.to_thread(self.store.listing, status, holder)
        for row in rows:
            table = self.live.get(row["table"])
            if table is None and row["you"] is not None and row["status"] == RUNNING:
                try:
                    table = await self.get(row["table"])
                except RefusedError:
                    table = None
            row["your_turn"] = bool(
                row["you"] is not None
                and table is not None
                and table.status == RUNNING
                and table.to_act == row["you"]
                and table.seats[row["you"]].holder == holder
                and table.seats[row["you"]].stand_in is None
            )
        return sorted(rows, key=lambda row: (row["you"] is None, not row["your_turn"]))

    async def cancel(self, table_id: str, holder: str | None) -> None:
        """Withdraw an open table at the asking of the person who made it: nobody has played
        on it yet, and it no longer counts against their limit of unfinished tables."""
        await self._retried(lambda: self._cancel(table_id, holder))

    async def _cancel(self, table_id: str, holder: str | None) -> None:
        await self.get(table_id)
        async with self.lock(table_id):
            table = await self.current(table_id)
            if holder is None or table.owner != holder:
                raise RefusedError(403, "only the player who made this table can cancel it")
            if table.status != OPEN:
                over = "is over" if table.finished else "has begun"
                raise RefusedError(
                    409, f"the game {over}: only a table still waiting for players can be cancelled"
                )
            unlinked = await self._withdraw(table, "cancelled")
        self._forget_lock(table_id)
        await self._show_stored(unlinked)

    def _forget_lock(self, table_id: str) -> None:
        """Drop the lock of a table gone from memory, once nobody holds or awaits it."""
        lock = self.locks.get(table_id)
        if table_id not in self.live and lock is not None and not lock.locked():
            del self.locks[table_id]

    async def withdraw_unplayed(self, minutes: int) -> int:
        """Withdraw the open tables made more than `minutes` ago (their free seats still
        untaken); how many."""
        before = datetime.now(UTC) - timedelta(minutes=minutes)
        withdrawn = 0
        for table_id in await asyncio.to_thread(self.store.open_since, before):
            unlinked: list[str] = []
            with contextlib.suppress(RefusedError, StaleError):  # gone, or taken meanwhile
                await self.get(table_id)
                async with self.lock(table_id):
                    table = await self.current(table_id)
                    if table.status == OPEN:
                        unlinked = await self._withdraw(table, "unplayed")
                        withdrawn += 1
                self._forget_lock(table_id)
            await self._show_stored(unlinked)
        return withdrawn

    async def keep_tidy(self, minutes: int) -> None:
        """Withdraw the open tables that waited `minutes` for their players, looking every
        tenth of that (at most every TIDY_SECONDS); 0: never."""
        if minutes <= 0:
            return
        while True:
            try:
                withdrawn = await self.withdraw_unplayed(minutes)
                if withdrawn:
                    log.info(
                        "withdrew %d open tables nobody joined in %d minutes", withdrawn, minutes
                    )
            except Exception:
                log.exception("could not withdraw the open tables that waited too long")
            await asyncio.sleep(min(TIDY_SECONDS, minutes * 6.0))

    async def _withdraw(self, table: LiveTable, why: str) -> list[str]:
        """Delete open `table` (call under its lock) and tell its pages why; the finished
        tables whose rematch it was, forgotten here, to show once the lock is let go."""
        try:
            unlinked = await self._write(self.store.withdraw, table, why)
        except BaseException:
            self.live.pop(table.id, None)  # reload from what is stored
            raise
        self._gone(table.id, why)
        for old, _ in unlinked:
            self.live.pop(old, None)
        return [old for old, _ in unlinked]

    def _gone(self, table_id: str, why: str) -> None:
        """Forget a withdrawn table and tell its pages why."""
        self.live.pop(table_id, None)
        self.hub.tell(table_id, {"type": "gone", "detail": GONE.get(why, GONE["cancelled"])})

    async def _show_stored(self, table_ids: Sequence[str]) -> None:
        """Show tables as stored to the pages open on them (under their own locks)."""
        for table_id in table_ids:
            if table_id in self.hub.connections:
                with contextlib.suppress(RefusedError):
                    await self.hub.broadcast(await self.settled(table_id))

    async def counted(self, holder: str) -> Mapping[str, LiveTable]:
        """The tables the limits on unfinished tables count for `holder`: those in memory,
        and on a shared database those of `holder` that other processes made too."""
        if self.jobs is None:
            return self.live
        found: dict[str, LiveTable] = dict(self.live)
        for table_id in await asyncio.to_thread(self.store.unfinished, holder):
            if table_id not in found:
                with contextlib.suppress(RefusedError):
                    found[table_id] = await self.get(table_id)
        return found

    async def unfinished_from(self, made_from: str) -> int:
        """How many unfinished tables were made from the address of digest `made_from` (by
        every process: counted in the database)."""
        return await asyncio.to_thread(self.store.unfinished_from, made_from)

    async def rematch(
        self,
        table_id: str,
        holder: str | None,
        allow: Callable[[], None],
        made_from: str | None = None,
    ) -> str:
        """The rematch of a finished table, proposed by one of its players: a new table with
        the same game, options, seats (the bots the same, each person's seat kept for them),
        clock, rating and hints; the proposer sits down at once. Made once: asked again, by
        anyone seated, it is the same table. `allow` checks the proposer's limits before a
        table is made (raises); `made_from` is where the proposer asks from, as in `create`."""
        return await self._retried(lambda: self._rematch(table_id, holder, allow, made_from))

    async def _rematch(
        self, table_id: str, holder: str | None, allow: Callable[[], None], made_from: str | None
    ) -> str:
        await self.get(table_id)
        async with self.lock(table_id):
            table = await self.current(table_id)
            mine = table.seat_of(holder)
            if mine is None or holder is None or table.seats[mine].kind != HUMAN:
                raise RefusedError(
                    403, "only the people who played this game can ask for a rematch"
                )
            if table.rematch is not None:
                return table.rematch
            if not table.finished:
                raise RefusedError(409, "a rematch is proposed once the game is over")
            allow()
            seats = [
                Seat(
                    s.index,
                    s.kind,
                    s.bot,
                    s.name,
                    holder if s.holder == holder else None,
                    secrets.token_urlsafe(16),
                    reserved=s.holder if s.kind == HUMAN and s.holder != holder else None,
                )
                for s in table.seats
            ]
            again = LiveTable(
                secrets.token_urlsafe(9),
                table.game_name,
                dict(table.options),
                secrets.randbits(62),
                seats,
                [],
                table.clock,
                table.rated,
                table.hints,
                owner=holder,
            )
            again.made_from = made_from
            again.draw()
            table.rematch, table.rematch_by = again.id, mine
            try:
                await self._write(self.store.create, again, table)
            except BaseException:
                table.rematch = table.rematch_by = None
                self.live.pop(table.id, None)
                raise
            self._keep(again)
        await self.hub.broadcast(table)
        self._next(again)
        return again.id

    # -- chat ------------------------------------------------------------------------------
    async def say(
        self, table_id: str, holder: str | None, name: str | None, text: str
    ) -> dict[str, Any]:
        """Store and send to everyone at the table a chat message of `holder` (its text
        already cleaned); the message. RefusedError if they may not write."""
        table = await self.get(table_id)
        seat, shown = speaker(table, holder, name)
        assert holder is not None
        row = await asyncio.get_running_loop().run_in_executor(
            self.writer, self.store.say, table.id, seat, author_key(holder), shown, text
        )
        said = message(row)
        self.hub.tell(table.id, {"type": "chat", "message": said})
        return said

    async def chat(self, table_id: str) -> list[dict[str, Any]]:
        """The table's last chat messages, oldest first."""
        table = await self.get(table_id)
        rows = await asyncio.to_thread(self.store.chat, table.id, CHAT_SHOWN)
        return [message(row) for row in rows]

    def view(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """The table as `seat` sees it, with which seats' holders are here (have the table
        open): a bot may be put on a person's seat only once they have left."""
        return {**table.view(seat), "here": self.hub.here(table)}

    # -- playing ---------------------------------------------------------------------------
    async def act(self, table_id: str, holder: str | None, action: Any, version: Any) -> int:
        """Play a person's action; the new version. Raises RefusedError with the reason."""
        return await self._retried(lambda: self._act(table_id, holder, action, version))

    async def _act(self, table_id: str, holder: str | None, action: Any, version: Any) -> int:
        await self.get(table_id)
        async with self.lock(table_id):
            # Checked against the table held here, kept up to date by the notifications:
            # asking the database first cost a query per move. A refusal is checked again
            # against the stored table (a notification may be on its way), and a table
            # changed meanwhile fails the commit and is checked anew (`_retried`).
            table = await self.get(table_id)
            try:
                checked = table.check(table.seat_of(holder), action, version)
            except RefusedError:
                if self.jobs is None:
                    raise
                table = await self.current(table_id)
                checked = table.check(table.seat_of(holder), action, version)
            await self._commit_play(table, checked)
        await self.hub.broadcast(table)
        self._next(table)
        return table.version

    async def _commit_play(self, table: LiveTable, action: int, by: str | None = None) -> None:
        start = table.version
        table.play(action, by)
        try:
            await self._write(self.store.append, table, start)
        except BaseException:
            self.live.pop(table.id, None)
            raise
        self.metrics.accepted(table.game_name)

    def _next(self, table: LiveTable) -> None:
        """If a bot is to move at `table`, have it move; if a person with a clock, start the
        timer that has a bot move for them when their time runs out (in the background)."""
        if table.status != RUNNING:
            return
        if self.jobs is not None:
            self._spawn(self.jobs.plan(table))
            return
        seat = table.seats[table.to_act]
        if seat.driver is not None:
            by = STAND_IN if seat.kind == HUMAN else None
            self._spawn(self._bot_turn(table.id, table.version, seat.driver, seat.driver, by))
        elif table.clock.on:
            self._spawn(self._timer(table.id, table.version, table.time_left()))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _timer(self, table_id: str, version: int, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))
        table = await self.get(table_id)
        if table.version == version and table.status == RUNNING:
            log.info("time ran out at table %s, version %d", table_id, version)
            await self._bot_turn(table_id, version, TIMEOUT_BOT, None, CLOCK)

    async def _bot_turn(
        self, table_id: str, version: int, bot: str, driver: str | None, by: str | None = None
    ) -> None:
        """`bot` plays the decision at `version` if, once it has chosen, the table is still
        there and its seat is still played by `driver` (the seat's bot or stand-in; None for
        a person out of time): a person who took their seat back meanwhile keeps it. `by`
        marks the move as a stand-in's or the clock's."""
        table = await self.get(table_id)
        if table.version != version:
            return
        moves = [action for _, action in table.actions]
        try:
            action = await self.bots.move(
                table.game_name,
                table.options,
                moves,
                bot,
                table.bot_seed(),
                table.share,
                f"move {table_id}@{version}",
                lambda: self._due(table_id, version, driver),
            )
        except DroppedError:
            return  # the table moved on while the move waited for a worker
        except Exception:
            log.exception("bot %s failed at table %s", bot, table_id)
            return
        async with self.lock(table_id):
            table = await self.get(table_id)
            if not self._due(table_id, version, driver):
                return  # someone moved meanwhile, or the seat changed hands
            try:
                await self._commit_play(table, action, by)
            except StaleError:  # (changed by a guest's sign-in): look again
                self._next(await self.get(table_id))
                return
        await self.hub.broadcast(table)
        self._next(table)

    def _due(self, table_id: str, version: int, driver: str | None) -> bool:
        """Is the move at `version` of a table in memory still to be played by `driver`?"""
        table = self.live.get(table_id)
        return table is not None and table.awaits(version, driver)

    async def resume(self) -> int:
        """After a start: load every unfinished table and let its bots move; how many. (On a
        shared database the workers' sweep finds what waits: nothing is loaded here.)"""
        if self.jobs is not None:
            return 0
        ids = await asyncio.to_thread(self.store.unfinished)
        resumed = 0
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except RefusedError as refused:  # played under other rules: kept, not resumed
                log.warning("table %s is not resumed: %s", table_id, refused)
                continue
            self._next(table)
            resumed += 1
        return resumed

    # -- other processes -------------------------------------------------------------------
    async def heard(self, origin: str, kind: str, parts: list[str]) -> None:
        """A notification of a change another process committed (fanout.py), or of who
        has a table open there (presence.py)."""
        if origin != self.store.origin:
            self.presence.heard(origin)
        if kind in ("here", "hello", "alive", "sockets"):
            if origin != self.store.origin:
                await self._present_elsewhere(origin, kind, parts)
        elif kind == "table":
            await self._changed_elsewhere(parts[0], int(parts[1]))
        elif kind == "chat" and origin != self.store.origin and parts[0] in self.hub.connections:
            row = await asyncio.to_thread(self.store.said, int(parts[1]))
            if row is not None:
                self.hub.tell(parts[0], {"type": "chat", "message": message(row)})
        elif kind == "session" and origin != self.store.origin:
            if self.ended is not None:
                self.ended(parts[0])
            await self.hub.close_session(parts[0])
        elif kind == "gone" and origin != self.store.origin:
            self._gone(parts[0], parts[1])
        elif kind == "advice":
            event = self.advice.get((parts[0], int(parts[1])))
            if event is not None:
                event.set()

    async def _changed_elsewhere(self, table_id: str, changes: int) -> None:
        """Read again a table changed by another process, if this one holds it or has
        sockets on it, and show it to those sockets."""
        held = self.live.get(table_id)
        if held is None and table_id not in self.hub.connections:
            return
        if held is not None and held.changes >= changes:
            return  # this process's own change, or an older one
        async with self.lock(table_id):
            table = await self.current(table_id)
        await self.hub.broadcast(table)

    def _announce(self, table_id: str, holder: str, here: bool) -> None:
        """Tell the other processes a holder opened (or closed) the table here."""
        self._spawn(self._told("here", table_id, holder, int(here)))

    async def _told(self, *parts: object) -> None:
        """NOTIFY `parts`, after every announcement asked before it: each is sent from a
        thread of its own, and a later count must not overtake an earlier one (the lock
        lets its waiters in the order they came)."""
        async with self.telling:
            await asyncio.to_thread(self.store.announce, *parts)

    def share_sockets(self, guard: Guard) -> None:
        """Have `guard`'s limits on WebSockets open count every process's (presence.py):
        this process tells the others its counts as they change, and hears theirs."""
        self.guard = guard
        guard.sockets_elsewhere = self.presence.sockets_of
        guard.sockets_changed = self._announce_sockets

    def _announce_sockets(self, counts: Mapping[str, int]) -> None:
        """Tell the other processes this one's new counts of open WebSockets (one NOTIFY)."""
        pairs = [str(part) for item in counts.items() for part in item]
        self._spawn(self._told("sockets", *pairs))

    async def _present_elsewhere(self, origin: str, kind: str, parts: list[str]) -> None:
        if kind == "here":
            self.presence.mark(origin, parts[0], parts[1], parts[2] == "1")
            await self._show_presence({parts[0]})
        elif kind == "sockets":  # key count, key count...
            for key, count in zip(parts[::2], parts[1::2], strict=True):
                self.presence.count(origin, key, int(count))
        elif kind == "hello":  # a process started: what this one holds, again
            for table_id, sockets in list(self.hub.connections.items()):
                for holder in {c.holder for c in sockets.values() if c.holder is not None}:
                    self._announce(table_id, holder, True)
            if self.guard is not None and self.guard.sockets:
                self._announce_sockets(dict(self.guard.sockets))

    async def _show_presence(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            table = self.live.get(table_id)
            if table is not None and table_id in self.hub.connections:
                await self.hub.broadcast(table)

    async def keep_presence(self) -> None:
        """Say hello, then that this process is alive, every ALIVE_SECONDS; forget what the
        processes no longer heard of held."""
        await asyncio.to_thread(self.store.announce, "hello")
        while True:
            await asyncio.sleep(ALIVE_SECONDS)
            try:
                await asyncio.to_thread(self.store.announce, "alive")
            except Exception:
                log.warning("could not tell the other processes this one is alive")
            await self._show_presence(self.presence.expire())

    async def lost(self) -> None:
        """Notifications may have been missed: forget every table not being changed, and
        show the stored ones to their sockets; ask the others what they hold again."""
        self.presence.forget()
        await asyncio.to_thread(self.store.announce, "hello")
        for table_id in list(self.live):
            if not self.lock(table_id).locked():
                self.live.pop(table_id, None)
        for table_id in list(self.hub.connections):
            try:
                table = await self.settled(table_id)
            except RefusedError:
                continue
            await self.hub.broadcast(table)

    async def jobs_waiting(self) -> dict[str, tuple[int, float]]:
        """Per job queue: the jobs waiting, and the age in seconds of the oldest (0: none)."""
        if self.jobs is not None:
            return await self.jobs.waiting()
        return self.bots.waiting()

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        self.bots.close()
        self.writer.shutdown(wait=True)  # every accepted write reaches the database
