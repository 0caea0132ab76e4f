import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SECRET_MASK,
  environmentErrorMessages,
  environmentPaths,
  environmentVariableListSchema,
  referencedServicesSchema,
  type EnvironmentVariable,
} from "#contract/environments";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import { environmentVariables } from "../db/schema";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

type Scene = TestMember & { environmentId: string; path: string };

async function scene(role: "admin" | "developer" | "read-only" = "developer"): Promise<Scene> {
  const member = await api.createMember({ role });
  const environment = await api.createEnvironment(member.organization.tenantId);
  return {
    ...member,
    environmentId: environment.id,
    path: environmentPaths.variables(member.organization.tenantId, environment.id),
  };
}

function send(member: TestMember, method: string, path: string, json?: unknown) {
  return api.call(method, path, { token: member.user.token, json });
}

async function list(s: Scene, reveal?: string): Promise<EnvironmentVariable[]> {
  const response = await send(
    s,
    "GET",
    environmentPaths.variables(s.organization.tenantId, s.environmentId, { reveal }),
  );
  expect(response.status).toBe(200);
  return environmentVariableListSchema.parse(await response.json()).envVariables;
}

async function create(s: Scene, envVariables: { name: string; value: string; secret?: boolean }[]) {
  const response = await send(s, "POST", s.path, { envVariables });
  expect(response.status).toBe(201);
  return environmentVariableListSchema.parse(await response.json()).envVariables;
}

async function rawRows(environmentId: string) {
  return api.db
    .select()
    .from(environmentVariables)
    .where(eq(environmentVariables.environmentId, environmentId));
}

