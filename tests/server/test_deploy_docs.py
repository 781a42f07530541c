"""docs/deploy.md and deploy/ stay true to the code they describe.

Every `kingdomkit ...` command on the page (code blocks, systemd lines, inline code) and every
command in deploy/compose.yaml and deploy/Dockerfile parses with the real argument parser;
compose.yaml has the services the page describes; deploy/nginx.conf passes WebSocket upgrades
on the path of every WebSocket route of the server, and, with Debian's nginx, really proxies a
real `kingdomkit serve` (pages, uploads, a live socket, the client's address). Docker itself
is not run.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import io
import ipaddress
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import yaml
from fastapi.routing import APIRouter, APIWebSocketRoute
from websockets.sync.client import connect

from kingdomkit.cli.main import build_parser
from kingdomkit.server import api, limits
from paths import DOCS, EXAMPLES, ROOT
from serving import COMPILE_SECONDS, ServeProcess
from system import apt_install, free_port

DEPLOY_DOC = DOCS / "deploy.md"
DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "compose.yaml"
NGINX_CONF = DEPLOY / "nginx.conf"
DOCKERFILE = DEPLOY / "Dockerfile"

# Stand-ins for what a line leaves to its runner: systemd's instance name (a port here).
SAMPLES = {"%i": "8001"}

# Shell words that come before a command without being it.
PREFIXES = {"sudo", "exec", "nohup", "then", "do", "else", "until", "while", "if", "!"}
SEPARATORS = {"&&", "||", ";", "&", "|", "(", ")", ";;"}
REDIRECTS = {">", ">>", "<", ">&", "<&"}
SOCKET_SECONDS = 300  # a live socket's proxy time-outs are at least this long
NGINX_RESOLVE = (1, 27, 3)  # the first nginx whose upstream servers take `resolve`
START_SECONDS = 30


def code_blocks(text: str) -> list[str]:
    """The page's code blocks, but those marked ```text (drawings, not commands)."""
    found = re.findall(r"^```([^\n]*)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    return [body for info, body in found if info.strip() != "text"]


def shell_lines(block: str) -> list[str]:
    """The block's lines, a line ending in a backslash joined to the next."""
    return block.replace("\\\n", " ").splitlines()


def kingdomkit_commands(line: str) -> list[list[str]]:
    """The arguments of each `kingdomkit` command on one shell or systemd line."""
    line = re.sub(r"^Exec\w*=", "", line.strip())
    if line.startswith("#") or not re.search(r"(^|[\s/;&|(])kingdomkit(\s|$)", line):
        return []  # (a configuration file's line, quotes and all, is not for shlex)
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = [SAMPLES.get(word, word) for word in lexer]
    except ValueError as error:
        raise AssertionError(f"{error}: {line}") from None
    found: list[list[str]] = []
    command: list[str] = []
    for word in [*words, ";"]:
        if word in SEPARATORS:
            found.extend(_program_arguments(command))
            command = []
        else:
            command.append(word)
    return found


def _program_arguments(command: list[str]) -> list[list[str]]:
    words = list(command)
    for i, word in enumerate(words):  # redirections and their targets are not arguments
        if word in REDIRECTS:
            words[i : i + 2] = ["", ""]
    words = [w for w in words if w]
    while words and (words[0] in PREFIXES or re.fullmatch(r"[A-Za-z_]\w*=.*", words[0])):
        words.pop(0)
    if words and Path(words[0]).name == "kingdomkit":
        return [words[1:]]
    return []


def doc_commands(text: str) -> list[list[str]]:
    """Every `kingdomkit` command of a Markdown page: in code blocks and in inline code."""
    found = [
        c
        for block in code_blocks(text)
        for line in shell_lines(block)
        for c in kingdomkit_commands(line)
    ]
    prose = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    for span in re.findall(r"`(kingdomkit [^`]+)`", prose):
        found.extend(kingdomkit_commands(" ".join(span.split())))
    return found


def strict_parser() -> argparse.ArgumentParser:
    """The real parser, but a flag must be spelt whole: an abbreviation would still parse
    after the flag it shortens was renamed to something longer."""
    parser = build_parser()
    parser.allow_abbrev = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                command.allow_abbrev = False
    return parser


def parse_error(arguments: list[str]) -> str | None:
    """None when `kingdomkit ARGUMENTS` parses, else what argparse said."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            strict_parser().parse_args(arguments)
    except SystemExit as exit_:
        return None if exit_.code == 0 else said.getvalue().strip() or f"exit {exit_.code}"
    return None


def checked(commands: list[list[str]]) -> list[str]:
    """The refusals of the parser, one per command it refuses."""
    refusals = []
    for arguments in commands:
        error = parse_error(arguments)
        if error is not None:
            refusals.append(f"kingdomkit {shlex.join(arguments)}\n    {error}")
    return refusals


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def dockerfile_json(instruction: str) -> list[str]:
    """The exec form (a JSON list) of a Dockerfile instruction such as ENTRYPOINT."""
    found = re.findall(rf"^{instruction}\s+(\[.*\])\s*$", DOCKERFILE.read_text(), re.MULTILINE)
    assert len(found) == 1, f"deploy/Dockerfile has one {instruction} in exec form"
    value: list[str] = json.loads(found[0])
    return value


def test_every_kingdomkit_command_on_the_page_parses() -> None:
    commands = doc_commands(DEPLOY_DOC.read_text())
    refusals = checked(commands)
    assert not refusals, "docs/deploy.md:\n" + "\n".join(refusals)
    names = {arguments[0] for arguments in commands if arguments}
    assert {"serve", "worker"} <= names, names  # not vacuous: both kinds of process are there
    assert len(commands) >= 5


def test_the_limits_the_page_sets_are_valid_limits() -> None:
    serving = [c for c in doc_commands(DEPLOY_DOC.read_text()) if c[:1] == ["serve"]]
    limited = [c for c in serving if any(word.startswith("--limit-") for word in c)]
    assert limited, "the page shows how to divide the limits"
    for arguments in limited:
        chosen = limits.from_arguments(strict_parser().parse_args(arguments), {})
        assert chosen != limits.Limits(), arguments


def test_the_extraction_finds_commands_where_the_page_writes_them() -> None:
    line = "ExecStart=/opt/kingdomkit/bin/kingdomkit serve --port %i --host 0.0.0.0"
    assert kingdomkit_commands(line) == [["serve", "--port", "8001", "--host", "0.0.0.0"]]
    shell = 'X=1 kingdomkit serve --port 8001 & kingdomkit worker --database "$U" >log'
    assert kingdomkit_commands(shell) == [
        ["serve", "--port", "8001"],
        ["worker", "--database", "$U"],
    ]
    assert kingdomkit_commands("python3 -m venv /opt/kingdomkit && /opt/kingdomkit/bin/pip x") == []
    assert parse_error(["serve", "--port", "eight"]) is not None
    assert parse_error(["serve", "--no-such-flag"]) is not None
    assert parse_error(["serve", "--bot-work", "2"]) is not None  # flags spelt whole


def test_compose_has_the_services_the_page_describes() -> None:
    services = compose()["services"]
    assert {"postgres", "serve", "worker", "nginx"} <= set(services)
    assert "pg_isready" in services["postgres"]["healthcheck"]["test"]
    for name in ("serve", "worker"):
        build = services[name]["build"]
        assert (DEPLOY / build["context"]).resolve() == ROOT
        assert (ROOT / build["dockerfile"]).resolve() == DOCKERFILE
        assert "KINGDOMKIT_DATABASE" in services[name]["environment"]
    serve = services["serve"]
    assert serve["deploy"]["replicas"] >= 2
    assert "KINGDOMKIT_SECRET" in serve["environment"]  # one key for every process
    # one count of each visitor's requests for every replica
    assert serve["environment"]["KINGDOMKIT_RATE_STORAGE"] == "redis://redis:6379/0"
    assert "redis" in services
    assert "/health" in " ".join(serve["healthcheck"]["test"])
    assert "ports" not in serve  # reached through nginx only
    assert f"./{NGINX_CONF.name}:/etc/nginx/nginx.conf:ro" in services["nginx"]["volumes"]


def test_env_example_names_every_variable_compose_reads_and_env_is_never_committed() -> None:
    read = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    example = (DEPLOY / "env.example").read_text()
    given = set(re.findall(r"^(\w+)=", example, re.MULTILINE))
    assert read and read == given, (read, given)
    assert ".env" in (DEPLOY / ".gitignore").read_text().split()


def test_every_image_is_an_official_one_named_without_a_registry() -> None:
    images = [s["image"] for s in compose()["services"].values() if "image" in s]
    images += re.findall(r"^FROM\s+(\S+)", DOCKERFILE.read_text(), re.MULTILINE)
    assert len(images) == 4  # postgres, redis, nginx; python in the Dockerfile
    for image in images:
        assert "/" not in image and ":" in image, f"{image}: an official image, with a tag"
    assert "python:3.11-slim" in images
    assert re.search(r'pip install [^\n]*"\.\[web\]"', DOCKERFILE.read_text())


def test_the_serve_processes_trust_nginx_and_no_other_container_can_take_its_address() -> None:
    loaded = compose()
    services = loaded["services"]
    address = services["nginx"]["networks"]["backend"]["ipv4_address"]
    command = services["serve"]["command"]
    assert command[command.index("--trusted-proxy") + 1] == address
    (network,) = loaded["networks"]["backend"]["ipam"]["config"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(network["subnet"])
    assert ipaddress.ip_address(address) not in ipaddress.ip_network(network["ip_range"])


def test_every_command_of_the_images_parses() -> None:
    assert dockerfile_json("ENTRYPOINT") == ["kingdomkit"]
    commands = [dockerfile_json("CMD")]
    for name, service in compose()["services"].items():
        if "build" in service:
            assert isinstance(service["command"], list), f"{name}: the exec form"
            commands.append([str(word) for word in service["command"]])
    refusals = checked(commands)
    assert not refusals, "deploy/:\n" + "\n".join(refusals)
    assert {c[0] for c in commands} == {"serve", "worker"}


def test_the_dockerfile_copies_what_exists_and_the_context_lets_it_through() -> None:
    copied = re.findall(r"^COPY\s+(.+?)\s+\S+\s*$", DOCKERFILE.read_text(), re.MULTILINE)
    sources = [source for line in copied for source in line.split()]
    assert {"pyproject.toml", "README.md", "src"} <= set(sources)
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    for source in sources:
        assert (ROOT / source).exists()
        assert f"!{source}" in ignore, f"{source} is kept out of the build context"


def test_the_image_compiles_the_bots_kernels_as_its_user_where_it_may_write() -> None:
    text = DOCKERFILE.read_text()
    home = re.search(r"^USER (\S+)$", text, re.MULTILINE)
    cache = re.search(r"^ENV NUMBA_CACHE_DIR=(\S+)$", text, re.MULTILINE)
    run = re.search(r"^RUN (python -c .*)$", text, re.MULTILINE)
    assert home and cache and run
    assert home.end() < cache.end() < run.end()  # as that user, into that folder
    assert cache[1].startswith(f"/home/{home[1]}/")
    words = shlex.split(run[1])
    done = subprocess.run(
        [sys.executable, *words[1:]], capture_output=True, text=True, timeout=COMPILE_SECONDS
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['kingdomino', 'kingdoms', 'queendomino']"


def nginx_blocks(text: str, kind: str) -> dict[str, str]:
    """`kind` blocks (location, upstream) without nested braces: their argument -> body."""
    pattern = rf"^\s*{kind}\s+([^{{]+?)\s*\{{([^{{}}]*)\}}"
    return {m[0]: m[1] for m in re.findall(pattern, text, re.MULTILINE)}


def seconds(value: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()  # type: ignore[union-attr]
    return int(number) * units[unit or "s"]


def websocket_paths() -> list[str]:
    routers = [v for v in vars(api).values() if isinstance(v, APIRouter)]
    return [r.path for router in routers for r in router.routes if isinstance(r, APIWebSocketRoute)]


def test_nginx_passes_websocket_upgrades_on_every_socket_route() -> None:
    text = re.sub(r"#[^\n]*", "", NGINX_CONF.read_text())
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{[^}]*default\s+upgrade;", text)
    for header in (
        r"proxy_http_version 1\.1;",
        r"proxy_set_header Upgrade \$http_upgrade;",
        r"proxy_set_header Connection \$connection_upgrade;",
        r"proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;",
        r"proxy_set_header Host \$http_host;",  # with the port: the origin check compares it
    ):
        assert re.search(header, text), header
    locations = nginx_blocks(text, "location")
    # A location that sets headers of its own would drop all of these (nginx inheritance).
    assert not any("proxy_set_header" in body for body in locations.values())
    paths = websocket_paths()
    assert paths, "the server has WebSocket routes"
    for path in paths:
        static = path.split("{")[0]
        prefixes = [p for p in locations if not p.startswith("=") and static.startswith(p)]
        assert prefixes, f"no location of deploy/nginx.conf serves {path}"
        body = locations[max(prefixes, key=len)]
        assert "proxy_pass" in body
        for timeout in ("proxy_read_timeout", "proxy_send_timeout"):
            value = re.search(rf"{timeout}\s+(\w+);", body)
            assert value and seconds(value[1]) >= SOCKET_SECONDS, (path, timeout)
    (upstream,) = nginx_blocks(text, "upstream").values()
    assert re.search(r"server \S+ .*max_fails=\d+", upstream)
    assert "return 404" in locations["= /metrics"]
    most = limits.Limits().record_bytes
    assert re.search(rf"client_max_body_size {most // 2**20}m;", text), "the server's record limit"
    assert "error_page 413 @too_large;" in text and f"larger than {most} bytes" in text


def test_the_page_is_linked_and_its_links_resolve() -> None:
    assert "docs/deploy.md" in (ROOT / "README.md").read_text()
    assert "(deploy.md)" in (DOCS / "server.md").read_text()
    text = DEPLOY_DOC.read_text()
    links = re.findall(r"\]\(([^)#]+)\)", text)
    local = [link for link in links if "://" not in link]
    assert local
    for link in local:
        assert (DEPLOY_DOC.parent / link).exists(), link


def nginx() -> tuple[str, tuple[int, ...]]:
    """Debian's nginx (installed when missing) and its version."""
    if shutil.which("nginx") is None:
        try:
            apt_install("nginx")
        except (RuntimeError, subprocess.CalledProcessError) as error:
            pytest.skip(f"nginx is not installed: {error}")
    program = shutil.which("nginx") or "/usr/sbin/nginx"
    said = subprocess.run([program, "-v"], capture_output=True, text=True).stderr
    version = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", said)
    assert version, said
    return program, tuple(int(part) for part in version.groups())


def local_nginx_conf(folder: Path, listen: int, upstream: int, version: tuple[int, ...]) -> Path:
    """deploy/nginx.conf with loopback ports for compose's names, and its files in `folder`."""
    text = NGINX_CONF.read_text()
    swaps = [
        ("listen 80;", f"listen 127.0.0.1:{listen};"),
        ("server serve:8000 resolve ", f"server 127.0.0.1:{upstream} "),
        (
            "http {",
            f"http {{\n    access_log {folder}/access.log;\n"
            f"    client_body_temp_path {folder}/body;\n    proxy_temp_path {folder}/proxy;",
        ),
    ]
    if version < NGINX_RESOLVE:
        swaps.append(("resolver 127.0.0.11", "# resolver 127.0.0.11"))
    for old, new in swaps:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = folder / "nginx.conf"
    path.write_text(text)
    return path


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[ServeProcess, str]]:
    """A real `kingdomkit serve` (SQLite) behind deploy/nginx.conf on Debian's nginx."""
    program, version = nginx()
    # One table a minute per address, to see which address the server counts.
    args = ["--trusted-proxy", "127.0.0.1", "--limit-address-tables-per-minute", "1"]
    server = ServeProcess(tmp_path / "data", None, args)
    server.start()
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = free_port()
    conf = local_nginx_conf(folder, port, server.port, version)
    options = ["-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)]
    checked_conf = subprocess.run([program, "-t", *options], capture_output=True, text=True)
    assert checked_conf.returncode == 0, checked_conf.stderr
    # nginx's workers run as `nobody` under root, which may not enter pytest's folders.
    user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
    running = subprocess.Popen(
        [program, *options, "-g", f"pid {folder}/nginx.pid; daemon off; {user}"]
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            httpx2.get(url)
            break
        except httpx2.TransportError:
            assert running.poll() is None, (folder / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
    yield server, url
    running.terminate()
    running.wait(timeout=30)
    server.stop()


def test_nginx_conf_proxies_pages_uploads_and_live_sockets(
    proxied: tuple[ServeProcess, str],
) -> None:
    _, url = proxied
    ann = httpx2.Client(base_url=url, timeout=60, headers={"Origin": url})
    assert ann.get("/api/games").status_code == 200
    # Through the proxy the origin check sees the host and port the browser used.
    made = ann.post(
        "/api/tables", json={"game": "kingdomino", "seats": [{"kind": "human"}] * 2, "name": "ann"}
    )
    assert made.status_code == 201, made.text
    # Bodies over nginx's default 1 MiB reach the server: a record under its 2 MiB limit is
    # taken, one over it refused with the server's status and message.
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    taken = ann.post("/api/records", json={**record, "padding": "x" * 1_500_000})
    assert taken.status_code == 201, taken.text
    refused = ann.post("/api/records", json={**record, "padding": "x" * 3_000_000})
    assert refused.status_code == 413 and "bytes" in refused.json()["detail"], refused.text
    assert ann.get("/metrics").status_code == 404  # scraped per process, not through nginx
    table = made.json()["table"]
    cookie = "; ".join(f"{k}={v}" for k, v in ann.cookies.items())
    socket_url = url.replace("http://", "ws://") + f"/ws/tables/{table}"
    with connect(
        socket_url, additional_headers={"Cookie": cookie, "Origin": url}, open_timeout=30
    ) as live:
        first = json.loads(live.recv(timeout=30))
    assert first["type"] == "view" and first["view"]["table"] == table


def test_the_server_counts_the_address_nginx_was_reached_from(
    proxied: tuple[ServeProcess, str],
) -> None:
    """nginx appends the address a client connects from to X-Forwarded-For; the server, which
    trusts nginx (127.0.0.1) only, counts that address, never one the client wrote itself.
    The clients connect from other loopback addresses, which are not trusted."""
    _, url = proxied
    body = {"game": "kingdomino", "seats": [{"kind": "human"}] * 2, "name": "ann"}

    def new_table(source: str, claimed: str) -> int:
        headers = {"Origin": url, "X-Forwarded-For": claimed}
        transport = httpx2.HTTPTransport(local_address=source)
        with httpx2.Client(base_url=url, timeout=60, headers=headers, transport=transport) as guest:
            return guest.post("/api/tables", json=body).status_code

    assert new_table("127.0.0.2", "203.0.113.1") == 201
    assert new_table("127.0.0.2", "203.0.113.2") == 429  # a new guest, the same address
    assert new_table("127.0.0.3", "203.0.113.2") == 201  # another address
