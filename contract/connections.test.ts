import { describe, expect, it } from "vitest";
import { createConnectionSchema, updateConnectionSchema } from "./connections";

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);

describe("a connection's request", () => {
  it("reports a wrong name and wrong fields at once", () => {
    const result = createConnectionSchema.safeParse({
      kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      name: "",
      method: "api-key",
      fields: { DD_URL: "ftp://datadog" },
    });
    expect(issuesOf(result)).toEqual([
      ["name", "Name is a required field"],
      ["fields.DD_URL", "Value must be a valid URL."],
      ["fields.DD_API_KEY", "API key is a required field"],
    ]);
  });

  it("normalizes what it accepts: a trimmed name, account ids without dashes, defaults, URLs without a slash", () => {
    const result = createConnectionSchema.parse({
      kind: "AWS",
      name: "  production  ",
      method: "keys",
      fields: {
        ACCOUNT_ID: "1234-5678-9012",
        ACCESS_KEY_ID: "AKIAEXAMPLE0000000",
        SECRET_ACCESS_KEY: "s".repeat(40),
      },
    });
    expect(result).toMatchObject({
      name: "production",
      verify: true,
      fields: { ACCOUNT_ID: "123456789012", REGION: "us-east-1" },
    });
    const jira = createConnectionSchema.parse({
      kind: "TICKET_MANAGER_TYPE_JIRA",
      name: "Jira",
      method: "api-token",
      fields: {
        BASE_URL: "https://acme.atlassian.net/",
        USERNAME: "ops@acme.example",
        TOKEN: "t",
        PROJECT_KEY: "OPS",
      },
    });
    expect(jira.fields.BASE_URL).toBe("https://acme.atlassian.net");
  });

  it("lets an edit leave a secret empty, which a creation may not", () => {
    const body = {
      kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      name: "Datadog",
      method: "api-key",
      fields: { DD_URL: "https://api.datadoghq.eu" },
    };
    expect(updateConnectionSchema.safeParse(body).success).toBe(true);
    expect(issuesOf(createConnectionSchema.safeParse(body))).toEqual([
      ["fields.DD_API_KEY", "API key is a required field"],
    ]);
  });
});

describe("a container host's connection (issue 26)", () => {
  const hostOf = (DOCKER_HOST: string) =>
    createConnectionSchema.safeParse({
      kind: "CONTAINER_HOST",
      name: "This machine",
      method: "docker-host",
      fields: { DOCKER_HOST },
    });

  it("takes a unix socket's path, a tcp host or an https one, as DOCKER_HOST is written", () => {
    for (const value of [
      "unix:///run/podman/podman.sock",
      "unix:///var/run/docker.sock",
      "tcp://build-01.internal.example:2375",
      "tcp://10.0.0.5:2375",
      "https://docker.example.com:2376",
    ])
      expect(hostOf(value).success).toBe(true);
  });

  it("refuses a bare path, a relative socket, credentials in the URL and other schemes, saying what it takes", () => {
    const message =
      "Value must be a socket (unix:///var/run/docker.sock) or a host's URL (tcp://host:2375, https://host:2376).";
    for (const value of [
      "/var/run/docker.sock",
      "unix://docker.sock",
      "tcp://user:pass@host:2375",
      "ssh://host",
      "http://host:2375",
      "tcp://host:2375/path",
    ])
      expect(issuesOf(hostOf(value))).toEqual([["fields.DOCKER_HOST", message]]);
  });
});
