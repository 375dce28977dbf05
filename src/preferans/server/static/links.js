/** The links a page shows and copies (the invite, the watch-only link, a seat's own link):
 *  at the server's public address when it has one (`preferans serve --public-url`, told in
 *  the page's `preferans-public-url` meta tag), else at the address this browser used.
 *  The server's twin: preferans.server.security.links. */

/** The public address (`https://pref.example.org`), or null. */
export function publicUrl() {
  const meta = document.querySelector('meta[name="preferans-public-url"]');
  const value = meta && meta.getAttribute("content");
  return value ? value : null;
}

/** `path` (`/join/…`, or a link the server already made absolute) as a whole address. */
export function absolute(path) {
  return new URL(path, publicUrl() || location.href).href;
}
