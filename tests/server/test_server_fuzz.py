"""The HTTP API fuzzed from its own OpenAPI description (schemathesis): whatever the input,
the server answers with a clear 2xx or 4xx, never a 5xx. The server is a real uvicorn in a
thread, on SQLite and on PostgreSQL (which refuses what SQLite stores: NUL in text).

Besides what schemathesis draws (NUL included), half of the strings it generates, and the
keys of the objects, get a hostile character put in: NUL, a lone surrogate (in bodies: a URL
cannot carry one), C0 and C1 controls, DEL, a zero-width joiner, a bidi override, a byte-order
mark, a private-use character.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from kingdomkit.server.app import ServerConfig, create_app
from postgres import PostgresServer
from system import free_port

EXAMPLES = 15  # generated requests per route
IN_URLS = "\x00\x01\x1b\x7f\x85\u200d\u202e\ufeff\ue000"  # hostile and encodable in a URL
IN_BODIES = IN_URLS + "\ud800\udfff"  # and lone surrogates, as JSON escapes


def spoiled(value: Any, hostile: str, keys: bool = True) -> st.SearchStrategy[Any]:
    """`value` as generated, or with a character of `hostile` put into its strings, at every
    depth, and into the keys of its objects (if `keys`)."""
    if isinstance(value, str):
        put = st.builds(
            lambda char, at: value[:at] + char + value[at:],
            st.sampled_from(hostile),
            st.integers(0, len(value)),
        )
        return st.one_of(st.just(value), put)
    if isinstance(value, list):
        return st.tuples(*(spoiled(item, hostile) for item in value)).map(list)
    if isinstance(value, dict):
        pairs = (
            st.tuples(spoiled(k, hostile) if keys else st.just(k), spoiled(v, hostile))
            for k, v in value.items()
        )
        return st.tuples(*pairs).map(dict)
    return st.just(value)


def characters(value: Any) -> set[str]:
    """Every character of the strings in `value`, keys of objects too."""
    if isinstance(value, str):
        return set(value)
    if isinstance(value, dict):
        return characters(list(value)) | characters(list(value.values()))
    if isinstance(value, list):
        return set().union(*(characters(item) for item in value))
    return set()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    database = f"sqlite:///{folder / 'kingdomkit.db'}"
    if request.param == "postgresql":
        postgres: PostgresServer = request.getfixturevalue("postgres")
        database = postgres.database()
    app = create_app(ServerConfig(database, "fuzz secret"))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(scope="module")
def api_schema(base_url: str) -> Any:
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    schema.config.generation.update(allow_x00=True)  # the default, said on purpose

    @schema.hook
    def flatmap_body(_context: Any, body: Any) -> st.SearchStrategy[Any]:
        return spoiled(body, IN_BODIES)

    @schema.hook
    def flatmap_path_parameters(_context: Any, parameters: Any) -> st.SearchStrategy[Any]:
        return spoiled(parameters, IN_URLS, keys=False)  # the route's own names

    @schema.hook
    def flatmap_query(_context: Any, query: Any) -> st.SearchStrategy[Any]:
        return spoiled(query, IN_URLS, keys=False)

    return schema


def test_no_input_makes_the_server_fail(api_schema: Any, base_url: str) -> None:
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 12  # every route of the API is described
    sent: set[str] = set()  # the characters sent
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        def no_server_error(case: Any) -> None:
            sent.update(characters([case.body, case.path_parameters, case.query]))
            case.call_and_validate(base_url=base_url, checks=[not_a_server_error])

        no_server_error()
    kinds = {unicodedata.category(char) for char in sent}
    assert "\x00" in sent and {"Cs", "Cc", "Cf", "Co"} <= kinds  # hostile strings were sent
