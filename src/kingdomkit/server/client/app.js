// kingdomkit's browser client: a table, over the HTTP API and one WebSocket per table (the
// lobby is lobby.js; the accounts, clock, hints, score pad, replay, review, dominoes, chat and
// the page's settings with the turn signals are in panels/). The server is authoritative: this page only shows views and sends action ids with
// the version they were chosen in.
"use strict";

let tableId = null;
let view = null; // the table as the server last showed it to you
let socket = null;
let retry = 500;
let parts = null; // the game's box (GET /components), for drawing the board
let ui = {}; // the board's choices in progress (reset when the version changes)
const keep = {}; // the board's plans across versions (a building's square, chosen before it is bought)
let showText = localStorage.getItem("kingdomkit:text-board") === "yes";
const invitation = new URLSearchParams(location.search).get("invite");
const seatMenus = { open: null, levels: {} }; // the seats' stand-in menus, across redraws
let seatRows = []; // the seat list's items, updated in place
let padShown = null; // the score pad drawn, by table and version

function seatName(seat) {
  if (!seat) return "nobody";
  if (seat.kind === "bot") return `${seat.name} (bot)`;
  return seat.name || (seat.taken ? "someone" : "free seat"); // an uploaded record's seats have names, no holders
}

function nameOf(index) {
  return seatName(view.seats[index]);
}

/** The bot standing in for you (its level), or null. */
function standIn() {
  const seat = view && view.you !== null && view.you !== undefined ? view.seats[view.you] : null;
  return seat && seat.kind === "human" && seat.stand_in ? seat.stand_in : null;
}

function myTurn() {
  return view.status === "running" && view.legal.length > 0 && !standIn();
}

function describe() {
  const names = view.names || { game: KKP.signals.gameName(view), variants: [] }; // the printed names
  return `${names.game}${names.variants.length ? ` (${names.variants.join(", ")})` : ""} — ${view.status === "open" ? "waiting for players" : view.status}`;
}

function turnText() {
  if (view.status === "finished") return KKP.replay.frame() ? "Replay: the board and the scores as they were then." : "The game is over.";
  if (view.status === "open") return waitingText();
  const toAct = view.to_act;
  if (toAct === null || toAct === undefined) return "";
  if (toAct === view.you) return standIn() ? `A bot (${standIn()}) is playing your turn.` : "Your turn.";
  const seat = view.seats[toAct];
  return `Waiting for ${seatName(seat)}${seat.stand_in ? ` (a ${seat.stand_in} bot plays for them)` : ""}.`;
}

function render() {
  $("title").replaceChildren(describe(), ...[
    view.rated ? el("span", { class: "badge badge-rated", text: "rated" }) : null,
    view.hints ? el("span", { class: "badge", text: "hints" }) : null,
  ].filter(Boolean));
  $("turn").textContent = turnText();
  KKP.signals.turn(view, myTurn());
  $("invitations").hidden = view.status !== "open" || !$("invitation-list").children.length;
  $("cancel-box").hidden = !(view.status === "open" && view.you !== null && view.you !== undefined && view.you === view.maker);
  if (view.you !== null && view.you !== undefined) askName(""); // seated (the socket may say so first)
  KKP.clock.update(view, nameOf);
  renderSeats();
  renderMoves();
  renderFinish();
  dropStaleMove();
  drawShown();
}

