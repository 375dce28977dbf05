/* A friend away from a table for friends: the server sends, with each state, the humans whose
 * browsers are gone within their grace time ("away": [{seat, left, grace}]: seconds left as
 * the server counted them); their plates say so from the first second and count the grace
 * down, after which the stand-in plays the seat (the state's "stand_in"). */
import { t } from "./i18n.js";
import { nameOf } from "./state.js";
import { el } from "./util.js";

let deadlines = new Map(); // seat -> Date.now() when its grace runs out
let ticking = null;

/** Note the friends away in a state just received. */
export function noteAway(msg) {
  const away = (msg && msg.away) || [];
  deadlines = new Map(away.map((a) => [Number(a.seat), Date.now() + Number(a.left) * 1000]));
  if (deadlines.size && ticking === null) ticking = setInterval(tick, 250);
}

const secondsLeft = (seat) => Math.max(0, Math.ceil((deadlines.get(seat) - Date.now()) / 1000));

/** The mark on the plate of a friend away (with the seconds left), or null. */
export function awayFor(seat) {
  if (!deadlines.has(seat)) return null;
  const left = secondsLeft(seat);
  return el("span", {
    class: "away-mark", role: "timer", "data-seat": seat, "data-left": String(left),
    title: t("plate.awayTitle", { name: nameOf(seat), seconds: left }),
    text: t("plate.away", { seconds: left }),
  });
}

function tick() {
  const marks = document.querySelectorAll(".away-mark");
  if (!deadlines.size && !marks.length) {
    clearInterval(ticking);
    ticking = null;
    return;
  }
  marks.forEach((node) => {
    const seat = Number(node.dataset.seat);
    if (!deadlines.has(seat)) return;
    const left = secondsLeft(seat);
    node.textContent = t("plate.away", { seconds: left });
    node.dataset.left = String(left);
    node.title = t("plate.awayTitle", { name: nameOf(seat), seconds: left });
  });
}
