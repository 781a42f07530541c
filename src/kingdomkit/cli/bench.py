"""kingdomkit bench: the engines' throughput, as medians of several timed runs.

For every game: whole random games through the protocol (the driver with random agents, every
chance node and micro-action included), the same through `simulate`'s code path, the game's
own kernels (its `benchmarks` capability, below: Kingdomino's with its compiled kernel when it
is installed), and the search bots' pure-Python playouts per second from the first decision of
a 4-player game, for every playout policy. A game without benchmarks of its own is measured
through the protocol alone, with its default options and no target. `--rl` times the RL
interfaces, `--bots` the search bots (how many playouts or network leaves a second of search
buys, on which their strength at a time per turn rests).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table

from kingdomkit.bots import RandomBot
from kingdomkit.bots.compiled import compiled
from kingdomkit.bots.playouts import POLICIES, make_policy, playout
from kingdomkit.cli.bench_compare import compare
from kingdomkit.cli.simulate import simulate
from kingdomkit.core.benchmark import CLOCKS, Benchmark, BenchResult, measure
from kingdomkit.core.driver import chance_rng, play
from kingdomkit.core.protocol import TERMINAL, Game
from kingdomkit.core.registry import GAMES, game_info, make_game


class Benchmarks(Protocol):
    """A game's own figures for `kingdomkit bench` (its `benchmarks` capability).

    A game declares them in its shape (`Capabilities(benchmarks=...)`): a provider of no
    argument, which imports them when called, so that only `bench` pays for loading them.
    They are any object with these members; a game's bench module is one as it stands (PEP
    544: a module may implement a protocol, its constants as attributes), and the provider's
    return type has the type checker hold it to this one.
    """

    # The options of the game whose whole random games are timed (protocol and simulate):
    # the figure docs/benchmarks.md follows, so they stay fixed across versions.
    PROTOCOL_OPTIONS: Mapping[str, Any]
    # The random games per second that figure aims at (docs/benchmarks.md), None for none.
    PROTOCOL_TARGET: float | None

    def kernels(self, games: int = ..., passes: int = ...) -> list[Benchmark]:
        """The game's own kernels (where its playouts spend their time), on positions from
        `games` random games played before timing; each timed run goes `passes` times over
        them. The defaults size a run to a tenth of a second or more, so that the clock's and
        the processor's noise do not matter; `--quick` asks for (10, 1). Compiled kernels are
        included when their extra is installed."""


def own_benchmarks(game: str) -> Benchmarks | None:
    """The benchmarks of the game named `game`, None if it has none of its own."""
    provider = game_info(game).capabilities.benchmarks
    return None if provider is None else provider()


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure the engines' throughput",
        description="Measure games per second and kernel throughput; print medians.",
    )
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per figure (default 7)")
    parser.add_argument(
        "--quick", action="store_true", help="small workloads and 1 run (a smoke test)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(GAMES),
        help="this game's figures (repeatable); with no --game, --rl or --bots, everything",
    )
    parser.add_argument(
        "--rl",
        action="store_true",
        help="the RL interfaces' figures (Kingdomino's AEC env and vector env)",
    )
    parser.add_argument(
        "--bots",
        action="store_true",
        help="the search bots' figures (Kingdomino: mcts's playouts and neural's leaves a second)",
    )
    parser.add_argument(
        "--only",
        metavar="TEXT",
        help="only the figures whose name contains TEXT (any case), e.g. 'against greedy'",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="time in wall seconds (default) or in this process's CPU seconds, all threads "
        "counted (steadier on a shared machine)",
    )
    parser.add_argument("--pin", type=int, metavar="CPU", help="run on this processor only (Linux)")
    parser.add_argument(
        "--against",
        metavar="TREE",
        help="compare with another checkout of kingdomkit (its folder or its src folder): "
        "both run the same figures in turn, this one first in even rounds, the other in odd "
        "ones, and the ratios are taken round by round",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --against: bench runs of each tree (default 3)",
    )
    parser.set_defaults(run=run)


def game_benchmarks(name: str, quick: bool) -> list[Benchmark]:
    """Every figure of the game named `name`: whole games, its own kernels, playouts."""
    own = own_benchmarks(name)
    game = make_game(name, own.PROTOCOL_OPTIONS if own is not None else {})
    agents = [RandomBot() for _ in range(game.num_players)]
    games = 20 if quick else 200
    label = f"{name} random {game.num_players}-player games"

    def protocol() -> int:
        for seed in range(games):
            play(game, agents, seed)
        return games

    def via_simulate() -> int:
        simulate(game, agents, ["random"] * game.num_players, games, 0)
        return games

    target = own.PROTOCOL_TARGET if own is not None else None
    kernels = [] if own is None else own.kernels(10, 1) if quick else own.kernels()
    return [
        Benchmark(f"{label} (protocol)", "games", protocol, target),
        Benchmark(f"{label} (simulate)", "games", via_simulate, target),
        *kernels,
        *playout_benchmarks(game, quick),
    ]


def first_decision(game: Game[Any]) -> Any:
    """The state of a game's first decision, chance drawn from seed 0."""
    rng = chance_rng(0)
    state = game.initial_state()
    while game.current_player(state) < 0:
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def playout_benchmarks(game: Game[Any], quick: bool) -> list[Benchmark]:
    """Pure-Python playouts to the end from the first decision, one figure per policy (the
    greedy ones evaluate every move of every player, so they are counted in few playouts)."""
    start = first_decision(game)
    player = game.current_player(start)
    benchmarks = []
    for policy_name in POLICIES:
        policy = make_policy(policy_name, player)
        count = 1 if quick else (100 if policy_name == "random" else 3)

        def work(policy: Any = policy, count: int = count) -> int:
            rng = chance_rng(1)
            for _ in range(count):
                playout(game, start, policy, rng)
            return count

        where = f"first {game.num_players}-player decision"
        name = f"{game.name} python {policy_name} playouts ({where})"
        benchmarks.append(Benchmark(name, "playouts", work))
    return benchmarks


