// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ServiceActionData } from "./action-data";
import { useConflict } from "./use-form-baseline";

const refused: ServiceActionData = {
  form: "scaling",
  conflict: { version: 2, changes: [{ path: "maxInstances", yours: "6", theirs: "9" }] },
};

describe("useConflict", () => {
  it("keeps a refused save's conflict through a revalidation, which clears the action data", () => {
    const { result, rerender } = renderHook(({ actionData, version }) => useConflict(actionData, version), {
      initialProps: { actionData: refused as ServiceActionData | undefined, version: 1 },
    });
    expect(result.current?.version).toBe(2);
    rerender({ actionData: undefined, version: 1 });
    expect(result.current?.version).toBe(2);
  });

  it("drops it with the form's next answer, or once the form follows a newer version", () => {
    const { result, rerender } = renderHook(({ actionData, version }) => useConflict(actionData, version), {
      initialProps: { actionData: refused as ServiceActionData | undefined, version: 1 },
    });
    rerender({ actionData: { form: "scaling" }, version: 1 });
    expect(result.current).toBeUndefined();

    rerender({ actionData: refused, version: 1 });
    rerender({ actionData: undefined, version: 3 });
    expect(result.current).toBeUndefined();
  });
});
