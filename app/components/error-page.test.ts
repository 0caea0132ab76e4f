import { describe, expect, it } from "vitest";
import { describeRouteError } from "./error-page";

/** What Remix's client makes of an error response (isRouteErrorResponse's shape). */
const errorResponse = (status: number, data: unknown) => ({ status, statusText: "", internal: false, data });

describe("the error page's account of an error", () => {
  it("says what a 413 says (a submission over the body limit), so the user knows to send less", () => {
    const message = "The request is too large: at most 1 MB may be sent.";
    expect(describeRouteError(errorResponse(413, message))).toEqual({ restricted: false, message });
  });

  it("keeps the generic advice for other errors, and names a known code", () => {
    expect(describeRouteError(new Error("boom"))).toEqual({ restricted: false });
    expect(describeRouteError(errorResponse(500, "internal detail"))).toEqual({ restricted: false });
    expect(describeRouteError(errorResponse(403, { code: "KE-RC-001" }))).toEqual({
      restricted: true,
      code: "KE-RC-001",
    });
  });
});
