import { createServer, type AddressInfo, type Server } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { loadPlatformConfig } from "../config";
import { createMailer, NO_SMTP_REASON, type MailMessage } from "./mailer";

const FROM = "Cloud Console <no-reply@console.example>";
const USER = "mailer";
const PASSWORD = "s3cret-smtp-password";

const invitation: MailMessage = {
  to: "grace@example.com",
  subject: "Ada invited you to Acme Corp",
  text: "Accept the invitation: http://localhost:3000/invitations/secret-token",
  html: '<p><a href="http://localhost:3000/invitations/secret-token">Accept the invitation</a></p>',
};

type Received = { mail: ParsedMail; recipients: string[]; user?: string };

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real SMTP server on a free local port; resolves its port and the mails it accepted. */
async function startSmtpServer(options: SMTPServerOptions) {
  const received: Received[] = [];
  const server = new SMTPServer({
    disableReverseLookup: true,
    ...options,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
          received.push({ mail, recipients, user: session.user as string | undefined });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, received };
}

const withPassword: Pick<SMTPServerOptions, "onAuth"> = {
  onAuth(auth, _session, callback) {
    if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
    else callback(new Error("Invalid username or password"));
  },
};

/** A TCP port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Accepts connections and never says a word, like a firewall that swallows the SMTP greeting. */
async function silentServer(): Promise<number> {
  const server: Server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.close();
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
  // Open sockets would keep close() from finishing: they are dropped as the test ends.
  server.on("connection", (socket) => cleanups.push(async () => void socket.destroy()));
  return (server.address() as AddressInfo).port;
}

function expectSent(received: Received, message: MailMessage) {
  expect(received.recipients).toEqual([message.to]);
  expect(received.mail.from?.value).toEqual([{ name: "Cloud Console", address: "no-reply@console.example" }]);
  expect(received.mail.to).toMatchObject({ value: [{ address: message.to }] });
  expect(received.mail.subject).toBe(message.subject);
  expect(received.mail.text?.trim()).toBe(message.text);
  expect(received.mail.html).toContain(message.html);
}

describe("createMailer with an SMTP server", () => {
  it("delivers a mail with sender, recipient, subject, text and HTML to a server without authentication", async () => {
    const smtp = await startSmtpServer({ authOptional: true, disabledCommands: ["STARTTLS", "AUTH"] });
    const log: string[] = [];
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: FROM },
      { log: (line) => log.push(line) },
    );

    expect(await mailer.send(invitation)).toEqual({ delivered: true });

    expect(smtp.received).toHaveLength(1);
    const [received] = smtp.received;
    if (!received) throw new Error("no mail arrived");
    expectSent(received, invitation);
    expect(log).toEqual([]);
  });

  it("signs in with the URL's credentials after STARTTLS, and passes the URL's options to nodemailer", async () => {
    // smtp-server's built-in certificate is self-signed: the URL tells nodemailer to accept it.
    const smtp = await startSmtpServer({ ...withPassword });
    const smtpUrl = `smtp://${USER}:${PASSWORD}@127.0.0.1:${smtp.port}?tls.rejectUnauthorized=false`;
    const mailer = createMailer({ smtpUrl, from: FROM });

    const textOnly = { to: "linus@example.com", subject: "Welcome", text: "Hello Linus" };
    expect(await mailer.send(textOnly)).toEqual({ delivered: true });

    const [received] = smtp.received;
    if (!received) throw new Error("no mail arrived");
    expect(received.user).toBe(USER);
    expect(received.recipients).toEqual(["linus@example.com"]);
    expect(received.mail.subject).toBe("Welcome");
    expect(received.mail.text?.trim()).toBe("Hello Linus");
    expect(received.mail.html).toBe(false);
  });

  it("speaks TLS from the start with smtps://", async () => {
    const smtp = await startSmtpServer({ secure: true, ...withPassword });
    const smtpUrl = `smtps://${USER}:${PASSWORD}@127.0.0.1:${smtp.port}?tls.rejectUnauthorized=false`;

    expect(await createMailer({ smtpUrl, from: FROM }).send(invitation)).toEqual({ delivered: true });
    const [received] = smtp.received;
    if (!received) throw new Error("no mail arrived");
    expectSent(received, invitation);
    expect(received.user).toBe(USER);
  });

  it("says the server refused the credentials, without repeating them", async () => {
    const smtp = await startSmtpServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      ...withPassword,
    });
    const log: string[] = [];
    const smtpUrl = `smtp://${USER}:wrong-${PASSWORD}@127.0.0.1:${smtp.port}`;
    const result = await createMailer({ smtpUrl, from: FROM }, { log: (line) => log.push(line) }).send(
      invitation,
    );

    expect(result.delivered).toBe(false);
    if (result.delivered) return;
    expect(result.reason).toMatch(
      new RegExp(`^The SMTP server 127\\.0\\.0\\.1:${smtp.port} refused the credentials of SMTP_URL: `),
    );
    expect(log).toEqual([`mail: not delivered to grace@example.com: ${result.reason}`]);
    expect(log.join("\n")).not.toContain(PASSWORD);
    expect(log.join("\n")).not.toContain("secret-token");
    expect(smtp.received).toEqual([]);
  });
});

