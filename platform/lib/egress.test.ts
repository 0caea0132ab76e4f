import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadPlatformConfig } from "./config";
import {
  checkedAddress,
  emptyOutboundAllowList,
  OutboundRefusedError,
  outboundFetch,
  parseOutboundAllowList,
  refusalReason,
  setOutboundAllowList,
} from "./egress";

const servers: Server[] = [];
const hits: string[] = [];

async function serve(host: string, listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

let port: number;
let redirectingPort: number;

beforeAll(async () => {
  port = await serve("127.0.0.1", (request, response) => {
    hits.push(request.url ?? "");
    response.end("inside");
  });
  // 127.0.0.2 is loopback too (127/8), so a list can allow it alone and still refuse 127.0.0.1.
  redirectingPort = await serve("127.0.0.2", (_request, response) => {
    response.writeHead(302, { Location: `http://127.0.0.1:${port}/secret` }).end();
  });
});

// The test set-up allows loopback for the stand-in servers; these start from what production has: nothing.
beforeEach(() => {
  hits.length = 0;
  setOutboundAllowList(emptyOutboundAllowList);
});

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
});

const allow = (value: string) => setOutboundAllowList(parseOutboundAllowList(value).allowList);

/** What the policy said when it refused `url`, or "called" when the request went through. */
async function outcomeOf(url: string): Promise<string> {
  try {
    await (await outboundFetch(url)).text();
    return "called";
  } catch (error) {
    let cause: unknown = error;
    while (cause instanceof Error && !(cause instanceof OutboundRefusedError)) cause = cause.cause;
    if (cause instanceof OutboundRefusedError) return cause.message;
    throw error;
  }
}

const refusedAs = (host: string, what: string) =>
  `The platform does not call ${host}: ${what}. Only public addresses are called, unless the operator lists the ` +
  `address in OUTBOUND_ALLOW.`;

describe("the egress policy, with nothing allowed", () => {
  it("refuses every way of writing an internal address, naming it and its kind, before connecting", async () => {
    const cases = [
      [`http://127.0.0.1:${port}/`, "127.0.0.1", "it is a loopback address (this machine)"],
      [`http://127.1:${port}/`, "127.0.0.1", "it is a loopback address (this machine)"],
      [`http://0.0.0.0:${port}/`, "0.0.0.0", "it is the unspecified address (this machine)"],
      [`http://[::1]:${port}/`, "::1", "it is a loopback address (this machine)"],
      [`http://[::ffff:127.0.0.1]:${port}/`, "::ffff:7f00:1", "it is a loopback address (this machine)"],
      [
        "http://169.254.169.254/latest/meta-data/",
        "169.254.169.254",
        "it is a link-local address (where cloud metadata services answer)",
      ],
      ["http://10.20.30.40/", "10.20.30.40", "it is a private network address"],
      ["http://192.168.1.1/", "192.168.1.1", "it is a private network address"],
      ["http://[fc00::1]/", "fc00::1", "it is a unique-local (private IPv6) address"],
      ["http://[fe80::1]/", "fe80::1", "it is a link-local address (where cloud metadata services answer)"],
    ] as const;
    for (const [url, host, what] of cases) expect(await outcomeOf(url), url).toBe(refusedAs(host, what));
    expect(hits).toEqual([]);
  });

  it("refuses a name that resolves to an internal address, saying what it resolved to", async () => {
    expect(await outcomeOf(`http://localhost:${port}/`)).toMatch(
      /^The platform does not call localhost: it resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(hits).toEqual([]);
  });

  it("lets public addresses through", () => {
    for (const address of ["8.8.8.8", "140.82.112.6", "2606:4700::6810:84e5"]) {
      expect(refusalReason(address), address).toBeUndefined();
    }
    expect(refusalReason("100.64.0.1")).toBe("a carrier-grade NAT address");
    expect(refusalReason("64:ff9b::7f00:1")).toBe("a reserved address (rfc6052)");
  });
});

describe("checkedAddress (clients with their own sockets: a Docker host on tcp://)", () => {
  it("answers the address to connect to, or refuses it as outboundFetch does", async () => {
    await expect(checkedAddress("127.0.0.1")).rejects.toThrow(
      refusedAs("127.0.0.1", "it is a loopback address (this machine)"),
    );
    await expect(checkedAddress("localhost")).rejects.toThrow(
      /^The platform does not call localhost: it resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(await checkedAddress("8.8.8.8")).toBe("8.8.8.8");
    allow("127.0.0.0/8, ::1");
    expect(await checkedAddress("localhost")).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await checkedAddress("[::1]")).toBe("::1");
  });
});

describe("OUTBOUND_ALLOW", () => {
  it("lets listed ranges, addresses and host names through, and nothing else", async () => {
    allow("127.0.0.0/8");
    expect(await outcomeOf(`http://127.0.0.1:${port}/ranged`)).toBe("called");
    expect(await outcomeOf("http://10.20.30.40/")).toMatch(/^The platform does not call 10\.20\.30\.40:/);

    allow("127.0.0.1");
    expect(await outcomeOf(`http://127.1:${port}/address`)).toBe("called");

    allow("localhost");
    expect(await outcomeOf(`http://localhost:${port}/named`)).toBe("called");
    expect(hits).toEqual(["/ranged", "/address", "/named"]);
  });

  it("does not follow a redirect from an allowed address to a refused one", async () => {
    allow("127.0.0.2");
    expect(await outcomeOf(`http://127.0.0.2:${redirectingPort}/`)).toBe(
      refusedAs("127.0.0.1", "it is a loopback address (this machine)"),
    );
    expect(hits).toEqual([]);
  });

  it("is read from the environment, an operator's mistake naming the entry", () => {
    const required = { AUTH0_CLIENT_SECRET: "0123456789abcdef0123" };
    expect(loadPlatformConfig(required).outboundAllow).toEqual(emptyOutboundAllowList);
    expect(
      loadPlatformConfig({ ...required, OUTBOUND_ALLOW: "10.0.0.0/8, [::1], registry.internal" }),
    ).toMatchObject({ outboundAllow: { hosts: ["registry.internal"] } });
    expect(() => loadPlatformConfig({ ...required, OUTBOUND_ALLOW: "10.0.0.0/33, not a host!" })).toThrow(
      "OUTBOUND_ALLOW: 10.0.0.0/33 is not an address, a CIDR range (10.0.0.0/8) or a host name",
    );
  });
});
