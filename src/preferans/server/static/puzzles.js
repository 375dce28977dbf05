/* The puzzle page: every hand open, the goal; the player plays his side's cards, the server's
 * solver answers for the other side (POST /api/puzzles/{id}/play with the cards so far).
 * A wrong card is shown what it costs; a right line to the end is solved; a hint names the
 * card's suit; after it, the solution and every other card's cost. */
import { setLanguage, t, translatePage } from "./i18n.js";
import { cardImg, handOrder } from "./cards.js";
import { callText, cardName, suitName } from "./words.js";
import { $, SUIT_SYMBOL, el } from "./util.js";

const view = { puzzle: null, cards: [], state: null, solution: null, done: false, hinted: false, failed: false, rated: false };
const RATING_KEY = "preferans.puzzleRating";
let rating = null;  // the server's: this browser's holder's (an account's, signed in)

/** The rating this browser kept itself before the server kept it (handed over once). */
function localRating() {
  try {
    const r = JSON.parse(window.localStorage.getItem(RATING_KEY) || "null");
    if (r && Number.isFinite(r.mu) && Number.isFinite(r.sigma)) {
      return { mu: r.mu, sigma: r.sigma, shown: Number(r.shown) || 0,
               solved: Math.max(0, Math.floor(Number(r.solved) || 0)),
               tried: Math.max(0, Math.floor(Number(r.tried) || 0)) };
    }
  } catch (error) { /* a broken entry: as if none */ }
  return null;
}

function showRating() {
  const r = rating || localRating();
  $("puzzle-rating").textContent = r && r.tried
    ? t("puzzles.rating", { rating: r.shown, solved: r.solved, count: r.tried })
    : t("puzzles.rating_none");
}

async function loadRating() {
  try {
    rating = (await getJson("/api/puzzles/rating")).rating;
  } catch (error) { /* shown from this browser's own, if any */ }
  showRating();
}

/** Rate the first try at this puzzle: solved without a wrong card or the hint, or not. */
async function rateTry(solved) {
  if (view.rated) return;
  view.rated = true;
  const kept = rating ? null : localRating();
  const valid = kept && kept.solved <= kept.tried ? kept : null;
  try {
    rating = await getJson(`/api/puzzles/${view.puzzle.id}/rate`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(valid ? { solved, kept: { mu: valid.mu, sigma: valid.sigma,
        solved: valid.solved, tried: valid.tried } } : { solved }),
    });
    window.localStorage.removeItem(RATING_KEY);  // the server keeps it now
  } catch (error) { /* the rating waits for the next try */ }
  showRating();
}

async function getJson(url, options = {}) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.detail || response.statusText), { code: body.code });
  return body;
}

function status(text, kind = "") {
  const node = $("puzzle-status");
  node.textContent = text;
  node.className = `puzzle-status ${kind}`.trim();
}

function seatTitle(seat) {
  const p = view.puzzle;
  const mine = p.side.includes(seat);
  const role = p.kind === "allpass" ? "" : seat === p.declarer ? t("puzzles.declarer") : t("puzzles.defender");
  const who = mine ? t("puzzles.you") : t("puzzles.solver");
  const taken = t("puzzles.taken", { count: view.state.taken[seat] });
  return [who, role, taken].filter(Boolean).join(" · ");
}

function facts() {
  const p = view.puzzle;
  const daily = p.daily ? `${t("puzzles.daily_of", { date: p.daily })} · ` : "";
  const trump = p.position.trump;
  const kind = p.kind === "contract"
    ? t("puzzles.contract", { contract: callText(`${p.level}${trump || "NT"}`) })
    : t(`puzzles.kind.${p.kind}`);
  return `${daily}${kind} · ${t(`puzzles.grade.${p.grade}`)} · ${p.themes.map((x) => t(`puzzles.theme.${x}`)).join(", ")}`;
}

function draw() {
  const p = view.puzzle;
  const pos = view.state.position;
  $("puzzle-facts").textContent = facts();
  $("puzzle-goal").textContent = t(`puzzles.goal.${p.goal.code}`, { count: p.goal.bound });
  const table = $("puzzle-table");
  table.replaceChildren();
  const legal = new Set(view.done ? [] : view.state.legal);
  pos.hands.forEach((hand, seat) => {
    const mine = p.side.includes(seat);
    const toPlay = !view.done && seat === view.state.to_play;
    const row = el("div", { class: "puzzle-cards" });
    [...hand].sort((a, b) => handOrder(a) - handOrder(b)).forEach((card) => {
      const playable = mine && toPlay && legal.has(card);
      row.append(el("button", {
        type: "button", disabled: !playable, "data-card": card,
        "aria-label": cardName(card), onclick: playable ? () => play(card) : null,
      }, [cardImg(card)]));
    });
    table.append(el("section", {
      class: `puzzle-seat${mine ? " mine" : ""}${toPlay ? " to-play" : ""}`, "data-seat": seat,
    }, [el("h2", { text: seatTitle(seat) }), row]));
  });
  const trick = $("puzzle-trick");
  trick.replaceChildren();
  const leader = pos.leader;
  if (pos.trick.length) trick.append(el("span", { text: t("puzzles.on_table") }));
  pos.trick.forEach((card, k) => trick.append(el("figure", {}, [
    cardImg(card), el("figcaption", { text: p.side.includes((leader + k) % 3) ? t("puzzles.you") : t("puzzles.solver") }),
  ])));
  $("puzzle-retry").hidden = !(view.state && view.state.status === "wrong");
}