describe("POST and GET environment-variables", () => {
  it("creates variables, lists them by name with secrets masked, and reveals one secret on request", async () => {
    const s = await scene();
    const created = await create(s, [
      { name: "TOKEN", value: "s3cr3t-token", secret: true },
      { name: "DEBUG", value: "true" },
      { name: "API_KEY", value: "key-123", secret: true },
    ]);
    expect(created.map(({ name, value, secret }) => ({ name, value, secret }))).toEqual([
      { name: "TOKEN", value: SECRET_MASK, secret: true },
      { name: "DEBUG", value: "true", secret: false },
      { name: "API_KEY", value: SECRET_MASK, secret: true },
    ]);

    const listed = await list(s);
    expect(listed.map(({ name, value }) => [name, value])).toEqual([
      ["API_KEY", SECRET_MASK],
      ["DEBUG", "true"],
      ["TOKEN", SECRET_MASK],
    ]);

    const token = listed.find((variable) => variable.name === "TOKEN");
    const revealed = await list(s, token?.id);
    expect(revealed.map(({ name, value }) => [name, value])).toEqual([
      ["API_KEY", SECRET_MASK],
      ["DEBUG", "true"],
      ["TOKEN", "s3cr3t-token"],
    ]);
  });

  it("lets a read-only member list, but neither reveal nor write", async () => {
    const s = await scene("admin");
    const [secret] = await create(s, [{ name: "PASSWORD", value: "pw", secret: true }]);
    const reader = await api.createUser();
    await api.addMember(reader.id, s.organization.organizationId, "read-only");
    const readerScene = { ...s, user: reader };
    expect((await list(readerScene)).map((variable) => variable.value)).not.toContain("pw");
    const reveal = await send(
      readerScene,
      "GET",
      environmentPaths.variables(s.organization.tenantId, s.environmentId, { reveal: secret?.id }),
    );
    expect(reveal.status).toBe(403);
    expect(JSON.stringify(await reveal.json())).not.toContain("pw");
    expect(
      (await send(readerScene, "POST", s.path, { envVariables: [{ name: "X", value: "1" }] })).status,
    ).toBe(403);
  });

  it("answers 400 to a reveal that is not an id and 404 to one that is not a variable of the environment", async () => {
    const s = await scene();
    const other = await scene();
    const [foreign] = await create(other, [{ name: "FOREIGN", value: "x", secret: true }]);
    const tenantId = s.organization.tenantId;

    const malformed = await send(
      s,
      "GET",
      environmentPaths.variables(tenantId, s.environmentId, { reveal: "x" }),
    );
    expect(malformed.status).toBe(400);
    expect(apiErrorSchema.parse(await malformed.json()).fieldErrors).toHaveProperty(["reveal"]);

    const response = await send(
      s,
      "GET",
      environmentPaths.variables(tenantId, s.environmentId, { reveal: foreign?.id }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      message: environmentErrorMessages.variableNotFound,
      code: apiErrorCodes.notFound,
    });
  });

  it("answers 409 with a field error per clashing name and creates none of the batch", async () => {
    const s = await scene();
    await create(s, [{ name: "EXISTING", value: "1" }]);
    const response = await send(s, "POST", s.path, {
      envVariables: [
        { name: "NEW_ONE", value: "2" },
        { name: "EXISTING", value: "3" },
      ],
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      message: environmentErrorMessages.variableNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { "envVariables.1.name": [environmentErrorMessages.variableNameTaken] },
    });
    expect((await list(s)).map((variable) => [variable.name, variable.value])).toEqual([["EXISTING", "1"]]);
  });

  it("allows the same name in another environment", async () => {
    const s = await scene();
    const other = await api.createEnvironment(s.organization.tenantId);
    await create(s, [{ name: "SHARED", value: "1" }]);
    const response = await send(s, "POST", environmentPaths.variables(s.organization.tenantId, other.id), {
      envVariables: [{ name: "SHARED", value: "2" }],
    });
    expect(response.status).toBe(201);
  });

  it.each([
    [
      "a name repeated in the batch",
      [
        { name: "A", value: "1" },
        { name: "A", value: "2" },
      ],
      "envVariables.1.name",
    ],
    ["a name starting with a digit", [{ name: "1A", value: "1" }], "envVariables.0.name"],
    ["a name with a hyphen", [{ name: "MY-VAR", value: "1" }], "envVariables.0.name"],
    ["an empty name", [{ name: "", value: "1" }], "envVariables.0.name"],
    ["a missing value", [{ name: "A" }], "envVariables.0.value"],
    ["a value over 32768 characters", [{ name: "A", value: "x".repeat(32_769) }], "envVariables.0.value"],
    ["no variables", [], "envVariables"],
  ])("answers 400 to %s and creates nothing", async (_case, envVariables, field) => {
    const s = await scene();
    const response = await send(s, "POST", s.path, { envVariables });
    expect(response.status).toBe(400);
    const error = apiErrorSchema.parse(await response.json());
    expect(error.code).toBe(apiErrorCodes.validationFailed);
    expect(error.fieldErrors).toHaveProperty([field]);
    expect(await rawRows(s.environmentId)).toEqual([]);
  });

  it("answers 404 for another tenant's environment and creates nothing there", async () => {
    const s = await scene();
    const other = await scene();
    const response = await send(
      s,
      "POST",
      environmentPaths.variables(s.organization.tenantId, other.environmentId),
      { envVariables: [{ name: "A", value: "1" }] },
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      message: apiErrorMessages.environmentNotFound,
      code: apiErrorCodes.notFound,
    });
    expect(await rawRows(other.environmentId)).toEqual([]);
  });
});

