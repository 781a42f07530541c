// The lobby: a new table (game, variants, seats, and the table's rules: rated, hints, a time
// control), the lists of tables, the leaderboards, and a record to upload and review.
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
    if ($("board-game").value !== info.game) { $("board-game").value = info.game; leaderboard(); }
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

  /** A table of the lobby's lists, with its rules as small badges. */
  function tableItem(table, status) {
    const who = table.seats.map((s) => s.name || (s.taken ? "someone" : "free seat")).join(", ");
    const verb = status === "open" ? "join" : status === "running" ? "watch" : "replay and review";
    const flags = Object.entries(table.options || {}).filter(([k, v]) => k !== "players" && v === true).map(([k]) => k.replaceAll("_", " "));
    const badges = [];
    if (table.rated) badges.push(el("span", { class: "badge badge-rated", text: "rated" }));
    if (table.hints) badges.push(el("span", { class: "badge", text: "hints" }));
    if (table.move_seconds || table.game_seconds) badges.push(el("span", { class: "badge", text: "clock" }));
    return el("li", {},
      el("a", { href: `/t/${table.table}`, text: table.game }),
      flags.length ? el("span", { class: "muted", text: ` (${flags.join(", ")})` }) : null,
      ` ${who} — ${verb} `, ...badges);
  }

  async function lists() {
    for (const status of ["open", "running", "finished"]) {
      const list = $(`${status}-tables`);
      const tables = await api("GET", `/api/tables?status=${status}`);
      list.replaceChildren(...tables.slice(0, 30).map((table) => tableItem(table, status)));
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
    for (const info of games) {
      $("game").append(el("option", { value: info.game, text: info.game }));
      $("board-game").append(el("option", { value: info.game, text: info.game }));
    }
    for (const clock of CLOCKS) $("opt-clock").append(el("option", { value: clock.value, text: clock.text }));
    $("opt-rated").disabled = !account;
    $("rated-note").textContent = account ? "counts for the players' ratings (accounts only)" : "sign in to play rated games";
    $("game").addEventListener("change", gameChanged);
    $("players").addEventListener("change", seatRows);
    $("opt-clock").addEventListener("change", clockChanged);
    $("new-table").addEventListener("submit", createTable);
    $("board-game").addEventListener("change", leaderboard);
    $("record-upload").addEventListener("click", upload);
    $("upload-form").addEventListener("submit", upload);
    gameChanged();
    clockChanged();
    await Promise.all([lists(), leaderboard()]);
  }

  KKP.lobby = { show };
})();
