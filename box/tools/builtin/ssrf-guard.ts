// Implements: Built-in tools — `fetch_url` (public page; addresses resolving to private ranges refused).
// A URL is vetted before every hop: scheme, name policy, then EVERY resolved address must be public;
// the caller connects only to the vetted addresses (pinned), so a second DNS answer cannot differ.
import { lookup } from "node:dns/promises";
import { classifyAddress, ipv4ToString, parseIp } from "./ip-address.ts";
import { ToolError } from "./types.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → addresses. Production uses the system resolver (getaddrinfo), as a connection would. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  resolver?: Resolver;
  /**
   * Exact addresses treated as public. For tests only (to reach a local fake under a public-looking
   * name); empty in production, where loopback is always refused.
   */
  testOnlyAllowedAddresses?: readonly string[];
}

export interface VettedTarget {
  url: URL;
  /** Host without brackets, lowercased, no trailing dot. */
  hostname: string;
  /** Every address the name resolved to, all public; connect only to these. */
  addresses: ResolvedAddress[];
}

export const MAX_URL_LENGTH = 2048;

/** The URL was refused by policy; message is for the model, detail for the operator's log. */
export class AddressRefusedError extends ToolError {
  constructor(message: string, detail: string) {
    super(message, detail);
    this.name = "AddressRefusedError";
  }
}

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const BLOCKED_SUFFIXES = [".localhost", ".local", ".localdomain", ".internal", ".intranet", ".home.arpa", ".arpa", ".lan"];
const BLOCKED_NAMES = new Set(["localhost", "localhost.localdomain", "metadata", "instance-data", "metadata.google.internal"]);

/** Why a host name (not an address) is refused before any lookup, or null. */
export function hostnameRefusal(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (!name) return "empty host name";
  if (BLOCKED_NAMES.has(name)) return `"${name}" is a local or metadata name`;
  if (BLOCKED_SUFFIXES.some((s) => name.endsWith(s))) return `"${name}" is under a local-only domain`;
  if (!name.includes(".")) return `"${name}" is a single-label (intranet) name`;
  if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(name)) return `"${name}" is not a valid public host name`;
  return null;
}

/** Vets a host: a literal address is judged as it stands; a name by policy, then every address it resolves to. */
export async function vetHost(host: string, options: GuardOptions = {}): Promise<{ hostname: string; addresses: ResolvedAddress[] }> {
  const allowed = new Set(options.testOnlyAllowedAddresses ?? []);
  const hostname = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  const refused = (detail: string) =>
    new AddressRefusedError("Refused: that address is not a public web site (local, private or reserved network).", detail);
  const literal = parseIp(hostname);
  if (literal === "invalid") throw refused(`malformed numeric host "${hostname}"`);
  if (literal) {
    const address = literal.family === 4 ? ipv4ToString(literal.value) : hostname.replace(/%.*$/, "");
    const reason = allowed.has(address) ? null : classifyAddress(address);
    if (reason) throw refused(`${hostname}: ${reason}`);
    return { hostname: address, addresses: [{ address, family: literal.family }] };
  }
  const nameReason = hostnameRefusal(hostname);
  if (nameReason) throw refused(nameReason);
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolver ?? systemResolver)(hostname);
  } catch (err) {
    throw new ToolError("That site's name could not be found.", `lookup ${hostname}: ${String(err)}`);
  }
  if (addresses.length === 0) throw new ToolError("That site's name could not be found.", `lookup ${hostname}: no addresses`);
  for (const a of addresses) {
    const reason = allowed.has(a.address) ? null : classifyAddress(a.address);
    if (reason) throw refused(`${hostname} resolves to ${a.address}: ${reason}`);
  }
  return { hostname, addresses };
}

/** Vets one URL (call again for every redirect hop). */
export async function vetUrl(raw: string | URL, options: GuardOptions = {}): Promise<VettedTarget> {
  const text = String(raw);
  if (text.length > MAX_URL_LENGTH)
    throw new AddressRefusedError(`Refused: the address is longer than ${MAX_URL_LENGTH} characters.`, "long url");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AddressRefusedError(
      "Refused: that is not a valid web address (it must start with http:// or https://).",
      `bad url ${text.slice(0, 200)}`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AddressRefusedError("Refused: only http and https pages can be read.", `scheme ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new AddressRefusedError("Refused: addresses with a user name or password are not read.", "credentials in url");
  }
  const { hostname, addresses } = await vetHost(url.hostname, options);
  return { url, hostname, addresses };
}