describe("secrets at rest", () => {
  it("never stores a secret's plaintext: only an AES-256-GCM sealed value bound to its row", async () => {
    const s = await scene();
    const plaintext = "correct horse battery staple";
    const [secret] = await create(s, [
      { name: "DB_PASSWORD", value: plaintext, secret: true },
      { name: "PLAIN", value: "visible" },
    ]);

    // Plain SQL, past the schema and the API: what the database itself holds. Both drivers answer `{ rows }`.
    const result = (await api.db.execute(
      sql`select name, value, encrypted_value from environment_variables where environment_id = ${s.environmentId} order by name collate "C"`,
    )) as unknown as { rows: { name: string; value: string | null; encrypted_value: string | null }[] };
    const raw = result.rows;
    expect(raw).toEqual([
      { name: "DB_PASSWORD", value: null, encrypted_value: expect.stringMatching(/^v1\.[0-9a-f]{8}\./) },
      { name: "PLAIN", value: "visible", encrypted_value: null },
    ]);
    const stored = raw[0]?.encrypted_value ?? "";
    expect(stored).not.toContain(plaintext);
    expect(stored).not.toContain(Buffer.from(plaintext).toString("base64url").slice(0, 12));
    expect(stored).not.toContain(Buffer.from(plaintext).toString("base64").slice(0, 12));
    expect(JSON.stringify(await rawRows(s.environmentId))).not.toContain(plaintext);

    // Bound to its row: the ciphertext does not open in another variable's context.
    expect(() =>
      api.secrets.decrypt(
        stored,
        `environment-variable:${s.environmentId}:00000000-0000-4000-8000-000000000000`,
      ),
    ).toThrow();
    expect(api.secrets.decrypt(stored, `environment-variable:${s.environmentId}:${secret?.id}`)).toBe(
      plaintext,
    );
  });

  it("seals the same value differently each time", async () => {
    const s = await scene();
    await create(s, [
      { name: "ONE", value: "same", secret: true },
      { name: "TWO", value: "same", secret: true },
    ]);
    const [one, two] = await rawRows(s.environmentId);
    expect(one?.encryptedValue).not.toEqual(two?.encryptedValue);
  });

  it("is refused by the database when a secret carries a plaintext value", async () => {
    const s = await scene();
    await expect(
      api.db.insert(environmentVariables).values({
        id: "00000000-0000-4000-8000-000000000001",
        environmentId: s.environmentId,
        name: "LEAK",
        secret: true,
        value: "plaintext",
        encryptedValue: null,
      }),
    ).rejects.toThrow();
  });
});

