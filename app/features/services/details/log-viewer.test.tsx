// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import type { LogLine } from "#contract/services";
import { theme } from "~/theme";
import { LogViewer } from "./log-viewer";

afterEach(cleanup);

const linesOf = (count: number): LogLine[] =>
  Array.from({ length: count }, (_, index) => ({
    id: String(index),
    at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
    podName: "web-1-a",
    level: "info",
    message: `line ${index}`,
  }));

const viewer = (lines: LogLine[]) => (
  <MantineProvider theme={theme} env="test">
    <LogViewer lines={lines} label="Live logs" empty="No log lines yet." />
  </MantineProvider>
);

describe("LogViewer", () => {
  it("renders the lines in view of 100,000, not all of them", () => {
    render(viewer(linesOf(100_000)));
    const rendered = screen.getAllByTestId("log-line");
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(60);
    expect(rendered[0]?.textContent).toContain("line 0");
  });

  it("renders every line on the server, so the box scrolls through them without JavaScript", () => {
    const html = renderToString(viewer(linesOf(300)));
    expect(html.match(/data-testid="log-line"/g)).toHaveLength(300);
  });
});
