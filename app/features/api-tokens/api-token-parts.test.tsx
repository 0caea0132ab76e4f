// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiToken } from "#contract/api-tokens";
import { theme } from "~/theme";
import { ApiTokensTable, RegenerateTokenDialog, TokenActions } from "./api-token-parts";

afterEach(cleanup);

const used: ApiToken = {
  id: "7d1b4c9e-0000-4000-8000-000000000001",
  name: "github actions",
  hint: "ccp_…abcd",
  permissions: null,
  createdAt: "2026-11-01T00:00:00.000Z",
  expiresAt: "2027-01-30T00:00:00.000Z",
  lastUsedAt: "2026-11-26T10:00:00.000Z",
  lastUsedAddress: "203.0.113.7",
};
const lapsed: ApiToken = {
  ...used,
  id: "7d1b4c9e-0000-4000-8000-000000000002",
  name: "old laptop",
  expiresAt: "2026-11-20T00:00:00.000Z",
  lastUsedAt: null,
  lastUsedAddress: null,
};

const inMantine = (node: React.ReactNode) =>
  render(
    <MantineProvider theme={theme} env="test">
      {node}
    </MantineProvider>,
  );

describe("ApiTokensTable", () => {
  it("lists each token's expiry and last use, with Regenerate and Revoke for it", () => {
    const regenerate = vi.fn();
    const revoke = vi.fn();
    inMantine(
      <ApiTokensTable
        tokens={[used, lapsed]}
        now="2026-11-27T12:00:00.000Z"
        label="Tokens of deployer"
        actions={(token) => (
          <TokenActions
            token={token}
            onRegenerate={() => regenerate(token.id)}
            onRevoke={() => revoke(token.id)}
          />
        )}
      />,
    );
    const [usedRow, lapsedRow] = screen.getAllByRole("row").slice(1);
    if (!usedRow || !lapsedRow) throw new Error("two rows expected");
    expect(usedRow.textContent).toContain("2027-01-30 00:00 UTC");
    expect(usedRow.textContent).toContain("2026-11-26 10:00 UTC");
    expect(usedRow.textContent).toContain("from 203.0.113.7");
    expect(lapsedRow.textContent).toContain("Expired 2026-11-20 00:00 UTC");
    expect(lapsedRow.textContent).toContain("Never");

    fireEvent.click(within(lapsedRow).getByRole("button", { name: "Regenerate old laptop" }));
    fireEvent.click(within(usedRow).getByRole("button", { name: "Revoke github actions" }));
    expect(regenerate).toHaveBeenCalledWith(lapsed.id);
    expect(revoke).toHaveBeenCalledWith(used.id);
  });
});

describe("RegenerateTokenDialog", () => {
  it("asks first, says the old secret stops working, and submits the named form with a new expiry of 90 days by default", () => {
    inMantine(
      <>
        <form id="token-change" />
        <RegenerateTokenDialog token={used} formId="token-change" onClose={() => {}} busy={false} />
      </>,
    );
    const dialog = screen.getByRole("dialog", { name: "Regenerate API token" });
    expect(dialog.textContent).toContain(
      "Regenerate the token github actions? Its current secret is refused from its next request",
    );
    const expiry = within(dialog).getByLabelText("New secret expires after") as HTMLSelectElement;
    expect(expiry.value).toBe("90");
    expect(expiry.getAttribute("form")).toBe("token-change");
    expect(expiry.name).toBe("expiresInDays");
    const confirm = within(dialog).getByRole("button", { name: "Regenerate" });
    expect(confirm.getAttribute("form")).toBe("token-change");
    expect(confirm.getAttribute("name")).toBe("intent");
    expect(confirm.getAttribute("value")).toBe("regenerate");
  });

  it("is closed with no token", () => {
    inMantine(<RegenerateTokenDialog token={null} formId="token-change" onClose={() => {}} busy={false} />);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
