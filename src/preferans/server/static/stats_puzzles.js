/* The statistics page's puzzles: this browser's puzzle rating and how many it solved, as
 * the server keeps them (GET /api/puzzles/rating: its account's, signed in), or as the
 * browser kept them itself before. */
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

function show(node, r) {
  node.textContent = r && r.tried
    ? t("puzzles.rating", { rating: r.shown, solved: r.solved, count: r.tried })
    : t("puzzles.rating_none");
}

setLanguage(document.documentElement.lang);
const node = $("stats-puzzles");
if (node) {
  fetch("/api/puzzles/rating", { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : {}))
    .then((body) => show(node, (body && body.rating) || kept()))
    .catch(() => show(node, kept()));
}
