import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DescribeVpcsCommand, EC2Client } from "@aws-sdk/client-ec2";
import { describe, expect, it } from "vitest";
import { refusalAsStepError } from "../../connections/aws-accounts";
import { ProviderRefusal } from "../../connections/refusals";
import { CloudStepError } from "../driver";
import { resourceOf } from "../../testing/aws";
import { cloudStepErrorOf, createAwsDriver, isTransientAwsError, scaledWaitMs } from "./driver";
import type { Provisioner } from "./provisioner";
import { failingAs, ProvisionError } from "./common";

/** An error as the AWS SDK throws it: AWS's code as its name, the answer's status in $metadata. */
const sdkError = (name: string, message: string, status?: number) =>
  Object.assign(new Error(message), {
    name,
    $fault: status === undefined ? undefined : status >= 500 ? "server" : "client",
    $metadata: status === undefined ? { attempts: 3 } : { httpStatusCode: status },
  });

describe("AWS failures of a deployment step", () => {
  it("tries again after throttling, AWS's own faults and no answer; never after a refusal or a bug", () => {
    expect(isTransientAwsError(sdkError("ThrottlingException", "Rate exceeded", 400))).toBe(true);
    expect(isTransientAwsError(sdkError("RequestLimitExceeded", "Request limit exceeded.", 503))).toBe(true);
    expect(isTransientAwsError(sdkError("InternalFailure", "An internal error occurred", 500))).toBe(true);
    expect(isTransientAwsError(sdkError("TimeoutError", "socket hang up"))).toBe(true);
    expect(
      isTransientAwsError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isTransientAwsError(sdkError("AccessDenied", "User is not authorized", 403))).toBe(false);
    expect(isTransientAwsError(sdkError("InvalidParameterValue", "Bad CIDR", 400))).toBe(false);
    expect(isTransientAwsError(new TypeError("Cannot read properties of undefined"))).toBe(false);
  });

  it("reads as AWS put it: the SDK error's name and message, or the provisioner's words with AWS's code", () => {
    const refused = cloudStepErrorOf(
      sdkError("DBInstanceAlreadyExists", "DB instance already exists", 400),
      [],
    );
    expect(refused).toBeInstanceOf(CloudStepError);
    expect(refused).toMatchObject({
      message: "DBInstanceAlreadyExists: DB instance already exists",
      transient: false,
    });

    const throttled = sdkError("Throttling", "Rate exceeded", 400);
    const worded = new ProvisionError(
      "Creating the queue failed: AWS answered Throttling: Rate exceeded",
      "Throttling",
      "Creating the queue",
      { cause: throttled },
    );
    expect(cloudStepErrorOf(worded, [])).toMatchObject({
      message: "Creating the queue failed: AWS answered Throttling: Rate exceeded",
      transient: true,
    });
    expect(
      cloudStepErrorOf(
        new Error("The environment's network is not deployed: deploy it before this service"),
        [],
      ),
    ).toMatchObject({
      message: "The environment's network is not deployed: deploy it before this service",
      transient: false,
    });
    const own = new ProvisionError("The bucket name is held by another account", "BucketAlreadyExists");
    expect(cloudStepErrorOf(own, [])).toMatchObject({ transient: false });

    const lines = [
      { at: new Date(0), podName: "web-1", level: "info" as const, message: "Created the role" },
    ];
    expect(
      cloudStepErrorOf(
        new ProviderRefusal("AWS did not let Cloud Console assume the role."),
        lines,
        refusalAsStepError,
      ),
    ).toMatchObject({ message: "AWS did not let Cloud Console assume the role.", transient: false, lines });
    expect(
      cloudStepErrorOf(
        new ProviderRefusal("Could not reach sts.us-east-1.amazonaws.com: the connection was reset."),
        [],
        refusalAsStepError,
      ).transient,
    ).toBe(true);
  });
});

