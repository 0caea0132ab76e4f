import { describe, expect, it } from "vitest";
import { APP_LISTING_VIEW_KEY, parseApplicationsView } from "./applications-view";

describe("the applications view choice", () => {
  it("is stored under the SPEC §3 key and read back only when known", () => {
    expect(APP_LISTING_VIEW_KEY).toBe("persist:app-listing-view-type");
    expect(parseApplicationsView("grid")).toBe("grid");
    expect(parseApplicationsView("list")).toBe("list");
    expect(parseApplicationsView("tiles")).toBeNull();
    expect(parseApplicationsView(null)).toBeNull();
  });
});
