// Implements: Built-in tools — `fetch_url` (addresses resolving to private ranges refused): parses every
// literal form an address can take and says whether it is a public unicast address.
import { isIPv6 } from "node:net";

/**
 * IPv4 literal as the WHATWG URL parser and inet_aton read it: 1 to 4 dot-separated parts, each decimal,
 * octal (leading 0) or hex (0x), the last part filling the remaining bytes ("127.1", "0x7f.1", "2130706433").
 * Returns the 32-bit value, undefined when the text is not numeric, or "invalid" when it looks numeric but
 * cannot be an address (e.g. "1.2.3.4.5", "256.1.1.1").
 */
export function parseIpv4(text: string): number | undefined | "invalid" {
  const parts = text.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop(); // one trailing dot is allowed
  const values: number[] = [];
  for (const part of parts) {
    const v = parsePart(part);
    if (v === undefined) return isNumericPart(parts[parts.length - 1]) ? "invalid" : undefined;
    values.push(v);
  }
  if (values.length === 0 || values.length > 4) return "invalid";
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return "invalid";
  return values.reduce((acc, v, i) => acc + v * 256 ** (3 - i), 0) + last;
}

function isNumericPart(part: string): boolean {
  return /^(0x[0-9a-f]*|\d+)$/i.test(part);
}

function parsePart(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9]\d*)$/.test(part)) return Number(part);
  return undefined;
}

export function ipv4ToString(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Eight 16-bit groups, or undefined. Accepts brackets, a zone id and a trailing dotted IPv4. */
export function parseIpv6(text: string): number[] | undefined {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  if (!isIPv6(s)) return undefined;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIpv4(tail);
    if (typeof v4 !== "number") return undefined;
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = s.split("::");
  const hex = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = hex(head);
  if (rest === undefined) return left.length === 8 ? left : undefined;
  const right = hex(rest);
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

type Range = [base: number, prefix: number, reason: string];

const V4_BLOCKED: Range[] = [
  [0x00000000, 8, "unspecified (this network)"],
  [0x0a000000, 8, "private network"],
  [0x64400000, 10, "carrier-grade NAT"],
  [0x7f000000, 8, "loopback"],
  [0xa9fe0000, 16, "link-local (cloud metadata)"],
  [0xac100000, 12, "private network"],
  [0xc0000000, 24, "IETF protocol assignments"],
  [0xc0000200, 24, "documentation range"],
  [0xc0586300, 24, "6to4 relay anycast"],
  [0xc0a80000, 16, "private network"],
  [0xc6120000, 15, "benchmarking range"],
  [0xc6336400, 24, "documentation range"],
  [0xcb007100, 24, "documentation range"],
  [0xe0000000, 4, "multicast"],
  [0xf0000000, 4, "reserved (includes broadcast)"],
];

/** Why the IPv4 address is not public, or null when it is public unicast. */
export function classifyIpv4(n: number): string | null {
  for (const [base, prefix, reason] of V4_BLOCKED) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === base) return reason;
  }
  return null;
}

function v6Prefix(g: number[], groups: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((g[i] & mask) !== (groups[i] ?? 0)) return false;
  }
  return true;
}

const embeddedV4 = (hi: number, lo: number) => ((hi << 16) >>> 0) + lo;

function viaV4(kind: string, v4: number): string | null {
  const reason = classifyIpv4(v4);
  return reason ? `${kind} of ${ipv4ToString(v4)}: ${reason}` : null;
}

/** Why the IPv6 address is not public, or null when it is public unicast. */
export function classifyIpv6(g: number[]): string | null {
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "loopback";
  // Forms that carry an IPv4 address: judged by that address.
  if (v6Prefix(g, [0, 0, 0, 0, 0, 0xffff], 96)) return viaV4("IPv4-mapped form", embeddedV4(g[6], g[7]));
  // Deprecated or translator-only forms: never a public web server's address.
  if (v6Prefix(g, [0, 0, 0, 0, 0xffff, 0], 96)) return "IPv4-translated form";
  if (v6Prefix(g, [0, 0, 0, 0, 0, 0], 96)) return "IPv4-compatible form (deprecated)";
  if (v6Prefix(g, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return viaV4("NAT64 form", embeddedV4(g[6], g[7]));
  if (v6Prefix(g, [0x2002], 16)) return viaV4("6to4 form", embeddedV4(g[1], g[2]));
  if (v6Prefix(g, [0x64, 0xff9b, 1], 48)) return "local-use NAT64";
  if (v6Prefix(g, [0xfc00], 7)) return "unique local (private network)";
  if (v6Prefix(g, [0xfe80], 10)) return "link-local";
  if (v6Prefix(g, [0xfec0], 10)) return "site-local";
  if (v6Prefix(g, [0xff00], 8)) return "multicast";
  if (v6Prefix(g, [0x2001, 0xdb8], 32)) return "documentation range";
  if (v6Prefix(g, [0x3fff, 0], 20)) return "documentation range";
  if (v6Prefix(g, [0x2001, 0], 23)) return "IETF protocol assignments (includes Teredo)";
  if (!v6Prefix(g, [0x2000], 3)) return "not global unicast";
  return null;
}

export type ParsedIp = { family: 4; value: number } | { family: 6; groups: number[] };

/** Parses any literal form (IPv4 shorthand, bracketed or zoned IPv6); undefined when it is a name. */
export function parseIp(text: string): ParsedIp | "invalid" | undefined {
  const v6 = parseIpv6(text);
  if (v6) return { family: 6, groups: v6 };
  if (text.includes(":")) return text.startsWith("[") ? "invalid" : undefined;
  const v4 = parseIpv4(text);
  if (v4 === "invalid") return "invalid";
  return v4 === undefined ? undefined : { family: 4, value: v4 };
}

/** Why the address is refused, or null when it is public. Text that is not an address is refused. */
export function classifyAddress(text: string): string | null {
  const ip = parseIp(text);
  if (ip === undefined || ip === "invalid") return "not an IP address";
  return ip.family === 4 ? classifyIpv4(ip.value) : classifyIpv6(ip.groups);
}
