// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditEvent } from "#contract/audit";
import { theme } from "~/theme";
import { AuditTable } from "./audit-table";

afterEach(cleanup);

const base: AuditEvent = {
  id: "1",
  at: "2026-11-27T12:00:00.000Z",
  userId: "user_ada",
  userEmail: "ada@example.com",
  environmentId: null,
  environmentName: null,
  action: "environment-variables.create",
  target: "RELEASE",
  summary: null,
  requestId: null,
  address: null,
  userAgent: null,
  status: 201,
  tokenName: null,
  serviceAccount: null,
};

function whoOf(event: AuditEvent): string {
  render(
    <MantineProvider theme={theme} env="test">
      <AuditTable events={[event]} />
    </MantineProvider>,
  );
  const [, row] = within(screen.getByRole("table", { name: "Audit events" })).getAllByRole("row");
  return within(row as HTMLElement).getAllByRole("cell")[1]?.textContent ?? "";
}

describe("the audit table's Who column (decision 070)", () => {
  it("names a person by e-mail", () => {
    expect(whoOf(base)).toBe("ada@example.com");
  });

  it("names the API token a member's call was made with", () => {
    expect(whoOf({ ...base, tokenName: "ci" })).toBe("ada@example.comwith API token ci");
  });

  it("names a service account and its token", () => {
    expect(
      whoOf({
        ...base,
        userId: "sa_1",
        userEmail: null,
        tokenName: "github actions",
        serviceAccount: "deployer",
      }),
    ).toBe("Service account deployerwith API token github actions");
  });
});
