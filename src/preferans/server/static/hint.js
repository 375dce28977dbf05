/* The HINT button (games started with hints on): what Hard (Crazy at the Crazy level) would
 * do now and why.  The server works the hint out from this seat's own observation and
 * answers {"type": "hint", "seq", "hint"} (preferans-hint/1); a hint belongs to the state
 * it was asked in and disappears when the table moves on.  H asks for one, Esc closes it. */
import { t } from "./i18n.js";
import { send } from "./socket.js";
import { app, myTurn } from "./state.js";
import { callText } from "./words.js";
import { $, el, formatNumber, isCardToken } from "./util.js";

const HINT_ERRORS = new Set(["hints_off", "hint_failed"]);

const canHint = (msg) => !!(msg && msg.hints && myTurn(msg) && !msg.paused);

/** Ask the server for a hint on the position now (once per position). */
export function askHint() {
  const msg = app.state;
  if (!canHint(msg)) return;
  const had = app.ui.hint;
  if (had && had.seq === msg.seq && had.status !== "failed") {
    had.open = true;
    renderHint();
    return;
  }
  app.ui.hint = { seq: msg.seq, status: "waiting", open: true };
  if (!send({ type: "hint" })) app.ui.hint = null;
  renderHint();
}

export function onHint(message) {
  if (!app.state || message.seq !== app.state.seq) return; // the table has moved on
  app.ui.hint = { seq: message.seq, status: "ready", hint: message.hint, open: true };
  renderHint();
}

/** An error answering a hint request; true when it was one. */
export function onHintError(message) {
  const pending = app.ui.hint;
  if (!pending || pending.status !== "waiting") return false;
  if (!HINT_ERRORS.has(message.code) && message.code !== "not_your_turn") return false;
  pending.status = "failed";
  pending.why = message.message || "";
  renderHint();
  return true;
}

function closeHint() {
  if (app.ui.hint) app.ui.hint.open = false;
  renderHint();
  const button = $("hint-button");
  if (button && !button.hidden) button.focus({ preventScroll: true });
}

export function initHint() {
  const button = $("hint-button");
  if (button) button.addEventListener("click", askHint);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    if (event.key === "h" || event.key === "H") askHint();
    if (event.key === "Escape" && app.ui.hint && app.ui.hint.open) closeHint();
  });
}

/** The button (shown when hints are on, usable on the human's turn), the hint's box and
 *  the hinted card raised in the hand. */
export function renderHint() {
  const msg = app.state;
  const button = $("hint-button");
  if (button) {
    button.hidden = !(msg && msg.hints && !msg.game_over);
    button.disabled = !canHint(msg);
    button.setAttribute("aria-expanded", String(!!(app.ui.hint && app.ui.hint.open)));
  }
  let box = $("hint-box");
  const hint = app.ui.hint;
  if (hint && (!msg || hint.seq !== msg.seq)) app.ui.hint = null;
  for (const node of document.querySelectorAll(".hand .hinted")) node.classList.remove("hinted");
  const current = app.ui.hint;
  if (!current || !current.open) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = el("aside", { id: "hint-box", class: "hint-box", role: "dialog", "aria-labelledby": "hint-title" });
    $("app").append(box);
  }
  box.hidden = false;
  box.replaceChildren(...hintContent(current));
  if (current.status === "ready" && ["card", "discard"].includes(current.hint.kind)) {
    // the card to play, or the two to discard, stand out in the hand
    const tokens = String(current.hint.choice).toUpperCase().replace(/^DISCARD\s+/, "").split(/\s+/);
    for (const token of tokens) {
      const card = document.querySelector(`.hand [data-card="${token}"]`);
      if (card) card.classList.add("hinted");
    }
  }
}

function levelName(hint) {
  return t(`hint.level.${hint.level || "hard"}`);
}

/** How an option reads: a card, the two cards of a discard, a call. */
export function optionText(token) {
  const text = String(token).toUpperCase();
  if (text.startsWith("DISCARD ")) return text.slice(8).split(/\s+/).map(callText).join(" ");
  return callText(text);
}