describe("PUT environment-variables", () => {
  it("renames, revalues and turns variables secret or plain, all in one batch", async () => {
    const s = await scene();
    const [a, b, c] = await create(s, [
      { name: "A", value: "1" },
      { name: "B", value: "two", secret: true },
      { name: "C", value: "3" },
    ]);
    const response = await send(s, "PUT", s.path, {
      envVariables: [
        { id: a?.id, name: "A_RENAMED", value: "one" },
        { id: b?.id, secret: false },
        { id: c?.id, secret: true },
      ],
    });
    expect(response.status).toBe(200);
    const { envVariables } = environmentVariableListSchema.parse(await response.json());
    expect(envVariables.map(({ name, value, secret }) => [name, value, secret])).toEqual([
      ["A_RENAMED", "one", false],
      ["B", "two", false],
      ["C", SECRET_MASK, true],
    ]);
    const rows = await rawRows(s.environmentId);
    const rowC = rows.find((row) => row.name === "C");
    expect(rowC).toMatchObject({ value: null, secret: true });
    expect(rowC?.encryptedValue).toBeTruthy();
    expect((await list(s, c?.id)).find((variable) => variable.name === "C")?.value).toBe("3");
  });

  it("keeps a secret's value when the mask is sent back, and replaces it when a new value is", async () => {
    const s = await scene();
    const [secret] = await create(s, [{ name: "KEY", value: "original", secret: true }]);
    const before = (await rawRows(s.environmentId))[0]?.encryptedValue;

    expect(
      (await send(s, "PUT", s.path, { envVariables: [{ id: secret?.id, value: SECRET_MASK }] })).status,
    ).toBe(200);
    expect((await rawRows(s.environmentId))[0]?.encryptedValue).toBe(before);
    expect((await list(s, secret?.id))[0]?.value).toBe("original");

    await send(s, "PUT", s.path, { envVariables: [{ id: secret?.id, value: "rotated" }] });
    expect((await list(s, secret?.id))[0]?.value).toBe("rotated");
  });

  it("swaps two names in one batch", async () => {
    const s = await scene();
    const [first, second] = await create(s, [
      { name: "FIRST", value: "1" },
      { name: "SECOND", value: "2" },
    ]);
    const response = await send(s, "PUT", s.path, {
      envVariables: [
        { id: first?.id, name: "SECOND" },
        { id: second?.id, name: "FIRST" },
      ],
    });
    expect(response.status).toBe(200);
    expect((await list(s)).map((variable) => [variable.name, variable.value])).toEqual([
      ["FIRST", "2"],
      ["SECOND", "1"],
    ]);
  });

  it("answers 409 when a rename takes an existing name, and changes nothing of the batch", async () => {
    const s = await scene();
    const [a, b] = await create(s, [
      { name: "A", value: "1" },
      { name: "B", value: "2" },
    ]);
    const response = await send(s, "PUT", s.path, {
      envVariables: [
        { id: b?.id, value: "changed" },
        { id: a?.id, name: "B" },
      ],
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      message: environmentErrorMessages.variableNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { "envVariables.1.name": [environmentErrorMessages.variableNameTaken] },
    });
    expect((await list(s)).map((variable) => [variable.name, variable.value])).toEqual([
      ["A", "1"],
      ["B", "2"],
    ]);
  });

  it("answers 404 naming each unknown id (another environment's, or malformed), and changes nothing", async () => {
    const s = await scene();
    const other = await scene();
    const [own] = await create(s, [{ name: "OWN", value: "1" }]);
    const [foreign] = await create(other, [{ name: "FOREIGN", value: "1" }]);
    const response = await send(s, "PUT", s.path, {
      envVariables: [
        { id: own?.id, value: "changed" },
        { id: foreign?.id, value: "stolen" },
        { id: "not-a-uuid", value: "x" },
      ],
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      message: environmentErrorMessages.variableNotFound,
      code: apiErrorCodes.notFound,
      fieldErrors: {
        "envVariables.1.id": [environmentErrorMessages.variableNotFound],
        "envVariables.2.id": [environmentErrorMessages.variableNotFound],
      },
    });
    expect((await list(s))[0]?.value).toBe("1");
    expect((await list(other))[0]?.value).toBe("1");
  });

  it.each([
    ["a repeated id", (id: string) => [{ id }, { id }], "envVariables.1.id"],
    ["an invalid name", (id: string) => [{ id, name: "bad name" }], "envVariables.0.name"],
    ["a missing id", () => [{ value: "x" }], "envVariables.0.id"],
  ])("answers 400 to %s", async (_case, build, field) => {
    const s = await scene();
    const [variable] = await create(s, [{ name: "A", value: "1" }]);
    const response = await send(s, "PUT", s.path, { envVariables: build(variable?.id ?? "") });
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty([field]);
  });
});

describe("PUT environment-variables/import", () => {
  const importPath = (s: Scene) => environmentPaths.variablesImport(s.organization.tenantId, s.environmentId);

  it("adds new names and revalues existing ones in one call, keeping each existing secrecy", async () => {
    const s = await scene();
    await create(s, [
      { name: "PLAIN", value: "old" },
      { name: "TOKEN", value: "old-secret", secret: true },
    ]);
    const response = await send(s, "PUT", importPath(s), {
      envVariables: [
        { name: "TOKEN", value: "new-secret" },
        { name: "ADDED", value: "a", secret: true },
        { name: "PLAIN", value: "new" },
      ],
    });
    expect(response.status).toBe(200);
    const written = environmentVariableListSchema.parse(await response.json()).envVariables;
    expect(written.map(({ name, value, secret }) => [name, value, secret])).toEqual([
      ["TOKEN", SECRET_MASK, true],
      ["ADDED", SECRET_MASK, true],
      ["PLAIN", "new", false],
    ]);
    const token = written.find((variable) => variable.name === "TOKEN");
    expect((await list(s, token?.id)).find((variable) => variable.name === "TOKEN")?.value).toBe(
      "new-secret",
    );
  });

  it("answers 400 naming every bad or repeated entry and writes nothing of the batch", async () => {
    const s = await scene();
    await create(s, [{ name: "KEPT", value: "1" }]);
    const before = await rawRows(s.environmentId);

    const invalid = await send(s, "PUT", importPath(s), {
      envVariables: [
        { name: "KEPT", value: "2" },
        { name: "bad-name", value: "x" },
        { name: "GOOD", value: "y" },
        { name: "TOO_LONG", value: "z".repeat(32_769) },
      ],
    });
    expect(invalid.status).toBe(400);
    const { fieldErrors } = apiErrorSchema.parse(await invalid.json());
    expect(Object.keys(fieldErrors ?? {}).sort()).toEqual(["envVariables.1.name", "envVariables.3.value"]);

    const repeated = await send(s, "PUT", importPath(s), {
      envVariables: [
        { name: "KEPT", value: "2" },
        { name: "NEW", value: "3" },
        { name: "NEW", value: "4" },
      ],
    });
    expect(repeated.status).toBe(400);
    expect(apiErrorSchema.parse(await repeated.json()).fieldErrors).toEqual({
      "envVariables.2.name": [environmentErrorMessages.variableNameRepeated],
    });
    expect(await rawRows(s.environmentId)).toEqual(before);
  });

  it("is refused to a read-only member", async () => {
    const s = await scene("admin");
    const reader = await api.createUser();
    await api.addMember(reader.id, s.organization.organizationId, "read-only");
    const response = await send({ ...s, user: reader }, "PUT", importPath(s), {
      envVariables: [{ name: "X", value: "1" }],
    });
    expect(response.status).toBe(403);
    expect(await list(s)).toEqual([]);
  });
});

