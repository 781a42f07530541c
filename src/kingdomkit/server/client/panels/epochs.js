// Kingdoms' epoch score sheets: when an epoch is scored, its sheet (every row and column,
// each castle's value and the gold it earned, each player's total) opens above the board and
// stays until closed, like a score pad; "Score of epoch N" buttons by the log open any sheet
// again, during and after the game. The sheets come from the view model (`model.epochs`,
// worked out by the game's scoring code); the board's drawer calls update() on every draw.
"use strict";

(() => {
  const shown = { table: null, seen: 0, open: null };
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
  const plain = (n) => (n < 0 ? `−${-n}` : String(n));
  const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);

  /** The buttons by the log, one per scored epoch. */
  function links(epochs, open) {
    const log = document.getElementById("log");
    if (!log) return;
    let strip = document.getElementById("epoch-links");
    if (!strip) {
      strip = el("div", { id: "epoch-links", class: "kk-epoch-links", role: "group", "aria-label": "score sheets of the epochs" });
      log.before(strip);
    }
    strip.hidden = !epochs.length;
    const key = epochs.map((e) => `${e.epoch}:${e.after.join(",")}`).join(";");
    if (strip.dataset.epochs === key) return;
    strip.dataset.epochs = key;
    strip.replaceChildren(el("span", { class: "muted", text: "Score sheets:" }),
      ...epochs.map((sheet, index) => el("button", {
        type: "button", class: "secondary small", "data-key": `sheet:${sheet.epoch}`,
        text: `Score of epoch ${sheet.epoch}`, onclick: () => open(index),
      })));
  }

  function partWords(part) {
    const marks = [part.dragon ? "dragon: no resources" : null, part.gold_mine ? "gold mine: doubled" : null].filter(Boolean);
    return `${signed(part.value)}${marks.length ? ` (${marks.join(", ")})` : ""}`;
  }

  /** The sheet of one epoch: the board as it ended and the pad of its lines. */
  function sheetPanel(sheet, view, helpers, close) {
    const players = sheet.gold.map((_, p) => p);
    const head = el("tr", {}, el("th", { text: "line: value" }),
      ...players.map((p) => el("th", { class: "num" }, el("span", { class: "kk-chip", style: `background:${KK.playerColour(p)}` }), ` ${helpers.seatLabel(p)}`)));
    const body = sheet.lines.map((line) => {
      const castles = line.parts.flatMap((part) => part.castles.map((c) => ({ ...c, value: part.value })));
      const cells = players.map((p) => {
        const own = castles.filter((c) => c.player === p);
        const detail = own.flatMap((c, i) => [i ? " + " : "", el("span", { class: "kk-term", text: `${plain(c.value)}×${c.strength}` })]);
        return el("td", { class: "num", title: own.map((c) => `castle of rank ${c.rank}${c.strength > c.rank ? ` (${c.strength} beside the wizard)` : ""} × ${c.value} = ${c.gold}`).join("; ") || null },
          el("strong", { text: own.length ? signed(line.gold[p]) : "·" }),
          detail.length ? el("small", { class: "kk-sheet-detail" }, ...detail) : null);
      });
      return el("tr", { class: line.gold.every((g) => g === 0) ? "zero" : null },
        el("th", {}, capital(line.name), el("small", { class: "kk-sheet-value", text: line.parts.map(partWords).join(" | ") || "—" })),
        ...cells);
    });
    const foot = [
      el("tr", { class: "total" }, el("th", { text: `Epoch ${sheet.epoch}` }), ...players.map((p) => el("td", { class: "num", text: signed(sheet.gold[p]) }))),
      el("tr", {}, el("th", { text: "gold before" }), ...players.map((p) => el("td", { class: "num", text: String(sheet.before[p]) }))),
      el("tr", {}, el("th", { text: "gold after" }), ...players.map((p) => el("td", { class: "num", text: String(sheet.after[p]) }))),
    ];
    const pad = el("table", { class: "pad kk-sheet-pad" }, el("thead", {}, head), el("tbody", {}, ...body), el("tfoot", {}, ...foot));
    const board = helpers.boardSvg({ rows: 5, columns: 6, board: sheet.board }, { label: `the board at the end of epoch ${sheet.epoch}`, seatLabel: helpers.seatLabel });
    const title = el("h4", { tabindex: "-1", "data-key": "sheet:title", text: `Score of epoch ${sheet.epoch}` });
    const gains = players.map((p) => `${helpers.seatLabel(p)} ${signed(sheet.gold[p])} gold`).join(", ");
    return el("section", { class: "kk-panel kk-sheet", role: "region", "aria-label": `score of epoch ${sheet.epoch}` },
      el("div", { class: "kk-panel-head" }, title, el("span", { class: "kk-stat", text: gains }),
        el("button", { type: "button", class: "secondary small kk-sheet-close", "data-key": "sheet:close", text: "Close", onclick: close })),
      el("div", { class: "kk-sheet-body" }, el("div", { class: "kk-sheet-board" }, board), el("div", { class: "kk-sheet-table" }, pad)),
      el("p", { class: "pad-note", text: "Each row and column: the value of its tiles (a dragon cancels the resources, a gold mine doubles; mountains split a line into parts scored apart) times each castle's rank (+1 beside the wizard)." }));
  }

  /** Called by the Kingdoms board on every draw: the sheet to show above the board, or null. */
  function update(view, helpers) {
    const epochs = (view.model && view.model.epochs) || [];
    if (shown.table !== view.table) Object.assign(shown, { table: view.table, seen: epochs.length, open: null });
    if (!view.replay && epochs.length > shown.seen) shown.open = epochs.length - 1; // just scored
    shown.seen = Math.max(shown.seen, epochs.length);
    const open = (index) => {
      shown.open = index;
      helpers.redraw();
      const title = document.querySelector(".kk-sheet [data-key='sheet:title']");
      if (title) { title.focus({ preventScroll: true }); title.scrollIntoView({ block: "nearest" }); }
    };
    links(epochs, open);
    if (shown.open === null || shown.open >= epochs.length) return null;
    return sheetPanel(epochs[shown.open], view, helpers, () => { shown.open = null; helpers.redraw(); });
  }

  KKP.epochs = { update };
})();