// -- the seats: name, score as it stands, clock, stand-in bots -------------------------------
function seatControls(seat) {
  const i = seat.index;
  if (!seat.taken && !seat.kept && view.you === null && view.status === "open") { // a rematch's kept seat: only its person, on opening
    return el("button", { type: "button", class: "secondary small", "data-key": `take:${i}`, text: "take this seat", onclick: () => join(i) });
  }
  if (view.status !== "running" || seat.kind !== "human" || !seat.taken) return null;
  const mine = i === view.you;
  if (seat.stand_in) {
    return mine ? el("button", { type: "button", class: "small", "data-key": `back:${i}`, text: "Take my seat back", onclick: () => takeBack(i) }) : null;
  }
  if (view.you === null || view.you === undefined) return null; // spectators cannot
  if (!mine && !hasLeft(i)) return null; // a bot may play for them only once they have left
  const menu = el("details", { class: "seat-menu" });
  menu.open = seatMenus.open === i;
  menu.addEventListener("toggle", () => {
    if (menu.open) seatMenus.open = i;
    else if (seatMenus.open === i) seatMenus.open = null;
  });
  const level = el("select", { "aria-label": "the bot's level", "data-key": `level:${i}` },
    ...LEVELS.map((name) => el("option", { value: name, text: `${name} bot` })));
  level.value = seatMenus.levels[i] || "medium";
  level.addEventListener("change", () => { seatMenus.levels[i] = level.value; });
  menu.append(
    el("summary", { "data-key": `menu:${i}`, title: mine ? "leave the table and let a bot play your seat" : `let a bot play for ${seatName(seat)}`, text: mine ? "leave…" : "⋯" }),
    el("div", { class: "seat-menu-body" },
      level,
      el("button", { type: "button", class: "small", "data-key": `bot:${i}`, text: mine ? "Let a bot play for me" : `Let a bot play for ${seat.name}`, onclick: () => putBot(i, level.value) }),
      el("small", { class: "muted", text: mine ? "You can take your seat back at any time." : "Only once they have left the table." })));
  return menu;
}

function renderSeats() {
  const list = $("seat-list");
  const focus = KK.focusedKey(list);
  const drawer = KK.boards[view.game];
  if (seatRows.length !== view.seats.length) {
    seatRows = view.seats.map(() => {
      const row = { item: el("li"), chip: el("span", { class: "kk-chip" }), name: el("span", { class: "seat-name" }),
        score: el("span", { class: "seat-score" }), tags: el("span", { class: "seat-tags" }),
        controls: el("span", { class: "seat-controls" }), key: null };
      row.item.append(row.chip, row.name, row.score, row.tags, row.controls);
      return row;
    });
    list.replaceChildren(...seatRows.map((row) => row.item));
  }
  for (const seat of view.seats) {
    const row = seatRows[seat.index];
    row.chip.style.background = drawer && drawer.colour ? drawer.colour(view, seat.index) : "transparent";
    row.name.replaceChildren(el("span", { class: "seat-number", text: `Seat ${seat.index + 1}: ` }), seatName(seat));
    const tags = [];
    if (seat.stand_in) tags.push(el("span", { class: "badge badge-bot", title: "a bot plays this seat for its holder", text: `${seat.stand_in} bot plays` }));
    const used = KKP.clock.used(view, seat);
    if (used) tags.push(el("span", { class: "seat-time", title: "thinking time used", text: used }));
    row.tags.replaceChildren(...tags);
    row.item.classList.toggle("you", seat.index === view.you);
    row.item.classList.toggle("to-act", seat.index === view.to_act && view.status === "running");
    const key = JSON.stringify([view.status, view.you, seat.taken, seat.stand_in, seat.kind, seat.name, hasLeft(seat.index)]);
    if (row.key !== key) {
      row.key = key;
      row.controls.replaceChildren(...[seatControls(seat)].filter(Boolean));
    }
  }
  showScores(shownView());
  KK.restoreFocus(list, focus);
}

/** Each seat's score as things stand in `shown` (the live view, or the replay's step). */
function showScores(shown) {
  const unit = view.score_unit || "points";
  for (const seat of view.seats) {
    const row = seatRows[seat.index];
    if (!row) continue;
    const score = shown.scores && view.status !== "open" ? shown.scores[seat.index] : null;
    row.score.textContent = score === null || score === undefined ? "" : `${score} ${score === 1 && unit.endsWith("s") ? unit.slice(0, -1) : unit}`;
    row.score.hidden = score === null || score === undefined;
    row.score.title = shown.replay ? `${unit} at this step of the replay` : `${unit} as things stand`;
  }
}

/** Has the person at seat `index` left the table (no page of theirs open)? Only then may
 * another seated person let a bot play for them (the server's rule). */
function hasLeft(index) {
  const seat = view.seats[index];
  return Boolean(seat && seat.kind === "human" && seat.taken && Array.isArray(view.here) && !view.here.includes(index));
}

