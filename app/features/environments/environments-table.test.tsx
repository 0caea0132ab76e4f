// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import type { Preview } from "#contract/previews";
import { theme } from "~/theme";
import { EnvironmentsTable } from "./environments-table";
import { PreviewOf } from "./preview-of";
import { anEnvironment } from "./test-factories";

afterEach(cleanup);

const staging = anEnvironment({ id: "e-staging", name: "staging" });
const production = anEnvironment({ id: "e-production", name: "production" });
const preview = anEnvironment({ id: "e-pr-7", name: "staging-pr-7" });

const previewOf7: Preview = {
  id: "p-7",
  environmentId: "e-pr-7",
  environmentName: "staging-pr-7",
  source: { id: "e-staging", name: "staging" },
  pullRequest: {
    number: 7,
    title: "Make the header blue",
    author: "octocat",
    url: "https://github.example/acme/web/pull/7",
  },
  headSha: "c".repeat(40),
  state: "READY",
  message: null,
  url: "http://web.staging-pr-7.internal",
  lastActivityAt: "2026-03-02T09:00:00.000Z",
};

function renderTable(previews: Preview[]) {
  render(
    <MantineProvider theme={theme} env="test">
      <MemoryRouter>
        <EnvironmentsTable environments={[preview, production, staging]} targets={{}} previews={previews} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe("EnvironmentsTable", () => {
  it("groups a preview under its source with its pull request's number, title, author and link", () => {
    renderTable([previewOf7]);
    const rows = within(screen.getByRole("table", { name: "Environments" }))
      .getAllByRole("row")
      .slice(1);
    expect(rows.map((row) => row.querySelector("a")?.textContent)).toEqual([
      "production",
      "staging",
      "staging-pr-7",
    ]);
    const previewRow = rows[2];
    expect(previewRow?.textContent).toContain("Preview of staging");
    const link = within(previewRow as HTMLElement).getByRole("link", { name: "#7 Make the header blue" });
    expect(link.getAttribute("href")).toBe("https://github.example/acme/web/pull/7");
    expect(previewRow?.textContent).toContain("by octocat");
  });
});

describe("PreviewOf", () => {
  it("says what a preview environment previews, for which pull request, and where it answers", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <MemoryRouter>
          <PreviewOf preview={previewOf7} />
        </MemoryRouter>
      </MantineProvider>,
    );
    const line = screen.getByTestId("preview-of");
    expect(line.textContent).toBe(
      "Preview of staging for pull request #7 Make the header blue by octocat · http://web.staging-pr-7.internal",
    );
    expect(within(line).getByRole("link", { name: "staging" }).getAttribute("href")).toBe("/env/staging");
  });
});
