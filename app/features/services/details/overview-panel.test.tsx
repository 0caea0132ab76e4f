// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceType } from "#contract/service-catalogue";
import type { ServiceUnits } from "#contract/services";
import { theme } from "~/theme";
import { UnitsSection } from "./overview-panel";

afterEach(cleanup);

const shown = (serviceType: ServiceType, units: ServiceUnits) =>
  render(
    <MantineProvider theme={theme} env="test">
      <UnitsSection serviceType={serviceType} units={{ kind: "ok", value: units }} />
    </MantineProvider>,
  );

describe("UnitsSection", () => {
  it("names each type's units as its cloud does: tasks, instances, nodes", () => {
    const running = { simulated: false, units: [{ name: "0f1e2d3c4b5a", status: "RUNNING" }] };
    const headingOf = (serviceType: ServiceType) => {
      shown(serviceType, running);
      const heading = screen.getByRole("heading").textContent;
      cleanup();
      return heading;
    };
    expect(headingOf("application")).toBe("Tasks");
    expect(headingOf("database")).toBe("Instances");
    expect(headingOf("cache")).toBe("Nodes");
    expect(headingOf("kubernetes")).toBe("Nodes");
  });

  it("lists the units with the cloud's status, and says when the simulated cloud made them up", () => {
    shown("database", { simulated: true, units: [{ name: "orders-db-0", status: "Running" }] });
    expect(screen.getByRole("heading").textContent).toBe("Instances (simulated)");
    const table = screen.getByRole("table", { name: "Instances" });
    expect(table.textContent).toContain("orders-db-0");
    expect(table.textContent).toContain("Running");
  });

  it("shows no units, and no pods, for a type that runs none", () => {
    for (const serviceType of [
      "queue",
      "file-storage",
      "nosql-database",
      "serverless",
      "tls",
      "network",
    ] as const) {
      shown(serviceType, { simulated: false, units: [] });
      expect(screen.queryByRole("heading")).toBeNull();
      expect(screen.queryByRole("table")).toBeNull();
      expect(document.body.textContent).not.toMatch(/pod/i);
      cleanup();
    }
  });

  it("says when none run, and what the cloud said when it could not be asked", () => {
    shown("application", { simulated: false, units: [] });
    expect(screen.getByText("No tasks run now.")).toBeTruthy();
    cleanup();
    render(
      <MantineProvider theme={theme} env="test">
        <UnitsSection
          serviceType="application"
          units={{ kind: "error", message: "AWS could not be reached." }}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole("alert").textContent).toContain("AWS could not be reached.");
  });
});
