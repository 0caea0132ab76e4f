// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceType } from "#contract/service-catalogue";
import type { Stage } from "#contract/stages";
import { theme } from "~/theme";
import { EndpointText, FailureNotice, ProgressNotice } from "./service-status";

afterEach(cleanup);

const inMantine = (node: React.ReactNode) =>
  render(
    <MantineProvider theme={theme} env="test">
      {node}
    </MantineProvider>,
  );

describe("FailureNotice", () => {
  it("says a drift is a change made outside the console, with what changed", () => {
    inMantine(
      <FailureNotice
        service={{
          stage: "STAGE_FAILED",
          message: "The SQS queue env-orders no longer exists. Relaunch the service to recreate it.",
          driftedAt: "2033-01-01T00:01:00.000Z",
        }}
      />,
    );
    const notice = screen.getByTestId("service-failure");
    expect(notice.textContent).toContain("Changed outside the console");
    expect(notice.textContent).toContain("The SQS queue env-orders no longer exists.");
    expect(notice.textContent).not.toContain("Deployment failed");
  });

  it("says a failed deployment failed", () => {
    inMantine(
      <FailureNotice service={{ stage: "STAGE_FAILED", message: "AccessDenied: no", driftedAt: null }} />,
    );
    expect(screen.getByTestId("service-failure").textContent).toContain("Deployment failed");
  });

  it("shows nothing for a deployed service", () => {
    inMantine(<FailureNotice service={{ stage: "STAGE_COMPLETED", message: null, driftedAt: null }} />);
    expect(screen.queryByTestId("service-failure")).toBeNull();
  });
});

describe("EndpointText", () => {
  const endpointOf = (serviceType: ServiceType, stage: Stage, endpoint: string | null) => {
    inMantine(<EndpointText service={{ serviceType, stage, endpoint }} />);
    const text = screen.getByTestId("endpoint-text").textContent;
    cleanup();
    return text;
  };

  it("says a network or a certificate has no endpoint, rather than that it is not deployed", () => {
    expect(endpointOf("network", "STAGE_COMPLETED", null)).toBe("none (a network has no endpoint)");
    expect(endpointOf("tls", "STAGE_COMPLETED", null)).toBe("none (a TLS certificate has no endpoint)");
  });

  it("shows the endpoint, or that there is none yet", () => {
    expect(endpointOf("queue", "STAGE_COMPLETED", "https://sqs/orders")).toBe("https://sqs/orders");
    expect(endpointOf("queue", "STAGE_IN_PROGRESS", null)).toBe("not deployed yet");
  });
});

describe("ProgressNotice", () => {
  const waiting = {
    step: "Waiting for the DB instance orders-db to become available",
    since: "2033-01-01T09:41:00.000Z",
  };

  it("says what the running step waits for, since when and for how long", () => {
    inMantine(
      <ProgressNotice
        service={{ stage: "STAGE_IN_PROGRESS", progress: waiting }}
        now="2033-01-01T09:45:30.000Z"
      />,
    );
    expect(screen.getByTestId("service-progress").textContent).toBe(
      "Waiting for the DB instance orders-db to become available · since 09:41 UTC (4 min 30 s)",
    );
  });

  it("shows nothing once the service is no longer busy, or before a step says what it waits for", () => {
    inMantine(
      <ProgressNotice
        service={{ stage: "STAGE_COMPLETED", progress: waiting }}
        now="2033-01-01T09:45:30.000Z"
      />,
    );
    inMantine(
      <ProgressNotice service={{ stage: "STAGE_QUEUED", progress: null }} now="2033-01-01T09:45:30.000Z" />,
    );
    expect(screen.queryByTestId("service-progress")).toBeNull();
  });
});
