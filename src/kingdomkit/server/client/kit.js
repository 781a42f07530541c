// The page's small tools, shared by app.js and the panels: elements, the error box, the
// HTTP API (answers parsed with big integers kept exact), times and a namespace for panels.
"use strict";

const $ = (id) => document.getElementById(id);
const LEVELS = ["easy", "medium", "hard", "expert"];
const KKP = (window.KKP = window.KKP || {}); // the panels: accounts, clock, hints, score pad...

/** An HTML element: `text` sets its text, `onclick`/`on<event>` listen, others are attributes
 * (false, null and undefined ones are left out). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "style") node.style.cssText = value; // not an attribute: the CSP allows it
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

/** JSON with integers beyond 2^53 (bitmasks such as a deck of 96 dominoes) kept exact, as
 * strings of digits: BigInt(value) reads either kind. */
function parseJSON(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value) && context && context.source) return context.source;
    return value;
  });
}

/** Call the API; the answer's JSON, or an Error whose message is the server's `detail`. */
async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body !== undefined ? { "Content-Type": "application/json" } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    });
  } catch (e) {
    throw new Error("The server cannot be reached: check your connection and try again.");
  }
  let data = null;
  try { data = parseJSON(await response.text()); } catch (e) { data = null; }
  if (!response.ok) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => `${(d.loc || []).slice(1).join(".") || "the request"}: ${d.msg}`).join("; ");
    const error = new Error(detail ? sentence(detail) : `The server answered ${response.status}.`);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** A message as a sentence: capital first letter, a full stop. */
function sentence(text) {
  const s = String(text).trim();
  if (!s) return s;
  return s[0].toUpperCase() + s.slice(1) + (/[.!?…]$/.test(s) ? "" : ".");
}

/** Seconds as m:ss (or h:mm:ss). */
function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? h + ":" : ""}${mm}:${String(r).padStart(2, "0")}`;
}

/** A time limit in words: 30 s, 5 min, 1 h 30 min. */
function limitText(seconds) {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 6) / 10} min`;
  const h = Math.floor(seconds / 3600), m = Math.round((seconds % 3600) / 60);
  return m ? `${h} h ${m} min` : `${h} h`;
}

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

/** Is the keyboard's focus in a field where keys are text? */
function typingIn(target) {
  return Boolean(target && target.closest && target.closest("input:not([type=range]):not([type=checkbox]), textarea, select, [contenteditable]"));
}
