/* How the game's tokens read for people: cards, calls, option values, the rules line. */
import { has, t } from "./i18n.js";
import { app, nameOf, names } from "./state.js";
import { SUIT_SYMBOL, isCardToken, parseCard } from "./util.js";

export const suitName = (suit) => t(`suit.${suit}`);
export const rankName = (rank) => (has(`rank.${rank}`) ? t(`rank.${rank}`) : rank);

/** "QH" -> "queen of hearts" */
export function cardName(token) {
  const { rank, suit } = parseCard(token);
  return t("card.name", { rank: rankName(rank), suit: has(`suit.${suit}`) ? suitName(suit) : suit });
}

/** "6S" -> "6 spades", "7NT" -> "7 no trump" (for screen readers). */
export const bidName = (level, strain) => t("bid.name", { level, strain: strain === "NT" ? t("strain.NT") : suitName(strain) });

/** How a call reads for people: "6S" -> "6♠", "PASS" -> "Pass". */
export function callText(token) {
  if (token === null || token === undefined) return "";
  const text = String(token).toUpperCase();
  if (has(`call.${text}`)) return t(`call.${text}`);
  const tricks = /^TRICKS (\d+)$/.exec(text);
  if (tricks) return t("call.any", { n: tricks[1] });
  const blind = /^BLIND (.+)$/.exec(text);
  if (blind) return blind[1] === "PASS" ? t("call.blindPass") : t("call.blind", { call: callText(blind[1]) });
  const hand = /^(.+) HAND$/.exec(text);
  if (hand) return t("call.hand", { call: callText(hand[1]) });
  const bid = /^(6|7|8|9|10)(S|C|D|H|NT)$/.exec(text);
  if (bid) return bid[1] + (bid[2] === "NT" ? t("strain.NT.short") : SUIT_SYMBOL[bid[2]]);
  if (text.startsWith("DISCARD")) return t("call.discarded");
  const second = /^SECOND (\d+) (\d+)$/.exec(text);
  if (second) {
    return second[2] === "0"
      ? t("call.second.untimed", { pool: second[1] })
      : t("call.second.timed", { pool: second[1], deals: second[2] });
  }
  const look = /^LOOK (\d)$/.exec(text);
  if (look) return t("call.look", { name: nameOf(Number(look[1])) });
  if (isCardToken(text)) {
    const { rank, suit } = parseCard(text);
    // the deck's own index: J Q K A in English, В Д К Т in Russian
    return (has(`rank.short.${rank}`) ? t(`rank.short.${rank}`) : rank) + SUIT_SYMBOL[suit];
  }
  return text;
}

/** A button's label for a call (its own label where the catalogue has one). */
export function buttonText(token) {
  const text = String(token).toUpperCase();
  if (has(`button.${text}`)) return t(`button.${text}`);
  return /^SECOND /.test(text) ? callText(text) : callText(text).toUpperCase();
}

export function showOption(value) {
  if (Array.isArray(value)) return value.join("–");
  if (value === true) return t("option.yes");
  if (value === false) return t("option.no");
  if (value === null || value === undefined) return "—";
  return String(value);
}

/** The rules in words: "Sochi, pulya 10, four players". */
export function rulesSummary(msg) {
  const rules = (msg && msg.rules) || {};
  const parts = [(msg && msg.rules_title) || String(rules.preset || "")];
  if (rules.pool !== undefined) parts.push(t("rules.pool", { pool: rules.pool }));
  if (names().length === 4) parts.push(t("rules.four"));
  return parts.join(", ");
}

export function houseRuleLines(msg) {
  return ((msg && msg.house_rules) || []).map((h) => t("rules.houseLine", {
    name: String(h.label || h.name).replace(/_/g, " "), value: showOption(h.value), preset: showOption(h.preset_value), doc: h.doc,
  }));
}

export const currentState = () => app.state;
