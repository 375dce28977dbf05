/* The table drawn from the state: the top band (status line, score and contract chips),
 * the talon, the cards on the table, and render(), which redraws everything. */
import { has, t } from "./i18n.js";
import { renderPanel } from "./bidding.js";
import { renderHelp } from "./help.js";
import { renderSeat } from "./hand.js";
import { renderMenu } from "./menu.js";
import { cardImg } from "./cards.js";
import { afterRender, gatherTrick } from "./motion.js";
import { renderHint } from "./hint.js";
import { renderSheet } from "./sheet.js";
import { app, boxId, colour, dummySeat, isMe, me, myTurn, nameOf, names, positionOf, seats, sitsOut, slotOf, watching } from "./state.js";
import { callText } from "./words.js";
import { $, SUIT_SYMBOL, el, formatNumber, phaseOf, reducedMotion, sheetOf } from "./util.js";

const GATHER_SHOW_MS = 450;
const GATHER_MOVE_MS = 320;
const TRAVEL_MS = 260;

export function render() {
  if (app.ui.drag) return; // never pull the card from under the finger; redrawn on drop
  renderStatus();
  renderChips();
  for (const seat of seats()) renderSeat(seat);
  renderTalon();
  renderTrick();
  renderPanel();
  renderSheet();
  renderMenu();
  renderHelp();
  renderHint();
  afterRender(app.state);
  const band = document.querySelector(".topband");
  if (band) document.documentElement.style.setProperty("--band-h", `${band.offsetHeight}px`);
  document.body.dataset.phase = phaseOf(app.state && app.state.observation);
  document.body.dataset.myTurn = String(myTurn(app.state));
  document.body.dataset.offline = String(!!app.state && app.ui.connected === false);
  focusHandOnTurn();
}

/** On the human's turn to play, put the keyboard focus in the hand it plays from
 *  (unless the player is busy elsewhere: the menu, the sheet, the help, a button). */
function focusHandOnTurn() {
  const msg = app.state;
  if (!myTurn(msg) || phaseOf(msg.observation) !== "play" || app.ui.sheetOpen || app.ui.helpOpen) return;
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest(".hand")) return;
  const seat = msg.observation.hand_to_play ?? me();
  const card = document.querySelector(`#${boxId(seat)} .hand [tabindex="0"]`);
  if (card && card !== active) card.focus({ preventScroll: true });
}

export function setMessage(text, kind = "info") {
  app.ui.message = text ? { text, kind } : null;
  renderStatus();
}

// --- the top band --------------------------------------------------------
const TURN_KEYS = {
  discard: "status.turn.discard", contract: "status.turn.contract", defence: "status.turn.defence",
  name: "status.turn.name", write: "status.turn.write", invite: "status.turn.invite",
  halftime: "status.turn.halftime", exchange: "status.turn.exchange",
};

/** House option half_whist_played: the human's half-whist stood and is to be played. */
function playedHalfWhist(obs) {
  return Boolean(((app.state || {}).rules || {}).half_whist_played)
    && (obs.defence || []).some(([seat, call]) => isMe(seat) && call === "HALF");
}

function turnText(obs, phase) {
  if (phase === "auction") return t(obs.hand_hidden ? "status.turn.auctionBlind" : "status.turn.auction");
  if (phase === "defence_mode") {
    if (dummySeat() !== null) return t("status.turn.defenceModeDummy");
    return t(playedHalfWhist(obs) ? "status.turn.defenceModeHalfPlayed" : "status.turn.defenceMode");
  }
  if (phase === "dealer_whist") return t(obs.looked ? "status.turn.dealerWhistLooked" : "status.turn.dealerWhist");
  if (phase === "play") {
    const hand = obs.hand_to_play;
    return hand !== undefined && hand !== null && !isMe(hand)
      ? t("status.turn.playFor", { name: nameOf(hand) }) : t("status.turn.play");
  }
  return t(TURN_KEYS[phase] || "status.turn.other");
}

/** What the status line adds once: a half-whist overruled by a reopening whist. */
export function overruledNote(obs) {
  const defence = (obs && obs.defence) || [];
  const halfAt = defence.findIndex(([, token]) => String(token).toUpperCase() === "HALF");
  if (halfAt < 0) return null;
  const later = defence.slice(halfAt + 1).find(([, token]) => String(token).toUpperCase() === "WHIST");
  if (!later) return null;
  return t("status.halfOverruled", { half: nameOf(defence[halfAt][0]), whist: nameOf(later[0]) });
}

/** At a table for friends, an early finish asked for: who asked, who still has to agree. */
function finishText(msg) {
  const asked = msg.finish_asked || [];
  if (!asked.length) return "";
  const names = (seats) => seats.map((seat) => (isMe(seat) && !watching() ? t("status.finishYou") : nameOf(seat))).join(", ");
  const waiting = names(msg.finish_waiting || []);
  if (watching()) return t("status.finishWatching", { names: names(asked), waiting });
  if (asked.includes(me())) return t("status.finishAskedMine", { waiting });
  return t("status.finishAsked", { names: names(asked), waiting });
}

