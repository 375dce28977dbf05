/* The replay viewer: a finished game (this browser's, /replay/{id}) or any record file opened
 * on /replay, deal by deal and card by card, every hand face up, the after-deal analysis
 * alongside and the sheet as it stood after each deal.  Forward and back by the buttons or
 * the keyboard (← → a step, Home/End, ↑ ↓ or Page Up/Down a deal); the place is kept in the
 * address (#deal=3&step=14).  The server lays the game out (preferans-review/1); the cards
 * and the sheet are drawn by the table's own modules. */
import { has, setLanguage, t, translatePage } from "./i18n.js";
import { analysisBlock, loadOnce } from "./analysis.js";
import { cardImg, cardRow } from "./cards.js";
import { pulyaDrawing, totalsTable } from "./sheet.js";
import { app, colour, nameOf } from "./state.js";
import { callText } from "./words.js";
import { $, el, formatNumber } from "./util.js";

const view = {
  gameId: "",
  review: null,
  deal: 0, // index into review.deals
  step: 0, // 0: as dealt; k: after the k-th action
  tab: "analysis",
  sheetTab: "pulya",
  download: null, // {href, name}
};

// --- loading -----------------------------------------------------------------------
function status(text, kind = "info") {
  const line = $("replay-status");
  line.textContent = text || "";
  line.dataset.kind = kind;
}

async function loadGame(gameId) {
  status(t("replay.loading"));
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/review`, { credentials: "same-origin" });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.detail || String(response.status));
    view.download = { href: `/api/games/${encodeURIComponent(gameId)}/record`, name: `preferans-${gameId}.json` };
    show(body);
  } catch (problem) {
    status(t("replay.failed", { why: problem.message }), "error");
  }
}

async function openFile(file) {
  status(t("replay.opening"));
  try {
    const text = await file.text();
    const response = await fetch("/api/review", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.detail || String(response.status));
    if (view.download && view.download.href.startsWith("blob:")) URL.revokeObjectURL(view.download.href);
    view.download = { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), name: file.name || "preferans-record.json" };
    view.gameId = "";
    show(body);
  } catch (problem) {
    status(t("replay.bad", { why: problem.message }), "error");
  }
}

function show(review) {
  view.review = review;
  const place = readPlace();
  view.deal = Math.min(Math.max(place.deal - 1, 0), Math.max(review.deals.length - 1, 0));
  view.step = Math.min(Math.max(place.step, 0), frames().length);
  // the table's modules read names, colours and the rules from app.state
  const players = review.players || [];
  app.state = {
    names: players, colours: review.colours, dummy: players.length === 2 ? 2 : null,
    rules: { ...(review.rules || {}), pool: review.pool }, rules_title: review.rules_title,
    house_rules: review.house_rules || [], observation: {},
    // the viewer's own seat (a friend's, not seat 0's): drawn at the bottom; a record file
    // opened here has none
    seat: Number.isInteger(review.seat) ? review.seat : 0,
  };
  status("");
  $("replay-start").hidden = true;
  $("replay-view").hidden = false;
  draw();
}

// --- the place in the game -----------------------------------------------------------
function readPlace() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { deal: Number(params.get("deal")) || 1, step: Number(params.get("step")) || 0 };
}

function writePlace() {
  const deal = currentDeal();
  if (!deal) return;
  history.replaceState(null, "", `#deal=${view.deal + 1}&step=${view.step}`);
}

const currentDeal = () => (view.review ? view.review.deals[view.deal] : null);
const frames = () => (currentDeal() ? currentDeal().frames || [] : []);

function go(step) {
  view.step = Math.min(Math.max(step, 0), frames().length);
  draw();
}

function goDeal(index, atEnd = false) {
  const count = view.review ? view.review.deals.length : 0;
  if (index < 0 || index >= count) return;
  view.deal = index;
  view.step = atEnd ? frames().length : 0;
  draw();
}

/** The table at the current step: every hand, the trick, the tricks won. */
function tableNow() {
  const deal = currentDeal();
  if (view.step === 0) {
    return { hands: deal.hands, trick: [], tricks_won: deal.hands.map(() => 0), phase: "auction" };
  }
  return frames()[view.step - 1];
}

/** How many cards have been played up to the current step (the analysis numbers them). */
function cardsPlayed(step = view.step) {
  return frames().slice(0, step).filter((f) => f.phase_before === "play").length;
}

