import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAwsClients } from "../cloud/aws/clients";
import { dynamoDbScanner } from "./services/dynamodb";

/** A DynamoDB endpoint that throttles the first `throttled` calls, then answers an empty table list. */
let server: Server;
let endpoint: string;
let throttled = 0;
const arrivals: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      arrivals.push(Date.now());
      response.setHeader("Content-Type", "application/x-amz-json-1.0");
      if (throttled > 0) {
        throttled -= 1;
        response.statusCode = 400;
        response.end(
          JSON.stringify({
            __type: "com.amazonaws.dynamodb.v20120810#ThrottlingException",
            message: "Rate exceeded",
          }),
        );
        return;
      }
      response.end(JSON.stringify({ TableNames: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a throttled AWS call", () => {
  it("is retried with backoff until it succeeds", async () => {
    throttled = 3;
    arrivals.length = 0;
    const clients = createAwsClients({
      region: "us-east-1",
      endpoint,
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    });
    try {
      await expect(dynamoDbScanner.read(clients)).resolves.toEqual({ tables: [] });
    } finally {
      clients.destroy();
    }
    expect(arrivals).toHaveLength(4);
  });

  it("fails once every attempt was throttled", async () => {
    throttled = 100;
    arrivals.length = 0;
    const clients = createAwsClients({
      region: "us-east-1",
      endpoint,
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
      maxAttempts: 3,
    });
    try {
      await expect(dynamoDbScanner.read(clients)).rejects.toMatchObject({ name: "ThrottlingException" });
    } finally {
      clients.destroy();
    }
    expect(arrivals).toHaveLength(3);
  });
});
