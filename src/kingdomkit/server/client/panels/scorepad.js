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

  /** Kingdomino: territories, Middle Kingdom, Harmony, total; the tie-break facts. */
  function kingdominoPad(pad, options) {
    const lines = [["Territories", pad.territory_points]];
    if (options.middle_kingdom || pad.middle_kingdom) lines.push(["Middle Kingdom", signed(pad.middle_kingdom), pad.middle_kingdom ? "castle in the centre" : "castle not in the centre"]);
    if (options.harmony || pad.harmony) lines.push(["Harmony", signed(pad.harmony), pad.harmony ? "no domino discarded" : "a domino was discarded"]);
    return [padTable(pad.territories, lines, pad.total),
      el("p", { class: "pad-note", text: `Ties: largest territory ${pad.largest_territory} squares, then ${pad.crowns} crowns.` })];
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

  /** Queendomino: territories, the Queen, buildings, wealth, total. */
  function queendominoPad(pad) {
    const territoryPoints = Object.values(pad.terrain_points).reduce((a, b) => a + b, 0);
    const lines = [["Territories", territoryPoints]];
    lines.push(["The Queen", signed(pad.queen), pad.queen_territory ? `a crown more on the largest ${pad.queen_territory} territory` : "not hosted"]);
    lines.push(["Buildings", signed(pad.building_points), `${plural(pad.buildings.length, "building")}`]);
    lines.push(["Wealth", signed(pad.wealth), `${plural(pad.coins, "coin")}, 1 point per 3`]);
    const parts = [padTable(pad.territories, lines, pad.total)];
    if (pad.buildings.length) {
      parts.push(el("table", { class: "pad pad-buildings" },
        el("thead", {}, el("tr", {}, el("th", { text: "building" }), el("th", { class: "num", text: "points" }))),
        el("tbody", {}, ...pad.buildings.map((b) => el("tr", {},
          el("td", {}, `${b.name} `, el("span", { class: "muted", text: b.building }), b.verified ? null : unknownMark(b)),
          num(signed(b.points)))))));
    }
    parts.push(el("p", { class: "pad-note", text: `Ties: largest territory ${pad.largest_territory} squares.` }));
    return parts;
  }

  /** Kingdomino's dynasty: each game's scores and the sum. */
  /** The dynasty game by game: `standing` holds `past_scores` (the view model's `dynasty`). */
  function dynasty(result, standing, names) {
    const past = standing.past_scores || [];
    const games = past.map((scores) => scores.slice());
    if (games.length < 3) games.push(result.scores.map((total, p) => total - past.reduce((a, s) => a + s[p], 0)));
    return el("table", { class: "pad pad-wide" },
      el("thead", {}, el("tr", {}, el("th", { text: "" }), ...names.map((n) => el("th", { class: "num", text: n })))),
      el("tbody", {}, ...games.map((scores, g) => el("tr", {}, el("th", { scope: "row", text: `game ${g + 1}` }), ...scores.map((v) => num(v))))),
      el("tfoot", {}, el("tr", { class: "total" }, el("th", { scope: "row", text: "Total" }), ...result.scores.map((v) => num(v)))));
  }

  /** Kingdoms' score sheets, epoch by epoch and line by line, read from the game's record
   * (its `score` and `epoch_end` events): an element filled once the record arrives. */
  function kingdomsSheets(view, names) {
    const holder = el("div", { class: "pad-sheets", text: "Loading the score sheets…" });
    fetch(`/api/tables/${view.table}/record`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`the server answered ${response.status}`))))
      .then((record) => {
        holder.replaceChildren();
        let lines = [];
        for (const event of record.events) {
          if (event.type === "score") lines.push(event);
          if (event.type !== "epoch_end") continue;
          const signed = (g) => (g > 0 ? `+${g}` : `${g}`);
          holder.append(el("table", { class: "pad pad-wide" },
            el("thead", {}, el("tr", {}, el("th", { text: `Epoch ${event.epoch}` }), ...names.map((n) => el("th", { class: "num", text: n })))),
            el("tbody", {}, ...lines.map((line) => el("tr", {}, el("th", { scope: "row", text: line.line }), ...line.gold.map((g) => num(signed(g)))))),
            el("tfoot", {}, el("tr", { class: "total" }, el("th", { scope: "row", text: "Gold after the epoch" }), ...event.gold.map((g) => num(g))))));
          lines = [];
        }
      })
      .catch((error) => { holder.textContent = `The score sheets could not be read: ${error.message}.`; });
    return holder;
  }

  const DECIDED = {
    largest_territory: "Tied on points: the largest territory decided.",
    shared: "Tied on points and largest territory: the victory is shared.",
  };

  /** The score pad of a finished `view`: an element. */
  function render(view, seatName) {
    const result = view.result;
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
        card.append(...(view.game === "queendomino" ? queendominoPad(pad) : kingdominoPad(pad, view.options)));
        pads.append(card);
      });
      box.append(pads);
    } else if (view.game === "kingdomino" && view.options.dynasty) {
      box.append(el("h4", { text: "The dynasty, game by game" }), dynasty(result, view.model.dynasty || {}, names));
    } else if (view.game === "kingdoms") {
      box.append(el("p", { class: "pad-note", text: `Gold after ${plural(result.epochs, "epoch")}: at the end of each epoch, every castle earns its rank times the tiles of its row and column.` }));
      box.append(kingdomsSheets(view, names));
    }
    box.append(el("p", { class: "pad-links" },
      el("a", { href: `/api/tables/${view.table}/record`, download: `${view.game}-${view.table}.json`, class: "button-link", text: "⬇ download the record" })));
    return box;
  }

  KKP.scorepad = { render };
})();