function statusText() {
  const msg = app.state;
  const ui = app.ui;
  // The server gone, the table drawn from its last state: say so, never "your turn".
  if (msg && ui.connected === false) {
    // for good (a dead watch link...), or a spectator who has no move to wait
    const key = ui.closedForGood ? "status.closedForGood" : watching() ? "status.offlineWatching" : "status.offline";
    return { text: t(key), kind: "error" };
  }
  if (ui.message) return ui.message;
  if (!msg) return { text: t("status.connecting"), kind: "info" };
  const obs = msg.observation || {};
  const phase = phaseOf(obs);
  if (msg.game_over) return { text: t(msg.stopped ? "status.stopped" : "status.gameOver"), kind: "info" };
  const finish = finishText(msg);
  if (finish && !myTurn(msg)) return { text: finish, kind: "info" };
  if (msg.paused) return { text: t("status.paused"), kind: "info" };
  // a pause asked for: every page says so, the one whose turn it is too (beside his turn)
  const asked = (!msg.deal_over && msg.pause_asked) || [];
  const pause = !asked.length ? ""
    : asked.includes(me()) && !watching() ? t("status.pauseAskedMine")
      : t(watching() ? "status.pauseAskedWatching" : "status.pauseAsked", { names: asked.map((seat) => nameOf(seat)).join(", ") });
  if (pause && !myTurn(msg)) return { text: pause, kind: "info" };
  if (msg.deal_over) {
    const key = watching() ? "status.dealOverWatching" : msg.stand_in !== undefined ? "status.dealOverFriends" : "status.dealOver";
    return { text: t(key), kind: "info" };
  }
  if (msg.thinking !== null && msg.thinking !== undefined && !isMe(msg.thinking)) {
    return { text: t("status.thinking", { name: nameOf(msg.thinking) }), kind: "info" };
  }
  const note = overruledNote(obs);
  const withNote = (text) => (note && phase === "play" ? `${note} ${text}` : text);
  const actor = obs.to_act;
  if (myTurn(msg)) return { text: [finish, pause, withNote(turnText(obs, phase))].filter(Boolean).join(" "), kind: "turn" };
  if (actor === null || actor === undefined) return { text: "", kind: "info" };
  const waiting = t(has(`status.wait.${phase}`) ? `status.wait.${phase}` : "status.wait.other", { name: nameOf(actor) });
  if (watching()) return { text: t("status.watching", { waiting }), kind: "info" };
  if (sitsOut(me(), obs)) return { text: t("status.sitOut", { waiting }), kind: "info" };
  return { text: withNote(waiting), kind: "info" };
}

export function renderStatus() {
  const status = $("status");
  const { text, kind } = statusText();
  status.textContent = text;
  status.dataset.kind = kind;
}

function lastBidder(obs) {
  const auction = obs.auction || [];
  for (let i = auction.length - 1; i >= 0; i -= 1) {
    if (String(auction[i][1]).toUpperCase() !== "PASS") return auction[i][0];
  }
  return null;
}

function renderChips() {
  const msg = app.state;
  const chip = $("score-chip");
  chip.replaceChildren();
  const sheet = sheetOf(msg);
  const balance = (sheet && sheet.balance) || names().map(() => 0);
  names().forEach((name, seat) => {
    chip.append(el("span", {
      class: "score", style: `color:${colour(seat)}`, "data-seat": seat,
      title: t("chip.score", { name, value: formatNumber(balance[seat], true) }),
    }, [el("span", { class: "score-name", text: name }), " ", formatNumber(balance[seat], true)]));
  });

  const contract = $("contract-chip");
  contract.replaceChildren();
  if (!msg) return;
  const obs = msg.observation || {};
  const phase = phaseOf(obs);
  const kind = String(obs.kind || "").toLowerCase();
  let text = "";
  if (kind === "allpass" || (phase === "play" && obs.declarer === null && !obs.contract)) {
    text = t("chip.allpass");
    if (obs.talon_lead) text += ` · ${t("chip.lead", { suit: SUIT_SYMBOL[obs.talon_lead] || obs.talon_lead })}`;
  } else if (obs.contract) {
    // [contract][ · trump ♣][ · declarer]: the trump part is left out on a phone (CSS).
    const trump = /NT$/.test(obs.contract) || obs.contract === "MISERE"
      ? null : el("span", { class: "chip-trump", text: ` · ${t("chip.trump", { suit: SUIT_SYMBOL[obs.contract.slice(-1)] })}` });
    contract.append(el("span", { "data-part": "contract" }, [
      callText(obs.contract), trump, ` · ${nameOf(obs.declarer)}`,
    ]));
  } else if (obs.bid) {
    const holder = obs.declarer ?? lastBidder(obs);
    text = t("chip.bid", { bid: callText(obs.bid) }) + (holder !== null && holder !== undefined ? ` · ${nameOf(holder)}` : "");
  } else if (phase === "auction") {
    text = Number(obs.min_bid) > 6 ? t("chip.biddingFrom", { level: obs.min_bid }) : t("chip.bidding");
  }
  if (text) contract.append(el("span", { text }));
  contract.hidden = !contract.childElementCount;
}

