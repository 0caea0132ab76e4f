// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { theme } from "~/theme";
import { PreviewCosts } from "./preview-costs";

afterEach(cleanup);

const pr = (number: number, title: string, cost: number) => ({
  environmentId: `env-${number}`,
  environmentName: `pr-${number}`,
  number,
  title,
  url: `https://github.com/acme/web/pull/${number}`,
  sourceName: "staging",
  cost,
});

describe("what previews cost, on the cost overview", () => {
  it("says what all previews cost and their share, then each with its pull request and source", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <PreviewCosts
          previews={[pr(7, "Show prices with VAT", 25.2), pr(3, "A new footer", 9.6)]}
          total={400}
        />
      </MantineProvider>,
    );
    expect(screen.getByTestId("preview-costs-total").textContent).toBe(
      "2 pull requests' previews cost $34.80 in this window (8.7 % of the total).",
    );
    const rows = within(screen.getByRole("table", { name: "Preview environments" })).getAllByRole("row");
    expect(rows.map((row) => row.textContent)).toEqual([
      "Pull requestPreview ofEnvironmentCost",
      "#7 Show prices with VATstagingpr-7$25.20",
      "#3 A new footerstagingpr-3$9.60",
    ]);
    expect(screen.getByRole("link", { name: "#7 Show prices with VAT" }).getAttribute("href")).toBe(
      "https://github.com/acme/web/pull/7",
    );
  });

  it("shows nothing when no preview ran in the window", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <PreviewCosts previews={[]} total={400} />
      </MantineProvider>,
    );
    expect(screen.queryByRole("region", { name: "Preview environments" })).toBeNull();
    expect(screen.queryByRole("table")).toBeNull();
  });
});