describe("createMailer without a reachable server", () => {
  it("fails at once, naming the host, when nothing listens on the port", async () => {
    const port = await closedPort();
    const log: string[] = [];
    const mailer = createMailer(
      { smtpUrl: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`, from: FROM },
      { log: (line) => log.push(line) },
    );

    const started = Date.now();
    const result = await mailer.send(invitation);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toEqual({
      delivered: false,
      reason: expect.stringMatching(
        new RegExp(`^Could not reach the SMTP server 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
      ),
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toContain("grace@example.com");
    expect(log[0]).not.toContain(PASSWORD);
    expect(log[0]).not.toContain("secret-token");
  });

  it("gives up after the timeout when the server never greets", async () => {
    const port = await silentServer();
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM },
      { timeoutMs: 300, log: () => {} },
    );

    const started = Date.now();
    const result = await mailer.send(invitation);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toEqual({
      delivered: false,
      reason: expect.stringMatching(new RegExp(`^Could not reach the SMTP server 127\\.0\\.0\\.1:${port}: `)),
    });
  });

  it("sends nothing without SMTP_URL and logs only the recipient", async () => {
    const log: string[] = [];
    const mailer = createMailer(loadPlatformConfig({ AUTH0_CLIENT_SECRET: "x".repeat(16) }).mail, {
      log: (line) => log.push(line),
    });

    expect(await mailer.send(invitation)).toEqual({ delivered: false, reason: NO_SMTP_REASON });
    expect(NO_SMTP_REASON).toBe("No SMTP server is configured (SMTP_URL), so no mail was sent.");
    expect(log).toEqual([
      "mail: no SMTP server is configured (SMTP_URL); no mail was sent to grace@example.com",
    ]);
  });
});

describe("mail configuration", () => {
  const base = { AUTH0_CLIENT_SECRET: "x".repeat(16) };

  it("reads SMTP_URL and MAIL_FROM, with a local sender by default", () => {
    expect(loadPlatformConfig(base).mail).toEqual({ from: "Cloud Console <no-reply@localhost>" });
    const smtpUrl = "smtps://user:pass@mail.example.com:465";
    expect(
      loadPlatformConfig({ ...base, SMTP_URL: smtpUrl, MAIL_FROM: "Ops <ops@example.com>" }).mail,
    ).toEqual({
      smtpUrl,
      from: "Ops <ops@example.com>",
    });
  });

  it("refuses another scheme and a sender that is not one address, without echoing the URL", () => {
    const load = (env: Record<string, string>) => () => loadPlatformConfig({ ...base, ...env });
    expect(load({ SMTP_URL: "https://user:hunter2@mail.example.com" })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(load({ SMTP_URL: "https://user:hunter2@mail.example.com" })).not.toThrow(/hunter2/);
    expect(load({ MAIL_FROM: "Cloud Console" })).toThrow(/MAIL_FROM: must be one address/);
    expect(load({ MAIL_FROM: "a@example.com, b@example.com" })).toThrow(/MAIL_FROM/);
  });
});
