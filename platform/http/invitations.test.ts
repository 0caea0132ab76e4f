import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptedInvitationSchema,
  invitationListSchema,
  invitationPaths,
  invitationPreviewSchema,
  sentInvitationSchema,
  sentInvitationsSchema,
} from "#contract/invitations";
import { builtInRoles, effectivePermissionsSchema } from "#contract/permissions";
import { userPaths } from "#contract/users";
import { customRoles, invitations, memberships } from "../db/schema";
import { NO_SMTP_REASON } from "../lib/mail/mailer";
import { hashInvitationToken } from "../team/invitations";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

const FROM = "Cloud Console <no-reply@console.example>";

/** A real SMTP server in the test process; each accepted mail is parsed. */
const received: ParsedMail[] = [];
let smtp: SMTPServer;
let withMail: TestApi;
let withoutMail: TestApi;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  withMail = await openTestApi({ mail: { smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM } });
  withoutMail = await openTestApi();
});

afterAll(async () => {
  await withMail?.close();
  await withoutMail?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** An admin in a new organization with staging and production. */
async function adminWithEnvironments(api: TestApi) {
  const admin = await api.createMember({ role: "admin" });
  const staging = await api.createEnvironment(admin.organization.tenantId, "staging");
  const production = await api.createEnvironment(admin.organization.tenantId, "production");
  return { ...admin, staging, production };
}

function invite(api: TestApi, admin: TestMember, json: unknown) {
  return api.call("POST", invitationPaths.list(admin.organization.tenantId), {
    token: admin.user.token,
    json,
  });
}

/** Invites without SMTP, so the answer carries the link; returns the token in it. */
async function inviteForLink(
  api: TestApi,
  admin: TestMember,
  email: string,
  environmentIds: string[] | null = null,
) {
  const response = await invite(api, admin, {
    emails: [email],
    grants: [{ role: "developer", environmentIds }],
  });
  expect(response.status).toBe(201);
  const [sent] = sentInvitationsSchema.parse(await response.json()).invitations;
  if (!sent || sent.mail.delivered) throw new Error("expected the link in the answer");
  return tokenOf(sent.mail.link);
}

function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

async function invitationRows(api: TestApi, organizationId: string) {
  return api.db.select().from(invitations).where(eq(invitations.organizationId, organizationId));
}

describe("inviting", () => {
  it("mails each address a single-use link naming the organization and the inviter; only its hash is kept", async () => {
    const admin = await adminWithEnvironments(withMail);
    const before = received.length;
    const response = await invite(withMail, admin, {
      emails: ["Grace@Example.com", "linus@example.com"],
      grants: [{ role: "developer", environmentIds: [admin.staging.id] }],
    });
    expect(response.status).toBe(201);
    const body = sentInvitationsSchema.parse(await response.json());
    expect(
      body.invitations.map(({ invitation, mail }) => [invitation.email, invitation.status, mail]),
    ).toEqual([
      ["grace@example.com", "pending", { delivered: true }],
      ["linus@example.com", "pending", { delivered: true }],
    ]);
    const [first] = body.invitations;
    const expiresIn = Date.parse(first?.invitation.expiresAt ?? "") - Date.now();
    expect(expiresIn).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 86_400_000);

    const mails = received.slice(before);
    expect(mails.map((mail) => mail.to && "value" in mail.to && mail.to.value[0]?.address).sort()).toEqual([
      "grace@example.com",
      "linus@example.com",
    ]);
    const mail = mails.find((one) => one.text?.includes("grace@example.com"));
    expect(mail?.subject).toBe(
      `Test ${admin.user.id} invited you to join Organization ${admin.organization.name} on Cloud Console`,
    );
    const link =
      /http:\/\/localhost:3000\/invitations\/accept\?token=[\w-]+/.exec(mail?.text ?? "")?.[0] ?? "";
    const token = tokenOf(link);
    expect(token).toMatch(/^[\w-]{43}$/);

    const rows = await invitationRows(withMail, admin.organization.organizationId);
    const grace = rows.find((row) => row.email === "grace@example.com");
    expect(grace?.tokenHash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const list = await withMail.call("GET", invitationPaths.list(admin.organization.tenantId), {
      token: admin.user.token,
    });
    const text = await list.text();
    expect(text).not.toContain(token);
    expect(text).not.toContain(grace?.tokenHash);
    expect(invitationListSchema.parse(JSON.parse(text)).invitations).toHaveLength(2);
  });

  it("says no mail was sent without SMTP and gives the link once; the listing never does", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const response = await invite(withoutMail, admin, {
      emails: ["erin@example.com"],
      grants: [{ role: "read-only" }],
    });
    const [sent] = sentInvitationsSchema.parse(await response.json()).invitations;
    expect(sent?.mail).toEqual({
      delivered: false,
      reason: NO_SMTP_REASON,
      link: expect.stringMatching(/^http:\/\/localhost:3000\/invitations\/accept\?token=[\w-]{43}$/),
    });
    const list = await withoutMail.call("GET", invitationPaths.list(admin.organization.tenantId), {
      token: admin.user.token,
    });
    expect(await list.text()).not.toContain("token");
  });

  it("refuses bad input with field errors and stores nothing", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const other = await adminWithEnvironments(withoutMail);
    const [otherRole] = await withoutMail.db
      .insert(customRoles)
      .values({
        organizationId: other.organization.organizationId,
        name: "theirs",
        permissions: ["organization.view"],
      })
      .returning();
    const cases: [unknown, string][] = [
      [{ emails: ["not-an-address"], grants: [{ role: "admin" }] }, "emails.0"],
      [{ emails: [], grants: [{ role: "admin" }] }, "emails"],
      [{ emails: ["a@example.com"], grants: [] }, "grants"],
      [{ emails: ["a@example.com"], grants: [{ role: "owner" }] }, "grants.0.role"],
      [
        { emails: ["a@example.com"], grants: [{ role: "developer", environmentIds: [other.staging.id] }] },
        "grants.0.environmentIds.0",
      ],
      [{ emails: ["a@example.com"], grants: [{ customRoleId: otherRole?.id }] }, "grants.0.customRoleId"],
    ];
    for (const [json, field] of cases) {
      const response = await invite(withoutMail, admin, json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors ?? {})).toContain(field);
    }
    expect(await invitationRows(withoutMail, admin.organization.organizationId)).toEqual([]);
  });

  it("refuses to invite a member (409 on the address) and re-sends an open invitation rather than doubling it", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const member = await withoutMail.createUser();
    await withoutMail.addMember(member.id, admin.organization.organizationId, "read-only");
    const refused = await invite(withoutMail, admin, {
      emails: ["new@example.com", member.email.toUpperCase()],
      grants: [{ role: "developer" }],
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { fieldErrors: unknown }).fieldErrors).toEqual({
      "emails.1": [`${member.email} is already a member of this organization`],
    });
    expect(await invitationRows(withoutMail, admin.organization.organizationId)).toEqual([]);

    const firstToken = await inviteForLink(withoutMail, admin, "erin@example.com");
    const secondToken = await inviteForLink(withoutMail, admin, "erin@example.com", [admin.staging.id]);
    const rows = await invitationRows(withoutMail, admin.organization.organizationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.grants).toEqual([{ role: "developer", environmentIds: [admin.staging.id] }]);
    const invitee = await withoutMail.createUser();
    const lookUp = (token: string) =>
      withoutMail.call("POST", invitationPaths.lookup(), { token: invitee.token, json: { token } });
    expect((await lookUp(firstToken)).status).toBe(404);
    expect((await lookUp(secondToken)).status).toBe(403);
  });

  it("accepts the v1 call (one address, a role on the whole organization) over the same code", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const response = await withoutMail.call("POST", invitationPaths.v1(admin.organization.tenantId), {
      token: admin.user.token,
      json: { email: "v1@example.com", role: "read-only" },
    });
    expect(response.status).toBe(201);
    const list = await withoutMail.call("GET", invitationPaths.v1(admin.organization.tenantId), {
      token: admin.user.token,
    });
    const [listed] = invitationListSchema.parse(await list.json()).invitations;
    expect(listed?.grants).toEqual([{ role: "read-only", environmentIds: null }]);
    expect(listed?.invitedBy).toEqual({ name: `Test ${admin.user.id}`, email: admin.user.email });
  });

  it("never shows or touches another organization's invitations", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const other = await adminWithEnvironments(withoutMail);
    await inviteForLink(withoutMail, admin, "secret@example.com");
    const list = await withoutMail.call("GET", invitationPaths.list(other.organization.tenantId), {
      token: other.user.token,
    });
    expect(invitationListSchema.parse(await list.json()).invitations).toEqual([]);
    const target = { token: other.user.token };
    const cancel = await withoutMail.call(
      "DELETE",
      `${invitationPaths.list(other.organization.tenantId)}?email=secret@example.com`,
      target,
    );
    expect(cancel.status).toBe(404);
    const reinvite = await withoutMail.call("POST", invitationPaths.reinvite(other.organization.tenantId), {
      ...target,
      json: { email: "secret@example.com" },
    });
    expect(reinvite.status).toBe(404);
    const crossTenant = await withoutMail.call(
      "GET",
      invitationPaths.list(admin.organization.tenantId),
      target,
    );
    expect(crossTenant.status).toBe(403);
  });
});

