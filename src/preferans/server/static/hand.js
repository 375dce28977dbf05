/* The seats: each player's plate (name, dealer, tricks, last call) and hand, face down or
 * face up; the human's cards and what a tap, a key or a drag on them does. */
import { t } from "./i18n.js";
import { cardSrc } from "./cards.js";
import { render, setMessage } from "./channel.js";
import { sendAction } from "./socket.js";
import * as sound from "./sound.js";
import { awayFor } from "./away.js";
import { app, boxId, colour, dummySeat, isMe, me, myTurn, nameOf, plateName, positionOf, possessive, sitsOut } from "./state.js";
import { clockFor } from "./clock.js";
import { ratingFor } from "./seat_ratings.js";
import { callText, cardName } from "./words.js";
import { $, RANKS, el, exposedHands, isDiscarding, legalTokens, parseCard, phaseOf } from "./util.js";

/** Each player's last call: the auction, then defence calls, then the contract. */
function lastCalls(obs) {
  const calls = {};
  for (const [seat, token] of obs.auction || []) calls[seat] = token;
  if (obs.contract && obs.declarer !== null && obs.declarer !== undefined) {
    calls[obs.declarer] = obs.contract;
  }
  for (const [seat, token] of obs.defence || []) calls[seat] = token;
  return calls;
}

function plate(seat, obs, msg) {
  const calls = lastCalls(obs);
  const call = calls[seat];
  const tricksWon = (obs.tricks_won || [])[seat] ?? 0;
  const thinking = msg.thinking === seat;
  const event = msg.event;
  const popped = event && event.seat === seat && ["bid", "pass", "contract", "defence"].includes(event.kind);
  const dummy = seat === dummySeat();
  return el("div", {
    class: `plate${thinking ? " thinking" : ""}${obs.to_act === seat && !msg.deal_over ? " acting" : ""}${dummy ? " dummy" : ""}`,
    style: `--seat-colour:${colour(seat)}`,
    "data-seat": seat,
  }, [
    el("span", { class: `name${(msg.stand_in || []).includes(seat) ? " stand-in" : ""}`, text: plateName(seat), title: plateName(seat) }),
    ratingFor(seat, render),
    clockFor(seat),
    awayFor(seat),
    obs.dealer === seat ? el("span", { class: "dealer", title: t("plate.dealer"), "aria-label": t("plate.dealer"), text: t("plate.dealerMark") }) : null,
    dummy ? el("span", { class: "dummy-note", title: t("plate.dummy"), text: obs.alone ? t("plate.dummyOut") : "" }) : null,
    el("span", { class: "tricks", title: t("plate.tricksTitle"), "aria-label": t("plate.tricks", { count: tricksWon }), text: String(tricksWon) }),
    thinking ? el("span", { class: "thinking-dots", "aria-label": t("plate.thinking") }, [el("i"), el("i"), el("i")]) : null,
    call ? el("span", { class: `bubble${popped ? " pop" : ""}`, "data-call": call, text: callText(call) }) : null,
  ]);
}

export function renderSeat(seat) {
  const box = $(boxId(seat));
  const msg = app.state;
  if (!box) return;
  box.replaceChildren();
  if (!msg) return;
  const obs = msg.observation || {};
  box.append(plate(seat, obs, msg));
  box.dataset.sitsOut = String(sitsOut(seat, obs));
  if (sitsOut(seat, obs)) {
    box.append(el("span", { class: "sits-out", title: t("seat.sitsOutTitle"), text: t("seat.sitsOut") }));
  }
  if (isMe(seat)) {
    if (sitsOut(seat, obs) && !(obs.hand || []).length) {
      box.append(el("p", { class: "sit-out-note", text: t("seat.youSitOut") }));
      return;
    }
    if (obs.hand_hidden) {
      box.append(el("span", { class: "looked-label", text: t("seat.faceDown") }));
      box.append(backsOf((obs.hand_sizes || [])[seat] ?? 10, seat));
      return;
    }
    // The lone whister who opened: his own cards lie face up for the declarer too.
    if (exposedHands(obs)[seat]) box.append(el("span", { class: "looked-label open-note", "data-open": "true", text: t("seat.youOpen") }));
    box.append(renderHand(obs.hand || [], seat, obs));
    return;
  }
  box.dataset.dummy = String(seat === dummySeat());
  const exposed = exposedHands(obs)[seat];
  const looked = (obs.looked || {})[seat] || (obs.looked || {})[String(seat)];
  if (exposed) {
    box.append(el("span", { class: "looked-label open-note", text: t("seat.open") }));
    box.append(renderHand(exposed, seat, obs));
  } else if (looked) {
    box.append(el("span", { class: "looked-label", text: t("seat.youLooked") }));
    box.append(renderHand(looked, seat, obs));
  } else {
    box.append(backsOf((obs.hand_sizes || [])[seat] ?? 0, seat));
  }
}

