// The lobby: one-click games against a bot, your tables (your turn first), a new table (game,
// variants, seats, and the table's rules: rated, hints, a time control), the lists of tables,
// the leaderboards, and a record to upload and review. The games' names, variants and the
// set-ups they refuse (with the reason in words) come from GET /api/games: a set-up the
// server would refuse is disabled here, with its reason.
"use strict";

(() => {
  let games = [];
  let account = false;
  // Time controls offered; "custom" shows two fields.
  const CLOCKS = [
    { value: "none", text: "no clock" },
    { value: "m30", text: "30 s per move", move: 30 },
    { value: "m60", text: "1 min per move", move: 60 },
    { value: "g300", text: "5 min per game", game: 300 },
    { value: "g600", text: "10 min per game", game: 600 },
    { value: "m30g600", text: "30 s per move, 10 min per game", move: 30, game: 600 },
    { value: "m10", text: "blitz: 10 s per move", move: 10 },
    { value: "custom", text: "custom…" },
  ];

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
      box.append(el("label", { class: "seat-row", text: `Seat ${i + 1} ` }, select));
    }
  }

  const info = () => games.find((g) => g.game === $("game").value);

  /** The variants on, in the game's order. */
  function chosenVariants() {
    return [...document.querySelectorAll("[data-option]")].filter((box) => box.checked).map((box) => box.dataset.option);
  }

  /** Why the game refuses `players` with `variants` on (words from the server), or null. */
  function refusal(game, players, variants) {
    const key = game.options.filter((option) => variants.includes(option)).join("+");
    return (game.refused[String(players)] || {})[key] || null;
  }

  /** Disable every change of the set-up the game would refuse, and say why: a variant that
   * cannot be turned on (or off) with these players and variants, a player count these
   * variants do not allow. */
  function checkSetup() {
    const game = info();
    const players = Number($("players").value);
    const on = chosenVariants();
    for (const box of document.querySelectorAll("[data-option]")) {
      const option = box.dataset.option;
      const changed = box.checked ? on.filter((o) => o !== option) : [...on, option];
      const reason = refusal(game, players, changed);
      box.disabled = Boolean(reason);
      const why = box.closest("label").querySelector(".setup-reason");
      why.textContent = reason ? sentence(reason) : "";
      why.hidden = !reason;
      box.closest("label").classList.toggle("refused", Boolean(reason));
    }
    const reasons = [];
    for (const choice of $("players").options) {
      const reason = refusal(game, Number(choice.value), on);
      choice.disabled = Boolean(reason);
      choice.title = reason ? sentence(reason) : "";
      if (reason && !reasons.includes(sentence(reason))) reasons.push(sentence(reason));
    }
    $("players-note").textContent = reasons.join(" ");
    $("players-note").hidden = !reasons.length;
    const refused = refusal(game, players, on); // never chosen through the form; said if so
    $("new-table").querySelector("button[type=submit]").disabled = Boolean(refused);
    if (refused) showError(sentence(refused));
  }

  function gameChanged() {
    const game = info();
    const players = $("players");
    players.replaceChildren();
    for (let n = game.min_players; n <= game.max_players; n++) players.append(el("option", { value: n, text: n }));
    players.value = Math.min(game.default_players, game.max_players);
    const options = $("options");
    options.querySelectorAll("label").forEach((node) => node.remove());
    for (const variant of game.variants) {
      options.append(el("label", { class: "variant" },
        el("input", { type: "checkbox", "data-option": variant.option }),
        el("span", { class: "variant-name", text: ` ${variant.name}` }),
        el("small", { class: "muted variant-about", text: variant.description }),
        el("small", { class: "setup-reason", hidden: true })));
    }
    options.hidden = !game.variants.length;
    seatRows();
    checkSetup();
    if ($("board-game").value !== game.game) { $("board-game").value = game.game; leaderboard(); }
  }

  function clockChanged() {
    $("clock-custom").hidden = $("opt-clock").value !== "custom";
  }

  /** The time control chosen: {move_seconds, game_seconds}, or an Error in plain words. */
  function clockChosen() {
    const choice = $("opt-clock").value;
    if (choice !== "custom") {
      const preset = CLOCKS.find((c) => c.value === choice) || {};
      return { move_seconds: preset.move, game_seconds: preset.game };
    }
    const move = $("opt-move").value.trim(), game = $("opt-game").value.trim();
    const limits = {};
    if (move) limits.move_seconds = Number(move);
    if (game) limits.game_seconds = Number(game) * 60;
    for (const [key, value] of Object.entries(limits)) {
      if (!Number.isFinite(value) || value < 5 || value > 86400) {
        throw new Error(key === "move_seconds" ? "Seconds per move: a number from 5 to 86400." : "Minutes per game: a number from 0.1 to 1440.");
      }
    }
    if (!move && !game) throw new Error("A custom clock needs seconds per move, minutes per game, or both.");
    return limits;
  }

  async function createTable(event) {
    event.preventDefault();
    const options = { players: Number($("players").value) };
    document.querySelectorAll("[data-option]").forEach((box) => { if (box.checked) options[box.dataset.option] = true; });
    const seats = [...document.querySelectorAll("[data-seat]")].map((select) =>
      select.value.startsWith("bot: ") ? { kind: "bot", bot: select.value.slice(5) } : { kind: "human" });
    try {
      const body = { game: $("game").value, options, seats, name: $("me-name").value || undefined, ...clockChosen() };
      if ($("opt-hints").checked) body.hints = true;
      if ($("opt-rated").checked) body.rated = true;
      const made = await api("POST", "/api/tables", body);
      sessionStorage.setItem(`invitations:${made.table}`, JSON.stringify(made.invitations));
      location.href = `/t/${made.table}`;
    } catch (e) { showError(e.message); }
  }

  /** One click: you against a medium bot, 2 players, no clock; the table opens. */
  async function playBot(game, button) {
    button.disabled = true;
    try {
      const body = { game: game.game, options: { players: 2 }, seats: [{ kind: "human" }, { kind: "bot", bot: "medium" }], name: $("me-name").value || undefined };
      const made = await api("POST", "/api/tables", body);
      location.href = `/t/${made.table}`;
    } catch (e) {
      showError(e.message);
      button.disabled = false;
    }
  }

  const REFRESH_MS = 20000;
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  /** A moment as people say it: "today 14:05", "yesterday 09:30", "3 Nov", "3 Nov 2025". */
  function when(iso) {
    if (!iso) return "";
    const at = new Date(iso), now = new Date();
    const day = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    const time = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
    const days = Math.round((day(now) - day(at)) / 86400000);
    if (days === 0) return `today ${time}`;
    if (days === 1) return `yesterday ${time}`;
    return `${at.getDate()} ${MONTHS[at.getMonth()]}${at.getFullYear() === now.getFullYear() ? "" : ` ${at.getFullYear()}`}`;
  }

  function seatText(seat) {
    if (seat.kind === "bot") return `${seat.name} bot`;
    return seat.name || (seat.taken ? "someone" : "free seat");
  }

  /** A game's name with its variants: "Kingdomino (Mighty Duel, Harmony)". */
  function gameText(table) {
    const names = table.names || { game: table.game, variants: [] };
    return `${names.game}${names.variants.length ? ` (${names.variants.join(", ")})` : ""}`;
  }

  /** The final scores, the winners first in bold: "Ann 34 · medium bot 28". */
  function scoresOf(table) {
    const result = table.result;
    if (!result) return null;
    const unit = (games.find((g) => g.game === table.game) || {}).unit === "gold" ? " gold" : "";
    const order = table.seats.map((seat) => seat.index).sort((a, b) => result.scores[b] - result.scores[a]);
    const parts = [];
    for (const index of order) {
      if (parts.length) parts.push(" · ");
      const text = `${seatText(table.seats[index])} ${result.scores[index]}${unit}`;
      parts.push(result.winners.includes(index) ? el("strong", { text }) : text);
    }
    return el("span", { class: "final-scores" }, ...parts);
  }

  async function joinKept(table, button) {
    button.disabled = true;
    try {
      await api("POST", `/api/tables/${table.table}/join`, {});
      location.href = `/t/${table.table}`;
    } catch (e) { showError(e.message); button.disabled = false; }
  }

  /** A table of the lobby's lists, with its rules as small badges. */
  function tableItem(table) {
    const status = table.status;
    const mine = table.you !== null && table.you !== undefined;
    const kept = mine && table.seats[table.you].kept;
    const who = table.seats.map(seatText).join(", ");
    const missing = table.seats.filter((seat) => seat.kind === "human" && !seat.taken);
    const awaited = missing.map((seat) => (seat.kept ? seat.name : "a free seat")).join(", ");
    let verb = status === "open" ? "join" : status === "running" ? "watch" : "replay and review";
    if (mine && status === "running") verb = table.your_turn ? "play" : "waiting for the others' moves";
    if (mine && status === "open") verb = kept ? "" : `waiting for ${awaited}`;
    if (!mine && status === "open" && missing.every((seat) => seat.kept)) verb = `a rematch, waiting for ${awaited}`; // no seat to join
    const badges = [];
    if (table.your_turn) badges.push(el("span", { class: "badge badge-turn", text: "your turn" }));
    if (kept) badges.push(el("span", { class: "badge badge-turn", text: "rematch: your seat is kept" }));
    if (table.rated) badges.push(el("span", { class: "badge badge-rated", text: "rated" }));
    if (table.hints) badges.push(el("span", { class: "badge", text: "hints" }));
    if (table.move_seconds || table.game_seconds) badges.push(el("span", { class: "badge", text: "clock" }));
    const scores = status === "finished" ? scoresOf(table) : null;
    const date = status === "finished" ? when(table.finished || table.created) : status === "running" ? "" : when(table.created);
    return el("li", { class: table.your_turn || kept ? "table-row waiting-for-you" : "table-row", "data-table": table.table },
      el("a", { href: `/t/${table.table}`, class: "table-game", text: gameText(table) }),
      ...badges,
      el("div", { class: "table-line" },
        scores || el("span", { text: who }),
        verb ? el("span", { class: "muted", text: ` — ${verb}` }) : null,
        date ? el("span", { class: "muted table-date", text: ` · ${date}` }) : null,
        kept ? el("button", { type: "button", class: "small", text: "Join", onclick: (event) => joinKept(table, event.target) }) : null));
  }

  async function lists() {
    const found = {};
    for (const status of ["open", "running", "finished"]) found[status] = await api("GET", `/api/tables?status=${status}`);
    const isMine = (table) => table.you !== null && table.you !== undefined;
    // yours still to play, waiting for you first (the server lists each status so)
    const mine = [...found.open, ...found.running].filter(isMine).sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
    $("my-tables").replaceChildren(...mine.map(tableItem));
    $("my-section").hidden = !mine.length;
    for (const status of ["open", "running", "finished"]) {
      const list = $(`${status}-tables`);
      const shown = status === "finished" ? found[status] : found[status].filter((table) => !isMine(table));
      list.replaceChildren(...shown.slice(0, 30).map(tableItem));
      if (!list.children.length) list.append(el("li", { class: "muted", text: "none" }));
    }
  }

  async function leaderboard() {
    const game = $("board-game").value;
    const body = $("leaderboard-rows");
    body.replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "muted", text: "loading…" })));
    try {
      const rows = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}`);
      body.replaceChildren(...rows.map((row) => el("tr", {},
        el("td", { class: "num", text: row.rank }), el("td", { text: row.name }),
        el("td", { class: "num", text: row.rating }), el("td", { class: "num", text: row.games }))));
      if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 4, class: "muted", text: "No rated game finished yet: sign in, create a rated table and play." })));
    } catch (e) {
      body.replaceChildren();
      showError(e.message);
    }
  }

  async function upload(event) {
    event.preventDefault();
    const file = $("record-file").files[0];
    if (!file) { showError("Choose a record file first (a .json file downloaded from a finished table, or written by kingdomkit)."); return; }
    let record;
    try { record = JSON.parse(await file.text()); } catch (e) {
      showError(`“${file.name}” is not a JSON file: choose a game record (.json).`);
      return;
    }
    $("record-upload").disabled = true;
    try {
      const made = await api("POST", "/api/records", record);
      location.href = `/t/${made.table}`;
    } catch (e) {
      showError(e.status === 422 && !/record/i.test(e.message) ? `This file is not a game record kingdomkit can read: ${e.message}` : e.message);
    } finally {
      $("record-upload").disabled = false;
    }
  }

  async function show(me) {
    account = Boolean(me.account);
    $("lobby").hidden = false;
    games = await api("GET", "/api/games");
    for (const game of games) {
      $("game").append(el("option", { value: game.game, text: game.name }));
      $("board-game").append(el("option", { value: game.game, text: game.name }));
      const button = el("button", { type: "button", class: "quick", "data-game": game.game, text: `Play ${game.name} against a bot` });
      button.addEventListener("click", () => playBot(game, button));
      $("quick-games").append(button);
    }
    for (const clock of CLOCKS) $("opt-clock").append(el("option", { value: clock.value, text: clock.text }));
    $("opt-rated").disabled = !account;
    $("rated-note").textContent = account ? "counts for the players' ratings (accounts only)" : "sign in to play rated games";
    $("game").addEventListener("change", gameChanged);
    $("players").addEventListener("change", () => { seatRows(); checkSetup(); });
    $("options").addEventListener("change", checkSetup);
    $("opt-clock").addEventListener("change", clockChanged);
    $("new-table").addEventListener("submit", createTable);
    $("board-game").addEventListener("change", leaderboard);
    $("record-upload").addEventListener("click", upload);
    $("upload-form").addEventListener("submit", upload);
    gameChanged();
    clockChanged();
    await Promise.all([lists(), leaderboard()]);
    // the lists follow the games while the lobby is looked at ("your turn" comes and goes)
    setInterval(() => { if (document.visibilityState === "visible") lists().catch(() => {}); }, REFRESH_MS);
  }

  KKP.lobby = { show };
})();
