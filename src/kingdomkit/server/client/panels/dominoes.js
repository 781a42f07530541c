// The dominoes list (any game whose view model has `to_come` and `unseen`): every domino of the game's box drawn small,
// the squares and crowns of each terrain in the box, and which dominoes are still to come.
// From the view model (`to_come`, `unseen`).
"use strict";

(() => {
  const { svg } = KK;
  let showAll = false;
  let drawn = null; // what the list shows now, to draw it again only when it changes

  /** The box of the game: [{d}] (the table's components list the dominoes of its box). */
  function box(parts) {
    return parts.dominoes.map((d) => ({ d }));
  }

  function dominoSvg(m, d, attrs) {
    return svg("svg", { class: "dl-domino", viewBox: "-1 -1 82 42", role: "img", "aria-label": attrs.label },
      svg("title", { text: attrs.label }), KK.kd.dominoAt(m, d.squares, [[0, 0], [1, 0]]));
  }

  function words(d, terrains) {
    return d.squares.map(([t, c]) => `${terrains[t] || "?"}${c ? ` ${"♛".repeat(c)}` : ""}`).join(" | ");
  }

  /** Draw the panel for the shown view (a live view or a replay frame). */
  function update(view, parts) {
    const panel = $("dominoes");
    const model = view.model && "to_come" in view.model && "unseen" in view.model ? view.model : null;
    const usable = Boolean(parts && parts.dominoes && model);
    panel.hidden = !usable;
    if (!usable) return;
    const all = box(parts);
    const unseen = new Set(model.unseen.map((d) => d.domino));
    const coming = all.filter(({ d }) => unseen.has(d.id));
    const deck = [...unseen].join();
    const draws = model.to_come < coming.length ? { left: model.to_come } : null;
    const toCome = draws ? draws.left : coming.length;
    $("dominoes-count").textContent = `${toCome} to come`;
    if (!panel.open) { drawn = null; return; }
    const key = `${view.table}:${deck}:${showAll}:${all.length}`;
    if (drawn === key) return;
    drawn = key;
    const m = KK.kd.model(parts);
    const body = $("dominoes-body");
    const note = draws
      ? `${draws.left} more will be drawn. Not every domino of the box is used with this many players: they come from the ${coming.length} below, not seen yet (the rest stay in the box).`
      : `${coming.length} of the box's ${all.length} dominoes are still to be drawn; the ones in the lines are drawn already.`;

    // Squares and crowns of each terrain: in the box, and still to come.
    const tally = parts.terrains.map(() => ({ squares: 0, crowns: 0, squaresLeft: 0, crownsLeft: 0 }));
    const left = new Set(coming.map(({ d }) => d.id));
    for (const { d } of all) {
      for (const [t, c] of d.squares) {
        if (!tally[t]) continue;
        tally[t].squares += 1; tally[t].crowns += c;
        if (left.has(d.id)) { tally[t].squaresLeft += 1; tally[t].crownsLeft += c; }
      }
    }
    const table = el("table", { class: "pad dl-terrains" },
      el("caption", { text: "to come / in the box" }),
      el("thead", {}, el("tr", {}, el("th", { text: "terrain" }), el("th", { class: "num", text: "squares" }),
        el("th", { class: "num" }, KK.icon("crown", null, 13, "crowns")))),
      el("tbody", {}, ...parts.terrains.map((name, t) => tally[t].squares ? el("tr", {},
        el("td", { class: "terrain" }, svg("svg", { class: "pad-swatch", width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true" },
          svg("rect", { x: 0.5, y: 0.5, width: 15, height: 15, rx: 3, fill: KK.terrainFill(name), stroke: "#0005" })), ` ${name}`),
        el("td", { class: "num", text: `${tally[t].squaresLeft} / ${tally[t].squares}` }),
        el("td", { class: "num", text: `${tally[t].crownsLeft} / ${tally[t].crowns}` })) : null)));

    const toggle = el("div", { class: "dl-toggle", role: "group", "aria-label": "which dominoes" },
      el("button", { type: "button", "data-key": "dl:coming", class: `small ${showAll ? "secondary" : ""}`, "aria-pressed": String(!showAll), text: draws ? `not seen yet (${coming.length})` : `to come (${coming.length})`, onclick: () => { showAll = false; update(view, parts); } }),
      el("button", { type: "button", "data-key": "dl:all", class: `small ${showAll ? "" : "secondary"}`, "aria-pressed": String(showAll), text: `the whole box (${all.length})`, onclick: () => { showAll = true; update(view, parts); } }));
    const grid = el("ul", { class: "dl-grid" });
    for (const { d } of showAll ? all : coming) {
      const gone = !left.has(d.id);
      const label = `domino ${d.label}: ${words(d, parts.terrains)}${gone ? " (drawn)" : ""}`;
      grid.append(el("li", { class: gone ? "gone" : "" }, el("span", { class: "dl-number", text: d.label }), dominoSvg(m, d, { label })));
    }
    if (!grid.children.length) grid.append(el("li", { class: "muted", text: "none: every domino is drawn" }));
    const focus = KK.focusedKey(body);
    body.replaceChildren(el("p", { class: "kk-note", text: note }), table, toggle, grid);
    KK.restoreFocus(body, focus);
  }

  function init(redraw) {
    $("dominoes").addEventListener("toggle", redraw);
  }

  KKP.dominoes = { update, init };
})();
