/* The statistics page's rating: this browser's rating (mu ± 2 sigma), where it stands among
 * the computer levels, its history as an inline SVG plot (the mean, the ±2 sigma band, the
 * four levels as dashed lines), and the choice to be listed on the ladder. */
import { setLanguage, t } from "./i18n.js";
import { $ } from "./util.js";

const SVG = "http://www.w3.org/2000/svg";
const LEVELS = ["easy", "normal", "hard", "crazy"];
const COLOURS = { easy: "#2e7d32", normal: "#1565c0", hard: "#ef6c00", crazy: "#c62828" };

function svg(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

const fmt = (x) => {
  const s = x.toFixed(1);
  return document.documentElement.lang === "ru" ? s.replace(".", ",") : s;
};
export const shown = (r) => `${fmt(r.mu)} ± ${fmt(2 * r.sigma)}`;

/** The sentence placing a rating among the levels ("between Hard and Crazy"). */
export function placement(mine) {
  const name = (level) => t(`difficulty.${level}`);
  if (!mine.rating.games) return t("rating.place_new");
  if (mine.below && mine.above) {
    return t("rating.place_between", { below: name(mine.below), above: name(mine.above) });
  }
  if (mine.below) return t("rating.place_above_all", { level: name(mine.below) });
  return t("rating.place_below_all", { level: name(mine.above) });
}

/** The history plot: one point per rated game, the mean and its ±2 sigma band. */
export function plot(history, levels) {
  const width = 660, height = 240, left = 44, right = 580, top = 12, bottom = 210;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
                            "aria-labelledby": "rating-plot-title" });
  root.append(svg("title", { id: "rating-plot-title" }, t("rating.plot_title")));
  const values = history.flatMap((h) => [h.mu - 2 * h.sigma, h.mu + 2 * h.sigma]);
  for (const level of LEVELS) if (levels[level]) values.push(levels[level].mu);
  let lo = Math.floor(Math.min(...values) - 1), hi = Math.ceil(Math.max(...values) + 1);
  if (!(hi > lo)) { lo -= 5; hi += 5; }
  const n = Math.max(history.length, 1);
  const x = (i) => left + (right - left) * (n === 1 ? 0.5 : i / (n - 1));
  const y = (v) => bottom - (bottom - top) * (v - lo) / (hi - lo);
  root.append(svg("line", { x1: left, y1: bottom, x2: right, y2: bottom, class: "axis" }));
  root.append(svg("line", { x1: left, y1: top, x2: left, y2: bottom, class: "axis" }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    root.append(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" },
                    fmt(v)));
  }
  root.append(svg("text", { x: right, y: bottom + 22, "text-anchor": "end", class: "tick" },
                  t("rating.plot_games", { count: history.length })));
  // the levels' lines, their names beside the plot, at least a line of text apart
  const shownLevels = LEVELS.filter((level) => levels[level])
    .sort((a, b) => levels[b].mu - levels[a].mu);
  let lastLabel = -Infinity;
  for (const level of shownLevels) {
    const at = y(levels[level].mu);
    root.append(svg("line", { x1: left, x2: right, y1: at, y2: at,
                              stroke: COLOURS[level], "stroke-dasharray": "6 4",
                              "stroke-width": 1.5, class: "level", "data-level": level }));
    const labelY = Math.max(at + 4, lastLabel + 14);
    lastLabel = labelY;
    root.append(svg("text", { x: right + 6, y: labelY, "text-anchor": "start",
                              class: "tick", fill: COLOURS[level] },
                    t(`difficulty.${level}`)));
  }
  if (history.length) {
    const upper = history.map((h, i) => `${x(i)},${y(h.mu + 2 * h.sigma)}`);
    const lower = history.map((h, i) => `${x(i)},${y(h.mu - 2 * h.sigma)}`).reverse();
    root.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "band",
                                 fill: "#6a1b9a", "fill-opacity": 0.15 }));
    root.append(svg("polyline", { points: history.map((h, i) => `${x(i)},${y(h.mu)}`).join(" "),
                                  fill: "none", stroke: "#6a1b9a", "stroke-width": 2.5,
                                  class: "series" }));
    history.forEach((h, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(h.mu), r: 4, fill: "#6a1b9a",
                                  class: "point" });
      dot.append(svg("title", {}, t("rating.point", { game: i + 1, rating: shown(h),
                                                      place: h.place })));
      root.append(dot);
    });
  }
  return root;
}

async function listing(event) {
  event.preventDefault();
  const status = $("rating-listing-status");
  const listed = $("rating-list").checked;
  const response = await fetch("/api/rating/listing", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ listed, name: $("rating-name").value }),
  });
  const body = await response.json().catch(() => ({}));
  status.textContent = response.ok
    ? (listed ? t("rating.listed", { name: body.name }) : t("rating.unlisted"))
    : (body.message || t("rating.not_saved"));
  status.dataset.ok = response.ok ? "yes" : "no";
}

async function show() {
  const box = $("rating");
  if (!box) return;
  const response = await fetch("/api/rating", { headers: { Accept: "application/json" } });
  if (!response.ok) {
    $("rating-now").textContent = t("rating.not_read");
    return;
  }
  const mine = await response.json();
  $("rating-now").textContent = mine.rating.games
    ? t("rating.now", { rating: shown(mine.rating), count: mine.rating.games })
    : t("rating.none");
  $("rating-place").textContent = placement(mine);
  const figure = $("rating-plot");
  figure.replaceChildren(plot(mine.history, mine.levels));
  $("rating-list").checked = mine.listed;
  $("rating-name").value = mine.name;
  $("rating-listing").addEventListener("submit", listing);
  box.dataset.ready = "yes";
}

setLanguage(document.documentElement.lang);
show();
