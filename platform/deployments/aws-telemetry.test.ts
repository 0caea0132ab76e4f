import { CloudWatchLogsServiceException } from "@aws-sdk/client-cloudwatch-logs";
import { describe, expect, it } from "vitest";
import { ProviderRefusal } from "../connections/refusals";
import { TelemetryUnavailable } from "./telemetry";
import { telemetryFailure } from "./aws-telemetry";

describe("telemetryFailure", () => {
  it("words CloudWatch's refusal with AWS's code and message", () => {
    const refusal = new CloudWatchLogsServiceException({
      name: "AccessDeniedException",
      $fault: "client",
      $metadata: { httpStatusCode: 400 },
      message: "User is not authorized to perform: logs:FilterLogEvents",
    });
    const failure = telemetryFailure("CloudWatch Logs", refusal);
    expect(failure).toBeInstanceOf(TelemetryUnavailable);
    expect(failure.message).toBe(
      "CloudWatch Logs answered AccessDeniedException: User is not authorized to perform: logs:FilterLogEvents",
    );
  });

  it("says when CloudWatch could not be reached, and passes the connection's refusal on as it is", () => {
    const unreachable = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
      $metadata: { attempts: 2 },
    });
    expect(telemetryFailure("CloudWatch", unreachable).message).toBe(
      "Could not reach CloudWatch: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1",
    );
    const refused = new ProviderRefusal("These access keys belong to AWS account 1, not 2.");
    expect(telemetryFailure("CloudWatch", refused)).toMatchObject({
      name: "TelemetryUnavailable",
      message: refused.message,
    });
  });
});
