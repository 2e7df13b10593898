import { ApiError } from "../../http/errors";

/**
 * Where webhook deliveries may go. Deliveries are requests our Worker makes on a customer's
 * behalf, so a URL must never reach our own or a private network (SSRF):
 * - IP literals (every notation the URL parser accepts: decimal, octal, hex, IPv4-mapped IPv6, …)
 *   are classified and refused when loopback, private, link-local or reserved;
 * - names that are local by definition (`localhost`, `*.local`, `*.internal`, single labels, …)
 *   and wildcard-DNS names that spell a private address (`10.0.0.1.nip.io`) are refused;
 * - every other name is resolved over DNS-over-HTTPS (A and AAAA, JSON API) and refused if any
 *   address is not public. The check runs when the endpoint is saved and again before every
 *   delivery attempt (redirects are not followed), which narrows DNS rebinding to the moment
 *   between our lookup and the connection; Cloudflare's edge also refuses private destinations.
 * `allowLoopback` (development only) admits loopback literals and `localhost` for local receivers.
 */
export interface UrlPolicy {
  requireHttps: boolean;
  allowLoopback: boolean;
  /** DNS-over-HTTPS JSON endpoint; empty disables name resolution (names then pass the static rules only). */
  resolver: string;
  fetch: typeof fetch;
}

export function urlPolicy(env: Env, fetcher: typeof fetch = (i, init) => fetch(i, init)): UrlPolicy {
  const production = env.ENVIRONMENT === "production";
  return {
    requireHttps: production,
    allowLoopback: !production && env.WEBHOOKS_ALLOW_LOOPBACK === "true",
    resolver: env.WEBHOOKS_DNS_RESOLVER,
    fetch: fetcher,
  };
}

export type AddressClass = "public" | "loopback" | "private" | "link_local" | "reserved";

function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

export function classifyIpv4([a, b, c]: number[]): AddressClass {
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127)) return "private";
  if (a === 169 && b === 254) return "link_local";
  if (
    a === 0 ||
    a! >= 224 ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  )
    return "reserved";
  return "public";
}

/** Eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail allowed), or null. */
function parseIpv6(host: string): number[] | null {
  let s = host.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const v4 = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  if (v4) {
    const q = parseIpv4(v4[1]!);
    if (!q) return null;
    s = `${s.slice(0, -v4[1]!.length)}${((q[0]! << 8) | q[1]!).toString(16)}:${((q[2]! << 8) | q[3]!).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

export function classifyIpv6(g: number[]): AddressClass {
  const embedded = (hi: number, lo: number) => classifyIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7] === 1) return "loopback";
  if (zeros(8)) return "reserved";
  if (zeros(5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!); // IPv4-mapped
  if (zeros(6)) return embedded(g[6]!, g[7]!); // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!); // 6to4
  if ((g[0]! & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return "link_local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "private"; // deprecated site-local
  if ((g[0]! & 0xff00) === 0xff00) return "reserved"; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "reserved"; // documentation
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return "reserved"; // discard
  return "public";
}

/** Classifies an IP literal (IPv4 dotted, or IPv6 with or without brackets); null for a name. */
export function classifyAddress(host: string): AddressClass | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const v4 = parseIpv4(bare);
  if (v4) return classifyIpv4(v4);
  if (bare.includes(":")) {
    const v6 = parseIpv6(bare);
    return v6 ? classifyIpv6(v6) : "reserved";
  }
  return null;
}

const LOCAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".localdomain",
  ".internal",
  ".intranet",
  ".lan",
  ".home",
  ".corp",
  ".home.arpa",
  ".arpa",
  ".onion",
  ".test",
  ".invalid",
  ".example",
];

/** Names that are local by definition, and wildcard-DNS names spelling a private address. */
function staticNameClass(name: string): AddressClass | null {
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (!name.includes(".")) return "private"; // single label: resolved by a local search domain
  if (LOCAL_SUFFIXES.some((s) => name.endsWith(s))) return "private";
  // nip.io / sslip.io style names: `10.0.0.1.nip.io`, `app-127-0-0-1.sslip.io`, `7f000001.nip.io`.
  for (const m of name.matchAll(/(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=\.)/g)) {
    const q = parseIpv4(`${m[1]}.${m[2]}.${m[3]}.${m[4]}`);
    if (q && classifyIpv4(q) !== "public") return classifyIpv4(q);
  }
  const hexNames = name.endsWith(".nip.io") || name.endsWith(".sslip.io");
  for (const m of hexNames ? name.matchAll(/(?:^|[.-])([0-9a-f]{8})(?=\.)/g) : []) {
    const n = parseInt(m[1]!, 16);
    const cls = classifyIpv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
    if (cls !== "public") return cls;
  }
  return null;
}

/** A / AAAA addresses of a name through a DNS-over-HTTPS JSON API (`application/dns-json`). */
export async function resolveName(name: string, policy: Pick<UrlPolicy, "resolver" | "fetch">): Promise<string[]> {
  const addresses: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    const url = new URL(policy.resolver);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    let answer: { Status?: number; Answer?: { type: number; data: string }[] };
    try {
      const res = await policy.fetch(url.toString(), { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      answer = await res.json();
    } catch (err) {
      throw new ApiError("service_unavailable", `The address of ${name} could not be looked up; try again shortly.`, {
        details: { host: name, cause: String(err) },
      });
    }
    if (answer.Status === 3) continue; // NXDOMAIN
    if (answer.Status !== 0)
      throw new ApiError("service_unavailable", `DNS lookup of ${name} failed (status ${answer.Status}).`, { details: { host: name } });
    for (const a of answer.Answer ?? []) if (a.type === 1 || a.type === 28) addresses.push(a.data);
  }
  return addresses;
}

function refuse(url: string, message: string, reason: string): never {
  throw new ApiError("validation_error", message, {
    details: { fields: [{ location: "json", field: "url", message, code: reason }], url },
  });
}

/**
 * Checks a webhook URL against the policy; returns it parsed. Refusals are `validation_error`
 * naming the reason (`scheme`, `credentials`, `loopback`, `private`, `link_local`, `reserved`,
 * `unresolvable`); a DNS lookup that cannot be made is `service_unavailable`.
 */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse(raw, "The URL is not valid.", "invalid");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") refuse(raw, "Webhook URLs use https.", "scheme");
  if (policy.requireHttps && url.protocol !== "https:") refuse(raw, "Webhook URLs must use https.", "scheme");
  if (url.username || url.password) refuse(raw, "Webhook URLs may not carry credentials; authenticate with the signature.", "credentials");
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  // `allowLoopback` admits loopback literals and `localhost`, never a public name resolving to loopback.
  const verdict = (cls: AddressClass, what: string, resolved = false) => {
    if (cls === "public" || (cls === "loopback" && policy.allowLoopback && !resolved)) return;
    refuse(raw, `Webhook URLs may not point at ${cls.replace("_", "-")} addresses (${what}).`, cls);
  };
  const literal = classifyAddress(host);
  if (literal) {
    verdict(literal, host);
    return url;
  }
  const known = staticNameClass(host);
  if (known) {
    verdict(known, host);
    if (known === "loopback") return url;
  }
  if (!policy.resolver) return url;
  const addresses = await resolveName(host, policy);
  if (addresses.length === 0) refuse(raw, `The host ${host} does not resolve.`, "unresolvable");
  for (const address of addresses) verdict(classifyAddress(address) ?? "reserved", `${host} resolves to ${address}`, true);
  return url;
}