/** A hand's cards face down. */
function backsOf(count, seat) {
  const backs = el("div", {
    class: `backs${["top", "bottom"].includes(positionOf(seat)) ? " row" : ""}`, style: `--n:${count}`,
    role: "img", "aria-label": t("seat.cards", { count }),
  });
  for (let i = 0; i < count; i += 1) {
    backs.append(el("img", { class: "card back", src: "/static/cards/back.svg", alt: "", style: `--i:${i}`, draggable: "false" }));
  }
  return backs;
}

/** A hand the human sees face up: its own (a fan) or an exposed one (a column). */
function renderHand(cards, seat, obs) {
  const msg = app.state;
  const phase = phaseOf(obs);
  const legal = new Set(legalTokens(obs).map((tok) => tok.toUpperCase()));
  const controlled = myTurn(msg) && phase === "play" && (obs.hand_to_play ?? me()) === seat;
  const discarding = myTurn(msg) && isDiscarding(phase) && isMe(seat);
  const sorted = [...cards].sort((a, b) => sortKey(a) - sortKey(b));
  const n = sorted.length;
  const hand = el("div", {
    class: `hand${isMe(seat) ? " fan" : positionOf(seat) === "top" ? " row" : " column"}${controlled ? " active" : ""}`,
    role: "group",
    "aria-label": isMe(seat) ? t("hand.yours") : t("hand.open", { name: nameOf(seat) }),
    "data-seat": seat,
    style: `--n:${n}`,
    onkeydown: onHandKey,
  });
  const focusToken = pickFocus(sorted, legal, controlled || discarding);
  sorted.forEach((token, i) => {
    const upper = token.toUpperCase();
    const playable = controlled && legal.has(upper);
    const selected = discarding && app.ui.selected.has(upper);
    const classes = ["card", "face"];
    if (playable) classes.push("playable");
    if (controlled && !playable) classes.push("unplayable");
    if (discarding) classes.push("selectable");
    if (selected) classes.push("selected");
    const button = el("button", {
      type: "button",
      class: classes.join(" "),
      "data-card": upper,
      "data-seat": seat,
      "aria-label": cardName(upper) + (selected ? t("hand.chosen") : controlled && !playable ? t("hand.notPlayable") : ""),
      "aria-pressed": discarding ? String(selected) : null,
      tabindex: upper === focusToken ? "0" : "-1",
      style: `--i:${i};--mid:${(n - 1) / 2}`,
      onclick: () => onCardClick(upper, seat),
      onpointerdown: (event) => onCardPointerDown(event, upper, seat),
      onfocus: () => { app.ui.focusCard = upper; },
    }, [el("img", { src: cardSrc(upper), alt: "", draggable: "false" })]);
    hand.append(button);
  });
  return hand;
}

function sortKey(token) {
  // Suits alternate colours on the table: spades, diamonds, clubs, hearts; high to low.
  const { rank, suit } = parseCard(token);
  return ["S", "D", "C", "H"].indexOf(suit) * 8 + (7 - RANKS.indexOf(rank));
}

function pickFocus(sorted, legal, active) {
  const focus = app.ui.focusCard;
  if (focus && sorted.includes(focus)) return focus;
  if (active) {
    const first = sorted.find((tok) => legal.has(tok.toUpperCase()));
    if (first) return first.toUpperCase();
  }
  return sorted.length ? sorted[0].toUpperCase() : null;
}

