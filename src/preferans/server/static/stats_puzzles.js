/* The statistics page's puzzles: the browser's puzzle rating and how many it solved, as the
 * puzzle page keeps them in this browser (puzzles.js). */
import { setLanguage, t } from "./i18n.js";
import { $ } from "./util.js";

const RATING_KEY = "preferans.puzzleRating";

function kept() {
  try {
    const r = JSON.parse(window.localStorage.getItem(RATING_KEY) || "null");
    if (r && Number.isFinite(r.mu) && Number.isFinite(r.tried)) return r;
  } catch (error) { /* a broken entry: as if none */ }
  return null;
}

setLanguage(document.documentElement.lang);
const node = $("stats-puzzles");
if (node) {
  const r = kept();
  node.textContent = r && r.tried
    ? t("puzzles.rating", { rating: r.shown, solved: r.solved, count: r.tried })
    : t("puzzles.rating_none");
}