describe("AWS failures in words, with the code kept for support", () => {
  /** A real EC2 call against `endpoint`, failed inside a provisioner's step as a deployment would see it. */
  async function failedStep(endpoint: string): Promise<CloudStepError> {
    const ec2 = new EC2Client({
      region: "eu-west-1",
      endpoint,
      maxAttempts: 1,
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret" },
    });
    try {
      await failingAs("Creating the VPC", () => ec2.send(new DescribeVpcsCommand({})));
      throw new Error("the call succeeded");
    } catch (error) {
      return cloudStepErrorOf(error, []);
    } finally {
      ec2.destroy();
    }
  }

  it("says AWS could not be reached, not 'connect ECONNREFUSED …'", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const failed = await failedStep(`http://127.0.0.1:${port}`);
    // The address in words and the code for support, without the socket's raw message repeating both.
    expect(failed.message).toBe(
      `Creating the VPC failed: AWS could not be reached at 127.0.0.1:${port} (the connection was refused). ` +
        "Code for support: ECONNREFUSED",
    );
    expect(failed.transient).toBe(true);
  });

  it("says an answer that is not AWS's could not be read, not the SDK's XML parse error", async () => {
    const proxy = createServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html><body>Bad gateway<br></body>");
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      const failed = await failedStep(`http://127.0.0.1:${port}`);
      expect(failed.message).toMatch(
        /^Creating the VPC failed: the answer \(HTTP 502\) was not AWS's: something between the platform and AWS \(a proxy, a wrong endpoint\) answered instead\. Code for support: @aws-sdk XML parse error/,
      );
      expect(failed.message).not.toContain("Deserialization error");
      expect(failed.transient).toBe(true);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe("a deployment step's log lines", () => {
  it("say what the step waits for before what it did, so 'Creating' comes before 'Created'", async () => {
    const queue: Provisioner = {
      secretAttributeNames: () => [],
      async apply(context) {
        context.log("info", "Created SQS queue env-orders");
        return { done: false, state: {}, waitMs: 1_000, progress: "Creating the queue" };
      },
      destroy: () => Promise.resolve({ done: true }),
      plan: () => ({ inPlace: [], replace: [] }),
      observe: () => Promise.resolve({ state: "ok" }),
    };
    const driver = createAwsDriver({ provisioners: { queue } }).forAccount({
      key: "account",
      confirm: (region) => Promise.resolve({ region, endpoint: "http://127.0.0.1:1" }),
    });
    const step = await driver.apply({
      resource: resourceOf("queue"),
      organizationId: "org",
      environmentId: "env",
      state: {},
      network: null,
      step: 0,
      progress: null,
      change: "deploy",
      podNames: ["orders-1"],
      secretsSealed: false,
      now: new Date("2033-01-01T00:00:00.000Z"),
    });
    const inTimeOrder = [...step.lines].sort((a, b) => a.at.getTime() - b.at.getTime());
    expect(inTimeOrder.map((line) => line.message)).toEqual([
      "Creating the queue",
      "Created SQS queue env-orders",
    ]);
    expect(step.lines).toEqual(inTimeOrder);
  });
});

describe("the provisioners' waits at the engine's time scale", () => {
  it("keeps AWS's pace at 1 and shortens every wait below it, never under a quarter second", () => {
    expect(scaledWaitMs(60_000, 1)).toBe(60_000);
    expect(scaledWaitMs(61_000, 1)).toBe(61_000);
    expect(scaledWaitMs(30_000, 0.2)).toBe(6_000);
    expect(scaledWaitMs(60_000, 0.1)).toBe(6_000);
    expect(scaledWaitMs(15_000, 0)).toBe(250);
    expect(scaledWaitMs(0, 0.2)).toBe(0);
    expect(scaledWaitMs(100, 0)).toBe(100);
  });
});

describe("an application's one-off commands on AWS", () => {
  it("says in the deployment's logs, once, that its pre-deploy and seed commands are not run on AWS yet", async () => {
    const application: Provisioner = {
      secretAttributeNames: () => [],
      async apply(context) {
        context.log("info", "Registered task definition web:2");
        return { done: false, state: {}, waitMs: 1_000, progress: "Starting the tasks" };
      },
      destroy: () => Promise.resolve({ done: true }),
      plan: () => ({ inPlace: [], replace: [] }),
      observe: () => Promise.resolve({ state: "ok" }),
    };
    const driver = createAwsDriver({ provisioners: { application } }).forAccount({
      key: "account",
      confirm: (region) => Promise.resolve({ region, endpoint: "http://127.0.0.1:1" }),
    });
    const context = {
      resource: resourceOf("application", { preDeployCommand: "npm run migrate" }),
      organizationId: "org",
      environmentId: "env",
      state: {},
      network: null,
      step: 0,
      progress: null,
      change: "deploy" as const,
      podNames: ["web-1"],
      secretsSealed: false,
      seedCommand: "npm run seed",
      now: new Date("2033-01-01T00:00:00.000Z"),
    };
    const first = await driver.apply(context);
    expect(first.lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      'The pre-deploy command (sh -c "npm run migrate") is not run on AWS yet: run it yourself against this ' +
        "environment before the new version serves (container hosts run it).",
      'The seed command (sh -c "npm run seed") is not run on AWS yet: run it yourself against this ' +
        "environment before the new version serves (container hosts run it).",
    ]);
    const next = await driver.apply({ ...context, step: 1, progress: "Starting the tasks" });
    expect(next.lines.filter((line) => line.level === "warn")).toEqual([]);
  });
});
