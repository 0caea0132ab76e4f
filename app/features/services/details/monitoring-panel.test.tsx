// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Alarm } from "#contract/services";
import { theme } from "~/theme";
import { AlarmList, MetricCharts } from "./monitoring-panel";

afterEach(cleanup);

const inMantine = (node: React.ReactNode) =>
  render(
    <MantineProvider theme={theme} env="test">
      {node}
    </MantineProvider>,
  );

describe("MetricCharts", () => {
  it("shows the series the service has, each saying 'No data yet' until it has a point", () => {
    inMantine(
      <MetricCharts
        range="1h"
        metrics={{ range: "1h", step: 60, series: [{ metric: "requests", unit: "req/min", points: [] }] }}
      />,
    );
    const charts = screen.getAllByRole("figure");
    expect(charts.map((chart) => chart.getAttribute("aria-label"))).toEqual(["Requests chart"]);
    expect(charts[0]?.textContent).toContain("No data yet");
  });

  it("says when the service's type publishes no metrics", () => {
    inMantine(<MetricCharts range="1h" metrics={{ range: "1h", step: 60, series: [] }} />);
    expect(screen.queryAllByRole("figure")).toEqual([]);
    expect(screen.getByText("This type of service publishes no metrics.")).toBeTruthy();
  });
});

describe("AlarmList", () => {
  it("shows an alarm without a datapoint as insufficient data, with no value", () => {
    const alarm: Alarm = {
      id: "a",
      name: "Error rate",
      metric: "errors",
      severity: "critical",
      state: "INSUFFICIENT_DATA",
      threshold: 5,
      value: null,
      since: "2033-01-01T00:00:00.000Z",
    };
    inMantine(<AlarmList alarms={{ kind: "ok", value: [alarm] }} />);
    const row = screen.getByRole("row", { name: /Error rate/ });
    expect(row.textContent).toContain("Insufficient data");
    expect(row.textContent).toContain("no data / 5");
    expect(row.textContent).not.toContain("OK");
  });
});
