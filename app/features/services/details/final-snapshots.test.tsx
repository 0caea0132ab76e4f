// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Snapshot } from "#contract/snapshots";
import { theme } from "~/theme";
import { FinalSnapshots } from "./final-snapshots";

const snapshot: Snapshot = {
  name: "orders-1a2b3c4d-final-20261127073005",
  arn: "arn:aws:rds:eu-west-1:123456789012:snapshot:orders-1a2b3c4d-final-20261127073005",
  serviceId: "service-1",
  kind: "rds",
  engine: "postgres 17",
  createdAt: "2026-11-27T07:30:05.000Z",
  size: "30 GB",
  restoreCommand:
    "aws rds restore-db-instance-from-db-snapshot --region eu-west-1 --db-snapshot-identifier orders-1a2b3c4d-final-20261127073005 --db-instance-identifier orders-1a2b3c4d-restored",
};

const renderWith = (snapshots: Parameters<typeof FinalSnapshots>[0]["snapshots"]) =>
  render(
    <MantineProvider theme={theme} env="test">
      <FinalSnapshots snapshots={snapshots} />
    </MantineProvider>,
  );

afterEach(cleanup);

describe("the final snapshots of a database or cache", () => {
  it("lists each snapshot's name, time and size with the command that restores it", () => {
    renderWith({ kind: "ok", value: [snapshot] });
    const section = screen.getByRole("region", { name: "Final snapshots" });
    const item = within(section).getByRole("listitem");
    expect(within(item).getByText(snapshot.name)).toBeTruthy();
    expect(within(item).getByText(/30 GB/)).toBeTruthy();
    expect(within(item).getByText(/postgres 17/)).toBeTruthy();
    expect(within(item).getByText(snapshot.restoreCommand)).toBeTruthy();
  });

  it("says when there is none, and why they could not be read", () => {
    renderWith({ kind: "ok", value: [] });
    expect(screen.getByText(/No final snapshot yet/)).toBeTruthy();
    cleanup();
    renderWith({ kind: "error", message: "AWS answered AccessDenied: not allowed" });
    expect(screen.getByText("AWS answered AccessDenied: not allowed")).toBeTruthy();
  });
});
