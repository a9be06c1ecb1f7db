// @ts-check
// Where permalinks point. A link pasted into a GitHub issue must work for its readers, so the
// page links to the calculator's public address: config.json's public_url (given to
// `urlcalc export-static --public-url` or `urlcalc serve --public-url`), else the page's own
// address when that is one others can reach (an http(s) host name that is not local). A page on
// a loopback, private-network or single-label host, or opened from a file, knows no public
// address: its copies carry no link and the copy dialog says why (app.js).
//
// This looks only at the page's own location, never at a URL being calculated.

const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".test", ".invalid"];

/** @param {string} hostname
 *  @returns {number[]|null} */
function ipv4(hostname) {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  return m ? m.slice(1).map(Number) : null;
}

/** True for a host name (as in location.hostname) that only this machine or its local network
 *  can reach: localhost, single-label names, local suffixes, loopback, private, link-local and
 *  shared IPv4 ranges, IPv6 loopback, unique-local and link-local addresses.
 *  @param {unknown} hostname
 *  @returns {boolean} */
export function isLocalAddress(hostname) {
  const host = String(hostname).toLowerCase();
  if (host === "" || host === "localhost") return true;
  if (host.startsWith("[")) {
    const v6 = host.slice(1, -1);
    return v6 === "::1" || v6 === "::" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith("::ffff:");
  }
  const v4 = ipv4(host);
  if (v4) {
    const [a, b] = v4;
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (!host.includes(".")) return true;
  return LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** The address permalinks start with ("https://example.org/urlcalc/", before "#<state>"), or
 *  null when the page knows no public one. `info`: the engine's info (publicUrl); `loc`: the
 *  page's location.
 *  @param {{publicUrl?: string|null}|null|undefined} info
 *  @param {{protocol: string, hostname: string, origin: string, pathname: string}} loc
 *  @returns {string|null} */
export function permalinkBase(info, loc) {
  if (info && typeof info.publicUrl === "string" && info.publicUrl) return info.publicUrl;
  if ((loc.protocol === "http:" || loc.protocol === "https:") && !isLocalAddress(loc.hostname)) {
    return loc.origin + loc.pathname;
  }
  return null;
}
