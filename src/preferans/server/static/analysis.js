/* The after-deal analysis: all hands laid open, the contract's double-dummy value from the
 * opening lead, every card that cost its side tricks against best play (with the best
 * cards), and the human's calls beside Crazy's.  Drawn from the server's
 * preferans-analysis/1 entry of a deal that is over (the server never analyses a deal in
 * progress) and from /api/games/{id}/calls/{deal}.  Used by the sheet's ANALYSIS tab and
 * the replay viewer. */
import { t } from "./i18n.js";
import { cardRow } from "./cards.js";
import { app, colour, nameOf } from "./state.js";
import { callText } from "./words.js";
import { el, formatNumber } from "./util.js";

const loads = new Map(); // url -> {status: "loading"|"ready"|"failed", data, why}

/** GET a JSON address once; `done()` is called when it arrives (or fails). */
export function loadOnce(url, done) {
  const known = loads.get(url);
  if (known) return known;
  const entry = { status: "loading", data: null, why: "" };
  loads.set(url, entry);
  fetch(url, { credentials: "same-origin" })
    .then(async (response) => {
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.detail || String(response.status));
      entry.status = "ready";
      entry.data = body;
    })
    .catch((problem) => {
      entry.status = "failed";
      entry.why = problem.message;
      loads.delete(url); // a later look tries again
    })
    .finally(() => done && done());
  return entry;
}

/** The ANALYSIS tab of the after-deal sheet at the table: the deal just over. */
export function analysisTab(msg, gameId, rerender) {
  const box = el("section", { class: "analysis", "data-analysis": "table" });
  const number = Number(msg.deal_number) || 0;
  if (!msg.deal_over || !number || !gameId) return box;
  const redraw = () => { if (document.querySelector('[data-analysis="table"]')) rerender(); };
  // a spectator's page asks with its watch code (the deal is over: every hand is open now)
  const watch = app.watch ? `&watch=${encodeURIComponent(app.watch)}` : "";
  const cards = loadOnce(`/api/games/${encodeURIComponent(gameId)}/analysis?deal=${number}${watch}`, redraw);
  if (cards.status === "loading") {
    box.append(el("p", { class: "analysis-wait", "aria-live": "polite", text: t("analysis.loading") }));
    return box;
  }
  if (cards.status === "failed") {
    box.append(el("p", { class: "analysis-failed", text: t("analysis.failed", { why: cards.why }) }));
    return box;
  }
  const entry = (cards.data.deals || []).find((d) => d.deal === number);
  if (!entry) {
    box.append(el("p", { text: t("analysis.notPlayed") }));
    return box;
  }
  // the calls beside Crazy's are a seat's own: a spectator has none
  const calls = app.watch ? null : loadOnce(`/api/games/${encodeURIComponent(gameId)}/calls/${number}`, redraw);
  box.append(...analysisBlock(entry, { calls }));
  return box;
}

/** The analysis of one deal as elements.  `calls`: the load of the human's calls (or null);
 *  `current`: the index of the card being looked at (replay); `onCard(i)`: jump to card i. */
export function analysisBlock(entry, { calls = null, current = -1, onCard = null } = {}) {
  const out = [];
  out.push(el("p", { class: "analysis-value", text: valueLine(entry) }));
  out.push(handsBlock(entry));
  if (entry.analysed) out.push(cardsBlock(entry, current, onCard));
  if (calls) out.push(callsBlock(calls));
  return out;
}

function valueLine(entry) {
  if (!entry.played) return t("analysis.notPlayed");
  if (!entry.analysed) return t("analysis.notAnalysed");
  const tricks = entry.tricks || [];
  if (entry.kind === "allpass") {
    // Each player's figure is its own double-dummy problem (he plays to take fewest, the
    // other two to give him most): the figures are bounds, and need not add up to ten.
    const playing = (entry.dd_value || []).map((v, seat) => ({ v, seat }))
      .filter(({ seat }) => (entry.hands[seat] || []).length);
    const list = (pick) => playing.map(({ v, seat }) => `${nameOf(seat)} ${pick(v, seat)}`).join(", ");
    const total = playing.reduce((sum, { seat }) => sum + (Number(tricks[seat]) || 0), 0) || 10;
    return t("analysis.allpass", { values: list((v) => v), took: list((v, seat) => tricks[seat] ?? 0), total });
  }
  const params = {
    name: nameOf(entry.declarer), contract: callText(entry.contract), count: entry.dd_value,
    took: tricks[entry.declarer] ?? 0,
  };
  return t(entry.kind === "misere" ? "analysis.misere" : "analysis.contract", params);
}

