/** Whether an SDK error has one of `names` (the AWS error code). */
export function isAwsError(error: unknown, ...names: string[]): boolean {
  return error instanceof Error && names.includes(error.name);
}

/** What a failure to get any answer from AWS means, by the socket's or the SDK's code. */
const unansweredWords: Record<string, string> = {
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EPIPE: "the connection was closed",
  ENOTFOUND: "its host name does not resolve",
  EAI_AGAIN: "its host name could not be resolved for now",
  EHOSTUNREACH: "its host is unreachable",
  ENETUNREACH: "the network is unreachable",
  TimeoutError: "it did not answer in time",
  RequestTimeout: "it did not answer in time",
};

type SdkFailure = Error & {
  code?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  /** Node's socket errors: where the connection went (ECONNREFUSED), or the name that did not resolve. */
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
};

/** Where a call that got no answer went, as the socket reported it: `127.0.0.1:4566`, or a host name. */
function addressOf({ address, port, hostname }: SdkFailure): string | undefined {
  if (typeof address === "string") return typeof port === "number" ? `${address}:${port}` : address;
  return typeof hostname === "string" ? hostname : undefined;
}

/**
 * A failure in words where the SDK's own text means nothing to a user (`connect ECONNREFUSED …`, an XML parse
 * error of a proxy's HTML page), with the code kept for support; undefined for AWS's own answers (its code and
 * message say what it refused) and anything else. `service` names who did not answer ("AWS CloudWatch"), and
 * `meanwhile` what the user gets once it does ("the metrics show once it answers").
 */
export function unansweredFailureOf(
  error: unknown,
  { service = "AWS", meanwhile }: { service?: string; meanwhile?: string } = {},
): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const failure = error as SdkFailure;
  const firstLine = error.message.split("\n")[0]?.trim().replace(/\.$/, "") ?? "";
  const status = failure.$metadata?.httpStatusCode;
  const then = meanwhile ? `; ${meanwhile}` : "";
  if (error.message.includes("Deserialization error") && typeof status === "number") {
    return (
      `the answer (HTTP ${status}) was not AWS's: something between the platform and AWS (a proxy, a wrong ` +
      `endpoint) answered instead${then}. Code for support: ${firstLine}`
    );
  }
  if (typeof status === "number") return undefined;
  const key = typeof failure.code === "string" && failure.code in unansweredWords ? failure.code : error.name;
  const words = unansweredWords[key];
  if (!words) return undefined;
  // The socket's message only repeats the code and the address: both are said already.
  const address = addressOf(failure);
  const at = address ? ` at ${address}` : "";
  return `${service} could not be reached${at} (${words})${then}. Code for support: ${key}`;
}