describe("re-sending and cancelling", () => {
  it("re-sending gives a new link and expiry, and the old link dies", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    // Each test invites its own address: the invitation limits count an address's invitations across them.
    const oldToken = await inviteForLink(withoutMail, admin, "frank@example.com");
    await withoutMail.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.organizationId, admin.organization.organizationId));
    const response = await withoutMail.call("POST", invitationPaths.reinvite(admin.organization.tenantId), {
      token: admin.user.token,
      json: { email: "FRANK@example.com" },
    });
    expect(response.status).toBe(200);
    const sent = sentInvitationSchema.parse(await response.json());
    expect(sent.invitation.status).toBe("pending");
    if (sent.mail.delivered) throw new Error("expected the link");
    const newToken = tokenOf(sent.mail.link);
    expect(newToken).not.toBe(oldToken);

    const erin = await withoutMail.createUser();
    await withoutMail.db
      .update(invitations)
      .set({ email: erin.email })
      .where(eq(invitations.organizationId, admin.organization.organizationId));
    const accept = (token: string) =>
      withoutMail.call("POST", invitationPaths.accept(), { token: erin.token, json: { token } });
    expect((await accept(oldToken)).status).toBe(404);
    expect((await accept(newToken)).status).toBe(200);
  });

  it("cancelling ends the invitation: its link answers 410 and it can no longer be re-sent", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const erin = await withoutMail.createUser();
    const token = await inviteForLink(withoutMail, admin, erin.email);
    const path = `${invitationPaths.list(admin.organization.tenantId)}?email=${encodeURIComponent(erin.email)}`;
    const cancelled = await withoutMail.call("DELETE", path, { token: admin.user.token });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { invitation: { status: string } }).invitation.status).toBe(
      "cancelled",
    );

    const accept = await withoutMail.call("POST", invitationPaths.accept(), {
      token: erin.token,
      json: { token },
    });
    expect(accept.status).toBe(410);
    expect(((await accept.json()) as { message: string }).message).toMatch(/cancelled/);
    expect((await withoutMail.call("DELETE", path, { token: admin.user.token })).status).toBe(404);
    const reinvite = await withoutMail.call("POST", invitationPaths.reinvite(admin.organization.tenantId), {
      token: admin.user.token,
      json: { email: erin.email },
    });
    expect(reinvite.status).toBe(404);
  });
});

