/* A card's picture: the face (or the back) as an <img>, named for screen readers.  Shared by
 * the table, the after-deal analysis and the replay viewer. */
import { t } from "./i18n.js";
import { cardName } from "./words.js";
import { el } from "./util.js";

/** The deck follows the page's language: the Russian one (indices Т К Д В) under cards/ru/. */
const DECKS = { ru: "/static/cards/ru/" };

export function deckPath() {
  const lang = (document.documentElement.lang || "en").toLowerCase().split("-")[0];
  return DECKS[lang] || "/static/cards/";
}

/** The face of one card ("QH") in the deck of the page's language. */
export function cardSrc(token) {
  return `${deckPath()}${String(token).toUpperCase()}.svg`;
}

export function cardImg(token, extra = "") {
  const upper = String(token).toUpperCase();
  return el("img", {
    class: `card face ${extra}`.trim(), src: cardSrc(upper),
    alt: cardName(upper), "data-card": upper, draggable: "false",
  });
}

export function cardBack(extra = "") {
  return el("img", { class: `card back ${extra}`.trim(), src: "/static/cards/back.svg", alt: t("talon.faceDown"), draggable: "false" });
}

/** Suits alternate colours in a hand: spades, diamonds, clubs, hearts; high to low. */
export function handOrder(token) {
  const text = String(token).toUpperCase();
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return ["S", "D", "C", "H"].indexOf(suit) * 8 + (7 - ["7", "8", "9", "10", "J", "Q", "K", "A"].indexOf(rank));
}

/** A row of face-up cards, in hand order. */
export function cardRow(tokens, extra = "small") {
  const row = el("span", { class: "card-row" });
  [...tokens].sort((a, b) => handOrder(a) - handOrder(b)).forEach((token) => row.append(cardImg(token, extra)));
  return row;
}
