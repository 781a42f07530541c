// The end-of-game score pad: the standings, then each player's (or team's) pad with every line
// of the game's breakdown (view.result, from each game's `result()`), the winners marked.
"use strict";

(() => {
  const { svg } = KK;

  /** A small square of a terrain, for the pad's lines. */
  function swatch(terrain) {
    return svg("svg", { class: "pad-swatch", width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true" },
      svg("rect", { x: 0.5, y: 0.5, width: 15, height: 15, rx: 3, fill: KK.terrainFill(terrain), stroke: "#0005" }));
  }

  function row(cells, attrs = {}) {
    return el("tr", attrs, ...cells.map((cell) => (cell instanceof Node ? cell : el("td", { text: cell }))));
  }

  function num(value, attrs = {}) {
    return el("td", { class: "num", ...attrs, text: value });
  }

  /** The territories of a pad: one line each, size x crowns = points. */
  /** The territories of a pad: one line each, size x crowns = points; those without crowns
   * (0 points) folded under one line that shows them. */
  function territories(list) {
    const body = el("tbody");
    const scoring = list.filter((t) => t.points);
    const idle = list.filter((t) => !t.points);
    const line = (t) => row([el("td", { class: "terrain" }, swatch(t.terrain), ` ${t.terrain}`), num(t.size), num(t.crowns), num(t.points)], { class: t.points ? "" : "zero" });
    body.append(...scoring.map(line));
    if (idle.length) {
      const squares = idle.reduce((a, t) => a + t.size, 0);
      const rows = idle.map(line);
      rows.forEach((r) => { r.hidden = true; });
      const toggle = el("button", { type: "button", class: "pad-fold", "aria-expanded": "false",
        text: `▸ ${plural(idle.length, "territory", "territories")} without crowns (${plural(squares, "square")})` });
      toggle.addEventListener("click", () => {
        const open = toggle.getAttribute("aria-expanded") !== "true";
        toggle.setAttribute("aria-expanded", String(open));
        toggle.textContent = `${open ? "▾" : "▸"} ${toggle.textContent.slice(2)}`;
        rows.forEach((r) => { r.hidden = !open; });
      });
      body.append(el("tr", { class: "zero" }, el("td", { colspan: 3 }, toggle), num(0)), ...rows);
    }
    if (!list.length) body.append(row([el("td", { colspan: 4, class: "muted", text: "no territory" })]));
    return body;
  }

  function padTable(list, lines, total) {
    const head = el("thead", {}, el("tr", {}, el("th", { text: "territory" }), el("th", { class: "num", text: "squares" }),
      el("th", { class: "num" }, KK.icon("crown", null, 13, "crowns")), el("th", { class: "num", text: "points" })));
    const foot = el("tfoot");
    for (const [label, value, note] of lines) {
      foot.append(el("tr", {}, el("th", { colspan: 3, scope: "row" }, label, note ? el("span", { class: "muted", text: ` ${note}` }) : null), num(value)));
    }
    foot.append(el("tr", { class: "total" }, el("th", { colspan: 3, scope: "row", text: "Total" }), num(total)));
    return el("table", { class: "pad" }, head, territories(list), foot);
  }

  function signed(value) {
    return value > 0 ? `+${value}` : String(value);
  }

  /** A building whose effects the table lacks: one small "?" that explains itself. */
  function unknownMark(b) {
    const note = el("span", { class: "unknown-note", hidden: true,
      text: ` Some effects of this tile are not in the building table and count as none. If you own the game, give your box's table with --buildings FILE.` });
    const mark = el("button", { type: "button", class: "unknown-mark", "aria-expanded": "false", "aria-label": `${b.name}: effects not all known (explain)`,
      title: "Some effects of this tile are not in the building table: they count as none.", text: "?" });
    mark.addEventListener("click", () => {
      note.hidden = !note.hidden;
      mark.setAttribute("aria-expanded", String(!note.hidden));
    });
    return el("span", {}, " ", mark, note);
  }

  const DECIDED = {
    largest_territory: "Tied on points: the largest territory decided.",
    shared: "Tied on points and largest territory: the victory is shared.",
  };

  /** A pad of a game whose board draws none: its numbers, line by line. */
  function plainPad(pad) {
    const lines = Object.entries(pad).filter(([key, value]) => key !== "total" && typeof value === "number");
    return [el("table", { class: "pad" },
      el("tbody", {}, ...lines.map(([key, value]) => el("tr", {}, el("th", { scope: "row", text: key.replaceAll("_", " ") }), num(value)))),
      el("tfoot", {}, el("tr", { class: "total" }, el("th", { scope: "row", text: "Total" }), num(pad.total))))];
  }

  /** The score pad of a finished `view`: an element. The game's board (boards/*.js) may draw
   * each side's pad (`pad(pad, view)`: elements) and what a game without pads shows
   * (`summary(view, names)`: elements); the rest is the same for every game. */
  function render(view, seatName) {
    const result = view.result;
    const drawer = KK.boards[view.game] || {};
    const names = view.seats.map((seat) => seatName(seat));
    const box = el("div", { class: "scorepad" });
    const teams = result.teams || null;
    // The sides: one per player, or one per team.
    const sides = teams
      ? teams.map((members, r) => ({ members, score: result.team_scores[r], won: result.winning_teams.includes(r), title: `Team ${r + 1}: ${members.map((p) => names[p]).join(" & ")}` }))
      : result.scores.map((score, p) => ({ members: [p], score, won: result.winners.includes(p), title: `Seat ${p + 1}: ${names[p]}` }));
    const order = sides.map((_, i) => i).sort((a, b) => sides[b].score - sides[a].score || Number(sides[b].won) - Number(sides[a].won));
    const unit = view.score_unit || "points"; // the game's own word (gold in Kingdoms)
    const winners = sides.filter((s) => s.won);
    const short = (side) => (teams ? side.title.replace(/:.*/, "") : side.title.replace(/^Seat \d+: /, ""));
    const headline = winners.length === 1 ? `${short(winners[0])} wins with ${winners[0].score} ${unit}.`
      : `Shared victory: ${winners.map(short).join(" and ")}, ${winners[0] ? winners[0].score : ""} ${unit}.`;
    box.append(el("h3", { class: "scorepad-title" }, KK.icon("crown", null, 20), ` ${headline}`));
    const standings = el("ol", { class: "standings" });
    let rank = 0, last = null;
    order.forEach((i, n) => {
      if (sides[i].score !== last) { rank = n + 1; last = sides[i].score; }
      const side = sides[i];
      standings.append(el("li", { class: side.won ? "won" : "" },
        el("span", { class: "rank", text: `${rank}.` }),
        el("span", { class: "kk-chip", style: `background:${KK.playerColour(teams ? i : side.members[0])}` }),
        el("span", { class: "who", text: side.title }),
        el("strong", { class: "score", text: `${side.score} ${unit}` }),
        side.won ? el("span", { class: "win-tag", text: "wins" }) : null));
    });
    box.append(standings);
    if (result.decided_by && DECIDED[result.decided_by]) box.append(el("p", { class: "pad-note", text: DECIDED[result.decided_by] }));

    if (result.breakdown) {
      const pads = el("div", { class: "pads" });
      result.breakdown.forEach((pad, i) => {
        const side = sides[i];
        const card = el("section", { class: `pad-card${side.won ? " won" : ""}`, "aria-label": `score pad of ${side.title}` },
          el("h4", {}, el("span", { class: "kk-chip", style: `background:${KK.playerColour(i)}` }), ` ${side.title}`,
            side.won ? el("span", { class: "win-tag", text: "wins" }) : null,
            el("span", { class: "pad-total", text: `${pad.total}` })));
        card.append(...(drawer.pad ? drawer.pad(pad, view) : plainPad(pad)));
        pads.append(card);
      });
      box.append(pads);
    } else if (drawer.summary) {
      box.append(...drawer.summary(view, names));
    }
    box.append(el("p", { class: "pad-links" },
      el("a", { href: `/api/tables/${view.table}/record`, download: `${view.game}-${view.table}.json`, class: "button-link", text: "⬇ download the record" })));
    return box;
  }

  // The pieces a board's own pads are made of.
  KKP.scorepad = { render, padTable, signed, num, unknownMark };
})();