def compiled_playout_benchmarks(
    game: Game[Any],
    accelerator: Any,
    games: int,
    playouts: Mapping[str, int],
    targets: tuple[float | None, float | None],
) -> list[Benchmark]:
    """A compiled kernel's figures (a game's `playouts` capability, bots/compiled.py): whole
    random games from the start, then each policy's playouts from the same first decision as
    `playout_benchmarks`, so that a run compares the two like for like. Each timed run is
    one kernel call, `games` games or `playouts[policy]` playouts; `targets` are those of
    the random games and of the greedy playouts."""
    start = first_decision(game)
    player = game.current_player(start)
    where = f"first {game.num_players}-player decision"
    games_target, greedy_target = targets

    def random_games() -> int:
        accelerator.random_games(games, 1)
        return games

    def policy_playouts(policy: str) -> Benchmark:
        count = playouts[policy]

        def work() -> int:
            accelerator.playouts(start, policy, player, 0.25, count, 1)
            return count

        name = f"{game.name} compiled {policy} playouts ({where})"
        return Benchmark(name, "playouts", work, greedy_target if policy == "greedy" else None)

    name = f"{game.name} compiled random {game.num_players}-player games"
    return [
        Benchmark(name, "games", random_games, games_target),
        *(policy_playouts(policy) for policy in POLICIES),
    ]


SEARCH_OPTIONS: dict[str, dict[str, Any]] = {  # the tables the package ships networks for
    "2 players": {"players": 2},
    "Mighty Duel": {"players": 2, "mighty_duel": True},
    "4 players, Middle Kingdom and Harmony": {
        "players": 4,
        "middle_kingdom": True,
        "harmony": True,
    },
}
SEARCH_SEEDS = (7, 8, 9)  # the positions: 20 random moves into the games of these seeds
SEARCH_MOVES = 20


def search_positions(game: Game[Any]) -> list[Any]:
    """The decisions the search figures start from: SEARCH_MOVES random moves (and every
    draw) into a game of each of SEARCH_SEEDS, past the opening, where every kind of decision
    comes."""
    positions = []
    for seed in SEARCH_SEEDS:
        rng, state, moves = random.Random(seed), game.initial_state(), SEARCH_MOVES
        while True:
            while game.current_player(state) < 0:
                state = game.apply(state, game.sample_chance(state, rng))
            if moves == 0:
                break
            state, moves = game.apply(state, rng.choice(game.legal_actions(state))), moves - 1
        positions.append(state)
    return positions