/** Who the open table waits for, and what to do about it. */
function waitingText() {
  const free = view.seats.filter((seat) => seat.kind === "human" && !seat.taken).map((seat) => seat.index + 1);
  if (!free.length) return "The game is starting.";
  // A rematch keeps each seat for its player: name them.
  const kept = view.seats.filter((seat) => seat.kept && seat.name).map((seat) => seat.name);
  if (kept.length === free.length) {
    const names = kept.length === 1 ? kept[0] : `${kept.slice(0, -1).join(", ")} and ${kept.at(-1)}`;
    return `Waiting for ${names} to join the rematch.`;
  }
  const seats = free.length === 1 ? `seat ${free[0]}` : `seats ${free.slice(0, -1).join(", ")} and ${free.at(-1)}`;
  if (view.you === null || view.you === undefined) {
    return invitation ? `You are invited: type your name at the top to take your seat.` : `Waiting for players to take ${seats}: take a free seat to play.`;
  }
  const links = $("invitation-list").children.length;
  const who = free.length === 1 ? "a second player" : "more players";
  return `Waiting for ${free.length === 1 ? "someone" : who} to take ${seats}${links ? ` — send ${free.length === 1 ? "them the invitation link" : "them their invitation links"} below.` : "."}`;
}

async function putBot(index, level) {
  try {
    view = await api("POST", `/api/tables/${tableId}/seats/${index}/bot`, { bot: level });
    seatMenus.open = null;
    showError("");
    render();
  } catch (e) {
    showError(e.status === 409 && index !== view.you && /still here/.test(e.message)
      ? `${nameOf(index)} is still at the table: a bot can play for them only once they have left.` : e.message);
  }
}

async function takeBack(index) {
  try {
    view = await api("POST", `/api/tables/${tableId}/seats/${index}/back`);
    showError("");
    render();
  } catch (e) { showError(e.message); }
}

// -- your moves: hints and the list ----------------------------------------------------------
function renderMoves() {
  const mine = myTurn();
  $("your-move").hidden = !mine;
  KKP.hints.update(view, mine);
  showQuickHint();
  const legal = $("legal");
  legal.replaceChildren();
  const filter = $("filter").value.trim().toLowerCase();
  const best = KKP.hints.best(view.version);
  if (mine) {
    for (const action of view.legal) {
      if (filter && !action.label.toLowerCase().includes(filter)) continue;
      legal.append(el("button", { type: "button", class: action.id === best ? "hinted" : null, title: action.id === best ? "the analyst's best move" : null, text: action.label, onclick: () => act(action.id) }));
    }
  }
  const bot = standIn();
  const box = $("stood-in");
  box.hidden = !(bot && view.status === "running");
  if (!box.hidden) {
    box.replaceChildren(el("p", { text: `A ${bot} bot plays your seat.` }),
      el("button", { type: "button", text: "Take my seat back", onclick: () => takeBack(view.you) }));
  }
}

// -- the end: score pad, replay, review ------------------------------------------------------
function renderFinish() {
  const finished = view.status === "finished" && view.result;
  $("finish").hidden = !finished;
  $("result").hidden = !finished;
  if (!finished) return;
  const key = `${view.table}:${view.version}:${view.seats.map(seatName).join()}`;
  if (padShown !== key) {
    padShown = key;
    $("result").replaceChildren(KKP.scorepad.render(view, seatName));
  }
  KKP.replay.activate(view.decisions);
  KKP.review.start(tableId, nameOf, view.review);
  KKP.rematch.update(view, seatName);
}

// -- the drawn board --------------------------------------------------------------------------
function setPrompt(message) {
  $("prompt").textContent = forTouch(message || "");
}

/** Is this a touch screen (no keys to mention)? */
function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches;
}

/** `text` without its keyboard shortcuts on a touch screen: "turn it (R), place it (tap it
 * again or Enter)" becomes "turn it, place it (tap it again)". */
function forTouch(text) {
  if (!touchScreen()) return text;
  return text
    .replace(/\s+or (?:press )?(?:Enter|Space|Esc|Escape)\b/g, "")
    .replace(/\s*\((?:press )?(?:[A-Z]|Enter|Esc|Escape|Space|Home|End|[←→↑↓]|arrow keys)\)/g, "")
    .replace(/\b(?:Enter|Esc|Escape) (?:plays|places|cancels)[^,.;)]*/g, "")
    .replace(/\s+([,.;)])/g, "$1");
}

