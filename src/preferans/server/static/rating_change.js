/* The result's "your rating" line: once a rated game is over, how it moved this browser's
 * rating, read from /api/rating/game/<id> (the rating is written moments after the game's
 * last save, so the page asks again a few times until it is). */
import { t } from "./i18n.js";
import { render } from "./channel.js";
import { forgetTableRatings } from "./seat_ratings.js";
import { el } from "./util.js";

const ASK_EVERY_MS = 700;
const ASK_AT_MOST = 15;
const known = new Map();  // game id -> the answer, "asking", or null (nothing to show)

function ask(id, tries) {
  fetch(`/api/rating/game/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((body) => {
      if (!body || !body.rated) { known.set(id, null); return; }
      if (!body.done) {
        if (tries < ASK_AT_MOST) setTimeout(() => ask(id, tries + 1), ASK_EVERY_MS);
        else known.set(id, null);
        return;
      }
      known.set(id, body);
      forgetTableRatings();  // the plates show the new ratings too
      render();
    })
    .catch(() => known.set(id, null));
}

/** The line for the result of ``msg`` (a finished game), or null: not rated, not this
 *  browser's, not written yet (it is asked for, and the sheet drawn again when it comes). */
export function ratingLine(msg) {
  const id = msg && msg.game_over ? msg.game_id : null;
  if (!id || msg.seat === null || msg.seat === undefined) return null;
  const got = known.get(id);
  if (got === undefined) {
    known.set(id, "asking");
    ask(id, 0);
    return null;
  }
  const seat = got && got !== "asking" ? Object.values(got.seats || {})[0] : null;
  if (!seat) return null;
  const rating = `${tenths(seat.mu)} ± ${tenths(2 * seat.sigma)}`;
  const change = `${seat.change > 0 ? "+" : ""}${tenths(seat.change)}`;
  return el("p", { class: "rating-change", "data-change": seat.change,
                   text: t("result.rating", { rating, change }) });
}

/** One decimal, as the statistics page and the ladder write a rating (27.4, in Russian 27,4). */
function tenths(value) {
  return Number(value).toFixed(1).replace(".", t("number.decimal")).replace("-", "−");
}