// ---------------------------------------------------------- card actions
function onCardClick(token, seat) {
  if (app.ui.drag && app.ui.drag.moved) return;
  sound.unlock();
  const msg = app.state;
  if (!msg) return;
  const obs = msg.observation || {};
  const phase = phaseOf(obs);
  if (!myTurn(msg)) {
    if (msg.deal_over) return;
    const actor = obs.to_act;
    setMessage(actor === null || actor === undefined ? t("why.wait") : t("why.notYourTurn", { whose: possessive(actor) }), "why");
    shake(token);
    return;
  }
  if (isDiscarding(phase) && isMe(seat)) {
    const selected = app.ui.selected;
    if (selected.has(token)) selected.delete(token);
    else if (selected.size < 2) selected.add(token);
    else {
      setMessage(t("why.twoChosen"), "why");
      shake(token);
      return;
    }
    app.ui.focusCard = token;
    app.ui.message = null;
    render();
    focusCard(token);
    return;
  }
  if (phase !== "play") {
    setMessage(t(phase === "auction" ? "why.bidFirst" : "why.notNow"), "why");
    shake(token);
    return;
  }
  playCard(token, seat);
}

function playCard(token, seat) {
  const msg = app.state;
  const obs = msg.observation || {};
  const toPlay = obs.hand_to_play ?? me();
  if (seat !== toPlay) {
    setMessage(t("why.playFrom", { whose: possessive(toPlay) }), "why");
    shake(token);
    return;
  }
  const legal = new Set(legalTokens(obs).map((tok) => tok.toUpperCase()));
  const whyNot = (msg.why_not || {})[token] || (msg.why_not || {})[token.toLowerCase()];
  if (!legal.has(token) && whyNot) {
    setMessage(t("why.card", { card: callText(token), why: whyNot }), "why");
    shake(token);
    sound.play("error");
    return;
  }
  app.ui.pendingShake = token;
  const hand = $(boxId(seat));
  const node = hand && hand.querySelector(`[data-card="${token}"]`);
  if (node) {
    node.classList.add("leaving");
    app.ui.leaving = { token, rect: node.getBoundingClientRect() };
  }
  sendAction(token);
}

export function shake(token) {
  const nodes = document.querySelectorAll(`.hand [data-card="${token}"]`);
  nodes.forEach((node) => {
    node.classList.remove("shake");
    void node.offsetWidth; // restart the animation
    node.classList.add("shake");
    node.addEventListener("animationend", () => node.classList.remove("shake"), { once: true });
  });
}

function focusCard(token) {
  const node = document.querySelector(`.hand [data-card="${token}"]`);
  if (node) node.focus({ preventScroll: true });
}

function onHandKey(event) {
  const target = event.target.closest("[data-card]");
  if (!target) return;
  const cards = [...event.currentTarget.querySelectorAll("[data-card]")];
  const index = cards.indexOf(target);
  const column = event.currentTarget.classList.contains("column");
  const prev = column ? ["ArrowUp", "ArrowLeft"] : ["ArrowLeft", "ArrowUp"];
  const next = column ? ["ArrowDown", "ArrowRight"] : ["ArrowRight", "ArrowDown"];
  let to = null;
  if (prev.includes(event.key)) to = Math.max(0, index - 1);
  else if (next.includes(event.key)) to = Math.min(cards.length - 1, index + 1);
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = cards.length - 1;
  if (to === null) return;
  event.preventDefault();
  cards.forEach((card, i) => card.setAttribute("tabindex", i === to ? "0" : "-1"));
  cards[to].focus();
}

// --- drag a card onto the table -------------------------------------------
function onCardPointerDown(event, token, seat) {
  if (event.button !== 0 || !myTurn(app.state) || phaseOf(app.state.observation) !== "play") return;
  const node = event.currentTarget;
  const drag = { token, seat, node, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
  const move = (ev) => {
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 8) return;
    if (!drag.moved) {
      drag.moved = true;
      app.ui.drag = drag;
      node.classList.add("dragging");
    }
    node.style.translate = `${dx}px ${dy}px`;
    $("trick").classList.toggle("drop-target", overTable(ev));
  };
  const up = (ev) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    $("trick").classList.remove("drop-target");
    if (!drag.moved) return;
    const dropped = ev.type === "pointerup" && overTable(ev);
    node.classList.remove("dragging");
    node.style.translate = "";
    // Let the click that follows a drag see drag.moved, then forget the drag.
    setTimeout(() => {
      if (app.ui.drag === drag) app.ui.drag = null;
      render();
    }, 0);
    if (dropped) playCard(token, seat);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}

function overTable(event) {
  const rect = document.querySelector(".centre").getBoundingClientRect();
  return event.clientX >= rect.left && event.clientX <= rect.right
    && event.clientY >= rect.top && event.clientY <= rect.bottom;
}
