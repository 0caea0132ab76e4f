import { describe, expect, it } from "vitest";
import { ProviderUnreachableError } from "./http";
import { ProviderRequestError, type Credentials } from "./providers";
import { asProviderRequest, failedCheck, linkTarget, ProviderRefusal, withoutSecrets } from "./refusals";

const credentials: Credentials = {
  kind: "VERSION_CONTROL_TYPE_GITHUB",
  method: "token",
  fields: { ORGANIZATION: "acme" },
  secrets: { TOKEN: "ghp_S3CRET" },
};

describe("linkTarget", () => {
  const requested = new URL("https://api.github.com/orgs/acme/repos?per_page=1");
  const response = (link: string) => new Response(null, { headers: { Link: link } });

  it("finds a relation among several, relative targets resolved against the request", () => {
    const header =
      '<https://api.github.com/organizations/1/repos?per_page=1&page=2>; rel="next", <https://api.github.com/organizations/1/repos?per_page=1&page=9>; rel="last"';
    expect(linkTarget(response(header), "last", requested)?.searchParams.get("page")).toBe("9");
    expect(linkTarget(response('</v2/_catalog?last=b&n=2>; rel="next"'), "next", requested)?.href).toBe(
      "https://api.github.com/v2/_catalog?last=b&n=2",
    );
    expect(linkTarget(response(header), "prev", requested)).toBeUndefined();
  });

  it("never follows a link to another host, where the credentials would go along", () => {
    expect(
      linkTarget(response('<https://evil.test/steal?page=2>; rel="next"'), "next", requested),
    ).toBeUndefined();
  });
});

describe("failures", () => {
  it("blank any secret a provider echoed back", () => {
    expect(withoutSecrets("token ghp_S3CRET is bad", credentials)).toBe("token [secret] is bad");
    const check = failedCheck(new ProviderRefusal("Bad token ghp_S3CRET", "TOKEN"), "BASE_URL", credentials);
    expect(check).toEqual({ ok: false, message: "Bad token [secret]", details: [], field: "TOKEN" });
  });

  it("name the URL field for an unreachable host, and throw anything else on", () => {
    expect(
      failedCheck(new ProviderUnreachableError("Could not reach x."), "BASE_URL", credentials).field,
    ).toBe("BASE_URL");
    expect(() => failedCheck(new TypeError("bug"), "BASE_URL", credentials)).toThrow(TypeError);
  });

  it("make an unreachable host a request error outside checks", async () => {
    const error = await asProviderRequest([credentials], async () => {
      throw new ProviderUnreachableError("Could not reach x.");
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProviderRequestError);
    expect((error as Error).message).toBe("Could not reach x.");
  });
});