async function advance(p = view.puzzle, cards = view.cards) {
  return getJson(`/api/puzzles/${p.id}/play`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ cards }),
  });
}

async function play(card) {
  view.cards.push(card);
  let state;
  try {
    state = await advance();
  } catch (error) {
    view.cards.pop();
    status(t(error.code || "puzzles.error.load"), "bad");
    return;
  }
  if (state.status === "wrong") {
    view.cards.pop();
    view.state = { ...view.state, status: "wrong" };
    view.failed = true;
    rateTry(false);
    status(t("puzzles.wrong", { card: callText(card), count: state.cost }), "bad");
    draw();
    return;
  }
  view.state = state;
  view.done = state.status === "solved";
  const answers = state.played.slice(-3).filter((x) => !x.player).map((x) => callText(x.card));
  if (view.done) {
    status(t("puzzles.solved"), "good");
    await rateTry(!view.failed && !view.hinted);
    await showSolution();
  } else {
    status(answers.length ? t("puzzles.right_answer", { cards: answers.join(", ") }) : t("puzzles.right"), "good");
  }
  draw();
}

async function solution() {
  if (!view.solution) view.solution = await getJson(`/api/puzzles/${view.puzzle.id}/solution`);
  return view.solution;
}

async function hint() {
  const s = await solution();
  const suit = s.solution[0].slice(-1);
  view.hinted = true;
  rateTry(false);
  status(t("puzzles.hint_text", { suit: `${SUIT_SYMBOL[suit]} ${suitName(suit)}` }));
}

async function showSolution() {
  const s = await solution();
  const box = $("puzzle-answer");
  const list = el("ul");
  for (const alt of s.alternatives) {
    list.append(el("li", { text: t("puzzles.alternative", { cards: alt.cards.map(callText).join(" "), count: alt.cost }) }));
  }
  const line = s.line.map((x) => (x.player ? callText(x.card) : `(${callText(x.card)})`)).join(" ");
  box.replaceChildren(
    el("h2", { text: t("puzzles.solution_title") }),
    el("p", { text: t("puzzles.solution", { cards: s.solution.map(callText).join(" "), obvious: callText(s.obvious) }) }),
    el("p", { text: t("puzzles.line", { line }) }),
    el("p", { text: t("puzzles.others") }), list,
  );
  box.hidden = false;
}

async function load(url) {
  let puzzle;
  let state;
  try {  // the new puzzle and its first state together: the page never mixes two puzzles
    puzzle = await getJson(url);
    state = await advance(puzzle, []);
  } catch (error) {
    status(t(error.code || "puzzles.error.load"), "bad");
    return;
  }
  Object.assign(view, {
    puzzle, state, cards: [], solution: null, done: false, hinted: false, failed: false, rated: false,
  });
  $("puzzle-answer").hidden = true;
  status(t("puzzles.your_move"));
  const query = new URLSearchParams(window.location.search);
  query.delete("daily");
  query.set("id", puzzle.id);
  window.history.replaceState(null, "", `?${query}`);
  draw();
}

function next(event) {
  if (event) event.preventDefault();
  const query = new URLSearchParams();
  if ($("puzzle-theme").value) query.set("theme", $("puzzle-theme").value);
  if ($("puzzle-grade").value) query.set("grade", $("puzzle-grade").value);
  load(`/api/puzzles/random?${query}`);
}

function init() {
  setLanguage(document.documentElement.lang);
  translatePage();
  document.title = `${t("puzzles.title")} · ${document.title}`;
  $("puzzle-choice").addEventListener("submit", next);
  $("puzzle-hint").addEventListener("click", hint);
  $("puzzle-daily").addEventListener("click", () => load("/api/puzzles/daily"));
  $("puzzle-show").addEventListener("click", () => { rateTry(false); showSolution(); });
  loadRating();
  $("puzzle-retry").addEventListener("click", () => { view.state.status = "continue"; status(t("puzzles.your_move")); draw(); });
  const query = new URLSearchParams(window.location.search);
  if (query.get("theme")) $("puzzle-theme").value = query.get("theme");
  if (query.get("grade")) $("puzzle-grade").value = query.get("grade");
  const id = query.get("id");
  if (query.get("daily")) load("/api/puzzles/daily");
  else if (id && /^p[0-9a-f]{11}$/.test(id)) load(`/api/puzzles/${id}`);
  else next();
}

// A read-only window onto the page for the browser tests.
window.preferansPuzzles = { view };
init();
