// Shared drawing tools of the boards: SVG elements, the colours of players and terrains, the
// symbols every board uses (crowns, castles, kings, knights, coins, towers...), and shapes
// that can be clicked, tapped or used from the keyboard. Each game's drawer registers itself
// in KK.boards[game] = { render(ctx) } (see app.js for ctx).
"use strict";

const KK = (window.KK = window.KK || {});
KK.boards = KK.boards || {};

(() => {
  const NS = "http://www.w3.org/2000/svg";

  /** An SVG element: attrs as in app.js's el(); `title` adds a tooltip, `on<event>` listens. */
  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "title") node.prepend(svg("title", { text: value }));
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "style") node.style.cssText = value; // not an attribute: the CSP allows it
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
    return node;
  }

  /** An HTML element (the same helper as app.js's, for the drawers' own panels). */
  function html(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "style") node.style.cssText = value; // not an attribute: the CSP allows it
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
    return node;
  }

  // Kings' colours: far from every terrain's, and told apart by their seat number too.
  const PLAYER_COLOURS = ["#2459d6", "#d6336c", "#e67700", "#7048e8", "#0c8599", "#7a4a2a", "#343a40", "#c99400"];
  const TERRAIN_COLOURS = {
    wheat: "#f2cc48", forest: "#2f6b35", lake: "#3a88d2", grassland: "#92c653",
    swamp: "#8b7b45", mine: "#55565c", town: "#c4473a",
  };

  function playerColour(index) {
    return index === null || index === undefined || index < 0 ? "#868e96" : PLAYER_COLOURS[index % PLAYER_COLOURS.length];
  }

  /** Terrain fill: the pattern of a known terrain, else a plain grey. */
  function terrainFill(name) {
    return TERRAIN_COLOURS[name] ? `url(#kk-t-${name})` : "#adb5bd";
  }

  // -- symbols and patterns, defined once per page ----------------------------------------
  function motifs(name) {
    // Motifs in a 1 x 1 box (patternContentUnits objectBoundingBox): subtle, so crowns read.
    const c = (attrs) => svg("circle", attrs);
    const p = (d, attrs) => svg("path", { d, ...attrs });
    switch (name) {
      case "wheat":
        return [0.22, 0.5, 0.78].map((x, i) => p(`M${x} ${0.86 - i % 2 * 0.08} V${0.46 - i % 2 * 0.08} M${x} ${0.52 - i % 2 * 0.08} l-.07 -.08 M${x} ${0.52 - i % 2 * 0.08} l.07 -.08 M${x} ${0.64 - i % 2 * 0.08} l-.07 -.08 M${x} ${0.64 - i % 2 * 0.08} l.07 -.08`,
          { stroke: "#b8860b", "stroke-width": 0.035, fill: "none", "stroke-linecap": "round" }));
      case "forest":
        return [[0.27, 0.45], [0.7, 0.38], [0.5, 0.8], [0.15, 0.88], [0.85, 0.82]].map(([x, y], i) =>
          p(`M${x} ${y - 0.2} l.13 .22 h-.26 Z`, { fill: i % 2 ? "#245a2a" : "#3d8544" }));
      case "lake":
        return [0.35, 0.58, 0.81].map((y, i) => p(`M${0.1 + i * 0.05} ${y} q.1 -.07 .2 0 t.2 0 t.2 0`,
          { stroke: "#9fd0f5", "stroke-width": 0.04, fill: "none", "stroke-linecap": "round" }));
      case "grassland":
        return [[0.2, 0.5], [0.62, 0.42], [0.4, 0.8], [0.82, 0.78]].map(([x, y]) =>
          p(`M${x - 0.06} ${y - 0.09} L${x} ${y} L${x + 0.06} ${y - 0.1} M${x} ${y} V${y - 0.12}`,
            { stroke: "#5f9632", "stroke-width": 0.035, fill: "none", "stroke-linecap": "round" }));
      case "swamp":
        return [
          svg("ellipse", { cx: 0.55, cy: 0.72, rx: 0.28, ry: 0.1, fill: "#6f7d55" }),
          ...[0.2, 0.3, 0.8].map((x) => p(`M${x} .85 V.42`, { stroke: "#5a4d24", "stroke-width": 0.035 })),
          ...[0.2, 0.3, 0.8].map((x) => svg("ellipse", { cx: x, cy: 0.45, rx: 0.025, ry: 0.07, fill: "#4a3d1a" })),
        ];
      case "mine":
        return [
          p("M.1 .9 L.3 .6 L.45 .75 L.62 .5 L.9 .9 Z", { fill: "#6c6d74" }),
          c({ cx: 0.72, cy: 0.32, r: 0.05, fill: "#8a8b92" }), c({ cx: 0.25, cy: 0.35, r: 0.04, fill: "#8a8b92" }),
        ];
      case "town":
        return [[0.25, 0.82], [0.62, 0.86], [0.45, 0.5]].map(([x, y]) =>
          p(`M${x - 0.1} ${y} v-.12 l.1 -.09 l.1 .09 v.12 Z`, { fill: "#9b3026" }));
      default:
        return [];
    }
  }

  const SYMBOLS = {
    crown: ["0 0 20 16", () => [
      svg("path", { d: "M2.5 14.5 L1 4 L6.3 8.2 L10 1.2 L13.7 8.2 L19 4 L17.5 14.5 Z", fill: "#ffd43b", stroke: "#6b4f00", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M3 12 H17", stroke: "#b8860b", "stroke-width": 1.2 }),
    ]],
    castle: ["0 0 40 40", () => [
      svg("path", { d: "M20 3 V13", stroke: "#3b3325", "stroke-width": 1.6 }),
      svg("path", { d: "M20 3.5 L30 6.5 L20 9.5 Z", fill: "currentColor", stroke: "#3b3325", "stroke-width": 0.8 }),
      svg("path", { d: "M8 37 V17 H11 V14 H15 V17 H18 V14 H22 V17 H25 V14 H29 V17 H32 V37 Z", fill: "#e9e3d3", stroke: "#3b3325", "stroke-width": 1.6, "stroke-linejoin": "round" }),
      svg("path", { d: "M16.5 37 V30 A3.5 3.5 0 0 1 23.5 30 V37 Z", fill: "#3b3325" }),
      svg("rect", { x: 12, y: 21, width: 3, height: 4, fill: "#3b3325" }),
      svg("rect", { x: 25, y: 21, width: 3, height: 4, fill: "#3b3325" }),
    ]],
    king: ["0 0 24 30", () => [
      svg("path", { d: "M3.5 28.5 Q3.5 17 12 17 Q20.5 17 20.5 28.5 Z", fill: "currentColor", stroke: "#fff", "stroke-width": 1.5, "stroke-linejoin": "round" }),
      svg("circle", { cx: 12, cy: 12, r: 5.2, fill: "currentColor", stroke: "#fff", "stroke-width": 1.5 }),
      svg("path", { d: "M6.5 7 L7.3 1.5 L9.8 4.3 L12 0.8 L14.2 4.3 L16.7 1.5 L17.5 7 Z", fill: "#ffd43b", stroke: "#6b4f00", "stroke-width": 1, "stroke-linejoin": "round" }),
    ]],
    knight: ["0 0 20 22", () => [
      svg("path", { d: "M2 2 H18 V10 Q18 17.5 10 21 Q2 17.5 2 10 Z", fill: "currentColor", stroke: "#fff", "stroke-width": 1.6, "stroke-linejoin": "round" }),
      svg("path", { d: "M10 5 V16 M6 9 H14", stroke: "#fff", "stroke-width": 2.2 }),
    ]],
    tower: ["0 0 16 22", () => [
      svg("path", { d: "M3 21 V6 H5 V3 H7 V6 H9 V3 H11 V6 H13 V21 Z", fill: "#a5abb3", stroke: "#2b2f36", "stroke-width": 1.3, "stroke-linejoin": "round" }),
      svg("rect", { x: 6.5, y: 10, width: 3, height: 4, fill: "#2b2f36" }),
    ]],
    coin: ["0 0 20 20", () => [
      svg("circle", { cx: 10, cy: 10, r: 8.8, fill: "#f5c542", stroke: "#8a6d00", "stroke-width": 1.4 }),
      svg("circle", { cx: 10, cy: 10, r: 5.6, fill: "none", stroke: "#c79a16", "stroke-width": 1.2 }),
    ]],
    building: ["0 0 22 22", () => [
      svg("path", { d: "M3 20.5 V10 L11 3 L19 10 V20.5 Z", fill: "#f4e6c8", stroke: "#5b3a1a", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M1.5 11 L11 2.5 L20.5 11", fill: "none", stroke: "#8f2e22", "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }),
      svg("rect", { x: 9, y: 14, width: 4, height: 6.5, fill: "#5b3a1a" }),
    ]],
    queen: ["0 0 24 20", () => [
      svg("path", { d: "M3 18 L1.5 5 L7.5 10 L12 2 L16.5 10 L22.5 5 L21 18 Z", fill: "#e64980", stroke: "#fff", "stroke-width": 1.5, "stroke-linejoin": "round" }),
      svg("circle", { cx: 12, cy: 2.5, r: 1.8, fill: "#ffd43b" }),
      svg("circle", { cx: 1.8, cy: 5, r: 1.5, fill: "#ffd43b" }), svg("circle", { cx: 22.2, cy: 5, r: 1.5, fill: "#ffd43b" }),
    ]],
    flame: ["0 0 24 24", () => [
      svg("path", { d: "M12 1.5 C13.5 6 19.5 8.5 19 15 C18.6 20 15.3 22.5 12 22.5 C7.8 22.5 4.8 19.6 5 15.3 C5.2 11.5 8.3 10.2 8.2 5.8 C10.4 7.6 11 9.6 11 12 C12.8 9.6 13.3 6 12 1.5 Z", fill: "#e8590c", stroke: "#7a1d00", "stroke-width": 1.2, "stroke-linejoin": "round" }),
      svg("path", { d: "M12 12 C13.5 14.5 15.5 15.5 15 18.5 C14.6 20.5 13.4 21 12 21 C10.2 21 9 19.8 9.1 18 C9.2 16.2 11.2 15 12 12 Z", fill: "#ffd43b" }),
    ]],
    mountain: ["0 0 40 30", () => [
      svg("path", { d: "M1 29 L14 6 L22 18 L27 11 L39 29 Z", fill: "#8d939b", stroke: "#343a40", "stroke-width": 1.5, "stroke-linejoin": "round" }),
      svg("path", { d: "M9.5 14 L14 6 L18.3 12.6 L15.5 11.5 L13 13.5 Z M24.3 15 L27 11 L30 15.5 L27.5 14.5 Z", fill: "#fff" }),
    ]],
    wizard: ["0 0 30 30", () => [
      svg("path", { d: "M4 26 Q15 22 26 26 L17 3 Q15 1 13.5 4 Z", fill: "#5f3dc4", stroke: "#fff", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M2 27.5 Q15 22.5 28 27.5", fill: "none", stroke: "#fff", "stroke-width": 2.2, "stroke-linecap": "round" }),
      svg("path", { d: "M15 11 l1.2 2.6 2.8.3 -2.1 1.9 .6 2.8 -2.5-1.4 -2.5 1.4 .6-2.8 -2.1-1.9 2.8-.3 Z", fill: "#ffd43b" }),
    ]],
    nugget: ["0 0 30 24", () => [
      svg("path", { d: "M3 21 L7 12 L14 10 L19 14 L22 21 Z", fill: "#f5c542", stroke: "#7a5c00", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M15 21 L18 13 L24 11 L28 16 L27 21 Z", fill: "#ffd43b", stroke: "#7a5c00", "stroke-width": 1.4, "stroke-linejoin": "round" }),
      svg("path", { d: "M9 5 L12 2 M19 6 L21 3 M14 7 V3", stroke: "#fff3bf", "stroke-width": 1.5, "stroke-linecap": "round" }),
    ]],
  };

  /** Put the symbols and terrain patterns into the page, once (an invisible SVG's defs). */
  function ensureDefs() {
    if (document.getElementById("kk-defs")) return;
    const defs = svg("defs");
    for (const [name, colour] of Object.entries(TERRAIN_COLOURS)) {
      defs.append(svg("pattern", { id: `kk-t-${name}`, patternContentUnits: "objectBoundingBox", width: 1, height: 1 },
        svg("rect", { width: 1, height: 1, fill: colour }), ...motifs(name)));
    }
    for (const [name, [viewBox, parts]] of Object.entries(SYMBOLS)) {
      defs.append(svg("symbol", { id: `kk-${name}`, viewBox, overflow: "visible" }, ...parts()));
    }
    defs.append(svg("filter", { id: "kk-shadow", x: "-20%", y: "-20%", width: "140%", height: "140%" },
      svg("feDropShadow", { dx: 0, dy: 1.5, stdDeviation: 1.5, "flood-color": "#000", "flood-opacity": 0.35 })));
    const holder = svg("svg", { id: "kk-defs", width: 0, height: 0, "aria-hidden": "true", style: "position:absolute;width:0;height:0;overflow:hidden" }, defs);
    document.body.prepend(holder);
  }

  /** A symbol at (x, y) of size w x h; `colour` fills its player-coloured parts. */
  function use(name, x, y, w, h, colour, attrs = {}) {
    return svg("use", { href: `#kk-${name}`, x, y, width: w, height: h, color: colour, ...attrs });
  }

  /** `n` crowns in a row from (x, y), each `size` wide. */
  function crowns(n, x, y, size) {
    const group = svg("g", { class: "kk-crowns", "pointer-events": "none" });
    for (let i = 0; i < n; i++) group.append(use("crown", x + i * size, y, size * 0.95, size * 0.78));
    return group;
  }

  /** Text in the drawing: centred by default. */
  function text(x, y, content, attrs = {}) {
    return svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs, text: String(content) });
  }

  /** Split `words` into lines of at most about `width` characters. */
  function wrap(words, width) {
    const lines = [];
    for (const word of String(words).split(/\s+/).filter(Boolean)) {
      const last = lines.length ? lines[lines.length - 1] : null;
      if (last !== null && (last + " " + word).length <= width) lines[lines.length - 1] = last + " " + word;
      else lines.push(word);
    }
    return lines;
  }

  /** Make `node` a control: clicked, tapped, or Enter/Space when focused; `key` lets the
   * focus come back to it after the board is drawn again. */
  function control(node, label, action, key) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    node.classList.add("kk-hot");
    if (key) node.dataset.key = key;
    if (!node.querySelector(":scope > title")) node.prepend(svg("title", { text: label }));
    node.addEventListener("click", (event) => { event.stopPropagation(); action(event); });
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        action(event);
      }
    });
    return node;
  }

  /** A button for the tools bar above the board. */
  function button(label, action, attrs = {}) {
    return html("button", { type: "button", class: "kk-tool", "data-key": `tool:${label}`, ...attrs, onclick: action, text: label });
  }

  /** A small inline SVG icon for HTML panels (seat chips, stats). */
  function icon(name, colour, size = 18, label = null) {
    const box = SYMBOLS[name][0].split(" ").map(Number);
    const width = (size * box[2]) / box[3];
    return svg("svg", { class: "kk-icon", width, height: size, viewBox: `0 0 ${box[2]} ${box[3]}`, role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true" },
      use(name, 0, 0, box[2], box[3], colour));
  }

  /** The focused control's key, to focus it again once the board is redrawn. */
  function focusedKey(root) {
    const active = document.activeElement;
    return active && root.contains(active) && active.dataset ? active.dataset.key || null : null;
  }

  function restoreFocus(root, key) {
    if (!key) return;
    const node = [...root.querySelectorAll("[data-key]")].find((n) => n.dataset.key === key);
    if (node) node.focus({ preventScroll: true });
  }

  Object.assign(KK, {
    svg, html, use, crowns, text, wrap, control, button, icon, ensureDefs, playerColour, terrainFill,
    focusedKey, restoreFocus, TERRAIN_COLOURS, PLAYER_COLOURS,
  });
})();