def search_benchmarks(quick: bool) -> list[Benchmark]:
    """The search bots' speed in Kingdomino: `mcts`'s playouts and `neural`'s evaluations
    (with the network shipped for each table, one greedy playout a leaf as it plays by
    default, leaves one at a time and in batches of eight) per second, each figure a search
    of a fixed budget at each of three positions, with a new bot (no tree reused). The
    strength of a search at a time per turn follows from these (docs/strength.md). The
    `neural` figures need numpy (the `fast` extra), and are left out without it."""
    from kingdomkit.bots import make_bot

    budget = 40 if quick else 600
    specs = [("2 players", "mcts", f"mcts:playouts={budget * 4}", "playouts")]
    try:
        from kingdomkit.bots.network import ships_networks

        neural = ships_networks()
    except ImportError:
        neural = False
    if neural:
        specs += [
            (table, f"neural batch={batch}", f"neural:playouts={budget}:batch={batch}", "leaves")
            for table in SEARCH_OPTIONS
            for batch in (1, 8)
        ]
    tables = dict.fromkeys(table for table, _, _, _ in specs)  # without numpy: 2 players only
    games = {table: make_game("kingdomino", SEARCH_OPTIONS[table]) for table in tables}
    starts = {table: search_positions(game) for table, game in games.items()}
    benchmarks = []
    for table, label, spec, unit in specs:
        game, positions = games[table], starts[table]

        def work(game: Game[Any] = game, spec: str = spec, positions: list[Any] = positions) -> int:
            done = 0
            for position in positions:
                bot = make_bot(f"{spec}:reuse=no")
                bot.act(game, position, random.Random(1))
                done += bot.last_iterations  # type: ignore[attr-defined]
            return done

        name = f"kingdomino search: {label}, {table}"
        benchmarks.append(Benchmark(name, unit, work))
    return benchmarks


RL_ENV = "kingdomino rl AEC observe + step (2 players)"
RL_ENGINE = "kingdomino engine steps, the same actions (2 players)"


def rl_benchmarks(quick: bool) -> list[Benchmark]:
    """The RL interface's overhead (issue 7): the same recorded random games stepped through
    the PettingZoo AEC env (observe, then step, for every decision) and through the bare
    engine (legal actions, apply, chance); the difference per step is the overhead. Empty
    when the `rl` extra is not installed."""
    try:
        from kingdomkit.rl import env as make_env
        from kingdomkit.rl.adapter import resolve_chance
    except ImportError:
        return []
    games = 3 if quick else 20
    recorded: list[list[int]] = []
    for seed in range(games):
        environment = make_env("kingdomino", players=2)
        environment.reset(seed=seed)
        pick = random.Random(seed)
        actions = []
        while environment.game.current_player(environment.state) != TERMINAL:
            action = pick.choice(environment.legal)
            actions.append(action)
            environment.step(action)
        recorded.append(actions)

    def through_env() -> int:
        for seed, actions in enumerate(recorded):
            environment = make_env("kingdomino", players=2)
            environment.reset(seed=seed)
            for action in actions:
                environment.observe(environment.agent_selection)
                environment.step(action)
        return sum(len(actions) for actions in recorded)

    game = make_env("kingdomino", players=2).game

    def through_engine() -> int:
        for seed, actions in enumerate(recorded):
            rng = random.Random(seed)
            state = resolve_chance(game, game.initial_state(), rng)
            for action in actions:
                game.legal_actions(state)
                state = resolve_chance(game, game.apply(state, action), rng)
        return sum(len(actions) for actions in recorded)

    return [
        Benchmark(RL_ENV, "steps", through_env),
        Benchmark(RL_ENGINE, "steps", through_engine),
        *vector_benchmarks(quick),
    ]


VECTOR_GAMES = 256
VECTOR_TARGET = 200_000.0


def vector_benchmarks(quick: bool) -> list[Benchmark]:
    """Kingdomino's batched simulator through the Gymnasium vector env, as
    `game_vector_benchmarks` times every game's: 256 two-player games, in self-play and
    against random bots."""
    cases: tuple[VectorCase, ...] = ((2, "self-play", None), (2, "against random", "random"))
    return game_vector_benchmarks("kingdomino", cases, 20 if quick else 400, VECTOR_TARGET)


VectorCase = tuple[int, str, str | None]  # players, label, the opponents' policy (None: self-play)


def game_vector_benchmarks(
    name: str, cases: tuple[VectorCase, ...], steps: int, target: float | None
) -> list[Benchmark]:
    """A game's batched simulator through the Gymnasium vector env (`kingdomkit.rl.vector`):
    256 games stepped at once on every core, with a learner that plays a random legal action
    (a mask times one of 16 fixed noise tables: cheap, so that the figure is the
    environment's), for each case (players, its label, the compiled bots' policy or None for
    self-play). Empty without gymnasium or numba."""
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        return []
    benchmarks = []
    for players, label, opponents in cases:
        if compiled(make_game(name, {"players": players})) is None:
            return []
        title = f"{name} vector env steps, {label} ({players} players, {VECTOR_GAMES} games)"
        work = vector_steps(name, players, opponents, steps)
        benchmarks.append(Benchmark(title, "steps", work, target))
    return benchmarks