/** The board's buttons without their keyboard shortcuts on a touch screen. */
function untouchTools(root) {
  if (!touchScreen()) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) node.textContent = forTouch(node.textContent);
}

/** What the board shows: a replay frame, or the live view (without moves while a bot plays
 * for you). */
function shownView() {
  const frame = KKP.replay.frame();
  if (frame) return frame;
  if (standIn() && view.legal.length) return { ...view, legal: [] };
  if (view.status === "open") return { ...view, to_act: null }; // nobody plays before every seat is taken
  return view;
}

function drawShown() {
  const shown = shownView();
  showScores(shown);
  $("turn").textContent = turnText();
  $("board").textContent = shown.board;
  drawBoard(shown);
  KKP.dominoes.update(shown, parts);
  KKP.review.moved();
  KKP.log.update(view);
  KKP.log.render(shown);
}

/** Draw `shown` with the game's drawer (boards/*.js); the text board when there is none, when
 * it fails, or when asked for. */
function drawBoard(shown = shownView()) {
  const drawer = KK.boards[shown.game];
  const drawn = $("drawn");
  const tools = $("board-tools");
  const canDraw = Boolean(drawer && parts);
  $("text-toggle").hidden = !canDraw;
  $("text-toggle").setAttribute("aria-pressed", String(showText));
  $("text-toggle").textContent = showText ? "drawing" : "text";
  $("text-toggle").title = showText ? "show the drawn board" : "show the board as text";
  if (ui.version !== shown.version) ui = { version: shown.version };
  const focus = KK.focusedKey(drawn) || KK.focusedKey(tools);
  drawn.replaceChildren();
  tools.replaceChildren();
  setPrompt("");
  ui.keys = null;
  let drew = false;
  if (canDraw && !showText) {
    try {
      drawer.render({
        view: shown, parts, ui, keep, act, tools, root: drawn, prompt: setPrompt, redraw: () => drawBoard(),
        seatName: (index) => seatName(shown.seats[index]),
        hint: shown === view ? KKP.hints.best(view.version) : null,
      });
      drew = true;
    } catch (error) {
      console.error("kingdomkit: the board could not be drawn", error);
      drawn.replaceChildren();
      tools.replaceChildren();
      ui.keys = null;
    }
  }
  untouchTools(tools);
  drawn.hidden = !drew;
  $("board").hidden = drew;
  if (drew) { KK.restoreFocus(drawn, focus); KK.restoreFocus(tools, focus); }
}

