// Implements: docs/architecture.md "The media path of one live session": audio and video carry one timeline.
// werift 0.25.2 writes the NTP fraction of its RTCP sender reports as the decimal digits of the
// seconds (".441836" -> fraction 441836, i.e. ~0.1 ms), so each report is off by up to 1 s and a
// receiver cannot lip-sync. Its ESM bundle keeps ntpTime private; its CommonJS build reads
// `utils.ntpTime` through the module object on every packet. So the media path loads the
// CommonJS build here, with that export replaced. Use this module, not `import "werift"`, at run time.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { log } from "../../shared/util/log.ts";

type Werift = typeof import("werift");

const NTP_UNIX_OFFSET_MS = 2_208_988_800_000; // 1900-01-01 to 1970-01-01

/** Now as a 64-bit NTP timestamp: seconds since 1900 and a 32-bit binary fraction. */
export function ntpNow(): bigint {
  const ms = performance.timeOrigin + performance.now() + NTP_UNIX_OFFSET_MS;
  const seconds = Math.floor(ms / 1000);
  const fraction = Math.floor(((ms - seconds * 1000) / 1000) * 2 ** 32);
  return (BigInt(seconds) << 32n) | BigInt(fraction);
}

const require = createRequire(import.meta.url);
const utils = require(join(dirname(require.resolve("werift")), "utils.js")) as { ntpTime?: () => bigint };
if (typeof utils.ntpTime !== "function") throw new Error("werift's layout changed: utils.ntpTime not found");
utils.ntpTime = ntpNow;

// werift's ICE UDP sockets have no 'error' listener: once a client goes away, an ICMP "port
// unreachable" surfaces as `recvmsg ECONNREFUSED` and, unhandled, would end the whole box.
// `UdpTransport.init` is read through the module object at call time, so wrapping it here
// gives every ICE socket a listener that logs and lets the consent check close the peer.
const transport = require(join(dirname(require.resolve("werift")), "../../common/src/transport.js")) as {
  UdpTransport?: { init: (...args: unknown[]) => Promise<{ socket: import("node:dgram").Socket }> };
};
const udp = transport.UdpTransport;
if (!udp || typeof udp.init !== "function") throw new Error("werift's layout changed: UdpTransport.init not found");
const init = udp.init.bind(udp);
udp.init = async (...args: unknown[]) => {
  const t = await init(...args);
  t.socket.on("error", (err) => log.warn("ICE socket error", { error: err.message }));
  return t;
};

export const werift = require("werift") as Werift;

/** The NTP clock werift's RTP sender uses now (for tests). */
export const weriftNtpTime = (): bigint => (utils.ntpTime as () => bigint)();
