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

type SdkFailure = Error & { code?: unknown; $metadata?: { httpStatusCode?: unknown } };

/**
 * A failure in words where the SDK's own text means nothing to a user (`connect ECONNREFUSED …`, an XML parse
 * error of a proxy's HTML page), with the code kept for support; undefined for AWS's own answers (its code and
 * message say what it refused) and anything else.
 */
export function unansweredFailureOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, $metadata } = error as SdkFailure;
  const firstLine = error.message.split("\n")[0]?.trim().replace(/\.$/, "") ?? "";
  const status = $metadata?.httpStatusCode;
  if (error.message.includes("Deserialization error") && typeof status === "number") {
    return (
      `the answer (HTTP ${status}) was not AWS's: something between the platform and AWS (a proxy, a wrong ` +
      `endpoint) answered instead. Code for support: ${firstLine}`
    );
  }
  if (typeof status === "number") return undefined;
  const key = typeof code === "string" && code in unansweredWords ? code : error.name;
  const words = unansweredWords[key];
  return words ? `AWS could not be reached (${words}). Code for support: ${key} (${firstLine})` : undefined;
}
