// Queendomino's board, drawn from the view model (games/queendomino/view.py, docs/view-model.md):
// the Builders' Board (price, building, effects), the pile's face-up top, the Dragon and the
// Queen, the lines of dominoes, and every realm (kingdom, coins, knights, buildings, towers).
// Your turn, by pointing: claim (a domino of the new line), place (as in Kingdomino), tax (a
// square of the domino just placed), build (a building, then a free town square), the Dragon
// (a building to burn); pass and discard are buttons. Moves are read from `action.move` only.
"use strict";

(() => {
  const MODEL_VERSION = 1; // the view model this drawer reads (Queendomino's view_model_version)
  const { svg, html, use, crowns, text, control, button, wrap, kd } = KK;
  const U = kd.U;
  const ACTING = new Set(["claim", "place", "tax", "build", "site", "dragon"]);
  const TERRAIN_WORDS = { wheat: "wheat", forest: "forest", lake: "lake", grassland: "grass", swamp: "swamp", mine: "mine", town: "town" };
  const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const LINES_SCALE = 0.85; // the lines across, in pixels per unit of their drawing

  /** A building's effects in a few words, as lines for its card. */
  function effects(b, terrains) {
    const lines = [];
    if (b.ongoing === "coin_per_knight") lines.push("tax +1 coin/knight");
    if (b.ongoing === "coin_per_tower") lines.push("tax +1 coin/tower");
    const terrain = b.endgame_terrain === null || b.endgame_terrain === undefined ? "?" : TERRAIN_WORDS[terrains[b.endgame_terrain]] || terrains[b.endgame_terrain];
    const end = {
      fixed: `${b.endgame_points} points`,
      per_knight: `${b.endgame_points} pt per knight`,
      per_tower: `${b.endgame_points} pt per tower`,
      per_separate_territory: `${b.endgame_points} pts per ${terrain} area`,
    }[b.endgame];
    if (end) lines.push(end);
    return lines;
  }

  function effectText(b, terrains) {
    const now = [];
    if (b.knights) now.push(`+${b.knights} knight${b.knights > 1 ? "s" : ""}`);
    if (b.towers) now.push(`+${b.towers} tower${b.towers > 1 ? "s" : ""}`);
    if (b.crowns) now.push(`${b.crowns} crown${b.crowns > 1 ? "s" : ""}`);
    return [...now, ...effects(b, terrains)].join(", ");
  }

  /** What the table does not know of an unverified building, and how to load your box's. */
  function unknownText(b, table) {
    const parts = b.unknown && b.unknown.length ? b.unknown.map((u) => `its ${u} effect`).join(" and ") : "some of its effects";
    return `${b.name} (${b.tile}): ${parts} ${b.unknown && b.unknown.length > 1 ? "are" : "is"} not in the ${table && table.source === "shipped" ? "shipped " : ""}building table, so ${b.unknown && b.unknown.length > 1 ? "they count" : "it counts"} as none here. ${table && table.how_to_load ? table.how_to_load : ""}`.trim();
  }

  /** The small mark of a building with effects missing from the table: one "?" that explains
   * itself (a tooltip, and on a tap or Enter the explanation below the Builders' Board). */
  function unknownMark(x, y, b, ctx) {
    const mark = svg("g", { class: "kk-unknown-mark", "data-unknown": b.tile },
      svg("circle", { cx: x, cy: y, r: 9 }), text(x, y + 0.5, "?", { class: "kk-unknown-q" }));
    return control(mark, `effects not known: ${unknownText(b, ctx.parts.buildings_table)}`, () => {
      ctx.keep.explain = ctx.keep.explain === b.index ? undefined : b.index;
      ctx.redraw();
    }, `unknown:${b.tile}`);
  }

  /** Where a card's parts go: tall cards (a phone: three a row, room for the name on two
   * lines and the effects below the icons), or compact ones (wider screens: six in one low row,
   * price and name on the top line, the icons, burn mark and id below, then the effects). */
  const TALL = {
    w: 150, h: 150, perRow: 3,
    coin: [8, 8, 28], price: [22, 22.5], id: [-8, 20], name: [75, 52, 17, 16], gains: [10, 80, 18],
    effects: [75, 118, 15, "middle"], flame: [-38, 66, 30], star: [-14, 40], mark: [-50, 17], empty: [75, 85],
  };
  const COMPACT = {
    w: 150, h: 76, perRow: 6,
    coin: [4, 4, 24], price: [16, 16.5], id: [-6, 38], name: [33, 16.5], gains: [6, 30, 15],
    effects: [6, 60, 13, "start"], flame: [-52, 27, 22], star: [-10, 64], mark: [-13, 16], empty: [75, 44],
  };

  /** The name of a building on one line: a long one is squeezed into `room`. */
  function nameLine(card, x, y, name, room) {
    const attrs = { class: "kk-bb-name", "text-anchor": "start" };
    if (name.length * 7.6 > room) Object.assign(attrs, { textLength: room, lengthAdjust: "spacingAndGlyphs" });
    card.append(text(x, y, name, attrs));
  }

  /** The Builders' Board: six spaces, a space's index is its price. */
  function buildersBoard(ctx, q, plan) {
    const parts = ctx.parts;
    const narrow = ctx.root.parentElement.clientWidth < 760;
    const L = narrow ? TALL : COMPACT;
    const { w, h, perRow } = L;
    const gap = narrow ? 8 : 6;
    const at = (x, [dx]) => (dx < 0 ? x + w + dx : x + dx); // a position from the card's left or right
    const rows = Math.ceil(q.builders_board.length / perRow);
    const width = perRow * w + (perRow - 1) * gap;
    const root = svg("svg", { class: `kk-builders${narrow ? "" : " kk-compact"}`, viewBox: `-2 -2 ${width + 4} ${rows * h + (rows - 1) * gap + 4}`, role: "group", "aria-label": "the Builders' Board" });
    const marks = [];
    for (const { space, price, building } of q.builders_board) {
      const x = (space % perRow) * (w + gap), y = Math.floor(space / perRow) * (h + gap);
      const group = svg("g", { class: "kk-bb-space" + (plan.selected === space ? " kk-selected" : "") + (plan.mode === "burn" ? " kk-burn" : ""), "data-space": space });
      const coin = () => [use("coin", x + L.coin[0], y + L.coin[1], L.coin[2], L.coin[2]), text(x + L.price[0], y + L.price[1], price, { class: "kk-price" })];
      if (building === null) {
        group.append(svg("rect", { x, y, width: w, height: h, rx: 10, class: "kk-bb-empty" }), ...coin(),
          text(x + L.empty[0], y + L.empty[1], "empty", { class: "kk-muted-text" }));
        root.append(group);
        continue;
      }
      const b = parts.buildings[building];
      const card = svg("g", { class: "kk-bb-tile", "data-building": building });
      card.append(svg("rect", { x, y, width: w, height: h, rx: 10, class: "kk-bb-card" }));
      card.append(text(at(x, L.id), y + L.id[1], b.tile, { class: "kk-tile-code", "text-anchor": "end" }));
      if (narrow) {
        wrap(b.name, L.name[3]).slice(0, 2).forEach((line, i) => card.append(text(x + L.name[0], y + L.name[1] + i * L.name[2], line, { class: "kk-bb-name" })));
      } else {
        nameLine(card, x + L.name[0], y + L.name[1], b.name, w - L.name[0] - (b.verified ? 6 : 26));
      }
      // What it gives at once: crowns, knights, towers.
      const [gx, gy, size] = L.gains;
      let ix = x + gx;
      const iy = y + gy;
      if (b.crowns) { card.append(crowns(b.crowns, ix, iy, size)); ix += b.crowns * size + 8; }
      const r = (f) => Math.round(size * f);
      if (b.knights) { card.append(use("knight", ix, iy - 2, size, r(1.1), "#495057"), text(ix + r(1.5), iy + size / 2, `+${b.knights}`, { class: "kk-bb-gain" })); ix += r(2.55); }
      if (b.towers) { card.append(use("tower", ix, iy - 3, r(0.83), r(1.17)), text(ix + r(1.33), iy + size / 2, `+${b.towers}`, { class: "kk-bb-gain" })); ix += r(2.33); }
      if (ix === x + gx) card.append(use("building", narrow ? x + w / 2 - 11 : ix, iy - 3, r(1.22), r(1.22)));
      const lines = effects(b, parts.terrains);
      const [ex, ey, step, anchor] = L.effects;
      lines.forEach((line, i) => card.append(text(x + ex, y + ey + (narrow || lines.length > 1 ? i * step - (narrow ? 0 : step / 2) : 0), line, { class: "kk-bb-effect", "text-anchor": anchor })));
      group.append(card, ...coin());
      const action = plan.actions.get(space);
      if (action) {
        if (action.id === ctx.hint) {
          group.classList.add("kk-hinted");
          group.append(text(at(x, L.star), y + L.star[1], "★", { class: "kk-hint-star" }));
        }
        group.append(svg("rect", { x: x - 1, y: y - 1, width: w + 2, height: h + 2, rx: 11, class: "kk-bb-ring" }));
        if (plan.mode === "burn") group.append(use("flame", at(x, L.flame), y + L.flame[1], L.flame[2], L.flame[2], null, { class: "kk-burn-mark" }));
        const paid = action.move.price !== undefined && action.move.price !== price ? ` (${action.move.price} for you, with the Queen)` : "";
        control(group, `${plan.verb} ${b.name} (${b.tile}, price ${price}${paid}): ${effectText(b, parts.terrains)}`, () => plan.onPick(space, action), `bb:${space}`);
      } else {
        group.prepend(svg("title", { text: `${b.name} (${b.tile}), price ${price}: ${effectText(b, parts.terrains)}` }));
      }
      root.append(group);
      if (!b.verified) marks.push(unknownMark(at(x, L.mark), y + L.mark[1], b, ctx));
    }
    // The marks go above the cards, outside them: a tap on one explains, it never builds.
    root.append(...marks);
    return root;
  }

  /** Buildings and knights of a realm, drawn over its kingdom (under the squares to tap). */
  function holdings(drawing, realm, parts, colour) {
    const layer = svg("g", { class: "kk-holdings" });
    for (const { building, cell } of realm.buildings) {
      const b = parts.buildings[building] || { name: `building ${building}`, crowns: 0, towers: 0, verified: true };
      const { x, y } = cell;
      const note = b.verified ? "" : " (effects partly unknown: see its ? on the Builders' Board)";
      layer.append(svg("g", { class: "kk-building", "data-built": `${x},${y}`, title: `${b.name} (${b.tile})${b.tile ? ": " + effectText(b, parts.terrains) : ""}${note}` },
        svg("rect", { x: x * U + 5, y: y * U + 5, width: U - 10, height: U - 10, rx: 5, fill: "#fff8e8", stroke: "#5b3a1a", "stroke-width": 1.2 }),
        use("building", x * U + 9, y * U + (b.crowns ? 13 : 9), 22, 22),
        b.crowns ? crowns(b.crowns, x * U + 20 - b.crowns * 5.5, y * U + 3, 11) : null,
        b.towers ? use("tower", x * U + 26, y * U + 19, 10, 14) : null));
    }
    for (const { x, y } of realm.knights) {
      layer.append(use("knight", x * U + U - 17, y * U + U - 19, 15, 17, colour, { class: "kk-knight", "data-knight": `${x},${y}` }));
    }
    const before = drawing.querySelector(".kk-recent, .kk-suggest, .kk-target, .kk-ghost");
    drawing.insertBefore(layer, before);
  }

  /** The kings on the lines, for kingdom.js's linesSvg. */
  function lineItems(q, view) {
    const claims = new Map();
    for (const action of view.legal) if (action.move && action.move.kind === "claim") claims.set(action.move.slot, action);
    const placing = q.lines.placing.map((item) => ({
      id: item.domino, label: item.label, squares: item.squares, player: item.king,
      done: item.done, current: item.acting, inKingdom: item.done,
    }));
    if (q.turn && q.phase !== "place" && q.phase !== "claim") {
      // A turn past its place step: its domino is in the kingdom, its king still acting.
      const acting = placing.find((item) => q.turn.domino && item.id === q.turn.domino.domino);
      if (acting) acting.current = true;
    }
    const line = q.lines.new.map((item) => ({
      id: item.domino, label: item.label, squares: item.squares, player: item.king,
      claim: item.king === null ? claims.get(item.slot) || null : null,
    }));
    return { placing, line };
  }

  /** The acting domino, as the placer wants it: its label and printed squares. */
  function placingDomino(q) {
    const item = q.lines.placing.find((i) => i.acting);
    return item ? { id: item.domino, label: item.label, squares: item.squares } : null;
  }

  // -- opponents' moves, animated on the Queendomino-only parts -------------------------------
  // The board is drawn in its final state at once; only the look of a few pieces moves, for
  // MOTION ms, and any click or key ends it (input is never blocked). Reduced motion: none.
  const MOTION = 420;
  const moving = { seen: null, running: [], positions: null };
  function stopMotion() {
    for (const a of moving.running) { try { a.finish(); } catch (e) { /* gone */ } }
    moving.running = [];
  }
  document.addEventListener("pointerdown", stopMotion, true);
  document.addEventListener("keydown", stopMotion, true);

  function screenBox(node) {
    const r = node.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width };
  }

  /** Move `node`'s look from `from` (a screen box) to where it is drawn, or fade it in. */
  function arrive(node, from, delay = 0) {
    if (!node || !node.animate) return;
    const to = screenBox(node);
    const ctm = node.ownerSVGElement && node.ownerSVGElement.getScreenCTM();
    const scale = ctm && ctm.a ? ctm.a : 1;
    node.style.cssText += ";transform-box: fill-box; transform-origin: center;";
    const frames = from && to.w
      ? [{ transform: `translate(${(from.x - to.x) / scale}px, ${(from.y - to.y) / scale}px) scale(${Math.max(0.4, Math.min(2.5, from.w / to.w))})` }, { transform: "none" }]
      : [{ transform: "scale(0.3)", opacity: 0 }, { transform: "none", opacity: 1 }];
    const a = node.animate(frames, { duration: MOTION, delay, easing: "ease-out", fill: "backwards" });
    moving.running.push(a);
    a.finished.then(() => { moving.running = moving.running.filter((x) => x !== a); }, () => {});
  }

  /** Play the latest decision of someone else (`q.last`) on the drawing in `root`, once. */
  function animateLast(root, q, view, before) {
    const last = q.last;
    const key = `${view.table}:${view.version}`;
    if (moving.seen === key) return;
    const first = moving.seen === null || !moving.seen.startsWith(`${view.table}:`);
    moving.seen = key;
    if (first || !last || last.player === view.you || view.replay) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const realm = root.querySelector(`[data-realm="${last.realm}"]`);
    if (last.kind === "site" && realm) {
      const source = before.get(`bb:${last.space}`);
      arrive(realm.querySelector(`[data-built="${last.cell.x},${last.cell.y}"]`), source);
    } else if (last.kind === "knight" && realm) {
      arrive(realm.querySelector(`[data-knight="${last.cell.x},${last.cell.y}"]`), before.get(`guard:${last.realm}`));
    } else if (last.kind === "burn") {
      const space = root.querySelector(`[data-space="${last.space}"]`);
      if (space) {
        const box = space.getBBox();
        const flame = use("flame", box.x + box.width / 2 - 30, box.y + box.height / 2 - 30, 60, 60, null, { class: "kk-burning", "pointer-events": "none" });
        space.ownerSVGElement.append(flame);
        const a = flame.animate([{ opacity: 1, transform: "scale(1)" }, { opacity: 0, transform: "scale(1.6)" }], { duration: MOTION * 1.5, easing: "ease-in" });
        flame.style.cssText = "transform-box: fill-box; transform-origin: center; opacity: 0";
        moving.running.push(a);
        a.finished.then(() => flame.remove(), () => flame.remove());
      }
    }
    if (last.queen) {
      const to = root.querySelector(`[data-queen-at="${last.queen.to}"]`);
      const from = last.queen.from === null ? before.get("queen:board") : before.get(`queen:${last.queen.from}`);
      arrive(to, from, MOTION / 2);
    }
    (last.arrived || []).forEach(({ space }, i) => {
      const tile = root.querySelector(`[data-space="${space}"] .kk-bb-tile`);
      arrive(tile, before.get("top"), MOTION + i * MOTION);
    });
    if (last.turned_up !== undefined) arrive(root.querySelector(".kk-top-tile"), null, MOTION * (1 + (last.arrived || []).length));
  }

  /** Where the pieces that may move next stand, relative to the drawing's holder (kept
   * after each drawing: the next one starts from an empty holder). */
  function positionsOf(root) {
    const found = new Map();
    const origin = root.getBoundingClientRect();
    const put = (key, node) => {
      if (!node) return;
      const box = screenBox(node);
      found.set(key, { x: box.x - origin.left, y: box.y - origin.top, w: box.w });
    };
    root.querySelectorAll("[data-space]").forEach((n) => put(`bb:${n.dataset.space}`, n));
    root.querySelectorAll("[data-guard]").forEach((n) => put(`guard:${n.dataset.guard}`, n));
    root.querySelectorAll("[data-queen-at]").forEach((n) => put(`queen:${n.dataset.queenAt}`, n));
    put("queen:board", root.querySelector(".kk-queen-stat"));
    put("top", root.querySelector(".kk-top-tile"));
    return found;
  }

  /** The positions kept from the last drawing, back on the screen as `root` lies now. */
  function onScreen(root, kept) {
    const origin = root.getBoundingClientRect();
    const found = new Map();
    for (const [key, box] of kept || []) found.set(key, { x: box.x + origin.left, y: box.y + origin.top, w: box.w });
    return found;
  }

  // -- the board ----------------------------------------------------------------------------
  function render(ctx) {
    const { view, parts, ui, keep } = ctx;
    const q = view.model;
    if (!q || q.version !== MODEL_VERSION) throw new Error(`this page draws Queendomino's view model ${MODEL_VERSION}, not ${q ? q.version : "none"}: reload it`);
    const m = kd.model(parts);
    const teams = q.teams;
    const realmOf = (p) => (teams ? Math.floor(p / 2) : p);
    const seatLabel = (p) => ctx.seatName(p);
    const colour = (p) => KK.playerColour(realmOf(p));
    const acting = ACTING.has(q.phase);
    const legal = view.legal;
    const mine = legal.length > 0;
    const me = mine ? view.to_act : null;
    const myRealm = me === null ? null : realmOf(me);
    const buildingName = (index) => (parts.buildings[index] ? parts.buildings[index].name : `building ${index}`);
    const moves = (kind) => legal.filter((a) => a.move && a.move.kind === kind);
    const passAction = moves("pass")[0];
    const tap = kd.coarse() ? "tap" : "click";

    let hot = [], ghost = null, onBackground = null, keys = null, suggest = null;
    const plan = { actions: new Map(), mode: null, verb: "", selected: null, onPick: () => {} };
    const tools = [];
    let prompt = "";

    if (mine && q.phase === "place") {
      const placer = kd.placer(ctx, placingDomino(q), m);
      ({ hot, ghost, keys, suggest } = placer);
      onBackground = placer.cancel;
      prompt = placer.prompt;
      tools.push(...placer.tools);
    } else if (mine && q.phase === "claim") {
      prompt = `Claim a domino of the new line: ${tap} it.`;
    } else if (mine && q.phase === "tax") {
      const guard = q.realms[myRealm].guard;
      for (const action of moves("knight")) {
        const { cell, coins, square } = action.move;
        hot.push({ x: cell.x, y: cell.y, key: `tax:${square}`, badge: `+${coins}`, icon: "knight", onClick: () => ctx.act(action.id), hinted: action.id === ctx.hint,
          label: `send a knight to square ${square} of the domino just placed for ${plural(coins, "coin")}` });
      }
      prompt = `Tax: send a knight (${guard} in your guard) onto a square of the domino just placed — ${tap} it — or pass.`;
      if (passAction) tools.push(button("Pass (no knight)", () => ctx.act(passAction.id), { class: "kk-tool secondary", "data-key": "tool:pass" }));
    } else if (mine && q.phase === "build") {
      for (const action of moves("build")) plan.actions.set(action.move.space, action);
      if (ui.build !== undefined && !plan.actions.has(ui.build)) delete ui.build;
      plan.mode = "build";
      plan.verb = "build";
      const coins = q.realms[myRealm].coins;
      const cancel = () => { if (ui.build !== undefined) { delete ui.build; ctx.redraw(); } };
      if (ui.build !== undefined) {
        const space = ui.build;
        const action = plan.actions.get(space);
        const name = buildingName(action.move.building);
        plan.selected = space;
        hot = q.realms[myRealm].free_towns.map(({ x, y }) => ({ x, y, key: `site:${x},${y}`, label: `build the ${name} ${kd.where(x, y)}`,
          onClick: () => { keep.site = { cell: `${x},${y}`, version: view.version + 1 }; ctx.act(action.id); } }));
        prompt = `Build the ${name}: ${tap} a free town square of your kingdom.`;
        tools.push(button("Choose the square next", () => ctx.act(action.id), { class: "kk-tool secondary", "data-key": "tool:later" }),
          button("Cancel", cancel, { class: "kk-tool secondary", "aria-keyshortcuts": "Escape", "data-key": "tool:cancel" }));
        onBackground = cancel;
      } else {
        prompt = `Build: ${tap} a building you can pay for (you have ${plural(coins, "coin")}), or pass.`;
      }
      plan.onPick = (space) => {
        if (ui.build === space) delete ui.build; else ui.build = space;
        ctx.redraw();
      };
      keys = (event) => {
        if (event.key === "Escape" && ui.build !== undefined) { cancel(); return true; }
        return false;
      };
      if (passAction) tools.push(button("Pass (build nothing)", () => ctx.act(passAction.id), { class: "kk-tool secondary", "data-key": "tool:pass" }));
    } else if (mine && q.phase === "site") {
      const name = buildingName(q.turn.building);
      let planned = null;
      for (const action of moves("site")) {
        const { x, y } = action.move.cell;
        const key = `${x},${y}`;
        if (keep.site && keep.site.version === view.version && keep.site.cell === key) planned = action;
        hot.push({ x, y, key: `site:${key}`, label: `build the ${name} ${kd.where(x, y)}`, onClick: () => ctx.act(action.id), hinted: action.id === ctx.hint });
      }
      prompt = `Where does the ${name} go? ${tap[0].toUpperCase()}${tap.slice(1)} a free town square.`;
      if (planned) {
        delete keep.site;
        const version = view.version;
        setTimeout(() => { if (ctx.view.version === version) ctx.act(planned.id); }, 0);
      }
    } else if (mine && q.phase === "dragon") {
      for (const action of moves("burn")) plan.actions.set(action.move.space, action);
      plan.mode = "burn";
      plan.verb = "burn";
      plan.onPick = (space, action) => ctx.act(action.id);
      prompt = `The Dragon: pay 1 coin to burn a building of the Builders' Board (${tap} it), or pass.`;
      if (passAction) tools.push(button("Pass (let the Dragon sleep)", () => ctx.act(passAction.id), { class: "kk-tool secondary", "data-key": "tool:pass" }));
    } else if (acting && view.to_act !== null) {
      const who = seatLabel(view.to_act);
      const domino = q.turn && q.turn.domino ? q.turn.domino.label : "";
      prompt = {
        claim: `${who} is choosing a domino.`,
        place: `${who} is placing domino ${domino}.`,
        tax: `${who} may send a knight to collect taxes.`,
        build: `${who} may build.`,
        site: `${who} is choosing where to build the ${q.turn ? buildingName(q.turn.building) : "building"}.`,
        dragon: `${who} may call the Dragon.`,
      }[q.phase] || "";
    }
    if (keep.site && keep.site.version < view.version) delete keep.site;
    ctx.prompt(prompt);
    ctx.tools.append(...tools);
    ui.keys = keys;

    // The Builders' Board, the pile's top, the Dragon and the Queen.
    const queen = q.queen !== null ? (teams ? `team ${q.queen + 1}` : seatLabel(q.queen)) : "nobody yet";
    const top = q.top ? parts.buildings[q.top.building] : null;
    const explained = keep.explain !== undefined ? parts.buildings[keep.explain] : null;
    const board = html("div", { class: "kk-panel kk-builders-panel" },
      html("div", { class: "kk-panel-head" },
        html("h4", { text: "Builders' Board" }),
        html("span", { class: "kk-stat", title: "the Dragon" }, KK.icon("flame", null, 16),
          q.dragon === "cave" ? " Dragon in its cave" : " Dragon away this round"),
        html("span", { class: "kk-stat kk-queen-stat", title: "the Queen" }, KK.icon("queen", null, 16), ` Queen: ${queen}`),
        html("span", { class: "kk-stat kk-muted", text: `${plural(q.pile + (q.top ? 1 : 0), "building")} in the pile` }),
        // The pile lies face up: everyone sees the next building to come (rulebook, Set up).
        top ? html("span", { class: "kk-stat kk-pile-top kk-top-tile", title: `the face-up top of the pile, the next building to come: ${effectText(top, parts.terrains)}` },
          `Next: ${top.tile} ${top.name}`) : null),
      buildersBoard(ctx, q, plan),
      explained ? html("p", { class: "kk-unknown-note", role: "note" },
        html("strong", { text: "? " }), unknownText(explained, parts.buildings_table), " ",
        button("OK", () => { delete keep.explain; ctx.redraw(); }, { class: "kk-tool secondary", "data-key": "tool:explained" })) : null);

    const items = lineItems(q, view);
    let lines = null;
    if (items.placing.length || items.line.length) {
      const drawn = kd.linesSvg(m, { ...items, colour, seatLabel, act: ctx.act, hint: ctx.hint, across: kd.across(), placingTitle: "Placing", lineTitle: q.lines.placing.length ? "New line" : "First line" });
      // Across, a little below their natural size: the Builders' Board takes a row above them.
      if (kd.across()) drawn.style.maxWidth = `${Math.round(drawn.viewBox.baseVal.width * LINES_SCALE)}px`;
      lines = html("div", { class: "kk-centre" }, html("div", { class: "kk-panel" }, drawn));
    }

    // The realms: yours first.
    const mineRealm = view.you === null || view.you === undefined ? null : realmOf(view.you);
    const placingIds = new Set(q.lines.placing.filter((i) => i.done).map((i) => i.domino));
    const cards = html("div", { class: `kk-cards kk-seats-${q.realms.length}` });
    for (const r of kd.seatOrder(q.realms.length, mineRealm)) {
      const realm = q.realms[r];
      // The realm's latest domino of this round: the one to mark "just placed".
      const fresh = realm.kingdom.pieces.filter((p) => placingIds.has(p.domino)).pop();
      const own = r === myRealm;
      const drawing = kd.kingdomSvg(m, realm.kingdom, {
        colour: KK.playerColour(r),
        player: r,
        label: `the realm of ${realm.players.map(seatLabel).join(" and ")}`,
        recent: fresh ? fresh.squares.map((s) => [s.x, s.y]) : null,
        hot: own ? hot : [],
        ghost: own ? ghost : null,
        suggest: own ? suggest : null,
        onBackground: own ? onBackground : null,
      });
      drawing.dataset.realm = r;
      holdings(drawing, realm, parts, KK.playerColour(r));
      const details = [
        html("span", { class: "kk-stat", title: "coins" }, KK.icon("coin", null, 16), ` ${realm.coins}`),
        html("span", { class: "kk-stat", title: "knights in the guard", "data-guard": r }, KK.icon("knight", KK.playerColour(r), 16), ` ${realm.guard}`),
        html("span", { class: "kk-stat", title: "towers" }, KK.icon("tower", null, 16), ` ${realm.towers}`),
        html("span", { class: "kk-stat", title: "points as things stand" }, KK.icon("crown", null, 15), ` ${realm.score}`),
      ];
      if (realm.queen) details.unshift(html("span", { class: "kk-stat kk-queen", title: "hosts the Queen", "data-queen-at": r }, KK.icon("queen", null, 16), " Queen"));
      const title = teams ? `Team ${r + 1}: ${realm.players.map((p) => `${p + 1}. ${seatLabel(p)}`).join(" & ")}` : `Seat ${r + 1}: ${seatLabel(r)}`;
      cards.append(kd.card({
        colour: KK.playerColour(r), title, details, drawing,
        toAct: acting && view.to_act !== null && realmOf(view.to_act) === r, mine: r === mineRealm,
      }));
    }
    // On a narrow screen, what your step acts on comes first, the prompt's buttons above it:
    // the new line to claim from, your kingdom to place, tax or build on, or the Builders'
    // Board to build from or burn.
    const builders = html("div", { class: "kk-centre kk-wide" }, board);
    if (mine && ctx.root.parentElement.clientWidth < 760) {
      const first = { claim: lines, place: cards, tax: cards, site: cards, build: ui.build === undefined ? builders : cards, dragon: builders }[q.phase];
      if (first) first.style.cssText = "order: -1";
    }
    ctx.root.append(html("div", { class: `kk-table kk-queendomino${kd.across() ? " kk-across" : ""}` }, builders, lines, cards));
    // Kingdom.js's own moves (a domino sliding in, a king claiming), on the shared parts.
    kd.animate(ctx.root, { kingdoms: q.realms.map((r) => r.kingdom), lines: q.lines }, { table: view.table, you: mineRealm });
    const kept = moving.positions;
    moving.positions = positionsOf(ctx.root);
    animateLast(ctx.root, q, view, onScreen(ctx.root, kept));
  }

  /** The score pad (scorepad.js): territories, the Queen, buildings, wealth, total. */
  function scorePad(pad) {
    const { padTable, signed, num, unknownMark } = KKP.scorepad;
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

  KK.boards.queendomino = {
    render,
    pad: scorePad,
    colour: (view, seat) => KK.playerColour(view.options.teams ? Math.floor(seat / 2) : seat),
  };
})();
