import { createCookieSessionStorage } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createEncryptedCookie } from "./encrypted-cookie.server";

const OLD_SECRET = "o".repeat(32);
const NEW_SECRET = "n".repeat(32);
const ACCESS_TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyXzEifQ.signature";

function storage(secrets: string[]) {
  return createCookieSessionStorage({
    cookie: createEncryptedCookie("__session", { secrets, httpOnly: true, path: "/" }),
  });
}

async function cookieHeaderWithTokens(secrets: string[]): Promise<string> {
  const { getSession, commitSession } = storage(secrets);
  const session = await getSession();
  session.set("tokens", { accessToken: ACCESS_TOKEN, refreshToken: "refresh-123", expiresAt: 1 });
  session.set("user", { sub: "user_1", email: "ada@example.com" });
  return (await commitSession(session)).split(";")[0] ?? "";
}

describe("the encrypted session cookie", () => {
  it("holds the session unreadable to whoever has a copy, and reads back", async () => {
    const header = await cookieHeaderWithTokens([NEW_SECRET]);
    const value = header.slice("__session=".length);
    const decoded = `${value} ${Buffer.from(decodeURIComponent(value), "base64").toString("latin1")}`;
    for (const secretPart of [ACCESS_TOKEN, "eyJ", "refresh-123", "ada@example.com", "user_1"]) {
      expect(decoded).not.toContain(secretPart);
    }
    const session = await storage([NEW_SECRET]).getSession(header);
    expect(session.get("tokens")).toEqual({
      accessToken: ACCESS_TOKEN,
      refreshToken: "refresh-123",
      expiresAt: 1,
    });
  });

  it("keeps rotation: the first secret encrypts, the others still open older cookies", async () => {
    const old = await cookieHeaderWithTokens([OLD_SECRET]);
    const rotated = storage([NEW_SECRET, OLD_SECRET]);
    expect((await rotated.getSession(old)).get("user")).toEqual({ sub: "user_1", email: "ada@example.com" });
    expect((await storage([NEW_SECRET]).getSession(old)).has("user")).toBe(false);
  });

  it("ignores a tampered cookie", async () => {
    const header = await cookieHeaderWithTokens([NEW_SECRET]);
    const tampered = `${header.slice(0, -6)}${header.slice(-6).split("").reverse().join("")}`;
    expect((await storage([NEW_SECRET]).getSession(tampered)).has("tokens")).toBe(false);
  });
});
