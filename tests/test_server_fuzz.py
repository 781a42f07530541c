"""The HTTP API fuzzed from its own OpenAPI description (schemathesis): whatever the input,
the server answers with a clear 2xx or 4xx, never a 5xx. The server is a real uvicorn in a
thread, on SQLite."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from kingdomkit.server.app import ServerConfig, create_app
from system import free_port

EXAMPLES = 15  # generated requests per route


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(ServerConfig(f"sqlite:///{folder / 'kingdomkit.db'}", "fuzz secret"))
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
    return schemathesis.openapi.from_url(f"{base_url}/openapi.json")


def test_no_input_makes_the_server_fail(api_schema: Any, base_url: str) -> None:
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 12  # every route of the API is described
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        def no_server_error(case: Any) -> None:
            case.call_and_validate(base_url=base_url, checks=[not_a_server_error])

        no_server_error()
