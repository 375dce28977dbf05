/* Motion at the table: the finished trick gathers to its winner's seat, the talon turns face
 * up, the deal arrives in the hand.  Web Animations only: every element is already where it
 * belongs when an animation starts (the state is drawn at once, input is never delayed); the
 * animation only moves its drawing, for 150-350 ms.  Nothing runs under
 * prefers-reduced-motion.
 *
 * The table redraws the hand and the talon from scratch on every state message, so a motion
 * is remembered by kind with its start time: a redraw in the middle of it puts the new
 * elements at the same point of the same animation instead of starting it again. */
import { boxId } from "./state.js";
import { reducedMotion } from "./util.js";

export const MOTION_MS = { gather: 300, turn: 280, deal: 320 };
const DEAL_STAGGER_MS = 12; // each card of the deal a little after the one before

const running = new Map(); // kind -> {key, start}
let lastDealKey = null;
let seenTalon = null; // the talon's cards face up at the last drawing (null before the first)
let turning = []; // the talon's cards of the latest turn

export function motionAllowed() {
  return !reducedMotion() && typeof Element !== "undefined" && typeof Element.prototype.animate === "function";
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Start (or, after a redraw, resume) the motion ``kind`` named ``key`` on ``nodes``;
 *  ``frames(node, i)`` gives each node's keyframes, ``delay(i)`` its delay. */
function play(kind, key, nodes, frames, { duration, easing = "ease-out", delay = () => 0, fill = "backwards" }) {
  if (!motionAllowed() || !nodes.length) return;
  const now = performance.now();
  let entry = running.get(kind);
  if (!entry || entry.key !== key) {
    entry = { key, start: now };
    running.set(kind, entry);
  }
  const elapsed = now - entry.start;
  nodes.forEach((node, i) => {
    if (node.dataset.motion) return; // this very element is already under way
    const total = delay(i) + duration;
    if (elapsed >= total) return;
    const keyframes = frames(node, i);
    if (!keyframes) return;
    node.dataset.motion = kind;
    const run = node.animate(keyframes, { duration, delay: delay(i), easing, fill });
    run.currentTime = elapsed;
    const done = () => { if (node.dataset.motion === kind) node.dataset.motion = "done"; };
    run.onfinish = done;
    run.oncancel = done;
  });
}

/** The seat's place on the screen a gathered trick flies to: its plate, else the seat. */
function seatBox(seat) {
  const node = document.querySelector(`#${boxId(seat)} .plate`) || document.getElementById(boxId(seat));
  return node ? node.getBoundingClientRect() : null;
}

/** The finished trick's cards slide, shrinking and fading, to the winner's seat.  The cards
 *  stay in place (the table removes them when the gathering is over); only their drawing
 *  moves, and keeps its end (``fill: forwards``) until then. */
export function gatherTrick(box, winner, key) {
  const target = seatBox(winner);
  if (!box || !target) return;
  const to = centre(target);
  const cards = [...box.querySelectorAll(".card.played")];
  cards.forEach((card) => { card.dataset.winner = String(winner); });
  play("gather", key, cards, (card) => {
    const from = centre(card.getBoundingClientRect());
    return [
      { translate: "0px 0px", scale: "1", opacity: 1 },
      { translate: `${to.x - from.x}px ${to.y - from.y}px`, scale: "0.4", opacity: 0 },
    ];
  }, { duration: MOTION_MS.gather, easing: "ease-in", fill: "forwards" });
}

/** The talon's cards turn face up: each narrows to an edge and opens again on its face. */
export function turnTalon(cards, key) {
  play("turn", key, cards, () => [
    { transform: "perspective(600px) rotateY(90deg)", filter: "brightness(0.8)" },
    { transform: "perspective(600px) rotateY(0deg)", filter: "brightness(1)" },
  ], { duration: MOTION_MS.turn, easing: "ease-out" });
}

/** The deal arrives: the hand's cards slide in from the middle of the table and fan out. */
export function dealHand(cards, from, key) {
  if (!from) return;
  const start = centre(from);
  play("deal", key, cards, (card, i) => {
    const to = centre(card.getBoundingClientRect());
    const turn = (i - (cards.length - 1) / 2) * -3;
    return [
      { translate: `${start.x - to.x}px ${start.y - to.y}px`, rotate: `${turn}deg`, scale: "0.6", opacity: 0.2 },
      { translate: "0px 0px", rotate: "0deg", scale: "1", opacity: 1 },
    ];
  }, { duration: MOTION_MS.deal - DEAL_STAGGER_MS * (cards.length - 1) > 150
    ? MOTION_MS.deal - DEAL_STAGGER_MS * (cards.length - 1) : 150,
  delay: (i) => i * DEAL_STAGGER_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** After each drawing of the table: the motions the last state message asks for.  ``msg``
 *  is that message; the deal's arrival follows the ``deal_started`` event (and the first
 *  drawing of a fresh deal); the talon turns when cards of it come face up. */
export function afterRender(msg) {
  if (!msg) return;
  const obs = msg.observation || {};
  const event = msg.event || {};
  const hand = [...document.querySelectorAll("#seat-0 .hand [data-card]")];
  const table = document.querySelector("#trick") || document.querySelector(".centre");
  const fresh = String(obs.phase || "").toLowerCase() === "auction" && !(obs.auction || []).length;
  const dealKey = event.kind === "deal_started" || (fresh && lastDealKey === null) ? `deal:${msg.seq}` : null;
  if (dealKey) lastDealKey = dealKey;
  const deal = running.get("deal");
  if (dealKey || (deal && hand.length)) {
    dealHand(hand, table && table.getBoundingClientRect(), dealKey || deal.key);
  }
  // The talon turns when its cards show face up that did not at the last drawing (the
  // auction's winner takes it, or an all-pass deal turns it card by card).
  const faces = [...document.querySelectorAll("#talon .talon-cards:not(.discard) .card.face")];
  const tokens = faces.map((card) => card.dataset.card);
  if (seenTalon !== null) {
    const turned = faces.filter((card) => !seenTalon.includes(card.dataset.card));
    const turn = running.get("turn");
    if (turned.length) {
      turning = turned.map((card) => card.dataset.card);
      turnTalon(turned, `talon:${msg.seq}`);
    } else if (turn) turnTalon(faces.filter((card) => turning.includes(card.dataset.card)), turn.key);
  }
  seenTalon = tokens;
}
