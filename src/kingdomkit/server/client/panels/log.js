// The table's log, back to move 1. A view carries the latest entries (log[0] is decision
// `log_start`); the earlier ones are read once from GET /api/tables/{id}/log?since=N, page by
// page. The entries are sentences the game wrote (`text`), with the engine's `notation` beside
// for tools; a move a stand-in bot or the clock made for a person is marked (`by`); what chance
// showed everyone after it follows (`then`: a new line, a building turned up). Drawn in
// #log, kept at its end unless the reader scrolled up.
"use strict";

(() => {
  // Moves a person did not choose are marked, for everyone.
  const MADE_BY = { "stand-in": " (a bot played it for them)", clock: " (their time ran out: a bot played it)" };
  let tableId = null;
  let entries = []; // every decision read so far, by index (undefined: not read yet)
  let reading = null; // Promise of the earlier entries being read
  let drawn = null; // what #log shows: "first:count"
  let redraw = () => {};

  function merge(start, list) {
    list.forEach((entry, i) => { entries[start + i] = entry; });
  }

  function missing(count) {
    for (let i = 0; i < count; i++) if (!entries[i]) return i;
    return -1;
  }

  async function read(count) {
    let since = missing(count);
    while (since >= 0 && since < count) {
      const page = await api("GET", `/api/tables/${tableId}/log?since=${since}`);
      if (!page.entries.length) break;
      merge(page.since, page.entries);
      since = missing(count);
    }
  }

  /** Take in the live view's latest entries; read the earlier ones once, then redraw. */
  function update(view) {
    if (!view || view.table !== tableId || !Array.isArray(view.log)) return;
    const start = view.log_start || 0;
    if (entries.length > view.decisions) entries.length = view.decisions;
    merge(start, view.log);
    if (missing(start) >= 0 && !reading) {
      reading = read(start).then(() => { reading = null; redraw(); }, (error) => { reading = null; showError(error.message); });
    }
  }

  /** The first `count` decisions (the replay and the review match against them). */
  async function all(count) {
    if (missing(count) >= 0) await read(count);
    return entries.slice(0, count);
  }

  function text(entry) {
    return `${entry.text}${MADE_BY[entry.by] || ""}`;
  }

  /** Draw the log of `shown` (the live view, or a replay frame at its step) in #log. */
  function render(shown) {
    const count = shown.replay ? shown.step : shown.decisions;
    const whole = missing(count) < 0;
    const first = whole ? 0 : (shown.log_start !== undefined ? shown.log_start : Math.max(0, count - shown.log.length));
    const list = whole ? entries.slice(0, count) : shown.log;
    const key = `${first}:${list.length}:${count}`;
    if (drawn === key) return;
    drawn = key;
    const log = $("log");
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    const top = log.scrollTop;
    log.start = first + 1;
    log.replaceChildren(...list.map((entry) => el("li", { class: entry.by ? "by-bot" : null }, text(entry),
      ...(entry.then || []).map((said) => el("span", { class: "log-then", text: said })))));
    log.scrollTop = atEnd ? log.scrollHeight : top;
  }

  function init(id, draw) {
    tableId = id;
    entries = [];
    drawn = null;
    redraw = draw;
  }

  KKP.log = { init, update, all, render, text };
})();
