import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { createInvitationsSchema } from "#contract/invitations";
import { invitationRequest, inviteFormErrors, inviteFormSchema } from "./invite-form";

const staging = "6f1c1a52-8a55-4a3c-9d1e-0d2c43f6d0a1";

function submit(fields: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of fields) formData.append(name, value);
  return parseWithZod(formData, { schema: inviteFormSchema });
}

/** The field errors of a refused submission. */
function errorsOf(fields: [string, string][]) {
  const submission = submit(fields);
  if (submission.status === "success") throw new Error("expected the form to be refused");
  return submission.error ?? {};
}

describe("the invite form", () => {
  it("turns several addresses, a role and chosen environments into the platform's request", () => {
    const submission = submit([
      ["emails", "Erin@Example.com, linus@example.com\nerin@example.com"],
      ["role", "developer"],
      ["scope", "environments"],
      ["environmentIds", staging],
    ]);
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    const request = invitationRequest(submission.value);
    expect(request).toEqual({
      emails: ["erin@example.com", "linus@example.com"],
      grants: [{ role: "developer", environmentIds: [staging] }],
    });
    expect(createInvitationsSchema.safeParse(request).success).toBe(true);
  });

  it("grants the role on the whole organization by default", () => {
    const submission = submit([
      ["emails", "erin@example.com"],
      ["role", "read-only"],
    ]);
    if (submission.status !== "success") throw new Error("expected success");
    expect(invitationRequest(submission.value).grants).toEqual([{ role: "read-only", environmentIds: null }]);
  });

  it("grants a custom role by its id, and refuses a choice that names no role", () => {
    const deployer = "0b7e5e57-3c3f-4a5e-9f55-2b0a3c1d8e01";
    const submission = submit([
      ["emails", "erin@example.com"],
      ["role", `custom:${deployer}`],
    ]);
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    const request = invitationRequest(submission.value);
    expect(request.grants).toEqual([{ customRoleId: deployer, environmentIds: null }]);
    expect(createInvitationsSchema.safeParse(request).success).toBe(true);
    for (const role of ["owner", "custom:not-an-id"]) {
      expect(
        errorsOf([
          ["emails", "erin@example.com"],
          ["role", role],
        ]).role,
      ).toEqual(["Choose a role"]);
    }
  });

  it("names the addresses that are not valid, and asks for environments when scoped", () => {
    expect(
      errorsOf([
        ["emails", "erin@example.com not-an-address"],
        ["role", "developer"],
      ]).emails,
    ).toEqual(["Not a valid email: not-an-address"]);
    const unscoped = errorsOf([
      ["emails", "erin@example.com"],
      ["role", "developer"],
      ["scope", "environments"],
    ]);
    expect(unscoped.environmentIds).toEqual([
      "Choose at least one environment, or invite on the whole organization",
    ]);
    expect(errorsOf([["emails", " "]]).emails).toEqual(["Email is a required field"]);
  });

  it("puts the platform's field errors on the form's fields", () => {
    expect(
      inviteFormErrors({
        "emails.1": ["bob@example.com is already a member of this organization"],
        "grants.0.environmentIds.0": ["No such environment in this organization"],
        "grants.0.role": ["Invalid option"],
      }),
    ).toEqual({
      emails: ["bob@example.com is already a member of this organization"],
      environmentIds: ["No such environment in this organization"],
      role: ["Invalid option"],
    });
  });
});