describe("opening a link before signing in", () => {
  it("shows the link's holder what the mail says, with the role, and says in words why a dead link is dead", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const token = await inviteForLink(withoutMail, admin, "Frank@Example.com", [admin.staging.id]);
    const preview = (json: unknown) => withoutMail.call("POST", invitationPaths.preview(), { json });

    const shown = await preview({ token });
    expect(shown.status).toBe(200);
    expect(invitationPreviewSchema.parse(await shown.json())).toEqual({
      email: "frank@example.com",
      organization: { displayName: `Organization ${admin.organization.name}` },
      invitedBy: `Test ${admin.user.id}`,
      // The environments' names stay inside the organization until the invitee joins.
      roles: ["developer on 1 environment"],
      expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    await withoutMail.call(
      "DELETE",
      invitationPaths.cancel(admin.organization.tenantId, "frank@example.com"),
      {
        token: admin.user.token,
      },
    );
    const cancelled = await preview({ token });
    expect(cancelled.status).toBe(410);
    expect(((await cancelled.json()) as { message: string }).message).toBe(
      "This invitation was cancelled. Ask the person who invited you for a new one.",
    );
    const unknown = await preview({ token: "A".repeat(43) });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(await unknown.json())).not.toContain(admin.organization.name);
    expect((await preview({ token: "short" })).status).toBe(400);
  });
});

