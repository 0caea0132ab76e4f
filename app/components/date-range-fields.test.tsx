// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"handleDisabledFileLoadingAsSuccess":true}}
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { theme } from "~/theme";
import { DateRangeFields } from "./date-range-fields";
import { DateRangeFields as LazyDateRangeFields } from "./lazy-date-range-fields";
import { toIsoDateTime, toPickerValue } from "./utc-date-time";

// The pickers' style sheet, as the build names it; the document "loads" it without a network (see the options above).
vi.mock("@mantine/dates/styles.css?url", () => ({ default: "/build/assets/dates.css" }));

// A browser far from UTC: the range must still show and send UTC.
const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "America/New_York";
});
afterAll(() => {
  process.env.TZ = zoneBefore;
});
afterEach(cleanup);

function renderInForm(fields: ReactNode) {
  const { container } = render(
    <MantineProvider theme={theme} env="test">
      <form>{fields}</form>
    </MantineProvider>,
  );
  const form = container.querySelector("form");
  if (!form) throw new Error("no form rendered");
  return () => Object.fromEntries(new FormData(form));
}

describe("DateRangeFields", () => {
  it("shows and sends a range to the second in UTC, whether the query held ISO or a picker's value", () => {
    expect(new Date("2025-01-31T08:30:05Z").getHours()).not.toBe(8);
    const sent = renderInForm(
      <DateRangeFields
        from="2025-01-31T08:30:05.000Z"
        to="2025-02-01 23:15"
        errors={{}}
        precision="second"
      />,
    );
    expect(sent()).toEqual({ from: "2025-01-31 08:30:05", to: "2025-02-01 23:15:00" });
    expect(screen.getByLabelText("From (UTC)")).toBeTruthy();
    expect(screen.getByLabelText("To (UTC)")).toBeTruthy();
  });

  it("keeps whole days as they are, and leaves an empty end empty", () => {
    const sent = renderInForm(<DateRangeFields from="2025-01-01" to="" errors={{}} precision="day" />);
    expect(sent()).toEqual({ from: "2025-01-01", to: "" });
  });

  it("names its ends as asked, with (UTC), and shows each end's first error", () => {
    renderInForm(
      <DateRangeFields
        from="yesterday"
        to=""
        errors={{ from: ["Start must be a date and time (ISO 8601)", "second"] }}
        precision="second"
        labels={{ from: "Start", to: "End" }}
      />,
    );
    expect(screen.getByLabelText("Start (UTC)")).toBeTruthy();
    expect(screen.getByLabelText("End (UTC)")).toBeTruthy();
    expect(screen.getByText("Start must be a date and time (ISO 8601)")).toBeTruthy();
    expect(screen.queryByText("second")).toBeNull();
  });

  it("loads lazily with the same fields", async () => {
    const sent = renderInForm(
      <LazyDateRangeFields from="2025-01-31T08:30:05Z" to="" errors={{}} precision="second" />,
    );
    expect(await screen.findByLabelText("From (UTC)")).toBeTruthy();
    expect(sent()).toEqual({ from: "2025-01-31 08:30:05", to: "" });
    expect(document.head.querySelector('link[href="/build/assets/dates.css"]')).not.toBeNull();
  });
});

describe("UTC picker values", () => {
  it("converts between picker values and ISO", () => {
    expect(toIsoDateTime("2025-01-31 08:30")).toBe("2025-01-31T08:30:00Z");
    expect(toPickerValue("2025-01-31T08:30:05.000Z")).toBe("2025-01-31 08:30:05");
    expect(toPickerValue("nonsense")).toBe("");
  });
});
