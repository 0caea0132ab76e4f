import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";

/**
 * The egress policy (docs/decisions/042-egress-policy.md): every request whose address a tenant can type
 * (connection checks and listings, registry pulls, chart indexes, notifications, metric forwarders) goes through
 * `outboundFetch`. Its connector resolves the host once, refuses any address that is not public unicast (loopback,
 * link-local where cloud metadata answers, private, unique-local, unspecified, reserved) unless OUTBOUND_ALLOW
 * lists it, and connects to the very address it checked, so a name cannot resolve to something else a moment
 * later. Redirects are new connections through the same connector, so each hop is checked too.
 */

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** OUTBOUND_ALLOW, read: addresses and CIDR ranges, and host names called whatever they resolve to. */
export type OutboundAllowList = { ranges: Cidr[]; hosts: string[] };

export const emptyOutboundAllowList: OutboundAllowList = { ranges: [], hosts: [] };

const hostName =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * Reads a comma-separated OUTBOUND_ALLOW (`127.0.0.0/8, ::1, registry.internal`); `problems` names each entry
 * that is neither an address, a CIDR range nor a host name.
 */
export function parseOutboundAllowList(value: string): { allowList: OutboundAllowList; problems: string[] } {
  const allowList: OutboundAllowList = { ranges: [], hosts: [] };
  const problems: string[] = [];
  for (const entry of value
    .split(",")
    .map((one) => one.trim())
    .filter(Boolean)) {
    const bare = entry.replace(/^\[(.*)\]$/, "$1");
    if (ipaddr.isValidCIDR(bare)) allowList.ranges.push(ipaddr.parseCIDR(bare));
    else if (ipaddr.isValid(bare)) {
      const address = ipaddr.process(bare);
      allowList.ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else if (hostName.test(entry)) allowList.hosts.push(entry.toLowerCase());
    else problems.push(`${entry} is not an address, a CIDR range (10.0.0.0/8) or a host name`);
  }
  return { allowList, problems };
}

const rangeReasons: Record<string, string> = {
  loopback: "a loopback address (this machine)",
  unspecified: "the unspecified address (this machine)",
  linkLocal: "a link-local address (where cloud metadata services answer)",
  private: "a private network address",
  uniqueLocal: "a unique-local (private IPv6) address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
};

/** A request the egress policy refused; `message` names the host, the address and why, for the user. */
export class OutboundRefusedError extends Error {
  readonly code = "EOUTBOUNDREFUSED";
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefusedError";
  }
}

let allowList = emptyOutboundAllowList;

function isAllowed(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return allowList.ranges.some(
    ([range, bits]) => address.kind() === range.kind() && address.match(range, bits),
  );
}

/** Why `address` may not be called, or undefined when it may. IPv4-mapped IPv6 (::ffff:127.0.0.1) is its IPv4. */
export function refusalReason(address: string): string | undefined {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === "unicast" || isAllowed(parsed)) return undefined;
  return rangeReasons[range] ?? `a reserved address (${range})`;
}

function refusal(host: string, address: string, reason: string): OutboundRefusedError {
  const what = host === address ? `it is ${reason}` : `it resolves to ${address}, ${reason}`;
  return new OutboundRefusedError(
    `The platform does not call ${host}: ${what}. Only public addresses are called, unless the operator lists ` +
      `the address in OUTBOUND_ALLOW.`,
  );
}

/** dns.lookup whose every answer is checked: one refused address refuses the host (no retry on another). */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    for (const { address } of addresses) {
      const reason = refusalReason(address);
      if (reason) return callback(refusal(hostname, address, reason), "", 0);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
    callback(null, first.address, first.family);
  });
};

/**
 * dns.lookup under the policy, for clients that open their own sockets by name (a Docker host over TLS, whose
 * certificate and proxies expect its name): names OUTBOUND_ALLOW lists resolve unchecked, others as `outboundFetch`
 * checks them. Node calls no lookup for an address literal: check one with `checkedAddress` first.
 */
export const policyLookup: LookupFunction = (hostname, options, callback) => {
  if (allowList.hosts.includes(hostname.toLowerCase())) return dnsLookup(hostname, options, callback);
  checkedLookup(hostname, options, callback);
};

/** A TLS client's own trust and certificate (a Docker host run with --tlsverify), PEM text. */
export type OutboundTls = { ca?: string; cert?: string; key?: string };

/**
 * The policy's connector, with `tls` for a host that wants a client certificate. Node calls no lookup for an
 * address literal (http://127.1/, http://[::1]/): those are checked here.
 */
function policyConnector(tls: OutboundTls = {}): buildConnector.connector {
  const connectChecked = buildConnector({ ...tls, lookup: checkedLookup });
  const connectUnchecked = buildConnector({ ...tls });
  return (options, callback) => {
    const host = options.hostname.toLowerCase();
    if (allowList.hosts.includes(host)) return connectUnchecked(options, callback);
    if (isIP(host)) {
      const reason = refusalReason(host);
      if (reason) return callback(refusal(host, host, reason), null);
    }
    return connectChecked(options, callback);
  };
}

const connector = policyConnector();
let dispatcher = new Agent({ connect: connector });

/**
 * Sets OUTBOUND_ALLOW. The composition root calls it once at start; the tests' set-up allows loopback (their
 * stand-in servers listen there) and the tests of the policy set their own. Connections pooled under the old
 * list are closed, so none outlives it.
 */
export function setOutboundAllowList(next: OutboundAllowList): void {
  allowList = next;
  const previous = dispatcher;
  dispatcher = new Agent({ connect: connector });
  void previous.close();
}

/**
 * fetch under the egress policy. undici's own fetch, because the dispatcher (the connector above) is undici's: the
 * Response it returns behaves as the global one, so callers keep the web types.
 */
export async function outboundFetch(
  url: string | URL,
  init: RequestInit = {},
  { tls }: { tls?: OutboundTls } = {},
): Promise<Response> {
  if (!tls)
    return undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher }) as unknown as Promise<Response>;
  // A client certificate is this request's own: its connection is never pooled for another. close() lets the
  // request in flight (its body included) finish first.
  const own = new Agent({ connect: policyConnector(tls) });
  try {
    return (await undiciFetch(url, {
      ...(init as UndiciRequestInit),
      dispatcher: own,
    })) as unknown as Response;
  } finally {
    void own.close();
  }
}

/**
 * The address to connect to for `host` under the egress policy, for clients that open their own sockets (a
 * Docker host on tcp://): resolved once and checked as `outboundFetch` checks it; the caller connects to the
 * address answered, so the name cannot resolve elsewhere a moment later. Throws OutboundRefusedError.
 */
export async function checkedAddress(host: string): Promise<string> {
  const name = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (allowList.hosts.includes(name)) return name;
  if (isIP(name)) {
    const reason = refusalReason(name);
    if (reason) throw refusal(name, name, reason);
    return name;
  }
  return new Promise((resolve, reject) => {
    checkedLookup(name, {}, (error, address) => {
      if (error) reject(error);
      else resolve(typeof address === "string" ? address : (address[0]?.address ?? ""));
    });
  });
}
