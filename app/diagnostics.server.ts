/**
 * Diagnostic log records (SPEC §3): one JSON object per line, info on stdout, warn and error on stderr, so a log
 * collector can filter on `action` and `level`. Missing identity values are written as SPEC §3's placeholders.
 */

export type DiagnosticLevel = "error" | "info" | "warn";

export type DiagnosticInput = {
  /** What happened, e.g. 'User is not authenticated'. */
  action: string;
  level: DiagnosticLevel;
  /** The request being served; its host and path become `pageUrl`. */
  request?: Request;
  tenantId?: string | null;
  userId?: string | null;
  email?: string | null;
  /** An exception behind the record; its name, message and stack are added as `error`. */
  error?: unknown;
};

export type DiagnosticRecord = {
  action: string;
  level: DiagnosticLevel;
  /** Host plus path of the request (no scheme, no query string); 'unknown-page' outside a request. */
  pageUrl: string;
  tenantId: string;
  userId: string;
  email: string;
  /** ISO 8601. */
  timestamp: string;
  error?: { name: string; message: string; stack?: string };
};

export const UNKNOWN_TENANT = "unknown-tenant";
export const UNKNOWN_USER = "unknown-user";
export const UNKNOWN_EMAIL = "unknown-email";
export const UNKNOWN_PAGE = "unknown-page";

type Writer = (line: string) => void;

export type DiagnosticLoggerOptions = { stdout?: Writer; stderr?: Writer; now?: () => Date };

export function diagnosticRecord(input: DiagnosticInput, now: Date = new Date()): DiagnosticRecord {
  return {
    action: input.action,
    level: input.level,
    pageUrl: input.request ? pageUrlOf(input.request) : UNKNOWN_PAGE,
    tenantId: input.tenantId || UNKNOWN_TENANT,
    userId: input.userId || UNKNOWN_USER,
    email: input.email || UNKNOWN_EMAIL,
    timestamp: now.toISOString(),
    ...(input.error === undefined ? {} : { error: describeError(input.error) }),
  };
}

export function createDiagnosticLogger(options: DiagnosticLoggerOptions = {}) {
  const stdout = options.stdout ?? ((line: string) => process.stdout.write(line));
  const stderr = options.stderr ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  return (input: DiagnosticInput): DiagnosticRecord => {
    const record = diagnosticRecord(input, now());
    const line = `${JSON.stringify(record)}\n`;
    if (record.level === "info") stdout(line);
    else stderr(line);
    return record;
  };
}

/** Writes one diagnostic record as a JSON line to the server log. */
export const logDiagnostic = createDiagnosticLogger();

function pageUrlOf(request: Request): string {
  try {
    const url = new URL(request.url);
    return `${url.host}${url.pathname}`;
  } catch {
    return UNKNOWN_PAGE;
  }
}

function describeError(error: unknown): NonNullable<DiagnosticRecord["error"]> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  }
  return { name: "NonError", message: typeof error === "string" ? error : String(error) };
}