function keys(event) {
  if (!view) return;
  if (KKP.replay.keys(event)) { event.preventDefault(); return; }
  if (!ui.keys) return;
  const target = event.target;
  const pressing = target.closest && target.closest("button, a, summary");
  if (typingIn(target) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (pressing && (event.key === "Enter" || event.key === " ")) return;
  if (ui.keys(event)) event.preventDefault();
}

let sent = null; // the version an action was sent in: a second click before the answer is dropped

let pending = null; // {action, version} of a move waiting for its confirmation

/** Play `action`: at once, or, with "confirm each move" on, once confirmed. */
function act(action) {
  if (KKP.signals.confirming() && !(pending && pending.confirmed && pending.action === action)) {
    askConfirm(action);
    return;
  }
  pending = null;
  $("confirm-move").hidden = true;
  send(action);
}

/** Show the chosen move with Confirm and Undo; nothing is sent before Confirm. */
function askConfirm(action) {
  if (sent === view.version) return;
  const move = view.legal.find((a) => a.id === action);
  if (!move) return;
  pending = { action, version: view.version };
  $("confirm-label").textContent = forTouch(`Your move: ${move.label}. Play it?`);
  $("confirm-move").hidden = false;
  $("confirm-yes").focus({ preventScroll: true });
}

function confirmMove() {
  if (!pending || pending.version !== view.version) { undoMove(); return; }
  pending.confirmed = true;
  act(pending.action);
}

function undoMove() {
  pending = null;
  $("confirm-move").hidden = true;
  ui = {}; // the board's choice in progress goes too
  drawBoard();
}

/** A move waiting for confirmation is forgotten when the table moves on. */
function dropStaleMove() {
  if (pending && pending.version !== view.version) { pending = null; $("confirm-move").hidden = true; }
}

function send(action) {
  if (sent === view.version) return;
  sent = view.version;
  showError("");
  const message = JSON.stringify({ action, version: view.version });
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(message);
  else api("POST", `/api/tables/${tableId}/actions`, { action, version: view.version }).then(refresh, (e) => { sent = null; showError(e.message); });
}

/** Is this page an invitation not yet taken up: open, and you without a seat? */
function invited() {
  return Boolean(invitation && view && (view.you === null || view.you === undefined) && view.status === "open");
}

async function join(seat) {
  const name = $("me-name").value.trim();
  if (!name) {
    // A seat is taken under a name: ask for one, and join as soon as it is given.
    askName(invitation ? "You are invited to this table: type your name here to take your seat." : "Type your name here to take the seat.");
    return;
  }
  if (joining) return;
  joining = true;
  try {
    const body = { name };
    if (invitation) body.token = invitation; else body.seat = seat;
    const joined = await api("POST", `/api/tables/${tableId}/join`, body);
    view = joined.view; render(); // the table's socket (opened by showTable) hears of the seat too
    KKP.chat.load(); // seated: you may write
  } catch (e) { showError(e.message); } finally { joining = false; }
}

let joining = false; // a join under way

/** Ask for a name beside the name field (an instruction, not an error); "" hides it. */
function askName(message) {
  const box = $("name-ask");
  box.textContent = message;
  box.hidden = !message;
  if (message) $("me-name").focus();
}

let typing = null; // the wait after the last key typed in the name field

/** An invitation is taken up as soon as a name is typed (a moment after the last key), not
 * only on Enter or leaving the field. */
function nameTyped() {
  clearTimeout(typing);
  if (!invited()) return;
  typing = setTimeout(() => {
    if (invited() && $("me-name").value.trim()) join(null);
  }, 600);
}

async function refresh() {
  try { view = await api("GET", `/api/tables/${tableId}`); sent = null; render(); } catch (e) { showError(e.message); }
}

/** The page of a table that does not exist (or cannot be shown here): said plainly, with
 * the way back to the lobby. */
function showMissing(error) {
  $("table").hidden = true;
  $("missing").hidden = false;
  document.title = "No such table — kingdomkit";
  if (error.status !== 404) $("missing-why").textContent = error.message;
}

/** The table was cancelled or withdrawn before its game began: the page says why. */
function showGone(detail) {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  view = null;
  showMissing({ status: 410, message: detail });
}

async function cancelTable() {
  if (!confirm("Cancel this table? Its seats and invitations end, and the players who joined are told.")) return;
  try {
    await api("DELETE", `/api/tables/${tableId}`);
    showGone("You cancelled this table before its game began.");
  } catch (e) { showError(e.message); }
}

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket = mine;
  mine.onopen = () => {
    retry = 500; sent = null;
    if ($("error").textContent.startsWith("Connection lost")) { showError(""); KKP.chat.load(); } // what was said meanwhile
  };
  mine.onmessage = (event) => {
    const message = parseJSON(event.data);
    if (message.type === "view") { view = message.view; render(); }
    else if (message.type === "chat") KKP.chat.add(message.message);
    else if (message.type === "gone") showGone(message.detail);
    else if (message.type === "error") { sent = null; showError(sentence(message.detail)); refresh(); }
  };
  mine.onclose = (event) => {
    if (socket !== mine || event.code === 4404) return;
    if (event.code === 4429) { // too many connections: the server's message stays shown
      setTimeout(() => { if (socket === mine) connect(); }, 15000);
      return;
    }
    showError("Connection lost; reconnecting…");
    setTimeout(() => { if (socket === mine) connect(); }, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

async function showTable(id) {
  tableId = id;
  // The table and its components together; `view` is set only once the board can be drawn,
  // so nothing (a test, a key) sees a turn the page does not show yet.
  const [first, components] = await Promise.all([
    api("GET", `/api/tables/${id}`).catch((e) => e),
    api("GET", `/api/tables/${id}/components`).catch(() => null),
  ]);
  if (first instanceof Error && (first.status === 404 || first.status === 410)) { showMissing(first); return; }
  parts = components;
  $("table").hidden = false;
  const saved = JSON.parse(sessionStorage.getItem(`invitations:${id}`) || "[]");
  if (saved.length) {
    $("invitations").hidden = false;
    for (const inv of saved) {
      const url = `${location.origin}/t/${id}?invite=${inv.token}`;
      $("invitation-list").append(el("li", { text: `Seat ${inv.seat + 1}: ` }, el("a", { href: url, text: url }), copyButton(url)));
    }
  }
  KK.ensureDefs();
  $("cancel-table").addEventListener("click", cancelTable);
  $("text-toggle").addEventListener("click", () => {
    showText = !showText;
    localStorage.setItem("kingdomkit:text-board", showText ? "yes" : "no");
    drawBoard();
  });
  document.addEventListener("keydown", keys);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (view) drawBoard(); }, 200);
  });
  $("filter").addEventListener("input", renderMoves);
  $("filter").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const first = $("legal").querySelector("button");
    if (first) first.click();
  });
  KKP.hints.init(id, { onChange: () => { if (view) { renderMoves(); drawShown(); } }, play: (action) => act(action) });
  KKP.log.init(id, () => { if (view) drawShown(); });
  KKP.replay.init(id, { draw: drawShown, live: () => view, seatName: nameOf, note: (step) => KKP.review.note(step) });
  KKP.dominoes.init(() => { if (view) KKP.dominoes.update(shownView(), parts); });
  initTablePage(id);
  if (first instanceof Error) await refresh();
  else { view = first; sent = null; render(); }
  if (invited()) await join(null);
  else if (view && KKP.rematch.kept(view)) { view = await KKP.rematch.takeKept(view); render(); }
  connect();
}

