/* Every string a player reads comes through t(): a key into the catalogue of the page's
 * language (strings/en.js today; a translation is a second catalogue of the same keys).
 *
 * A catalogue entry is one of:
 *   "Plain text with {name} slots"                  t("key", {name: "Misha"})
 *   {one: "{count} trick", other: "{count} tricks"} chosen by Intl.PluralRules on params.count
 *                                                   (Russian adds few/many: the same call)
 *   (params, t) => string                           for the rare phrase that needs logic
 * A missing key shows as the key itself, so a gap in a translation is visible, never a crash.
 */
import en from "./strings/en.js";

const CATALOGUES = { en };
let lang = "en";
let catalogue = en;
let plurals = new Intl.PluralRules("en");

/** Use the catalogue of a language when there is one (falls back to English key by key). */
export function setLanguage(code) {
  const short = String(code || "en").slice(0, 2).toLowerCase();
  lang = CATALOGUES[short] ? short : "en";
  catalogue = CATALOGUES[lang];
  plurals = new Intl.PluralRules(lang);
}

/** Register another language's catalogue (a module exporting the same keys). */
export function addCatalogue(code, strings) {
  CATALOGUES[code] = strings;
}

export const language = () => lang;

function fill(text, params) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (
    params && params[name] !== undefined && params[name] !== null ? String(params[name]) : whole
  ));
}

/** The plural form of an entry for a count: "one", "few", "many", "other"… */
export function pluralForm(entry, count) {
  const form = plurals.select(Number(count) || 0);
  return entry[form] ?? entry.other ?? Object.values(entry)[0];
}

/** The text of `key` in the current language, with {slots} filled from params. */
export function t(key, params = {}) {
  let entry = catalogue[key];
  if (entry === undefined && catalogue !== en) entry = en[key];
  if (entry === undefined) return key;
  if (typeof entry === "function") return entry(params, t);
  if (typeof entry === "object") entry = pluralForm(entry, params.count);
  return fill(entry, params);
}

/** Does the catalogue know this key (for optional words, e.g. a call's own label)? */
export const has = (key) => catalogue[key] !== undefined || en[key] !== undefined;

/** Fill the page's static text: data-t (text), data-t-label (aria-label), data-t-title. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of root.querySelectorAll("[data-t-label]")) node.setAttribute("aria-label", t(node.dataset.tLabel));
  for (const node of root.querySelectorAll("[data-t-title]")) node.setAttribute("title", t(node.dataset.tTitle));
}
