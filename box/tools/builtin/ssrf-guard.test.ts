import { describe, expect, it, vi } from "vitest";
import { classifyAddress, parseIpv4, parseIpv6 } from "./ip-address.ts";
import { AddressRefusedError, vetHost, vetUrl, type Resolver } from "./ssrf-guard.ts";

/** DNS answers for names used below; any other name fails as unknown. */
const DNS: Record<string, string[]> = {
  "example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "one.one.one.one": ["1.1.1.1", "2606:4700:4700::1111"],
  "mixed.example.com": ["93.184.216.34", "10.0.0.1"],
  "loopback.example.com": ["127.0.0.1"],
  "mapped-metadata.example.com": ["::ffff:169.254.169.254"],
  "v6-private.example.com": ["2606:4700:4700::1111", "fd00::5"],
  "127.0.0.1.nip.io": ["127.0.0.1"],
};
const resolver: Resolver = async (name) => {
  const answers = DNS[name];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const REFUSED = [
  "http://127.0.0.1/",
  "http://127.255.255.254/",
  "http://localhost/",
  "http://LOCALHOST./",
  "http://app.localhost:3000/",
  "http://localhost.localdomain/",
  "http://2130706433/",
  "http://0177.0.0.1/",
  "http://0x7f.1/",
  "http://0x7f000001/",
  "http://0x7f.0x0.0x0.0x1/",
  "http://017700000001/",
  "http://127.1/",
  "http://127.000.000.001/",
  "http://0/",
  "http://0.0.0.0:8080/",
  "http://[::1]/",
  "http://[0:0:0:0:0:0:0:1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::ffff:a00:1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::127.0.0.1]/",
  "http://[::ffff:0:7f00:1]/",
  "http://10.0.0.1/",
  "http://10.255.255.255/",
  "http://172.16.5.4/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://169.254.0.1/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://metadata/",
  "http://instance-data/",
  "http://100.64.0.1/",
  "http://100.127.255.254/",
  "http://[fc00::1]/",
  "http://[fd12:3456:789a::1]/",
  "http://[fd00:ec2::254]/",
  "http://[fe80::1]/",
  "http://[febf::1]/",
  "http://[fec0::1]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://[64:ff9b::127.0.0.1]/",
  "http://[64:ff9b:1::1]/",
  "http://[2002:c0a8:101::1]/",
  "http://[2002:7f00:1::]/",
  "http://[2001:db8::1]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
  "http://[ff02::1]/",
  "http://224.0.0.1/",
  "http://239.255.255.250/",
  "http://240.0.0.1/",
  "http://255.255.255.255/",
  "http://192.0.2.10/",
  "http://198.51.100.7/",
  "http://203.0.113.9/",
  "http://198.18.0.1/",
  "http://192.0.0.170/",
  "http://intranet/",
  "http://printer.local/",
  "http://router.lan/",
  "http://mixed.example.com/",
  "http://loopback.example.com/",
  "http://127.0.0.1.nip.io/",
  "http://mapped-metadata.example.com/",
  "http://v6-private.example.com/",
  "http://user:secret@example.com/",
  "http://example.com@127.0.0.1/",
  "file:///etc/passwd",
  "ftp://example.com/",
  "gopher://127.0.0.1:6379/_INFO",
  "javascript:alert(1)",
  "not a url",
];

describe("ssrf guard: refused forms", () => {
  it("covers at least 20 address forms", () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(20);
  });

  it.each(REFUSED)("refuses %s", async (url) => {
    await expect(vetUrl(url, { resolver })).rejects.toBeInstanceOf(AddressRefusedError);
  });

  it.each(["0177.0.0.1", "2130706433", "127.1", "0x7f.1", "[::1]", "::ffff:127.0.0.1", "1.2.3.4.5", "256.0.0.1", "1.08.0.1"])(
    "refuses the raw host %s without a lookup",
    async (host) => {
      const spy = vi.fn(resolver);
      await expect(vetHost(host, { resolver: spy })).rejects.toBeInstanceOf(AddressRefusedError);
      expect(spy).not.toHaveBeenCalled();
    },
  );

  it("never tells the model which address a name resolved to", async () => {
    const err = await vetUrl("http://mixed.example.com/", { resolver }).catch((e) => e);
    expect(err.message).not.toContain("10.0.0.1");
    expect(err.detail).toContain("10.0.0.1");
  });

  it("refuses loopback by default even when a resolver says so", async () => {
    await expect(vetUrl("http://loopback.example.com/", { resolver })).rejects.toThrow(/not a public web site/);
  });

  it("allows an exact test address only through the explicit test option", async () => {
    const vetted = await vetUrl("http://loopback.example.com:8080/x", { resolver, testOnlyAllowedAddresses: ["127.0.0.1"] });
    expect(vetted.addresses).toEqual([{ address: "127.0.0.1", family: 4 }]);
    // the option is exact: other private addresses stay refused
    await expect(vetUrl("http://10.0.0.1/", { resolver, testOnlyAllowedAddresses: ["127.0.0.1"] })).rejects.toBeInstanceOf(
      AddressRefusedError,
    );
    await expect(vetUrl("http://localhost/", { resolver, testOnlyAllowedAddresses: ["127.0.0.1"] })).rejects.toBeInstanceOf(
      AddressRefusedError,
    );
  });

  it("reports an unknown name as not found, not as refused", async () => {
    const err = await vetUrl("http://no-such-host.example.org/", { resolver }).catch((e) => e);
    expect(err).not.toBeInstanceOf(AddressRefusedError);
    expect(err.message).toMatch(/could not be found/);
  });
});