describe("accepting", () => {
  it("makes the invited address a member with the invitation's grants, once", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const erin = await withoutMail.createUser();
    const token = await inviteForLink(withoutMail, admin, erin.email.toUpperCase(), [admin.staging.id]);

    const preview = await withoutMail.call("POST", invitationPaths.lookup(), {
      token: erin.token,
      json: { token },
    });
    expect(invitationPreviewSchema.parse(await preview.json())).toMatchObject({
      email: erin.email,
      organization: { displayName: `Organization ${admin.organization.name}` },
      invitedBy: `Test ${admin.user.id}`,
    });

    const accepted = await withoutMail.call("POST", invitationPaths.accept(), {
      token: erin.token,
      json: { token },
    });
    expect(accepted.status).toBe(200);
    expect(acceptedInvitationSchema.parse(await accepted.json()).organization.tenantId).toBe(
      admin.organization.tenantId,
    );
    const permissions = await withoutMail.call("GET", userPaths.permissions(admin.organization.tenantId), {
      token: erin.token,
    });
    const effective = effectivePermissionsSchema.parse(await permissions.json());
    expect(new Set(effective.environments[admin.staging.id])).toEqual(
      new Set(builtInRoles.developer.permissions),
    );
    expect(effective.environments[admin.production.id]).toEqual(["organization.view"]);

    const again = await withoutMail.call("POST", invitationPaths.accept(), {
      token: erin.token,
      json: { token },
    });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { message: string }).message).toMatch(/already been accepted/);
    const [row] = await invitationRows(withoutMail, admin.organization.organizationId);
    expect(row?.acceptedBy).toBe(erin.id);
    expect(row?.acceptedAt).toBeInstanceOf(Date);
  });

  it("refuses another address with a 403 naming the invited one, and not the organization", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const token = await inviteForLink(withoutMail, admin, "heidi@example.com");
    const stranger = await withoutMail.createUser();
    for (const path of [invitationPaths.lookup(), invitationPaths.accept()]) {
      const response = await withoutMail.call("POST", path, { token: stranger.token, json: { token } });
      expect(response.status).toBe(403);
      const { message } = (await response.json()) as { message: string };
      expect(message).toContain("heidi@example.com");
      expect(message).not.toContain(admin.organization.name);
    }
    const joined = await withoutMail.db.select().from(memberships).where(eq(memberships.userId, stranger.id));
    expect(joined).toEqual([]);
  });

  it("says an expired link expired (410), an unknown one is not valid (404), and a malformed one is refused (400)", async () => {
    const admin = await adminWithEnvironments(withoutMail);
    const erin = await withoutMail.createUser();
    const token = await inviteForLink(withoutMail, admin, erin.email);
    await withoutMail.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.organizationId, admin.organization.organizationId));
    const call = (json: unknown) =>
      withoutMail.call("POST", invitationPaths.accept(), { token: erin.token, json });

    const expired = await call({ token });
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { message: string }).message).toMatch(/expired on \d{4}-\d{2}-\d{2}/);
    const unknown = await call({ token: "A".repeat(43) });
    expect(unknown.status).toBe(404);
    expect((await call({ token: "short" })).status).toBe(400);
    expect((await call({})).status).toBe(400);
    const list = await withoutMail.call("GET", invitationPaths.list(admin.organization.tenantId), {
      token: admin.user.token,
    });
    expect(invitationListSchema.parse(await list.json()).invitations[0]?.status).toBe("expired");
  });
});