function handsBlock(entry) {
  const block = el("div", { class: "analysis-hands", role: "group", "aria-label": t("analysis.hands") });
  block.append(el("h4", { text: t("analysis.hands") }));
  (entry.hands || []).forEach((hand, seat) => {
    if (!hand.length) return;
    block.append(el("div", { class: "analysis-hand", "data-seat": seat }, [
      el("span", { class: "who", style: `color:${colour(seat)}`, text: nameOf(seat) }), cardRow(hand),
    ]));
  });
  if ((entry.talon || []).length) {
    block.append(el("div", { class: "analysis-hand analysis-talon" }, [
      el("span", { class: "who", text: t("analysis.talon") }), cardRow(entry.talon),
    ]));
  }
  return block;
}

function cardsBlock(entry, current, onCard) {
  const block = el("div", { class: "analysis-cards" });
  block.append(el("h4", { text: t("analysis.cards") }));
  const costly = (entry.cards || []).map((c, i) => ({ ...c, i })).filter((c) => c.cost > 0);
  if (!costly.length) {
    block.append(el("p", { class: "analysis-clean", text: t("analysis.allBest") }));
    return block;
  }
  const list = el("ol", { class: "analysis-costs" });
  for (const c of costly) {
    const text = t("analysis.cost", {
      name: nameOf(c.seat), card: callText(c.card), count: c.cost, best: c.best.map(callText).join(" "),
    });
    const line = [el("span", { class: "trick-no", text: t("analysis.trick", { n: Math.floor(c.i / 3) + 1 }) }), " ",
      el("span", { style: `color:${colour(c.seat)}`, text })];
    const item = el("li", { "data-card-index": c.i, class: c.i === current ? "current" : "" });
    if (onCard) item.append(el("button", { type: "button", class: "jump", onclick: () => onCard(c.i) }, line));
    else item.append(...line);
    list.append(item);
  }
  block.append(list);
  const lost = Object.entries(entry.lost || {}).filter(([, n]) => n > 0);
  if (lost.length) {
    block.append(el("p", { class: "analysis-lost" }, lost.map(([seat, n], k) => [
      k ? " · " : "", el("span", { style: `color:${colour(Number(seat))}`, text: t("analysis.lost", { name: nameOf(Number(seat)), count: n }) }),
    ]).flat()));
  }
  return block;
}

function callsBlock(calls) {
  const block = el("div", { class: "analysis-calls" });
  block.append(el("h4", { text: t("analysis.calls") }));
  if (calls.status === "loading") {
    block.append(el("p", { class: "analysis-wait", "aria-live": "polite", text: t("analysis.callsLoading") }));
    return block;
  }
  if (calls.status === "failed") {
    block.append(el("p", { class: "analysis-failed", text: t("analysis.callsFailed", { why: calls.why }) }));
    return block;
  }
  const list = (calls.data && calls.data.calls) || [];
  if (!list.length) {
    block.append(el("p", { text: t("analysis.noCalls") }));
    return block;
  }
  const ul = el("ul", { class: "analysis-call-list" });
  for (const call of list) {
    const phase = t(`analysis.phase.${call.phase}`);
    const same = String(call.choice).toUpperCase() === String(call.token).toUpperCase();
    let text;
    if (same) text = t("analysis.callAgree", { call: callText(call.token), phase });
    else if (call.difference === null || call.difference === undefined) {
      text = t("analysis.callDifferUnknown", { call: callText(call.token), phase, choice: callText(call.choice) });
    } else {
      text = t("analysis.callDiffer", { call: callText(call.token), phase, choice: callText(call.choice), difference: formatNumber(call.difference, true) });
    }
    ul.append(el("li", { class: same ? "agree" : "differ", "data-call": call.token }, [
      text, " ", el("small", { text: t("analysis.callWorlds", { count: call.worlds || 0 }) }),
    ]));
  }
  block.append(ul);
  return block;
}
