// Kingdoms' board: the 5 x 6 spaces with their tiles and castles, the supply, and each
// player's gold, castles in hand, starting tile and the tile they hold.
// Your turn, by pointing: choose a piece (a castle of some rank, your starting tile; or tap
// the supply to draw), then tap a highlighted empty space. Keys: 1-4 a castle's rank,
// S the starting tile, D draw, Escape drops the choice.
"use strict";

(() => {
  const { svg, html, use, text, control, button } = KK;
  const PLAY = 2, PLACE = 4, OVER = 5; // the engine's phases (games/kingdoms/state.py)
  const CELL = 84, GUTTER = 24;
  const STYLE = {
    resource: { fill: "#e6f4d4", edge: "#5c940d", ink: "#2b8a3e" },
    hazard: { fill: "#ffe3e3", edge: "#c92a2a", ink: "#c92a2a" },
    mountain: { fill: "#dee2e6", edge: "#495057", ink: "#343a40" },
    dragon: { fill: "#7a1c2e", edge: "#3d0a14", ink: "#fff" },
    gold_mine: { fill: "#ffe066", edge: "#c77700", ink: "#5c3b00" },
    wizard: { fill: "#e5dbff", edge: "#5f3dc4", ink: "#3b1f99" },
  };
  const SPECIAL = { mountain: ["mountain", "splits the line"], dragon: ["flame", "no resources"], gold_mine: ["nugget", "doubles"], wizard: ["wizard", "+1 rank near"] };

  function shortName(tile) {
    return tile.name.startsWith(tile.label) ? tile.name.slice(tile.label.length).trim() : tile.name;
  }

  /** A tile's face in a size x size square at (x, y). */
  function tileFace(tile, x, y, size) {
    const style = STYLE[tile.kind] || STYLE.mountain;
    const k = size / CELL;
    const group = svg("g", { class: "kk-tile" },
      svg("rect", { x: x + 3 * k, y: y + 3 * k, width: size - 6 * k, height: size - 6 * k, rx: 8 * k, fill: style.fill, stroke: style.edge, "stroke-width": 2.5 * k }));
    const special = SPECIAL[tile.kind];
    if (special) {
      group.append(use(special[0], x + size * 0.27, y + size * 0.14, size * 0.46, size * 0.42, style.ink));
      const name = shortName(tile) || tile.label;
      group.append(text(x + size / 2, y + size * 0.71, name, { class: "kk-tile-name", fill: style.ink, "font-size": 13 * k * Math.min(1, 10 / name.length) }));
      group.append(text(x + size / 2, y + size * 0.86, special[1], { class: "kk-tile-note", fill: style.ink, "font-size": 10.5 * k }));
    } else {
      group.append(text(x + size / 2, y + size * 0.43, tile.label.replace("-", "−"), { class: "kk-tile-value", fill: style.ink, "font-size": 32 * k }));
      const name = shortName(tile);
      if (name) group.append(text(x + size / 2, y + size * 0.78, name, { class: "kk-tile-name", fill: style.ink, "font-size": 12.5 * k * Math.min(1, 10 / name.length) }));
    }
    return group;
  }

  /** A tile face down (another player's secret). */
  function tileBack(x, y, size, note = "?") {
    const k = size / CELL;
    return svg("g", { class: "kk-tile kk-tile-back" },
      svg("rect", { x: x + 3 * k, y: y + 3 * k, width: size - 6 * k, height: size - 6 * k, rx: 8 * k }),
      text(x + size / 2, y + size / 2, note, { class: "kk-tile-value", fill: "#f3ead3", "font-size": 26 * k }));
  }

  /** A castle of `player` with its printed rank. */
  function castleFace(player, rank, x, y, size) {
    const k = size / CELL;
    const colour = KK.playerColour(player);
    return svg("g", { class: "kk-castle-piece" },
      svg("rect", { x: x + 3 * k, y: y + 3 * k, width: size - 6 * k, height: size - 6 * k, rx: 8 * k, fill: colour, stroke: "#1d2330", "stroke-width": 1.5 * k }),
      use("castle", x + size * 0.2, y + size * 0.12, size * 0.6, size * 0.6, "#fff"),
      svg("circle", { cx: x + size / 2, cy: y + size * 0.8, r: 11 * k, fill: "#fff", stroke: "#1d2330", "stroke-width": 1.2 * k }),
      text(x + size / 2, y + size * 0.8 + 0.5 * k, rank, { class: "kk-rank", fill: colour, "font-size": 16 * k }));
  }

  function render(ctx) {
    const { view, parts, ui } = ctx;
    const s = view.state;
    const rows = parts.rows, columns = parts.columns;
    const tiles = parts.tiles;
    const byLabel = new Map(tiles.map((t) => [t.label, t]));
    const castleOf = (square) => ({ player: Math.floor((square - parts.castle_base) / parts.ranks), rank: ((square - parts.castle_base) % parts.ranks) + 1 });
    const seatLabel = (p) => ctx.seatName(p);
    const mine = view.legal.length > 0;
    const me = mine ? view.to_act : null;
    const noLuck = Boolean(view.options.no_luck);

    // The legal actions by piece: for each, the spaces it may go to.
    const pieces = new Map(); // "castle:r" | "start" | "held" -> Map(space -> action)
    let drawAction = null, passAction = null;
    const takes = new Map(); // no_luck: tile index -> action
    for (const action of view.legal) {
      const first = action.events[0];
      if (!first) { if (/^draw/.test(action.notation)) drawAction = action; continue; }
      let piece = null;
      if (first.type === "castle") piece = `castle:${first.rank}`;
      else if (first.type === "tile") piece = first.from === "starting" ? "start" : "held";
      else if (first.type === "draw" && byLabel.has(first.tile)) takes.set(byLabel.get(first.tile).index, action);
      else if (first.type === "pass") passAction = action;
      if (piece) {
        if (!pieces.has(piece)) pieces.set(piece, new Map());
        pieces.get(piece).set((first.row - 1) * columns + first.column - 1, action);
      }
    }
    if (ui.piece && !pieces.has(ui.piece)) delete ui.piece;
    if (!ui.piece && pieces.size === 1 && pieces.has("held")) ui.piece = "held";
    const choose = (piece) => { ui.piece = ui.piece === piece ? undefined : piece; ctx.redraw(); };
    const chosen = ui.piece ? pieces.get(ui.piece) : null;
    const pieceName = (piece) => {
      if (!piece) return "";
      if (piece.startsWith("castle:")) return `a rank-${piece.slice(7)} castle`;
      const tile = piece === "start" ? s.starting[me] : s.held;
      return `${piece === "start" ? "your starting tile" : "the tile you drew"} (${tiles[tile] ? tiles[tile].name : "?"})`;
    };

    // Words and buttons.
    if (mine) {
      if (chosen) ctx.prompt(`Place ${pieceName(ui.piece)}: tap a highlighted empty space.`);
      else if (s.phase === PLAY) {
        const can = [];
        if ([...pieces.keys()].some((p) => p.startsWith("castle:"))) can.push("a castle");
        if (pieces.has("start")) can.push("your starting tile");
        ctx.prompt(`Your turn: choose ${can.join(", ") || "a move"} below${drawAction || takes.size ? ", or tap the supply to " + (noLuck ? "take a tile" : "draw a tile") : ""}.`);
      }
      if (ui.piece && ui.piece !== "held") ctx.tools.append(button("Cancel (Esc)", () => choose(ui.piece), { class: "kk-tool secondary" }));
      if (drawAction) ctx.tools.append(button("Draw a tile (D)", () => ctx.act(drawAction.id), { class: "kk-tool" }));
      if (passAction) ctx.tools.append(button("Pass", () => ctx.act(passAction.id), { class: "kk-tool secondary" }));
      ui.keys = (event) => {
        const k = event.key.toLowerCase();
        if (/^[1-4]$/.test(k) && pieces.has(`castle:${k}`)) { choose(`castle:${k}`); return true; }
        if (k === "s" && pieces.has("start")) { choose("start"); return true; }
        if (k === "d" && drawAction) { ctx.act(drawAction.id); return true; }
        if (k === "escape" && ui.piece && ui.piece !== "held") { choose(ui.piece); return true; }
        return false;
      };
    } else if (view.to_act !== null && (s.phase === PLAY || s.phase === PLACE)) {
      ctx.prompt(s.phase === PLACE ? `${seatLabel(view.to_act)} is placing the tile they drew.` : `${seatLabel(view.to_act)} is playing.`);
    }

    // The board.
    const width = GUTTER + columns * CELL, height = GUTTER + rows * CELL;
    const board = svg("svg", { class: "kk-kingdoms-board", viewBox: `0 0 ${width + 4} ${height + 4}`, role: "group", "aria-label": "the board" });
    board.append(svg("rect", { x: GUTTER - 4, y: GUTTER - 4, width: columns * CELL + 8, height: rows * CELL + 8, rx: 12, class: "kk-board-bg" }));
    for (let c = 0; c < columns; c++) {
      const scored = s.scored >> (rows + c) & 1;
      board.append(text(GUTTER + c * CELL + CELL / 2, GUTTER / 2 - 1, c + 1, { class: "kk-axis" + (scored ? " kk-scored" : "") }));
    }
    for (let r = 0; r < rows; r++) {
      const scored = s.scored >> r & 1;
      board.append(text(GUTTER / 2 - 1, GUTTER + r * CELL + CELL / 2, r + 1, { class: "kk-axis" + (scored ? " kk-scored" : "") }));
    }
    s.board.forEach((square, space) => {
      const r = Math.floor(space / columns), c = space % columns;
      const x = GUTTER + c * CELL, y = GUTTER + r * CELL;
      if (square >= parts.castle_base) {
        const { player, rank } = castleOf(square);
        board.append(svg("g", { title: `${seatLabel(player)}'s castle, rank ${rank} (row ${r + 1}, column ${c + 1})` }, castleFace(player, rank, x, y, CELL)));
      } else if (square >= 0) {
        board.append(svg("g", { title: `${tiles[square].name} (row ${r + 1}, column ${c + 1})` }, tileFace(tiles[square], x, y, CELL)));
      } else if (square === parts.hidden) {
        board.append(tileBack(x, y, CELL));
      } else {
        const spot = svg("g", { class: "kk-space" }, svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "kk-space-rect" }));
        const action = chosen && chosen.get(space);
        if (action) {
          spot.classList.add("kk-space-hot");
          if (action.id === ctx.hint) spot.classList.add("kk-hinted");
          const preview = svg("g", { class: "kk-preview" });
          if (ui.piece.startsWith("castle:")) preview.append(castleFace(me, Number(ui.piece.slice(7)), x, y, CELL));
          else {
            const tile = ui.piece === "start" ? s.starting[me] : s.held;
            if (tiles[tile]) preview.append(tileFace(tiles[tile], x, y, CELL));
          }
          spot.append(preview);
          control(spot, `${pieceName(ui.piece)} at row ${r + 1}, column ${c + 1}`, () => ctx.act(action.id), `space:${space}`);
        }
        board.append(spot);
      }
    });
    const epochs = view.options.down_to_the_last_castle ? "" : " of 3";
    const boardPanel = html("div", { class: "kk-panel kk-board-panel" },
      html("div", { class: "kk-panel-head" }, html("h4", { text: `Epoch ${s.epoch + 1}${epochs}` }),
        s.phase === OVER ? html("span", { class: "kk-stat", text: "the game is over" }) : null),
      board);

    // The supply: face down (draw) or, with No Luck, face up (take a tile).
    const supplyPanel = html("div", { class: "kk-panel kk-supply-panel" });
    const unseen = s.supply.reduce((a, b) => a + b, 0);
    const hiddenElsewhere = s.starting.filter((t) => t === parts.hidden).length + (s.held === parts.hidden ? 1 : 0);
    const faceDown = unseen - hiddenElsewhere;
    if (noLuck) {
      supplyPanel.append(html("h4", { text: `Supply: ${faceDown} tile${faceDown === 1 ? "" : "s"}, face up` }));
      const size = 58, per = 6;
      const kinds = s.supply.map((count, index) => ({ count, index })).filter((t) => t.count > 0);
      const strip = svg("svg", { class: "kk-supply", viewBox: `0 0 ${per * (size + 4)} ${Math.max(1, Math.ceil(kinds.length / per)) * (size + 18)}`, role: "group", "aria-label": "the supply" });
      kinds.forEach(({ count, index }, i) => {
        const x = (i % per) * (size + 4), y = Math.floor(i / per) * (size + 18);
        const group = svg("g", { class: "kk-piece" }, tileFace(tiles[index], x, y, size), text(x + size / 2, y + size + 8, `×${count}`, { class: "kk-count" }));
        const action = takes.get(index);
        if (action && action.id === ctx.hint) group.classList.add("kk-hinted");
        if (action) {
          group.append(svg("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 7, class: "kk-piece-ring" }));
          control(group, `take ${tiles[index].name}`, () => ctx.act(action.id), `take:${index}`);
        }
        strip.append(group);
      });
      supplyPanel.append(strip);
    } else {
      const size = 64;
      const pile = svg("svg", { class: "kk-supply kk-pile", viewBox: `0 0 ${size + 150} ${size + 8}`, role: "group", "aria-label": "the supply" });
      const group = svg("g", { class: "kk-piece" },
        faceDown > 1 ? tileBack(6, 6, size, "") : null,
        faceDown > 0 ? tileBack(2, 2, size, "?") : null,
        text(size + 16, size / 2 + 2, `${faceDown} tile${faceDown === 1 ? "" : "s"} face down`, { class: "kk-caption", "text-anchor": "start" }));
      if (drawAction) {
        if (drawAction.id === ctx.hint) group.classList.add("kk-hinted");
        group.append(svg("rect", { x: 1, y: 1, width: size + 6, height: size + 6, rx: 9, class: "kk-piece-ring" }));
        control(group, "draw a tile from the supply", () => ctx.act(drawAction.id), "draw");
      }
      pile.append(group);
      supplyPanel.append(html("h4", { text: "Supply" }), pile);
    }

    // The players: gold, castles in hand, starting tile, the tile held.
    const cards = html("div", { class: "kk-hands" });
    for (const p of KK.kd.seatOrder(view.seats.length, view.you)) {
      const size = 56, gap = 6;
      const hand = s.castles[p];
      const slots = [];
      for (let rank = 1; rank <= parts.ranks; rank++) slots.push({ kind: "castle", rank, count: hand[rank - 1] });
      if (s.starting[p] !== -1) slots.push({ kind: "start", tile: s.starting[p] });
      if (s.phase === PLACE && s.turn === p && s.held !== -1) slots.push({ kind: "held", tile: s.held });
      const strip = svg("svg", { class: "kk-hand", viewBox: `0 0 ${slots.length * (size + gap)} ${size + 20}`, role: "group", "aria-label": `${seatLabel(p)}'s pieces` });
      slots.forEach((slot, i) => {
        const x = i * (size + gap);
        const group = svg("g", { class: "kk-piece" });
        let piece = null, label = "";
        if (slot.kind === "castle") {
          group.append(svg("g", { opacity: slot.count ? 1 : 0.25 }, castleFace(p, slot.rank, x, 0, size)),
            text(x + size / 2, size + 10, `×${slot.count}`, { class: "kk-count" }));
          piece = `castle:${slot.rank}`;
          label = `a rank-${slot.rank} castle (${slot.count} left)`;
        } else {
          group.append(slot.tile >= 0 ? tileFace(tiles[slot.tile], x, 0, size) : tileBack(x, 0, size),
            text(x + size / 2, size + 10, slot.kind === "start" ? "start" : "drawn", { class: "kk-count" }));
          piece = slot.kind;
          label = slot.kind === "start" ? "your starting tile" : "the tile you drew";
        }
        if (p === me && pieces.has(piece)) {
          const selected = ui.piece === piece;
          if ([...pieces.get(piece).values()].some((a) => a.id === ctx.hint)) {
            group.classList.add("kk-hinted");
            group.append(text(x + size - 8, 10, "★", { class: "kk-hint-star" }));
          }
          group.append(svg("rect", { x: x + 1, y: 1, width: size - 2, height: size - 2, rx: 7, class: "kk-piece-ring" + (selected ? " kk-selected" : "") }));
          control(group, `choose ${label}${selected ? " (chosen)" : ""}`, () => choose(piece), `piece:${piece}`);
        } else {
          group.prepend(svg("title", { text: label }));
        }
        strip.append(group);
      });
      const details = [html("span", { class: "kk-stat", title: "gold" }, KK.icon("coin", null, 16), ` ${s.gold[p]} gold`)];
      cards.append(KK.kd.card({
        colour: KK.playerColour(p), title: `Seat ${p + 1}: ${seatLabel(p)}`, details, drawing: strip,
        toAct: view.to_act === p && s.phase !== OVER, mine: p === view.you,
      }));
    }
    ctx.root.append(html("div", { class: "kk-table kk-kingdoms" }, boardPanel,
      html("div", { class: "kk-side" }, supplyPanel, cards)));
  }

  KK.boards.kingdoms = { render, colour: (view, seat) => KK.playerColour(seat) };
})();
