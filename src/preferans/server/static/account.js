/* The account page: a passkey made or used (WebAuthn), a second device added by a one-time
 * code, the profile, signing out and deleting.  The server mints every challenge and code
 * and answers every refusal in the page's language; this module carries them between the
 * server and navigator.credentials, and shows what happened. */

import { chosenAddress } from "./address.js";

const box = document.getElementById("account");
const words = JSON.parse(document.getElementById("account-words").textContent);
const statusLine = document.getElementById("account-status");
const errorLine = document.getElementById("account-error");

const toBytes = (text) => {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = plain + "=".repeat((4 - (plain.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
};
const toText = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The server's JSON options as navigator.credentials wants them (bytes, not text). */
function creationOptions(options) {
  return {
    ...options,
    challenge: toBytes(options.challenge),
    user: { ...options.user, id: toBytes(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
  };
}

function requestOptions(options) {
  return {
    ...options,
    challenge: toBytes(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
  };
}

/** A credential as JSON for the server (PublicKeyCredential.toJSON's form). */
function credentialJSON(credential) {
  const response = credential.response;
  const out = { id: credential.id, rawId: toText(credential.rawId), type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    response: { clientDataJSON: toText(response.clientDataJSON) } };
  if (credential.authenticatorAttachment) out.authenticatorAttachment = credential.authenticatorAttachment;
  if (response.attestationObject) {
    out.response.attestationObject = toText(response.attestationObject);
    out.response.transports = response.getTransports ? response.getTransports() : [];
  } else {
    out.response.authenticatorData = toText(response.authenticatorData);
    out.response.signature = toText(response.signature);
    if (response.userHandle) out.response.userHandle = toText(response.userHandle);
  }
  return out;
}

async function post(path, body = {}) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof answer.detail === "string" ? answer.detail : null;
    throw new Error(answer.message || detail || words.failed);
  }
  return answer;
}

function say(text) { errorLine.textContent = ""; statusLine.textContent = text; }
function fail(problem) {
  statusLine.textContent = "";
  const cancelled = problem && (problem.name === "NotAllowedError" || problem.name === "AbortError");
  errorLine.textContent = cancelled ? words.cancelled : (problem && problem.message) || words.failed;
}

/** Run one step with its button disabled; the page reloads on success where asked. */
function step(button, work) {
  return async (event) => {
    if (event) event.preventDefault();
    button.disabled = true;
    const section = button.closest("section");  // the answer shows where the player looks
    if (section) section.append(statusLine, errorLine);
    say(words.working);
    try {
      await work();
    } catch (problem) {
      fail(problem);
    } finally {
      button.disabled = false;
    }
  };
}

const signedIn = box.dataset.signedIn === "true";
const done = () => location.assign("/account");

/** Why passkeys cannot work at this address, shown before the player tries: a number
 *  (127.0.0.1) cannot be a passkey's site, and a plain http address other than localhost
 *  is not a secure context. */
function checkAddress() {
  const host = location.hostname;
  const loopback = host === "127.0.0.1" || host === "[::1]" || host === "::1";
  if (loopback) {
    const link = document.getElementById("localhost-link");
    const there = `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}/account`;
    link.href = there;
    link.textContent = there;
    document.getElementById("need-localhost").hidden = false;
    // the games of this address come along (cookies belong to one name): a one-time code
    document.getElementById("go-localhost").hidden = false;
    const go = document.getElementById("to-localhost");
    go.addEventListener("click", step(go, async () => {
      const answer = await post("/api/account/handover");
      location.assign(answer.code ? `${there}#handover=${encodeURIComponent(answer.code)}` : there);
    }));
  } else if (!window.isSecureContext || /^[0-9.]+$/.test(host) || host.startsWith("[")) {
    document.getElementById("need-https").hidden = false;
  } else if (!window.PublicKeyCredential || !navigator.credentials) {
    document.getElementById("unsupported").hidden = false;
  }
}

/** Games handed over from this server's other address (#handover=code): taken once. */
async function takeHandover() {
  const found = location.hash.match(/^#handover=([A-Za-z0-9_-]+)$/);
  if (!found) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    await post("/api/account/handover/take", { code: found[1] });
    say(words.handed_over);
  } catch (problem) {
    fail(problem);
  }
}

takeHandover();

if (!signedIn) {
  checkAddress();
  const name = document.getElementById("account-name");
  const register = document.getElementById("register");
  document.getElementById("register-form").addEventListener("submit", step(register, async () => {
    const typed = name.value.trim();
    if (!typed) { name.focus(); throw new Error(words.need_name); }
    const begun = await post("/api/account/register/begin", {
      name: typed, language: words.lang,
      address: chosenAddress(document.getElementById("account-address")),
    });
    const made = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
    await post("/api/account/register/finish", { credential: credentialJSON(made) });
    done();
  }));
  const signin = document.getElementById("signin");
  signin.addEventListener("click", step(signin, async () => {
    const begun = await post("/api/account/signin/begin");
    const used = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
    await post("/api/account/signin/finish", { credential: credentialJSON(used) });
    done();
  }));
  const code = document.getElementById("device-code");
  const device = document.getElementById("device");
  document.getElementById("device-form").addEventListener("submit", step(device, async () => {
    if (!code.value.trim()) { code.focus(); throw new Error(words.need_code); }
    const begun = await post("/api/account/device/begin", { code: code.value.trim() });
    const made = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
    await post("/api/account/device/finish", { credential: credentialJSON(made) });
    done();
  }));
} else {
  const fieldset = document.getElementById("account-address");
  const remember = (name, address) => {  // the friends' forms start from the profile
    localStorage.setItem("preferans.name", name);
    if (address) {
      localStorage.setItem("preferans.gender", address);
      localStorage.setItem("preferans.gender.name", name);
    }
  };
  if (box.dataset.address) {  // the account's own choice, not the name's guess
    fieldset.dataset.chosen = "true";
    fieldset.querySelectorAll('input[name="gender"]').forEach((radio) => {
      radio.checked = radio.value === box.dataset.address;
    });
  }
  const name = document.getElementById("account-name");
  remember(name.value, box.dataset.address);
  const save = document.getElementById("save-profile");
  document.getElementById("profile-form").addEventListener("submit", step(save, async () => {
    const typed = name.value.trim();
    if (!typed) { name.focus(); throw new Error(words.need_name); }
    const language = document.querySelector('#account-language input[name="language"]:checked').value;
    const address = chosenAddress(fieldset);
    await post("/api/account/profile", { name: typed, language, address });
    remember(typed, address);
    if (language !== words.lang) { location.assign(`/account?lang=${language}`); return; }
    document.getElementById("who").dataset.name = typed;
    say(words.saved);
  }));
  const show = document.getElementById("show-code");
  show.addEventListener("click", step(show, async () => {
    const answer = await post("/api/account/code");
    document.getElementById("code").textContent = answer.code;
    say(words.code_shown);
  }));
  document.querySelectorAll("[data-remove]").forEach((button) => {
    button.addEventListener("click", step(button, async () => {
      await post("/api/account/passkeys/remove", { id: button.dataset.remove });
      done();
    }));
  });
  const signout = document.getElementById("signout");
  signout.addEventListener("click", step(signout, async () => { await post("/api/account/signout"); done(); }));
  const all = document.getElementById("signout-all");
  all.addEventListener("click", step(all, async () => { await post("/api/account/signout-everywhere"); done(); }));
  const remove = document.getElementById("delete");
  const confirmDelete = document.getElementById("delete-confirm");
  remove.addEventListener("click", () => { confirmDelete.hidden = false; confirmDelete.focus(); });
  confirmDelete.addEventListener("click", step(confirmDelete, async () => {
    // a session alone does not delete the account: one of its passkeys confirms it, now
    const begun = await post("/api/account/delete/begin");
    const used = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
    await post("/api/account/delete", { credential: credentialJSON(used) });
    done();
  }));
}
