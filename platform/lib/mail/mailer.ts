import { createTransport } from "nodemailer";
import type { MailConfig } from "../config";

export type MailMessage = {
  /** One recipient: each invitation carries its own link, so each goes in its own mail. */
  to: string;
  subject: string;
  text: string;
  html?: string;
};

export type MailResult = { delivered: true } | { delivered: false; reason: string };

export type Mailer = {
  /** Never throws: a mail that could not be sent resolves with the reason, for the caller to show. */
  send: (message: MailMessage) => Promise<MailResult>;
};

export const NO_SMTP_REASON = "No SMTP server is configured (SMTP_URL), so no mail was sent.";

/** Long enough for a slow server, short enough that a page waiting on a mail does not hang. */
const DEFAULT_TIMEOUT_MS = 5_000;

type MailerOptions = {
  /** Connection, greeting, DNS and socket inactivity timeouts. */
  timeoutMs?: number;
  /** Where the one line per undelivered mail goes; never given a body, which may carry a secret link. */
  log?: (line: string) => void;
};

/**
 * Sends mail through the SMTP server of `config.smtpUrl` with nodemailer (a new connection per mail: mails are
 * rare, invitations and the like). Without one it sends nothing and says so, rather than pretend.
 */
export function createMailer(
  config: MailConfig,
  { timeoutMs = DEFAULT_TIMEOUT_MS, log = (line) => console.warn(line) }: MailerOptions = {},
): Mailer {
  const { smtpUrl, from } = config;
  if (!smtpUrl) {
    return {
      async send({ to }) {
        log(`mail: no SMTP server is configured (SMTP_URL); no mail was sent to ${to}`);
        return { delivered: false, reason: NO_SMTP_REASON };
      },
    };
  }

  const server = describeServer(smtpUrl);
  const transport = createTransport(
    {
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
      socketTimeout: timeoutMs * 2,
    },
    { from },
  );
  return {
    async send({ to, subject, text, html }) {
      try {
        await transport.sendMail({ to, subject, text, ...(html ? { html } : {}) });
        return { delivered: true };
      } catch (error) {
        const reason = describeFailure(error, server);
        log(`mail: not delivered to ${to}: ${reason}`);
        return { delivered: false, reason };
      }
    },
  };
}

/** `host:port` of an SMTP URL, with nodemailer's default ports: what messages may name, never the credentials. */
function describeServer(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const port = url.port || (url.protocol === "smtps:" ? "465" : "587");
  return `${url.hostname}:${port}`;
}

const UNREACHABLE_CODES = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS", "EPROXY"]);

function describeFailure(error: unknown, server: string): string {
  const code = error && typeof error === "object" && "code" in error ? String(error.code) : "";
  const detail = error instanceof Error ? error.message : String(error);
  if (UNREACHABLE_CODES.has(code)) return `Could not reach the SMTP server ${server}: ${detail}`;
  if (code === "EAUTH" || code === "ENOAUTH") {
    return `The SMTP server ${server} refused the credentials of SMTP_URL: ${detail}`;
  }
  return `The SMTP server ${server} did not accept the mail: ${detail}`;
}