/** A button copying an invitation link (where the browser lets the page write the
 * clipboard). */
function copyButton(url) {
  if (!navigator.clipboard) return null;
  const button = el("button", { type: "button", class: "secondary small", text: "Copy" });
  button.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); button.textContent = "Copied"; } catch (e) { button.textContent = "Select the link to copy it"; }
  });
  return button;
}

/** On a phone the status (the turn, the seats) stays on top of the screen, and the board's
 * prompt and tools below it: the page says how tall the status is. */
function stickBelowStatus() {
  const status = document.querySelector("#table .status");
  const note = () => $("table").style.setProperty("--status-h", `${status.offsetHeight}px`);
  new ResizeObserver(note).observe(status);
  note();
}

/** The hint button beside the board's tools (shown on narrow screens, where the hint box
 * lies below the board): it asks the same analyst, whose best move the board stars. */
function showQuickHint() {
  const quick = $("hint-quick");
  quick.hidden = $("hint-box").hidden;
  quick.disabled = $("hint-button").disabled;
  quick.textContent = quick.disabled ? "★ Thinking…" : "★ Hint";
}

/** The chat, the settings and the confirmation of moves (a table's page only). */
function initTablePage(id) {
  stickBelowStatus();
  KKP.signals.init();
  KKP.chat.init(id, { colour: (index) => {
    const drawer = view && KK.boards[view.game];
    return drawer && drawer.colour ? drawer.colour(view, index) : "transparent";
  } });
  $("confirm-yes").addEventListener("click", confirmMove);
  $("confirm-undo").addEventListener("click", undoMove);
  $("hint-quick").addEventListener("click", () => { $("hint-button").click(); showQuickHint(); });
  if (touchScreen()) $("filter").placeholder = "type to filter the moves";
}

$("me-name").addEventListener("input", nameTyped);

// The name is listened to from the start, so a name typed before the page has heard who you
// are is saved, not lost; an invitation waiting for it is taken up then.
$("me-name").addEventListener("change", async () => {
  try {
    await api("POST", "/api/me", { name: $("me-name").value });
    showError("");
    clearTimeout(typing);
    if (invited()) await join(null);
    else if (tableId) KKP.chat.load(); // named: a spectator may write
  } catch (e) { showError(e.message); }
});

(async () => {
  try {
    const me = await api("GET", "/api/me");
    if (!$("me-name").value) $("me-name").value = me.name || ""; // never over what was typed
    KKP.account.init(me);
    const match = location.pathname.match(/^\/t\/([\w-]+)/);
    if (match) await showTable(match[1]); else await KKP.lobby.show(me);
  } catch (e) { showError(e.message); }
})();