// --- the talon and the trick --------------------------------------------
export { cardImg };

function renderTalon() {
  const box = $("talon");
  box.replaceChildren();
  const msg = app.state;
  if (!msg) return;
  const obs = msg.observation || {};
  const phase = phaseOf(obs);
  const shown = Array.isArray(obs.talon) ? obs.talon : [];
  const discard = Array.isArray(obs.discard) ? obs.discard : [];
  if (phase === "done" && !shown.length) return;
  const cards = el("div", { class: "talon-cards" });
  shown.forEach((token) => cards.append(cardImg(token)));
  const hidden = phase === "auction" || phase === "" || obs.kind === "allpass" ? 2 - shown.length : 0;
  for (let i = 0; i < hidden; i += 1) {
    cards.append(el("img", { class: "card back", src: "/static/cards/back.svg", alt: t("talon.faceDown"), draggable: "false" }));
  }
  if (!cards.childElementCount && !discard.length) return;
  if (cards.childElementCount) {
    box.append(el("div", { class: "talon-group" }, [
      el("span", { class: "label", text: t(obs.talon_refused ? "talon.refused" : "talon.label") }), cards,
    ]));
  }
  if (discard.length) {
    const dcards = el("div", { class: "talon-cards discard" });
    discard.forEach((token) => dcards.append(cardImg(token, "small")));
    box.append(el("div", { class: "talon-group" }, [el("span", { class: "label", text: t("talon.discard") }), dcards]));
  }
}

/** A played card travels to the table from where it was: the hand's card the human
 *  tapped, or the seat of the player who played it.  Never delays input (the element is
 *  already in place; only its drawing moves) and is off under prefers-reduced-motion. */
function travel(img, seat, token) {
  if (reducedMotion() || !img.animate) return;
  const leaving = app.ui.leaving;
  let from = null;
  if (leaving && leaving.token === String(token).toUpperCase()) from = leaving.rect;
  else {
    // In this order: one selector list would give the first in the page, the name plate.
    const source = [`[data-card="${String(token).toUpperCase()}"]`, ".backs", ".hand", ".plate"]
      .map((part) => document.querySelector(`#${boxId(seat)} ${part}`)).find(Boolean);
    if (source) from = source.getBoundingClientRect();
  }
  app.ui.leaving = null;
  if (!from) return;
  const to = img.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.hypot(dx, dy) < 4) return;
  img.dataset.travel = "moving";
  const run = img.animate(
    [{ translate: `${dx}px ${dy}px`, opacity: 0.85 }, { translate: "0px 0px", opacity: 1 }],
    { duration: TRAVEL_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  run.onfinish = () => { img.dataset.travel = "done"; };
  run.oncancel = run.onfinish;
}

export function startGather(obs) {
  const tricks = obs.tricks || [];
  const last = tricks[tricks.length - 1];
  if (!last) return;
  const gather = { cards: last.cards || [], winner: last.winner, moving: false };
  app.ui.gather = gather;
  setTimeout(() => {
    if (app.ui.gather !== gather) return;
    gather.moving = true;
    renderTrick();
    gatherTrick($("trick"), gather.winner, `gather:${gather.winner}:${gather.cards.flat().join("")}`);
    setTimeout(() => {
      if (app.ui.gather !== gather) return;
      app.ui.gather = null;
      renderTrick();
    }, GATHER_MOVE_MS);
  }, GATHER_SHOW_MS);
}

/** The cards on the table, updated in place (keyed by seat and card) so that a card
 *  already lying there is not redrawn and the gathering slide can run. */
function renderTrick() {
  const box = $("trick");
  const msg = app.state;
  if (!msg) {
    box.replaceChildren();
    return;
  }
  const obs = msg.observation || {};
  // A finished trick stays on the table a moment and slides to its winner; the next
  // trick's first card waits for it (at most GATHER_SHOW_MS + GATHER_MOVE_MS).
  const gather = app.ui.gather;
  const cards = gather ? gather.cards : obs.trick || [];
  const wanted = new Map(cards.map(([seat, token], order) => [`${seat}:${token}`, { seat, token, order }]));
  for (const node of [...box.children]) {
    if (!wanted.has(node.dataset.key)) node.remove();
  }
  const present = new Set([...box.children].map((node) => node.dataset.key));
  const event = msg.event || {};
  for (const [key, { seat, token, order }] of wanted) {
    if (present.has(key)) continue;
    const img = cardImg(token, `played seat-${slotOf(seat)} pos-${positionOf(seat)}`);
    img.dataset.key = key;
    img.style.zIndex = String(order + 1);
    box.append(img);
    if (event.kind === "card" && String(event.token).toUpperCase() === String(token).toUpperCase()) travel(img, seat, token);
  }
  box.classList.toggle("gather", !!gather); // motion.js slides it to the winner
  if (obs.talon_lead && phaseOf(obs) === "play" && !cards.length) {
    const hint = t("trick.talonLead", { suit: SUIT_SYMBOL[obs.talon_lead] || obs.talon_lead });
    box.append(el("div", { class: "lead-hint", "data-key": "hint", text: hint }));
  }
}
