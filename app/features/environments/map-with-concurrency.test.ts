import { describe, expect, it } from "vitest";
import { mapWithConcurrency } from "./map-with-concurrency";

describe("mapWithConcurrency", () => {
  it("keeps the items' order whatever order the work finishes in", async () => {
    const delays = [30, 5, 20, 1, 10];
    const results = await mapWithConcurrency(delays, 2, async (delay, index) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      return index;
    });
    expect(results).toEqual([0, 1, 2, 3, 4]);
  });

  it("never runs more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    await mapWithConcurrency(
      Array.from({ length: 20 }, (_, index) => index),
      3,
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
      },
    );
    expect(most).toBe(3);
  });

  it("answers an empty list without calling the work", async () => {
    expect(await mapWithConcurrency([], 4, async () => Promise.reject(new Error("not called")))).toEqual([]);
  });

  it("fails with the first failure", async () => {
    await expect(
      mapWithConcurrency([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error("two failed");
        return item;
      }),
    ).rejects.toThrow("two failed");
  });
});
