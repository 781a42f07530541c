"""Tournaments between bots: schedules, paired deals, statistics, ratings and charts.

    schedule.py    line-ups, rotations and deals: which bots play which game from which seed
    outcome.py     one game played from its schedule entry (in any worker) and its outcome
    runner.py      where games are played: this process, local processes, a Ray cluster
    store.py       the output directory: arena.json, games.jsonl appended as games end, resume
    stats.py       win rate, score, margin with 95% intervals over deals; Bradley-Terry ratings
    report.py      results.json, results.csv, games.csv, ratings.png, scores.png
    tournament.py  all of it in order (what `kingdomkit arena` runs)

The schedule in a sentence: a *line-up* is one bot spec per seat, a *deal* is a seed, and each
deal is played once per rotation of every line-up; a round robin has a match for every pair
of bots, a gauntlet one for every (candidate, opponent), and with more than two players a
line-up is one bot against players-1 copies of the other; a table is one line-up as given.
numpy, matplotlib and Ray (the `arena` extra) are imported only when a tournament needs them.
"""