describe("DELETE environment-variables", () => {
  it("deletes the named variables", async () => {
    const s = await scene();
    const [a, , c] = await create(s, [
      { name: "A", value: "1" },
      { name: "B", value: "2" },
      { name: "C", value: "3", secret: true },
    ]);
    const response = await send(s, "DELETE", s.path, { envVariableIds: [a?.id, c?.id] });
    expect(response.status).toBe(204);
    expect((await list(s)).map((variable) => variable.name)).toEqual(["B"]);
  });

  it("answers 404 when any id is not the environment's, and deletes none", async () => {
    const s = await scene();
    const other = await scene();
    const [own] = await create(s, [{ name: "OWN", value: "1" }]);
    const [foreign] = await create(other, [{ name: "FOREIGN", value: "1" }]);
    const response = await send(s, "DELETE", s.path, { envVariableIds: [own?.id, foreign?.id] });
    expect(response.status).toBe(404);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toEqual({
      "envVariableIds.1": [environmentErrorMessages.variableNotFound],
    });
    expect(await list(s)).toHaveLength(1);
    expect(await list(other)).toHaveLength(1);
  });

  it("answers 400 to an empty list", async () => {
    const s = await scene();
    const response = await send(s, "DELETE", s.path, { envVariableIds: [] });
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty(["envVariableIds"]);
  });
});

describe("GET environment-variables/:name/referenced-services", () => {
  it("answers no services for an existing variable (services do not exist yet)", async () => {
    const s = await scene("read-only");
    const writer = await api.createUser();
    await api.addMember(writer.id, s.organization.organizationId, "developer");
    await create({ ...s, user: writer }, [{ name: "DATABASE_URL", value: "postgres://" }]);
    const response = await send(
      s,
      "GET",
      environmentPaths.referencedServices(s.organization.tenantId, s.environmentId, "DATABASE_URL"),
    );
    expect(response.status).toBe(200);
    expect(referencedServicesSchema.parse(await response.json())).toEqual({ services: [] });
  });

  it("answers 404 for an unknown variable and 400 for an invalid name", async () => {
    const s = await scene();
    const tenantId = s.organization.tenantId;
    const unknown = await send(
      s,
      "GET",
      environmentPaths.referencedServices(tenantId, s.environmentId, "NOPE"),
    );
    expect(unknown.status).toBe(404);
    expect(apiErrorSchema.parse(await unknown.json()).message).toBe(
      environmentErrorMessages.variableNotFound,
    );
    const invalid = await send(
      s,
      "GET",
      environmentPaths.referencedServices(tenantId, s.environmentId, "1-bad"),
    );
    expect(invalid.status).toBe(400);
    expect(apiErrorSchema.parse(await invalid.json()).fieldErrors).toHaveProperty(["name"]);
  });
});
