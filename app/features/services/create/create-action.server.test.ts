import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it, vi } from "vitest";
import { serviceErrorMessages } from "#contract/services";
import { PlatformError } from "~/platform/client.server";
import { rejectCreate } from "./create-action.server";
import { createServiceFormSchema } from "./create-form";

vi.mock("~/toast.server", () => ({
  dataWithToast: async (value: unknown, toast: unknown, init: ResponseInit) => ({
    data: value,
    init: { ...init, toast },
  }),
}));

function submission() {
  const formData = new FormData();
  formData.set("name", "orders-queue");
  formData.set("intent", "create");
  formData.set("config.queueType", "standard");
  formData.set("config.visibilityTimeoutSeconds", "30");
  formData.set("config.messageRetentionDays", "4");
  formData.set("config.maxReceiveCount", "5");
  return parseWithZod(formData, { schema: createServiceFormSchema("queue") });
}

type Answer = {
  data: { error?: Record<string, string[]>; initialValue?: unknown };
  init: { status?: number };
};

describe("a create the platform refuses", () => {
  it("puts the platform's field errors on the form's own fields and keeps the input", async () => {
    const error = new PlatformError({
      requestId: "req-1",
      status: 400,
      message: "Validation failed",
      code: "VALIDATION_FAILED",
      fieldErrors: { "config.messageRetentionDays": ["Message retention (days) must be between 1 and 14"] },
    });
    const answer = (await rejectCreate(submission(), error, new Headers())) as unknown as Answer;
    expect(answer.init.status).toBe(400);
    expect(answer.data.error).toEqual({
      "config.messageRetentionDays": ["Message retention (days) must be between 1 and 14"],
    });
    expect(answer.data.initialValue).toMatchObject({
      name: "orders-queue",
      config: { messageRetentionDays: "4" },
    });
  });

  it("shows a taken name on the name field", async () => {
    const error = new PlatformError({
      requestId: "req-1",
      status: 409,
      message: serviceErrorMessages.nameTaken,
      code: "CONFLICT",
    });
    const answer = (await rejectCreate(submission(), error, new Headers())) as unknown as Answer;
    expect(answer.init.status).toBe(409);
    expect(answer.data.error).toEqual({ name: [serviceErrorMessages.nameTaken] });
  });

  it("makes any other refusal a form error with a toast", async () => {
    const error = new PlatformError({ requestId: "req-1", status: 500, message: "Database unavailable" });
    const answer = (await rejectCreate(submission(), error, new Headers())) as unknown as Answer & {
      init: { toast?: unknown };
    };
    expect(answer.data.error).toEqual({ "": ["Database unavailable"] });
    expect(answer.init.toast).toEqual({ variant: "error", message: "Database unavailable" });
  });
});