function stepOfCard(index) {
  let seen = -1;
  const list = frames();
  for (let k = 0; k < list.length; k += 1) {
    if (list[k].phase_before === "play") seen += 1;
    if (seen === index) return k + 1;
  }
  return list.length;
}

// --- words ---------------------------------------------------------------------------
/** "You" takes the verb's own form ("You play", not "You plays"). */
const isYou = (seat) => nameOf(seat) === t("name.you");

function actionText(frame) {
  const name = nameOf(frame.seat);
  const token = String(frame.token);
  const phase = frame.phase_before;
  const says = (kind, params) => t(isYou(frame.seat) && kind !== "defence" && kind !== "other" ? `replay.you.${kind}` : `replay.act.${kind}`, { name, ...params });
  if (phase === "auction") return token.toUpperCase() === "PASS" ? says("pass", {}) : says("bid", { call: callText(token) });
  if (token.toUpperCase().startsWith("DISCARD")) {
    return says("discard", { cards: token.split(/\s+/).slice(1).map(callText).join(" ") });
  }
  if (phase === "contract") return says("contract", { call: callText(token) });
  if (phase.startsWith("defence") || phase === "dealer") return says("defence", { call: callText(token) });
  if (phase === "play") return says("card", { card: callText(token) });
  return says("other", { call: callText(token) });
}

function dealLabel(deal, index) {
  const parts = [t("replay.deal", { n: index + 1, count: view.review.deals.length })];
  if (deal.kind === "allpass") parts.push(t("chip.allpass"));
  else if (deal.contract) parts.push(`${nameOf(deal.declarer)} ${callText(deal.contract)}`);
  else if (deal.kind) parts.push(deal.kind);
  return parts.join(" · ");
}

// --- drawing -------------------------------------------------------------------------
function draw() {
  const box = $("replay-view");
  const deal = currentDeal();
  box.replaceChildren();
  if (!deal) return;
  writePlace();
  box.append(el("div", { class: "replay-main" }, [dealBar(), tableView(deal), controls()]), sidePanel(deal));
}

function dealBar() {
  const select = el("select", {
    id: "replay-deal", "aria-label": t("replay.deal", { n: view.deal + 1, count: view.review.deals.length }),
    onchange: (event) => goDeal(Number(event.target.value)),
  });
  view.review.deals.forEach((deal, i) => {
    const option = el("option", { value: String(i), text: dealLabel(deal, i) });
    if (i === view.deal) option.selected = true;
    select.append(option);
  });
  const links = [];
  if (view.download) {
    links.push(el("a", { class: "replay-download", id: "replay-download", href: view.download.href, download: view.download.name, text: t("replay.download") }));
  }
  return el("div", { class: "replay-dealbar" }, [
    el("button", { type: "button", class: "action", "data-go": "prev-deal", title: t("replay.prevDeal"), "aria-label": t("replay.prevDeal"), disabled: view.deal === 0, onclick: () => goDeal(view.deal - 1), text: "«" }),
    select,
    el("button", { type: "button", class: "action", "data-go": "next-deal", title: t("replay.nextDeal"), "aria-label": t("replay.nextDeal"), disabled: view.deal >= view.review.deals.length - 1, onclick: () => goDeal(view.deal + 1), text: "»" }),
    ...links,
  ]);
}

