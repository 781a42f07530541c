// Kingdomino's board, drawn from the view model (docs/view-model.md, "Kingdomino"): the lines
// of dominoes with the kings on them, and every kingdom. Your turn: choose a domino of the
// new line to claim it; to place, choose a highlighted square (square 1 goes there), turn it,
// choose it again to place it. Arrow keys move across a kingdom's squares.
"use strict";

(() => {
  const { html, kd } = KK;
  const MODEL_VERSION = 1; // games/kingdomino/view.py VERSION

  /** Did the focus sit in the board before this drawing? Then it stays there after a move. */
  let focusInBoard = false;
  document.addEventListener("focusin", (event) => {
    const board = document.getElementById("drawn");
    focusInBoard = Boolean(board && board.contains(event.target));
  });

  function render(ctx) {
    const { view } = ctx;
    const model = view.model;
    if (!model || model.version !== MODEL_VERSION) throw new Error(`Kingdomino view model ${model && model.version}, not ${MODEL_VERSION}`);
    const m = kd.model(ctx.parts);
    const acting = model.acting;
    const mine = view.legal.length > 0;
    const colour = (p) => KK.playerColour(p);
    const seatLabel = (p) => ctx.seatName(p);
    const placing = acting && acting.doing === "place" ? model.lines.placing.find((i) => i.acting) : null;
    const placer = mine && placing ? kd.placer(ctx, placing, m) : null;
    const tap = kd.coarse() ? "tap" : "click";
    kd.whenKeys(ctx.redraw);

    // What to do now, in words, and the buttons that go with it.
    if (placer) {
      ctx.prompt(placer.prompt);
      ctx.tools.append(...placer.tools);
      ctx.ui.keys = placer.keys;
    } else if (mine && acting && acting.doing === "claim") {
      ctx.prompt(kd.usingKeys() ? "Claim a domino of the new line: Tab to it, then Enter." : `Claim a domino of the new line: ${tap} it.`);
    } else if (acting && view.status === "running") {
      ctx.prompt(acting.doing === "place"
        ? `${seatLabel(acting.player)} is placing domino ${acting.domino.label}.`
        : `${seatLabel(acting.player)} is choosing a domino.`);
    }

    // The lines: the one being placed, and the new one with its claims.
    const claims = new Map();
    for (const action of view.legal) if (action.move && action.move.kind === "claim") claims.set(action.move.domino, action);
    const over = model.phase === "over";
    const items = {
      placing: model.lines.placing.map((i) => ({
        id: i.domino, label: i.label, squares: i.squares, player: i.king,
        done: over || i.done, current: i.acting, inKingdom: i.done,
      })),
      line: model.lines.new.map((i) => ({
        id: i.domino, label: i.label, squares: i.squares, player: i.king === null ? -1 : i.king,
        claim: i.king === null ? claims.get(i.domino) || null : null,
      })),
    };
    const info = [];
    if (model.dynasty && model.dynasty.past_scores.length) {
      info.push(html("p", { class: "kk-note", text: `Dynasty: game ${model.dynasty.game} of ${model.dynasty.games}; earlier games: ` +
        model.dynasty.past_scores.map((scores, g) => `game ${g + 1} ` + scores.map((v, p) => `${seatLabel(p)} ${v}`).join(", ")).join("; ") }));
    }
    // Wider than a phone: the lines across the top, the kingdoms below as large as the
    // board's width allows, a row of two (or three).
    const across = kd.across();
    const centre = html("div", { class: "kk-centre" });
    if (items.placing.length || items.line.length || info.length) {
      centre.append(html("div", { class: "kk-panel kk-lines-panel" },
        items.placing.length || items.line.length
          ? kd.linesSvg(m, { ...items, colour, seatLabel, act: ctx.act, hint: ctx.hint, across, placingTitle: "Placing", lineTitle: items.placing.length ? "New line" : "First line" })
          : null,
        ...info));
    }

    // Just placed: the latest domino placed (the model's `last`).
    const last = model.last && model.last.placed ? model.last : null;
    const cards = html("div", { class: `kk-cards kk-seats-${model.kingdoms.length}` });
    for (const p of kd.seatOrder(view.seats.length, view.you)) {
      const kingdom = model.kingdoms[p];
      const own = placer && acting.player === p;
      const score = model.scores[p];
      const drawing = kd.kingdomSvg(m, kingdom, {
        colour: colour(p),
        player: p,
        label: `${seatLabel(p)}'s kingdom`,
        recent: last && last.player === p ? last.placed.squares.map((q) => [q.x, q.y]) : null,
        hot: own ? placer.hot : [],
        ghost: own ? placer.ghost : null,
        suggest: own ? placer.suggest : null,
        onBackground: own ? placer.cancel : null,
      });
      const details = [
        html("span", { class: "kk-stat", title: "crowns" }, KK.icon("crown", null, 15), ` ${kingdom.crowns}`),
        html("span", { class: "kk-stat", title: "points as things stand", text: plural(score.total, "point") }),
      ];
      if (kingdom.discarded.length) details.push(html("span", { class: "kk-stat", text: `discarded ${kingdom.discarded.length === 1 ? "domino" : "dominoes"} ${kingdom.discarded.map((d) => d.label).join(", ")}` }));
      cards.append(kd.card({
        colour: colour(p), title: `Seat ${p + 1}: ${seatLabel(p)}`, details, drawing,
        toAct: Boolean(acting) && acting.player === p && view.status === "running", mine: p === view.you,
      }));
    }
    ctx.root.append(html("div", { class: `kk-table kk-kingdomino${across ? " kk-across" : ""}` }, centre.children.length ? centre : null, cards));
    kd.animate(ctx.root, model, { table: `${view.table}:${view.replay ? "replay" : "live"}`, you: view.you });

    // After a move the focused square is gone: keep the focus in the board, on what acts now.
    const hadFocus = focusInBoard;
    queueMicrotask(() => {
      const active = document.activeElement;
      if (!hadFocus || (active && active !== document.body && document.contains(active))) return;
      const next = ctx.root.querySelector(".kk-target.kk-selected, .kk-ghost, .kk-target, .kk-hot") || ctx.tools.querySelector("button");
      if (next) next.focus({ preventScroll: true });
    });
  }

  /** The score pad (scorepad.js): territories, Middle Kingdom, Harmony, total; the tie-break facts. */
  function scorePad(pad, view) {
    const { padTable, signed } = KKP.scorepad;
    const options = view.options;
    const lines = [["Territories", pad.territory_points]];
    if (options.middle_kingdom || pad.middle_kingdom) lines.push(["Middle Kingdom", signed(pad.middle_kingdom), pad.middle_kingdom ? "castle in the centre" : "castle not in the centre"]);
    if (options.harmony || pad.harmony) lines.push(["Harmony", signed(pad.harmony), pad.harmony ? "no domino discarded" : "a domino was discarded"]);
    return [padTable(pad.territories, lines, pad.total),
      el("p", { class: "pad-note", text: `Ties: largest territory ${pad.largest_territory} squares, then ${pad.crowns} crowns.` })];
  }

  /** The dynasty game by game: `standing` holds `past_scores` (the view model's `dynasty`). */
  function dynasty(result, standing, names) {
    const { num } = KKP.scorepad;
    const past = standing.past_scores || [];
    const games = past.map((scores) => scores.slice());
    if (games.length < 3) games.push(result.scores.map((total, p) => total - past.reduce((a, s) => a + s[p], 0)));
    return el("table", { class: "pad pad-wide" },
      el("thead", {}, el("tr", {}, el("th", { text: "" }), ...names.map((n) => el("th", { class: "num", text: n })))),
      el("tbody", {}, ...games.map((scores, g) => el("tr", {}, el("th", { scope: "row", text: `game ${g + 1}` }), ...scores.map((v) => num(v))))),
      el("tfoot", {}, el("tr", { class: "total" }, el("th", { scope: "row", text: "Total" }), ...result.scores.map((v) => num(v)))));
  }

  /** A dynasty's score pad (scorepad.js: a dynasty's result has no pads): game by game. */
  function summary(view, names) {
    if (!view.options.dynasty) return [];
    return [el("h4", { text: "The dynasty, game by game" }), dynasty(view.result, view.model.dynasty || {}, names)];
  }

  KK.boards.kingdomino = { render, pad: scorePad, summary, colour: (view, seat) => KK.playerColour(seat) };
})();
