// Queendomino's board: the Builders' Board (price, building, effects), the Dragon and the
// Queen, the lines of dominoes, and every realm (kingdom, coins, knights, buildings, towers).
// Your turn, by pointing: claim (tap a domino of the new line), place (as in Kingdomino),
// tax (tap a square of the domino just placed), build (tap a building, then a free town
// square), the Dragon (tap a building to burn); pass and discard are buttons.
"use strict";

(() => {
  const { svg, html, use, crowns, text, control, button, wrap, kd } = KK;
  // The engine's phases (games/queendomino/state.py).
  const CLAIM = 3, PLACE = 4, TAX = 5, BUILD = 6, SITE = 7, DRAGON = 8, OVER = 9;
  const ACTING = new Set([CLAIM, PLACE, TAX, BUILD, SITE, DRAGON]);
  const TERRAIN_WORDS = { wheat: "wheat", forest: "forest", lake: "lake", grassland: "grass", swamp: "swamp", mine: "mine", town: "town" };

  function bitCount(value) {
    let count = 0;
    for (const digit of Math.max(0, value).toString(2)) if (digit === "1") count++;
    return count;
  }

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
    return [...now, ...effects(b, terrains)].join(", ") + (b.verified ? "" : " (unverified)");
  }

  /** The Builders' Board: six spaces, a space's index is its price. */
  function buildersBoard(ctx, parts, s, plan) {
    const narrow = ctx.root.parentElement.clientWidth < 760;
    const perRow = narrow ? 3 : 6;
    const w = 150, h = 164, gap = 8;
    const rows = Math.ceil(s.board.length / perRow);
    const width = perRow * w + (perRow - 1) * gap;
    const root = svg("svg", { class: "kk-builders", viewBox: `-2 -2 ${width + 4} ${rows * h + (rows - 1) * gap + 4}`, role: "group", "aria-label": "the Builders' Board" });
    s.board.forEach((index, space) => {
      const x = (space % perRow) * (w + gap), y = Math.floor(space / perRow) * (h + gap);
      const group = svg("g", { class: "kk-bb-space" + (plan.selected === space ? " kk-selected" : "") + (plan.mode === "burn" ? " kk-burn" : "") });
      if (index < 0) {
        group.append(svg("rect", { x, y, width: w, height: h, rx: 10, class: "kk-bb-empty" }),
          use("coin", x + 8, y + 8, 28, 28), text(x + 22, y + 22.5, space, { class: "kk-price" }),
          text(x + w / 2, y + h / 2 + 10, "empty", { class: "kk-muted-text" }));
        root.append(group);
        return;
      }
      const b = parts.buildings[index];
      group.append(svg("rect", { x, y, width: w, height: h, rx: 10, class: "kk-bb-card" }));
      group.append(use("coin", x + 8, y + 8, 28, 28), text(x + 22, y + 22.5, space, { class: "kk-price" }));
      group.append(text(x + w - 8, y + 20, b.tile, { class: "kk-tile-code", "text-anchor": "end" }));
      wrap(b.name, 16).slice(0, 2).forEach((line, i) => group.append(text(x + w / 2, y + 52 + i * 17, line, { class: "kk-bb-name" })));
      // What it gives at once: crowns, knights, towers.
      let ix = x + 10;
      const iy = y + 80;
      if (b.crowns) { group.append(crowns(b.crowns, ix, iy, 18)); ix += b.crowns * 18 + 8; }
      if (b.knights) { group.append(use("knight", ix, iy - 2, 18, 20, "#495057"), text(ix + 27, iy + 9, `+${b.knights}`, { class: "kk-bb-gain" })); ix += 46; }
      if (b.towers) { group.append(use("tower", ix, iy - 3, 15, 21), text(ix + 24, iy + 9, `+${b.towers}`, { class: "kk-bb-gain" })); ix += 42; }
      if (ix === x + 10) group.append(use("building", x + w / 2 - 11, iy - 3, 22, 22));
      effects(b, parts.terrains).forEach((line, i) => group.append(text(x + w / 2, y + 118 + i * 15, line, { class: "kk-bb-effect" })));
      if (!b.verified) group.append(text(x + w / 2, y + h - 10, "(unverified)", { class: "kk-unverified" }));
      const action = plan.actions.get(space);
      if (action) {
        if (action.id === ctx.hint) {
          group.classList.add("kk-hinted");
          group.append(text(x + w - 14, y + 40, "★", { class: "kk-hint-star" }));
        }
        group.append(svg("rect", { x: x - 1, y: y - 1, width: w + 2, height: h + 2, rx: 11, class: "kk-bb-ring" }));
        if (plan.mode === "burn") group.append(use("flame", x + w - 40, y + h - 46, 32, 32, null, { class: "kk-burn-mark" }));
        control(group, `${plan.verb} ${b.name} (${b.tile}, price ${space}): ${effectText(b, parts.terrains)}`, () => plan.onPick(space, action), `bb:${space}`);
      } else {
        group.prepend(svg("title", { text: `${b.name} (${b.tile}), price ${space}: ${effectText(b, parts.terrains)}` }));
      }
      root.append(group);
    });
    return root;
  }

  function render(ctx) {
    const { view, parts, ui, keep } = ctx;
    const m = kd.model(parts);
    const s = view.state;
    const teams = Boolean(view.options.teams);
    const realmOf = (p) => (teams ? Math.floor(p / 2) : p);
    const colour = (p) => KK.playerColour(realmOf(p));
    const seatLabel = (p) => ctx.seatName(p);
    const acting = ACTING.has(s.phase);
    const mine = view.legal.length > 0;
    const me = mine ? view.to_act : null;
    const myRealm = me === null ? null : realmOf(me);
    const town = m.terrains.indexOf("town");
    const printed = (id) => Number(String(m.domino(id).label).replace(/^\D+/, ""));
    const buildingName = (index) => parts.buildings[index] ? parts.buildings[index].name : `building ${index}`;
    const passAction = view.legal.find((a) => a.events.some((e) => e.type === "pass"));
    const tileSpace = (tile) => s.board.findIndex((index) => index >= 0 && parts.buildings[index].tile === tile);

    let hot = [], ghost = null, onBackground = null, keys = null, suggest = null;
    const plan = { actions: new Map(), mode: null, verb: "", selected: null, onPick: () => {} };
    const tools = [];
    let prompt = "";

    if (mine && s.phase === PLACE) {
      const placer = kd.placer(ctx, s.placing[s.turn], m);
      ({ hot, ghost, keys, suggest } = placer);
      onBackground = placer.cancel;
      prompt = placer.prompt;
      tools.push(...placer.tools);
    } else if (mine && s.phase === CLAIM) {
      prompt = "Claim a domino of the new line: tap it.";
    } else if (mine && s.phase === TAX) {
      const guard = s.realms[myRealm].guard;
      for (const action of view.legal) {
        for (const e of action.events) {
          if (e.type !== "tax") continue;
          hot.push({ x: e.cell[0], y: e.cell[1], key: `tax:${e.cell.join()}`, badge: `+${e.coins}`, icon: "knight", onClick: () => ctx.act(action.id), hinted: action.id === ctx.hint,
            label: `send a knight to ${e.cell.join()} for ${e.coins} coin${e.coins === 1 ? "" : "s"}` });
        }
      }
      prompt = `Tax: send a knight (${guard} in your guard) onto a square of the domino just placed — tap it — or pass.`;
      if (passAction) tools.push(button("Pass (no knight)", () => ctx.act(passAction.id), { class: "kk-tool secondary" }));
    } else if (mine && s.phase === BUILD) {
      for (const action of view.legal) {
        const tile = (action.notation.match(/\bB\d+\b/) || [])[0]; // the engine notation names the tile
        const space = tile ? tileSpace(tile) : -1;
        if (space >= 0) plan.actions.set(space, action);
      }
      if (ui.build !== undefined && !plan.actions.has(ui.build)) delete ui.build;
      plan.mode = "build";
      plan.verb = "build";
      const coins = s.realms[myRealm].coins;
      const cancel = () => { if (ui.build !== undefined) { delete ui.build; ctx.redraw(); } };
      if (ui.build !== undefined) {
        const space = ui.build;
        const action = plan.actions.get(space);
        const realm = s.realms[myRealm];
        const built = new Set(realm.buildings.map(([, cell]) => m.xy(cell).join()));
        const towns = [];
        for (const [id, c1, c2] of realm.placed) {
          m.domino(id).squares.forEach(([terrain], i) => {
            const xy = m.xy(i ? c2 : c1);
            if (terrain === town && !built.has(xy.join())) towns.push(xy);
          });
        }
        plan.selected = space;
        const name = buildingName(s.board[space]);
        hot = towns.map(([x, y]) => ({ x, y, key: `site:${x},${y}`, label: `build the ${name} at ${x},${y}`,
          onClick: () => { keep.site = { cell: `${x},${y}`, version: view.version + 1 }; ctx.act(action.id); } }));
        prompt = `Build the ${name}: tap a free town square of your kingdom (Esc cancels).`;
        tools.push(button("Choose the square next", () => ctx.act(action.id), { class: "kk-tool secondary" }),
          button("Cancel (Esc)", cancel, { class: "kk-tool secondary" }));
        onBackground = cancel;
      } else {
        prompt = `Build: tap a building you can pay for (you have ${coins} coin${coins === 1 ? "" : "s"}), or pass.`;
      }
      plan.onPick = (space) => {
        if (ui.build === space) delete ui.build; else ui.build = space;
        ctx.redraw();
      };
      keys = (event) => {
        if (event.key === "Escape" && ui.build !== undefined) { cancel(); return true; }
        return false;
      };
      if (passAction) tools.push(button("Pass (build nothing)", () => ctx.act(passAction.id), { class: "kk-tool secondary" }));
    } else if (mine && s.phase === SITE) {
      const name = s.chosen >= 0 ? buildingName(s.board[s.chosen]) : "building";
      let planned = null;
      for (const action of view.legal) {
        for (const e of action.events) {
          if (e.type !== "build") continue;
          const key = e.cell.join();
          if (keep.site && keep.site.version === view.version && keep.site.cell === key) planned = action;
          hot.push({ x: e.cell[0], y: e.cell[1], key: `site:${key}`, label: `build the ${name} at ${key}`, onClick: () => ctx.act(action.id), hinted: action.id === ctx.hint });
        }
      }
      prompt = `Where does the ${name} go? Tap a free town square.`;
      if (planned) {
        delete keep.site;
        const version = view.version;
        setTimeout(() => { if (ctx.view.version === version) ctx.act(planned.id); }, 0);
      }
    } else if (mine && s.phase === DRAGON) {
      for (const action of view.legal) {
        for (const e of action.events) if (e.type === "burn") plan.actions.set(tileSpace(e.building), action);
      }
      plan.mode = "burn";
      plan.verb = "burn";
      plan.onPick = (space, action) => ctx.act(action.id);
      prompt = "The Dragon: pay 1 coin to burn a building of the Builders' Board (tap it), or pass.";
      if (passAction) tools.push(button("Pass (let the Dragon sleep)", () => ctx.act(passAction.id), { class: "kk-tool secondary" }));
    } else if (acting && view.to_act !== null) {
      const who = seatLabel(view.to_act);
      prompt = {
        [CLAIM]: `${who} is choosing a domino.`,
        [PLACE]: `${who} is placing domino ${s.placing.length ? m.domino(s.placing[s.turn]).label : ""}.`,
        [TAX]: `${who} may send a knight to collect taxes.`,
        [BUILD]: `${who} may build.`,
        [SITE]: `${who} is choosing where to build.`,
        [DRAGON]: `${who} may call the Dragon.`,
      }[s.phase] || "";
    }
    if (keep.site && keep.site.version < view.version) delete keep.site;
    ctx.prompt(prompt);
    ctx.tools.append(...tools);
    ui.keys = keys;

    // The Builders' Board, the Dragon and the Queen.
    const queen = s.queen >= 0 ? (teams ? `team ${s.queen + 1}` : seatLabel(s.queen)) : "nobody yet";
    const board = html("div", { class: "kk-panel kk-builders-panel" },
      html("div", { class: "kk-panel-head" },
        html("h4", { text: "Builders' Board" }),
        html("span", { class: "kk-stat", title: "the Dragon" }, KK.icon("flame", null, 16),
          s.dragon_ready ? " Dragon in its cave" : " Dragon away this round"),
        html("span", { class: "kk-stat", title: "the Queen" }, KK.icon("queen", null, 16), ` Queen: ${queen}`),
        html("span", { class: "kk-stat kk-muted", text: `${bitCount(s.pile) + (s.top >= 0 ? 1 : 0)} buildings in the pile` }),
        // The pile lies face up: everyone sees the next building to come (rulebook, Set up).
        s.top >= 0 ? html("span", { class: "kk-stat kk-pile-top", title: "the face-up top of the pile: the next building to come" },
          `Next: ${(parts.buildings[s.top] || {}).tile || ""} ${(parts.buildings[s.top] || {}).name || ""}`) : null),
      buildersBoard(ctx, parts, s, plan));

    const items = kd.lineItems(s, { placePhase: PLACE, acting, over: s.phase === OVER, legal: view.legal, printed });
    const lines = items.placing.length || items.line.length ? html("div", { class: "kk-centre" }, html("div", { class: "kk-panel" },
      kd.linesSvg(m, { ...items, colour, seatLabel, act: ctx.act, hint: ctx.hint, placingTitle: "Placing", lineTitle: s.placers.length ? "New line" : "First line" }))) : null;

    // The realms: yours first.
    const realms = s.realms.length;
    const members = (r) => view.seats.map((seat) => seat.index).filter((p) => realmOf(p) === r);
    const mineRealm = view.you === null ? null : realmOf(view.you);
    const recent = new Set(items.placing.filter((item) => item.inKingdom).map((item) => item.id));
    const cards = html("div", { class: "kk-cards" });
    for (const r of kd.seatOrder(realms, mineRealm)) {
      const realm = s.realms[r];
      const last = realm.placed.find(([id]) => recent.has(id));
      const own = r === myRealm;
      const drawing = kd.kingdomSvg(m, realm, {
        colour: KK.playerColour(r),
        label: `the realm of ${members(r).map(seatLabel).join(" and ")}`,
        building: (index) => {
          const b = parts.buildings[index] || { name: `building ${index}`, crowns: 0, towers: 0 };
          return { name: b.name, crowns: b.crowns, towers: b.towers, text: b.tile ? effectText(b, parts.terrains) : "" };
        },
        recent: last ? [m.xy(last[1]), m.xy(last[2])] : null,
        hot: own ? hot : [],
        ghost: own ? ghost : null,
        suggest: own ? suggest : null,
        onBackground: own ? onBackground : null,
      });
      const details = [
        html("span", { class: "kk-stat", title: "coins" }, KK.icon("coin", null, 16), ` ${realm.coins}`),
        html("span", { class: "kk-stat", title: "knights in the guard" }, KK.icon("knight", KK.playerColour(r), 16), ` ${realm.guard}`),
        html("span", { class: "kk-stat", title: "towers" }, KK.icon("tower", null, 16), ` ${realm.towers}`),
      ];
      if (s.queen === r) details.unshift(html("span", { class: "kk-stat kk-queen", title: "hosts the Queen" }, KK.icon("queen", null, 16), " Queen"));
      const title = teams ? `Team ${r + 1}: ${members(r).map((p) => `${p + 1}. ${seatLabel(p)}`).join(" & ")}` : `Seat ${r + 1}: ${seatLabel(r)}`;
      cards.append(kd.card({
        colour: KK.playerColour(r), title, details, drawing,
        toAct: acting && view.to_act !== null && realmOf(view.to_act) === r, mine: r === mineRealm,
      }));
    }
    ctx.root.append(html("div", { class: "kk-table kk-queendomino" },
      html("div", { class: "kk-centre kk-wide" }, board),
      lines, cards));
  }

  KK.boards.queendomino = {
    render,
    colour: (view, seat) => KK.playerColour(view.options.teams ? Math.floor(seat / 2) : seat),
  };
})();
