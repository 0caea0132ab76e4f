import { describe, expect, it } from "vitest";
import { shouldRevalidate } from "~/routes/_app";

type Args = Parameters<typeof shouldRevalidate>[0];

const page = "https://console.example/env/prod/services/svc-1";

function revalidates(next: string, { formMethod }: { formMethod?: Args["formMethod"] } = {}) {
  return shouldRevalidate({
    currentUrl: new URL(page),
    currentParams: {},
    nextUrl: new URL(next),
    nextParams: {},
    formMethod,
    defaultShouldRevalidate: true,
  } as Args);
}

describe("the shell's data", () => {
  it("is not asked for again when the page polls (a revalidation of the same address)", () => {
    expect(revalidates(page)).toBe(false);
  });

  it("is not asked for again when the page changes its own query (a tab, a filter, a log search)", () => {
    expect(revalidates(`${page}?tab=logs&logType=SEARCH&text=timeout`)).toBe(false);
    expect(revalidates(`${page}?tab=logs`, { formMethod: "GET" })).toBe(false);
  });

  it("follows Remix's default after a form submission, another path or an organization switch", () => {
    for (const formMethod of ["POST", "PUT", "DELETE"] as const) {
      expect(revalidates(page, { formMethod })).toBe(true);
    }
    expect(revalidates("https://console.example/env/staging/services")).toBe(true);
    expect(revalidates(`${page}?switchOrg=org_globex`)).toBe(true);
  });
});
