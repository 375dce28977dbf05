/* The ratings on the plates of a table for friends: read from /api/rating/table/<id> when
 * the table opens and again once its game is rated (only a browser holding a seat there gets
 * them), each seat's "mu ± 2 sigma" rounded, the full figure in the title. */
import { t } from "./i18n.js";
import { app } from "./state.js";
import { el } from "./util.js";

let ratings = null;
let asked = false;

function ask(loaded) {
  asked = true;
  const id = app.state && app.state.game_id;
  if (!id) return;
  fetch(`/api/rating/table/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((body) => { if (body) { ratings = body; loaded(); } })
    .catch(() => { /* no ratings: the plates go without */ });
}

/** Read the plates' ratings again at the next drawing (the game has just been rated). */
export function forgetTableRatings() {
  asked = false;
}

/** The rating badge of a seat's plate, or null (not a table for friends, not read yet). */
export function ratingFor(seat, loaded) {
  const msg = app.state;
  if (!msg || msg.stand_in === undefined || msg.seat === null || msg.seat === undefined) return null;
  if (!asked) ask(loaded);
  const r = ratings && ratings.seats && ratings.seats[seat];
  if (!r) return null;
  return el("span", { class: "rating", title: t("plate.rating", { rating: r.shown }),
                      "data-rating": r.shown, text: `${Math.round(r.mu)}±${Math.round(2 * r.sigma)}` });
}
