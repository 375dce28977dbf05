/* The name forms' «он / она»: how a player is addressed in Russian, guessed from the name
 * as it is typed (the same rule as preferans.i18n.address.guess, its lists sent by the page
 * in #address-rule) until the player taps a choice himself; the choice is kept with the
 * name in this browser.  A form reads it as chosenAddress(fieldset). */

const KEY = "preferans.gender";

/** "f" or "m" for a name: the first word, on the lists, else by its ending (-а/-я, -a). */
export function guessAddress(name, rule) {
  const found = String(name || "").match(/[\p{L}]+(?:[-'][\p{L}]+)*/u);
  const word = found ? found[0].toLowerCase().replaceAll("ё", "е") : "";
  const fold = (list) => new Set((list || []).map((w) => w.replaceAll("ё", "е")));
  if (fold(rule.masculine).has(word)) return "m";
  if (fold(rule.feminine).has(word)) return "f";
  if (/[ая]$/.test(word)) return "f";
  if (/^[a-z'-]+$/.test(word) && word.endsWith("a")) return "f";
  return "m";
}

function bind(fieldset, rule) {
  const input = document.getElementById(fieldset.dataset.addressFor);
  if (!input) return;
  const radios = [...fieldset.querySelectorAll('input[name="gender"]')];
  const show = (value) => radios.forEach((radio) => { radio.checked = radio.value === value; });
  const kept = localStorage.getItem(KEY);
  const keptFor = localStorage.getItem(`${KEY}.name`);
  const guess = () => {
    if (fieldset.dataset.chosen === "true") return;
    show(kept && keptFor === input.value.trim() ? kept : guessAddress(input.value, rule));
  };
  radios.forEach((radio) => radio.addEventListener("change", () => {
    fieldset.dataset.chosen = "true";
    localStorage.setItem(KEY, radio.value);
    localStorage.setItem(`${KEY}.name`, input.value.trim());
  }));
  input.addEventListener("input", guess);
  guess();
}

const ruleScript = document.getElementById("address-rule");
const rule = ruleScript ? JSON.parse(ruleScript.textContent) : { masculine: [], feminine: [] };
document.querySelectorAll("[data-address-for]").forEach((fieldset) => bind(fieldset, rule));

/** The form of address a fieldset shows now ("m" or "f"). */
export function chosenAddress(fieldset) {
  const checked = fieldset && fieldset.querySelector('input[name="gender"]:checked');
  return checked ? checked.value : null;
}