describe("ssrf guard: public addresses pass", () => {
  it.each([
    "http://93.184.216.34/",
    "https://1.1.1.1/",
    "http://8.8.8.8:8080/",
    "http://[2606:4700:4700::1111]/",
    "http://[2001:4860:4860::8888]/",
    "http://[::ffff:93.184.216.34]/",
    "http://[64:ff9b::5db8:d822]/",
    "http://[2002:5db8:d822::1]/",
    "http://172.32.0.1/",
    "http://100.128.0.1/",
    "http://11.0.0.1/",
    "http://192.169.0.1/",
  ])("passes %s", async (url) => {
    const spy = vi.fn(resolver);
    const vetted = await vetUrl(url, { resolver: spy });
    expect(vetted.addresses).toHaveLength(1);
    expect(spy).not.toHaveBeenCalled();
  });

  it("passes a public name with every address checked, resolving it once", async () => {
    const spy = vi.fn(resolver);
    const vetted = await vetUrl("https://Example.COM./path?q=1", { resolver: spy });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(vetted.hostname).toBe("example.com");
    expect(vetted.addresses.map((a) => a.address)).toEqual(DNS["example.com"]);
  });
});

describe("address parsing", () => {
  it("reads IPv4 in every form inet_aton accepts", () => {
    expect(parseIpv4("127.0.0.1")).toBe(0x7f000001);
    expect(parseIpv4("2130706433")).toBe(0x7f000001);
    expect(parseIpv4("0177.0.0.1")).toBe(0x7f000001);
    expect(parseIpv4("0x7f.1")).toBe(0x7f000001);
    expect(parseIpv4("10.1")).toBe(0x0a000001);
    expect(parseIpv4("192.168.257")).toBe(0xc0a80101);
    expect(parseIpv4("1.2.3.4.")).toBe(0x01020304);
    expect(parseIpv4("example.com")).toBeUndefined();
    expect(parseIpv4("1.2.3.256")).toBe("invalid");
  });

  it("expands IPv6 including embedded IPv4 and zone ids", () => {
    expect(parseIpv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("[::ffff:127.0.0.1]")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("2001:db8::")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6("12345::")).toBeUndefined();
  });

  it("names the reason for a refused address", () => {
    expect(classifyAddress("169.254.169.254")).toMatch(/metadata/);
    expect(classifyAddress("::ffff:10.1.2.3")).toMatch(/IPv4-mapped.*private/);
    expect(classifyAddress("2002:a9fe:a9fe::")).toMatch(/6to4.*link-local/);
    expect(classifyAddress("93.184.216.34")).toBeNull();
    expect(classifyAddress("2606:4700:4700::1111")).toBeNull();
    expect(classifyAddress("example.com")).toBe("not an IP address");
  });
});
