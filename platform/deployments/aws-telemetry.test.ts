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

  it("says in words when CloudWatch did not answer and what shows once it does, with the code for support", () => {
    // As Node's socket reports it, with the SDK's $metadata added.
    const unreachable = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
      syscall: "connect",
      address: "127.0.0.1",
      port: 1,
      $metadata: { attempts: 2 },
    });
    expect(telemetryFailure("CloudWatch", unreachable).message).toBe(
      "AWS CloudWatch could not be reached at 127.0.0.1:1 (the connection was refused); the metrics show " +
        "once it answers. Code for support: ECONNREFUSED",
    );
    expect(telemetryFailure("CloudWatch Logs", unreachable).message).toBe(
      "AWS CloudWatch Logs could not be reached at 127.0.0.1:1 (the connection was refused); new log lines " +
        "show once it answers. Code for support: ECONNREFUSED",
    );
    const slow = Object.assign(new Error("Connection timed out after 5000 ms"), {
      name: "TimeoutError",
      $metadata: { attempts: 2 },
    });
    expect(telemetryFailure("CloudWatch", slow).message).toBe(
      "AWS CloudWatch could not be reached (it did not answer in time); the metrics show once it answers. " +
        "Code for support: TimeoutError",
    );
  });

  it("passes the connection's refusal on as it is", () => {
    const refused = new ProviderRefusal("These access keys belong to AWS account 1, not 2.");
    expect(telemetryFailure("CloudWatch", refused)).toMatchObject({
      name: "TelemetryUnavailable",
      message: refused.message,
    });
  });
});