const POSITIONS = { 2: ["bottom", "top", "right"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

function tableView(deal) {
  const now = tableNow();
  const players = (view.review.players || []).length;
  const around = POSITIONS[players] || POSITIONS[3];
  // the viewer's own seat at the bottom, the others clockwise (the dummy keeps its place)
  const mine = Number(app.state.seat) || 0;
  const positions = around.map((_, seat) => (seat < players ? around[(seat - mine + players) % players] : around[seat]));
  const frame = view.step > 0 ? frames()[view.step - 1] : null;
  const acting = frame ? frame.seat : null;
  const table = el("div", { class: `replay-table players-${players}`, "data-step": view.step });
  now.hands.forEach((hand, seat) => {
    const position = positions[seat] || "top";
    const plate = el("div", { class: `rplate${seat === acting ? " acting" : ""}`, style: `--seat-colour:${colour(seat) || "#757575"}` }, [
      el("span", { class: "name", text: nameOf(seat) }),
      deal.dealer === seat ? el("span", { class: "dealer", title: t("plate.dealer"), text: t("plate.dealerMark") }) : null,
      el("span", { class: "tricks", text: t("replay.tricks", { count: (now.tricks_won || [])[seat] ?? 0 }) }),
    ]);
    table.append(el("div", { class: `rseat pos-${position}`, "data-seat": seat }, [plate, cardRow(hand, "small")]));
  });
  const centre = el("div", { class: "rcentre" });
  if ((deal.talon || []).length && cardsPlayed() === 0) {
    centre.append(el("div", { class: "rtalon" }, [el("span", { class: "label", text: t("analysis.talon") }), cardRow(deal.talon, "small")]));
  }
  const lying = (now.trick || []).length ? now.trick : now.gathered ? now.gathered.cards : [];
  const trick = el("div", { class: `rtrick${now.gathered && !(now.trick || []).length ? " gathered" : ""}` });
  lying.forEach(([seat, token]) => {
    const img = cardImg(token, `played pos-${positions[seat] || "top"}`);
    if (frame && frame.phase_before === "play" && String(frame.token).toUpperCase() === String(token).toUpperCase()) img.classList.add("latest");
    trick.append(img);
  });
  centre.append(trick);
  const caption = frame ? actionText(frame) : (isYou(deal.dealer) ? t("replay.dealtYou") : t("replay.dealt", { name: nameOf(deal.dealer) }));
  const lines = [el("p", { class: "rcaption", id: "replay-caption", "aria-live": "polite", text: caption })];
  if (now.gathered && !(now.trick || []).length) {
    const winner = now.gathered.winner;
    lines.push(el("p", { class: "rcaption small", text: isYou(winner) ? t("replay.trickToYou") : t("replay.trickTo", { name: nameOf(winner) }) }));
  }
  centre.append(...lines);
  table.append(centre);
  return table;
}

function controls() {
  const count = frames().length;
  const button = (go_, label, text, target, disabled) => el("button", {
    type: "button", class: "action step", "data-go": go_, title: label, "aria-label": label, disabled, onclick: () => go(target), text,
  });
  return el("div", { class: "replay-controls" }, [
    button("start", t("replay.start"), "⇤", 0, view.step === 0),
    button("back", t("replay.back1"), "◀", view.step - 1, view.step === 0),
    el("span", { class: "step-label", id: "replay-step", text: t("replay.step", { n: view.step, count }) }),
    button("forward", t("replay.forward"), "▶", view.step + 1, view.step >= count),
    button("end", t("replay.end"), "⇥", count, view.step >= count),
    el("p", { class: "replay-keys", text: t("replay.keys") }),
  ]);
}

function sidePanel(deal) {
  const panel = el("aside", { class: "replay-side" });
  const tabs = el("div", { class: "tabs", role: "tablist" });
  for (const key of ["analysis", "sheet", "moves"]) {
    tabs.append(el("button", {
      type: "button", role: "tab", class: "tab", "data-tab": key, "aria-selected": String(view.tab === key),
      onclick: () => { view.tab = key; draw(); }, text: t(`replay.tab.${key}`),
    }));
  }
  panel.append(tabs);
  const body = el("div", { class: "tab-panel", role: "tabpanel" });
  if (view.tab === "analysis") body.append(...analysisPanel(deal));
  else if (view.tab === "sheet") body.append(...sheetPanel(deal));
  else body.append(movesPanel(deal));
  panel.append(body);
  return panel;
}

function analysisPanel(deal) {
  if (!deal.finished || !deal.analysis) return [el("p", { text: t("replay.unfinished") })];
  let calls = null;
  if (view.gameId) calls = loadOnce(`/api/games/${encodeURIComponent(view.gameId)}/calls/${deal.deal}`, () => { if (view.tab === "analysis") draw(); });
  const played = cardsPlayed();
  const last = view.step > 0 && frames()[view.step - 1].phase_before === "play" ? played - 1 : -1;
  return [el("section", { class: "analysis", "data-analysis": "replay" }, analysisBlock(deal.analysis, {
    calls, current: last, onCard: (i) => go(stepOfCard(i)),
  }))];
}

function sheetPanel(deal) {
  if (!deal.sheet) return [el("p", { text: t("replay.sheetNone") })];
  const tabs = el("div", { class: "tabs small", role: "tablist" });
  for (const key of ["pulya", "totals"]) {
    tabs.append(el("button", {
      type: "button", role: "tab", class: "tab", "data-sheet-tab": key, "aria-selected": String(view.sheetTab === key),
      onclick: () => { view.sheetTab = key; draw(); }, text: t(`sheet.tab.${key}`),
    }));
  }
  const msg = { ...app.state, observation: { sheet: deal.sheet } };
  const drawing = view.sheetTab === "pulya" ? pulyaDrawing(deal.sheet, msg) : totalsTable(deal.sheet);
  return [el("h3", { class: "sheet-after", text: t("replay.sheetAfter", { n: view.deal + 1 }) }), tabs, drawing,
    view.sheetTab === "pulya" ? el("p", { id: "sheet-history", class: "sheet-history", text: t("sheet.historyHint") }) : null].filter(Boolean);
}

function movesPanel() {
  const list = el("ol", { class: "replay-moves" });
  frames().forEach((frame, k) => {
    const item = el("li", { class: k + 1 === view.step ? "current" : "", "data-step": k + 1 }, el("button", {
      type: "button", class: "jump", onclick: () => go(k + 1), style: `color:${colour(frame.seat) || "inherit"}`, text: actionText(frame),
    }));
    list.append(item);
  });
  return list;
}

// --- the start page ------------------------------------------------------------------
async function startPage() {
  const box = $("replay-start");
  box.hidden = false;
  const input = el("input", { type: "file", id: "replay-file", accept: ".json,application/json", onchange: (event) => { if (event.target.files[0]) openFile(event.target.files[0]); } });
  const list = el("ul", { class: "replay-games", id: "replay-games" }, el("li", { text: t("replay.loading") }));
  box.replaceChildren(
    el("p", { class: "lead", text: t("replay.intro") }),
    el("h2", { text: t("replay.yours") }), list,
    el("h2", { text: t("replay.open") }),
    el("label", { class: "replay-file", for: "replay-file" }, [el("span", { text: t("replay.openHelp") }), input]),
  );
  try {
    const response = await fetch("/api/replays", { credentials: "same-origin" });
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail || String(response.status));
    list.replaceChildren();
    if (!body.games.length) list.append(el("li", { text: t("replay.none") }));
    for (const game of body.games) {
      const when = game.finished ? new Date(game.finished).toLocaleString() : "";
      // the browser's own seat's result (at a table for friends, not the creator's)
      const seat = Number.isInteger(game.seat) ? game.seat : 0;
      const result = Array.isArray(game.result) ? formatNumber(game.result[seat], true) : "—";
      const level = String(game.difficulty || "");
      const difficulty = has(`difficulty.${level}`) ? t(`difficulty.${level}`) : level;
      const text = t("replay.game", { date: when, difficulty, rules: game.rules, pool: game.pool, result });
      list.append(el("li", { "data-game": game.id }, [
        el("a", { href: game.url, text }), game.hints_used ? el("span", { class: "badge", text: t("replay.gameHints") }) : null,
      ]));
    }
  } catch (problem) {
    list.replaceChildren(el("li", { text: t("replay.failed", { why: problem.message }) }));
  }
}

// --- keys ----------------------------------------------------------------------------
function onKey(event) {
  if (!view.review || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
  const keys = {
    ArrowRight: () => go(view.step + 1), ArrowLeft: () => go(view.step - 1),
    Home: () => go(0), End: () => go(frames().length),
    ArrowUp: () => goDeal(view.deal - 1), PageUp: () => goDeal(view.deal - 1),
    ArrowDown: () => goDeal(view.deal + 1), PageDown: () => goDeal(view.deal + 1),
  };
  const act = keys[event.key];
  if (!act) return;
  event.preventDefault();
  act();
}

function init() {
  setLanguage(document.documentElement.lang);
  translatePage();
  document.addEventListener("keydown", onKey);
  view.gameId = $("replay").dataset.gameId || "";
  if (view.gameId) loadGame(view.gameId);
  else startPage();
}

// A read-only window onto the viewer for the browser tests.
window.preferansReplay = {
  get place() { return { deal: view.deal + 1, step: view.step, steps: frames().length }; },
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
