// Kingdomino's board: the lines of dominoes with the kings on them, and every kingdom.
// Your turn: tap a domino of the new line to claim it; to place, tap a highlighted square
// (square 1 goes there), turn it with R, tap it again or press Enter to place it.
"use strict";

(() => {
  const { html, kd } = KK;
  const CLAIM = 2, PLACE = 3, OVER = 4; // the engine's phases (games/kingdomino/state.py)

  function crownCount(m, placed) {
    let count = 0;
    for (const [id] of placed) for (const [, c] of m.domino(id).squares) count += c;
    return count;
  }

  function render(ctx) {
    const { view } = ctx;
    const m = kd.model(ctx.parts);
    const s = view.state;
    const acting = s.phase === CLAIM || s.phase === PLACE;
    const mine = view.legal.length > 0;
    const colour = (p) => KK.playerColour(p);
    const seatLabel = (p) => ctx.seatName(p);
    const placer = mine && s.phase === PLACE ? kd.placer(ctx, s.placing[s.turn], m) : null;

    // What to do now, in words, and the buttons that go with it.
    if (placer) {
      ctx.prompt(placer.prompt);
      ctx.tools.append(...placer.tools);
      ctx.ui.keys = placer.keys;
    } else if (mine && s.phase === CLAIM) {
      ctx.prompt("Claim a domino of the new line: tap it.");
    } else if (acting && view.to_act !== null) {
      ctx.prompt(s.phase === PLACE
        ? `${seatLabel(view.to_act)} is placing domino ${m.domino(s.placing[s.turn]).label}.`
        : `${seatLabel(view.to_act)} is choosing a domino.`);
    }

    const items = kd.lineItems(s, { placePhase: PLACE, acting, over: s.phase === OVER, legal: view.legal, printed: (id) => id });
    const info = [];
    if (s.past_scores.length) {
      info.push(html("p", { class: "kk-note", text: `Dynasty: game ${s.game_number + 1} of 3; earlier games: ` +
        s.past_scores.map((scores, g) => `game ${g + 1} ` + scores.map((v, p) => `${seatLabel(p)} ${v}`).join(", ")).join("; ") }));
    }
    const centre = html("div", { class: "kk-centre" });
    if (items.placing.length || items.line.length || info.length) {
      centre.append(html("div", { class: "kk-panel kk-lines-panel" },
        items.placing.length || items.line.length
          ? kd.linesSvg(m, { ...items, colour, seatLabel, act: ctx.act, hint: ctx.hint, placingTitle: "Placing", lineTitle: s.placers.length ? "New line" : "First line" })
          : null,
        ...info));
    }

    // A domino of the line being placed that is already in its kingdom is this round's news.
    const recent = new Set(items.placing.filter((item) => item.inKingdom).map((item) => item.id));
    const cards = html("div", { class: "kk-cards" });
    for (const p of kd.seatOrder(view.seats.length, view.you)) {
      const kingdom = s.kingdoms[p];
      const last = kingdom.placed.find(([id]) => recent.has(id));
      const own = placer && p === view.to_act;
      const drawing = kd.kingdomSvg(m, { placed: kingdom.placed }, {
        colour: colour(p),
        label: `${seatLabel(p)}'s kingdom`,
        recent: last ? [m.xy(last[1]), m.xy(last[2])] : null,
        hot: own ? placer.hot : [],
        ghost: own ? placer.ghost : null,
        suggest: own ? placer.suggest : null,
        onBackground: own ? placer.cancel : null,
      });
      const details = [html("span", { class: "kk-stat", title: "crowns" }, KK.icon("crown", null, 15), ` ${crownCount(m, kingdom.placed)}`)];
      if (kingdom.discarded.length) details.push(html("span", { class: "kk-stat", text: `discarded ${kingdom.discarded.join(", ")}` }));
      cards.append(kd.card({
        colour: colour(p), title: `Seat ${p + 1}: ${seatLabel(p)}`, details, drawing,
        toAct: acting && view.to_act === p, mine: p === view.you,
      }));
    }
    ctx.root.append(html("div", { class: "kk-table kk-kingdomino" }, centre.children.length ? centre : null, cards));
  }

  KK.boards.kingdomino = { render, colour: (view, seat) => KK.playerColour(seat) };
})();
