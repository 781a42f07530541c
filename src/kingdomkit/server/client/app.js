// kingdomkit's browser client: the lobby and a table, over the HTTP API and one WebSocket per
// table. The server is authoritative: this page only shows views and sends action ids with
// the version they were chosen in.
"use strict";

const $ = (id) => document.getElementById(id);
const LEVELS = ["easy", "medium", "hard", "expert"];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
    throw new Error(detail || `the server answered ${response.status}`);
  }
  return data;
}

// -- who you are ------------------------------------------------------------------------------
async function loadMe() {
  const me = await api("GET", "/api/me");
  $("me-name").value = me.name || "";
  $("me-name").addEventListener("change", async () => {
    try { await api("POST", "/api/me", { name: $("me-name").value }); showError(""); }
    catch (e) { showError(e.message); }
  });
}

// -- the lobby --------------------------------------------------------------------------------
let games = [];

function seatRows() {
  const box = $("seats");
  const count = Number($("players").value);
  box.querySelectorAll("label").forEach((node) => node.remove());
  for (let i = 0; i < count; i++) {
    const select = el("select", { "data-seat": i });
    const choices = i === 0 ? ["you"] : [];
    choices.push("person", ...LEVELS.map((level) => `bot: ${level}`));
    for (const choice of choices) select.append(el("option", { value: choice, text: choice }));
    if (i > 0) select.value = "bot: medium";
    box.append(el("label", { text: `Seat ${i + 1} ` }, select));
  }
}

function gameChanged() {
  const info = games.find((g) => g.game === $("game").value);
  const players = $("players");
  players.replaceChildren();
  for (let n = info.min_players; n <= info.max_players; n++) players.append(el("option", { value: n, text: n }));
  players.value = Math.min(info.default_players, info.max_players);
  const options = $("options");
  options.querySelectorAll("label").forEach((node) => node.remove());
  for (const name of info.options) {
    options.append(el("label", {}, el("input", { type: "checkbox", "data-option": name }), ` ${name.replaceAll("_", " ")}`));
  }
  seatRows();
}

async function createTable(event) {
  event.preventDefault();
  const options = { players: Number($("players").value) };
  document.querySelectorAll("[data-option]").forEach((box) => { if (box.checked) options[box.dataset.option] = true; });
  const seats = [...document.querySelectorAll("[data-seat]")].map((select) =>
    select.value.startsWith("bot: ") ? { kind: "bot", bot: select.value.slice(5) } : { kind: "human" });
  try {
    const made = await api("POST", "/api/tables", { game: $("game").value, options, seats, name: $("me-name").value || undefined });
    sessionStorage.setItem(`invitations:${made.table}`, JSON.stringify(made.invitations));
    location.href = `/t/${made.table}`;
  } catch (e) { showError(e.message); }
}

async function showLobby() {
  $("lobby").hidden = false;
  games = await api("GET", "/api/games");
  for (const info of games) $("game").append(el("option", { value: info.game, text: info.game }));
  $("game").addEventListener("change", gameChanged);
  $("players").addEventListener("change", seatRows);
  $("new-table").addEventListener("submit", createTable);
  gameChanged();
  for (const status of ["open", "running", "finished"]) {
    const list = $(`${status}-tables`);
    for (const table of await api("GET", `/api/tables?status=${status}`)) {
      const who = table.seats.map((s) => (s.taken ? s.name : "free seat")).join(", ");
      const verb = status === "open" ? "join" : status === "running" ? "watch" : "review";
      list.append(el("li", {}, el("a", { href: `/t/${table.table}`, text: `${table.game}` }), ` (${who}) — ${verb}`));
    }
    if (!list.children.length) list.append(el("li", { text: "none" }));
  }
}

// -- a table ----------------------------------------------------------------------------------
let tableId = null;
let view = null;
let socket = null;
let retry = 500;
let parts = null; // the game's box (GET /components), for drawing the board
let ui = {}; // the board's choices in progress (reset when the version changes)
const keep = {}; // the board's plans across versions (a building's square, chosen before it is bought)
let showText = localStorage.getItem("kingdomkit:text-board") === "yes";
const invitation = new URLSearchParams(location.search).get("invite");

function seatName(seat) {
  if (seat.kind === "bot") return `${seat.name} (bot)`;
  return seat.taken ? seat.name : "free seat";
}

function render() {
  $("title").textContent = `${view.game} — ${view.status}`;
  const toAct = view.to_act;
  $("turn").textContent = view.status === "finished" ? "The game is over."
    : view.status === "open" ? "Waiting for every seat to be taken."
    : toAct === view.you ? "Your turn." : `Waiting for ${seatName(view.seats[toAct])}.`;
  const seats = $("seat-list");
  seats.replaceChildren();
  const drawer = KK.boards[view.game];
  for (const seat of view.seats) {
    const item = el("li", {}, el("span", { class: "kk-chip", style: `background:${drawer && drawer.colour ? drawer.colour(view, seat.index) : "transparent"}` }),
      `Seat ${seat.index + 1}: ${seatName(seat)}`);
    if (seat.index === view.you) item.classList.add("you");
    if (seat.index === toAct && view.status === "running") item.classList.add("to-act");
    if (!seat.taken && view.you === null && view.status === "open") {
      item.append(" ", el("button", { class: "secondary", text: "take this seat", onclick: () => join(seat.index) }));
    }
    seats.append(item);
  }
  $("board").textContent = view.board;
  drawBoard();
  const legal = $("legal");
  legal.replaceChildren();
  $("your-move").hidden = !view.legal.length;
  const filter = $("filter").value.trim().toLowerCase();
  for (const action of view.legal) {
    if (filter && !action.label.toLowerCase().includes(filter)) continue;
    legal.append(el("button", { text: action.label, onclick: () => act(action.id) }));
  }
  const log = $("log");
  log.replaceChildren(...view.log.map((entry) => el("li", { text: `${seatName(view.seats[entry.seat])}: ${entry.text}` })));
  log.scrollTop = log.scrollHeight;
  const result = $("result");
  result.hidden = !view.result;
  if (view.result) {
    result.replaceChildren(el("h3", { text: "Result" }));
    view.result.scores.forEach((score, seat) => result.append(el("p", { text: `${seatName(view.seats[seat])}: ${score}${view.result.winners.includes(seat) ? " — wins" : ""}` })));
    result.append(el("a", { href: `/api/tables/${tableId}/record`, download: `${view.game}-${tableId}.json`, text: "download the record" }));
  }
}

