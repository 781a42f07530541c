"""The web platform: play every game in a browser, with friends or bots (`kingdomkit serve`).

Written once against the game protocol: the server holds each table's actions (the
authoritative state is their replay), samples chance from a per-table seed that never leaves
it, sends every seat only its own view, and has bots play in worker processes.

    models.py     the database tables (SQLAlchemy), migrated by Alembic (migrations/)
    database.py   opening a database and bringing its schema up to date
    store.py      reading and writing tables, seats and actions
    live.py       one table in play: its state, the checks on an action, the views
    board.py      what the browser draws of a game: its board capability, or the text board
    bots.py       what a bot worker process runs: moves, hints, reviews
    scheduler.py  the worker lanes (play, analysis), a queue per identity served in turn
    hub.py        the WebSocket connections of each table, each with its own send queue
    service.py    the lobby and the tables: creating, joining, acting, bots' turns
    text.py       text that people type: what a name may hold, look-alike keys
    limits.py     what one visitor may ask: body sizes, rates and counts (429, 413)
    sessions.py   signed-in sessions the server can end (logout, password change)
    guard.py      the edge against other sites: origins, security headers
    metrics.py    monitoring: /health for a load balancer, /metrics for Prometheus
    logs.py       the server's own log lines: their format, shown on standard error
    accounts.py   accounts, passwords (Argon2 on threads of their own) and their checks
    ratings.py    Elo per game, by sides
    floodtest.py  the flood benchmark of `kingdomkit loadtest --flood`
    loadtest.py   `kingdomkit loadtest`: many tables of people at once
    api.py        the HTTP and WebSocket routes; app.py builds the application
"""