def vector_steps(name: str, players: int, opponents: str | None, steps: int) -> Callable[[], int]:
    """The work of one vector env figure. The env is made on its first call (the warm-up,
    not timed), so that a figure `--only` leaves out costs neither its env nor its
    compiling."""
    import numpy as np

    from kingdomkit.rl.vector import KingdomkitVectorEnv

    made: list[tuple[KingdomkitVectorEnv, Any]] = []

    def work() -> int:
        if not made:
            envs = KingdomkitVectorEnv(VECTOR_GAMES, name, opponents, players=players)
            envs.reset(seed=0)
            shape = (16, VECTOR_GAMES, envs.game.num_actions)
            made.append((envs, np.random.default_rng(0).random(shape, np.float32)))
        envs, noise = made[0]
        observation, _ = envs.reset()
        for k in range(steps):
            actions = (observation["action_mask"] * noise[k % 16]).argmax(1)
            observation = envs.step(actions)[0]
        return steps * VECTOR_GAMES

    return work


def rl_overhead(results: list[BenchResult]) -> float | None:
    """Microseconds the AEC env adds to one step of the engine (medians), if measured."""
    rates = {r.name: r.median for r in results}
    if RL_ENV not in rates or RL_ENGINE not in rates:
        return None
    return 1e6 * (1.0 / rates[RL_ENV] - 1.0 / rates[RL_ENGINE])


def selected(games: list[str] | None, rl: bool, bots: bool) -> tuple[list[str], bool, bool]:
    """The games to measure and whether to measure the RL and the search bots' figures: what
    was named, or everything when nothing was (so a short run can measure one part)."""
    if not games and not rl and not bots:
        return sorted(GAMES), True, True
    return sorted(games or []), rl, bots


def run(args: argparse.Namespace) -> int:
    if args.against is not None:
        return compare(args)
    if args.pin is not None:
        try:
            os.sched_setaffinity(0, {args.pin})
        except (AttributeError, OSError, ValueError) as error:
            print(f"kingdomkit bench: cannot pin to processor {args.pin}: {error}", file=sys.stderr)
            return 2
    repeats = 1 if args.quick else max(1, args.repeats)
    games, rl, bots = selected(args.game, args.rl, args.bots)
    chosen = [
        *(benchmark for name in games for benchmark in game_benchmarks(name, args.quick)),
        *(rl_benchmarks(args.quick) if rl else []),
        *(search_benchmarks(args.quick) if bots else []),
    ]
    if args.only is not None:
        chosen = [b for b in chosen if args.only.casefold() in b.name.casefold()]
        if not chosen:
            print(f"kingdomkit bench: no figure's name contains {args.only!r}", file=sys.stderr)
            return 2
    results = [measure(benchmark, repeats, args.clock) for benchmark in chosen]
    overhead = rl_overhead(results)
    machine = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": _cpu_name(),
        "repeats": repeats,
        "clock": args.clock,
        "pinned": args.pin,
    }
    if args.json:
        derived = {} if overhead is None else {"rl_overhead_microseconds_per_step": overhead}
        report = {"machine": machine, "results": [r.to_json() for r in results], **derived}
        print(json.dumps(report, indent=1))
        return 0
    per = "CPU second" if args.clock == "cpu" else "second"
    table = Table(title=f"kingdomkit bench (median of {repeats} runs a {per}, one process)")
    for heading in ("benchmark", "per second (median)", "target"):
        table.add_column(heading, justify="left" if heading == "benchmark" else "right")
    for result in results:
        target = f"{result.target:,.0f}" if result.target else ""
        median = f"{result.median:,.0f}" if result.median >= 100 else f"{result.median:.3g}"
        table.add_row(result.name, f"{median} {result.unit}", target)
    console = Console(file=sys.stdout)
    console.print(table)
    if overhead is not None:
        console.print(
            f"RL interface overhead: {overhead:.1f} microseconds per observe + step "
            "(the AEC env's time per step minus the engine's, medians; target at most 50)"
        )
    console.print(f"Python {machine['python']} on {machine['processor']}")
    return 0


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
