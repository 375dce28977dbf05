/* Small helpers shared by the table's modules: building elements, reading card tokens and
 * the server's observation.  No state; no strings a player reads but the decimal sign. */
import { t } from "./i18n.js";

export const SUITS = ["S", "C", "D", "H"];
export const SUIT_SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
export const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
export const STRAINS = ["S", "C", "D", "H", "NT"];
export const LEVELS = [6, 7, 8, 9, 10];

export const $ = (id) => document.getElementById(id);

/** el("button", {class, text, onclick, ...attributes}, children) */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.setAttribute("style", value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** "QH" -> {rank: "Q", suit: "H", order: 29} */
export function parseCard(token) {
  const text = String(token).toUpperCase().replace("T", "10");
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank, suit, order: SUITS.indexOf(suit) * 8 + RANKS.indexOf(rank) };
}

export const isCardToken = (token) => /^(7|8|9|10|J|Q|K|A)[SCDH]$/i.test(String(token));

/** The phase as a lower-case word: "auction", "discard", …, "defence_mode", "play", "done". */
export const phaseOf = (obs) => String((obs && obs.phase) || "").toLowerCase().replace(/[\s-]+/g, "_");

export const isDiscarding = (phase) => phase === "discard" || phase === "exchange";

export function legalTokens(obs) {
  return (obs && Array.isArray(obs.legal) ? obs.legal : []).map(String);
}

/** 2.5 -> "2.5", -3 -> "−3"; signed: +3 / −3. */
export function formatNumber(value, signed = false) {
  const n = Number(value) || 0;
  const rounded = Math.round(n * 10) / 10;
  const text = Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1).replace(".", t("number.decimal"));
  if (!signed) return text.replace("-", "−");
  if (rounded > 0) return `+${text}`;
  return text.replace("-", "−");
}

/** Exposed hands as {seat: [cards]} whatever the key type the server used. */
export function exposedHands(obs) {
  const out = {};
  const exposed = (obs && obs.exposed) || {};
  if (Array.isArray(exposed)) {
    exposed.forEach((cards, seat) => {
      if (Array.isArray(cards) && cards.length) out[seat] = cards;
    });
  } else {
    for (const [seat, cards] of Object.entries(exposed)) {
      if (Array.isArray(cards)) out[Number(seat)] = cards;
    }
  }
  return out;
}

/** A state frame leaves out the parts the page has already (``kept``: the sheet while it
 *  is unchanged): take them from the previous state. */
export function withKept(msg, previous) {
  const kept = msg.kept || [];
  if (!kept.length) return msg;
  const obs = { ...(msg.observation || {}) };
  if (kept.includes("sheet")) obs.sheet = sheetOf(previous);
  return { ...msg, observation: obs };
}

export function sheetOf(msg) {
  if (!msg) return null;
  return (msg.observation && msg.observation.sheet) || msg.sheet || null;
}

/** Does the user ask for less motion? */
export const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
