"""The web platform: play every game in a browser, with friends or bots (`kingdomkit serve`).

Written once against the game protocol: the server holds each table's actions (the
authoritative state is their replay), samples chance from a per-table seed that never leaves
it, sends every seat only its own view, and has bots play in worker processes.

    models.py     the database tables (SQLAlchemy), migrated by Alembic (migrations/)
    database.py   opening a database and bringing its schema up to date
    store.py      reading and writing tables, seats and actions
    live.py       one table in play: its state, the checks on an action, the views
    bots.py       bot moves in worker processes
    hub.py        the WebSocket connections of each table
    service.py    the lobby and the tables: creating, joining, acting, bots' turns
    limits.py     what one visitor may ask: body sizes, rates and counts (429, 413)
    api.py        the HTTP and WebSocket routes; app.py builds the application
"""