// -- the drawn board --------------------------------------------------------------------------
function setPrompt(message) {
  $("prompt").textContent = message || "";
}

/** Draw the board with the game's drawer (boards/*.js); the text board when there is none,
 * when it fails, or when asked for. */
function drawBoard() {
  const drawer = KK.boards[view.game];
  const drawn = $("drawn");
  const tools = $("board-tools");
  const canDraw = Boolean(drawer && parts);
  $("text-toggle").hidden = !canDraw;
  $("text-toggle").setAttribute("aria-pressed", String(showText));
  $("text-toggle").textContent = showText ? "drawing" : "text";
  $("text-toggle").title = showText ? "show the drawn board" : "show the board as text";
  if (ui.version !== view.version) ui = { version: view.version };
  const focus = KK.focusedKey(drawn) || KK.focusedKey(tools);
  drawn.replaceChildren();
  tools.replaceChildren();
  setPrompt("");
  ui.keys = null;
  let drew = false;
  if (canDraw && !showText) {
    try {
      drawer.render({
        view, parts, ui, keep, act, tools, root: drawn, prompt: setPrompt, redraw: drawBoard,
        seatName: (index) => seatName(view.seats[index]),
      });
      drew = true;
    } catch (error) {
      console.error("kingdomkit: the board could not be drawn", error);
      drawn.replaceChildren();
      tools.replaceChildren();
      ui.keys = null;
    }
  }
  drawn.hidden = !drew;
  $("board").hidden = drew;
  if (drew) { KK.restoreFocus(drawn, focus); KK.restoreFocus(tools, focus); }
}

function boardKeys(event) {
  if (!view || !ui.keys) return;
  const target = event.target;
  const typing = target.closest && target.closest("input, textarea, select");
  const pressing = target.closest && target.closest("button, a, summary");
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (pressing && (event.key === "Enter" || event.key === " ")) return;
  if (ui.keys(event)) event.preventDefault();
}

let sent = null; // the version an action was sent in: a second click before the answer is dropped

function act(action) {
  if (sent === view.version) return;
  sent = view.version;
  showError("");
  const message = JSON.stringify({ action, version: view.version });
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(message);
  else api("POST", `/api/tables/${tableId}/actions`, { action, version: view.version }).then(refresh, (e) => { sent = null; showError(e.message); });
}

async function join(seat) {
  try {
    const body = { name: $("me-name").value || undefined };
    if (invitation) body.token = invitation; else body.seat = seat;
    const joined = await api("POST", `/api/tables/${tableId}/join`, body);
    view = joined.view; render(); connect();
  } catch (e) { showError(e.message); }
}

async function refresh() {
  try { view = await api("GET", `/api/tables/${tableId}`); sent = null; render(); } catch (e) { showError(e.message); }
}

function connect() {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket.onopen = () => { retry = 500; sent = null; showError(""); };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") { view = message.view; render(); }
    else if (message.type === "error") { sent = null; showError(message.detail); refresh(); }
  };
  socket.onclose = (event) => {
    if (event.code === 4404) return;
    showError("Connection lost; reconnecting…");
    setTimeout(() => { connect(); }, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

async function showTable(id) {
  tableId = id;
  $("table").hidden = false;
  const saved = JSON.parse(sessionStorage.getItem(`invitations:${id}`) || "[]");
  if (saved.length) {
    $("invitations").hidden = false;
    for (const inv of saved) {
      const url = `${location.origin}/t/${id}?invite=${inv.token}`;
      $("invitation-list").append(el("li", { text: `Seat ${inv.seat + 1}: ` }, el("a", { href: url, text: url })));
    }
  }
  try { parts = await api("GET", `/api/tables/${id}/components`); } catch (e) { parts = null; }
  KK.ensureDefs();
  $("text-toggle").addEventListener("click", () => {
    showText = !showText;
    localStorage.setItem("kingdomkit:text-board", showText ? "yes" : "no");
    drawBoard();
  });
  document.addEventListener("keydown", boardKeys);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (view) drawBoard(); }, 200);
  });
  $("filter").addEventListener("input", render);
  $("filter").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const first = $("legal").querySelector("button");
    if (first) first.click();
  });
  await refresh();
  if (invitation && view.you === null && view.status === "open") await join(null);
  connect();
}

(async () => {
  try {
    await loadMe();
    const match = location.pathname.match(/^\/t\/([\w-]+)/);
    if (match) await showTable(match[1]); else await showLobby();
  } catch (e) { showError(e.message); }
})();
