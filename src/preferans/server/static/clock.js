/* The move clock of a table for friends: the server sends, with each state, the seconds left
 * for the decision due ("clock": {seat, seconds, left}); the acting plate counts them down. */
import { t } from "./i18n.js";
import { el } from "./util.js";

let deadline = null; // Date.now() when the decision's time runs out, or null
let seatTimed = null;
let ticking = null;

/** Note the clock of a state just received. */
export function noteClock(msg) {
  const clock = msg && msg.clock;
  deadline = clock ? Date.now() + Number(clock.left) * 1000 : null;
  seatTimed = clock ? Number(clock.seat) : null;
  if (deadline !== null && ticking === null) ticking = setInterval(tick, 250);
}

const secondsLeft = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));

/** "0:29" */
const shown = (left) => `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;

/** The clock shown on a seat's plate, or null when its decision is not timed. */
export function clockFor(seat) {
  if (deadline === null || seatTimed !== seat) return null;
  const left = secondsLeft();
  return el("span", {
    class: `move-clock${left <= 10 ? " low" : ""}`, role: "timer",
    "aria-label": t("plate.clock", { seconds: left }), "data-left": String(left), text: shown(left),
  });
}

function tick() {
  const clocks = document.querySelectorAll(".move-clock");
  if (deadline === null && !clocks.length) {
    clearInterval(ticking);
    ticking = null;
    return;
  }
  const left = deadline === null ? 0 : secondsLeft();
  clocks.forEach((node) => {
    node.textContent = shown(left);
    node.dataset.left = String(left);
    node.classList.toggle("low", left <= 10);
    node.setAttribute("aria-label", t("plate.clock", { seconds: left }));
  });
}