function wouldLine(hint) {
  const level = levelName(hint);
  const call = optionText(hint.choice);
  const key = {
    bid: "hint.would.bid", discard: "hint.would.discard", contract: "hint.would.contract",
    defence: "hint.would.defence", "defence mode": "hint.would.defenceMode", card: "hint.would.card",
  }[hint.kind] || (isCardToken(hint.choice) ? "hint.would.card" : "hint.would.other");
  return t(key, { level, call, cards: call, card: call });
}

function hintContent(state) {
  const head = el("div", { class: "hint-head" }, [
    el("h3", { id: "hint-title", text: t("hint.title") }),
    el("button", { type: "button", class: "hint-close", "aria-label": t("hint.close"), title: t("hint.close"), text: "×", onclick: closeHint }),
  ]);
  if (state.status === "waiting") {
    return [head, el("p", { class: "hint-wait", "aria-live": "polite", text: t("hint.thinking", { level: levelName({ level: app.state && app.state.difficulty === "crazy" ? "crazy" : "hard" }) }) })];
  }
  if (state.status === "failed") return [head, el("p", { class: "hint-failed", text: t("hint.failed", { why: state.why }) })];
  const hint = state.hint;
  const out = [head, el("p", { class: "hint-would", "data-choice": hint.choice, text: wouldLine(hint) })];
  if (!hint.options || !hint.options.length) {
    out.push(el("p", { class: "hint-note", text: t("hint.noFigures") }));
    return out;
  }
  out.push(el("p", { class: "hint-worlds", text: t("hint.worlds", { count: hint.worlds }) }));
  out.push(optionsTable(hint));
  const notes = [];
  if (hint.kind === "card") notes.push(t(`hint.counted.${hint.counted || "side"}`));
  if (hint.unit === "whists") notes.push(t(hint.level === "crazy" ? "hint.unit.whistsSheet" : "hint.unit.whists"));
  if (hint.kind === "bid" && hint.contracts && hint.contracts.length) {
    notes.push(t("hint.aim", { contract: callText(hint.contracts[0].contract), value: formatNumber(hint.contracts[0].value, true) }));
  }
  if (hint.kind === "bid" && (hint.options || []).some((o) => String(o.token).toUpperCase() === "MISERE")) {
    notes.push(t("hint.misereMargin", { value: formatNumber(hint.misere_margin || 1) }));
  }
  if (hint.kind === "defence mode" && hint.margin !== undefined) notes.push(t("hint.margin", { value: formatNumber(hint.margin) }));
  for (const note of notes) out.push(el("p", { class: "hint-note", text: note }));
  return out;
}

function optionsTable(hint) {
  const cards = hint.kind === "card";
  const showValue = !cards || hint.unit === "whists";
  const table = el("table", { class: "hint-options" });
  table.append(el("thead", {}, el("tr", {}, [
    el("th", { text: t("hint.head.option") }),
    cards ? el("th", { text: t("hint.head.tricks") }) : null,
    showValue ? el("th", { text: t("hint.head.value") }) : null,
  ])));
  const body = el("tbody");
  for (const option of hint.options) {
    const chosen = option.token === hint.choice;
    const label = [optionText(option.token)];
    if (option.contract) label.push(el("small", { text: ` ${t("hint.plays", { contract: callText(option.contract) })}` }));
    if (option.worlds !== undefined && option.worlds !== hint.worlds) label.push(el("small", { text: ` · ${t("hint.optionWorlds", { count: option.worlds })}` }));
    body.append(el("tr", { class: chosen ? "chosen" : "", "data-token": option.token, "aria-current": chosen ? "true" : null }, [
      el("th", { scope: "row" }, label),
      cards ? el("td", { text: option.tricks === undefined ? "—" : formatNumber(option.tricks) }) : null,
      showValue ? el("td", { text: hint.unit === "whists" ? t("hint.whists", { value: formatNumber(option.value, true) }) : formatNumber(option.value) }) : null,
    ]));
  }
  table.append(body);
  return table;
}
