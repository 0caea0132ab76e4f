// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { forwardRef, type ComponentProps } from "react";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { theme } from "~/theme";
import { confirmationByName } from "./confirm-by-name";
import { ConfirmByNameDialog, ConfirmByNameForm } from "./confirm-by-name-dialog";

// A plain form in place of Remix's (no router here): what is checked is the dialog, not the submission.
const PlainForm = forwardRef<HTMLFormElement, ComponentProps<"form">>(function PlainForm(props, ref) {
  return <form ref={ref} {...props} />;
}) as unknown as ComponentProps<typeof ConfirmByNameForm>["Form"];

const schema = z.object({ confirmation: confirmationByName("orders", "service") });

function renderDialog({ allowed = true }: { allowed?: boolean } = {}) {
  return render(
    <MantineProvider theme={theme} env="test">
      <ConfirmByNameDialog title="Delete service" allowed={allowed}>
        {(close) => (
          <ConfirmByNameForm
            Form={PlainForm}
            id="delete-service"
            name="orders"
            schema={schema}
            intent="delete"
            submitLabel="Delete service"
            lastResult={undefined}
            submitting={false}
            onCancel={close}
            description={<>This deletes orders.</>}
          />
        )}
      </ConfirmByNameDialog>
    </MantineProvider>,
  );
}

afterEach(cleanup);

describe("ConfirmByNameDialog", () => {
  it("keeps the confirm button disabled until the exact name is typed", () => {
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));

    const dialog = screen.getByRole("dialog", { name: "Delete service" });
    const field = screen.getByLabelText("Type orders to confirm");
    const confirm = screen.getByRole("button", { name: "Delete service" });
    expect(dialog.textContent).toContain("This deletes orders.");
    expect(field.getAttribute("name")).toBe("confirmation");
    expect(field.getAttribute("autocomplete")).toBe("off");
    expect(confirm).toHaveProperty("disabled", true);

    for (const typed of ["order", "Orders", "orders "]) {
      fireEvent.change(field, { target: { value: typed } });
      expect(confirm).toHaveProperty("disabled", true);
    }
    fireEvent.change(field, { target: { value: "orders" } });
    expect(confirm).toHaveProperty("disabled", false);
    expect(confirm.getAttribute("type")).toBe("submit");
    expect(confirm.getAttribute("name")).toBe("intent");
    expect(confirm.getAttribute("value")).toBe("delete");
  });

  it("starts empty again after Cancel", () => {
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    fireEvent.change(screen.getByLabelText("Type orders to confirm"), { target: { value: "orders" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByLabelText("Type orders to confirm")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(screen.getByLabelText("Type orders to confirm")).toHaveProperty("value", "");
    expect(screen.getByRole("button", { name: "Delete service" })).toHaveProperty("disabled", true);
  });

  it("opens nothing for a user who may not delete", () => {
    renderDialog({ allowed: false });
    const trigger = screen.getByRole("button", { name: "Delete" });
    expect(trigger.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(trigger);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("confirmationByName", () => {
  it("accepts only the exact name, and says what to type", () => {
    expect(schema.safeParse({ confirmation: "orders" }).success).toBe(true);
    expect(schema.safeParse({ confirmation: "Orders" }).error?.issues[0]?.message).toBe(
      "Type orders to confirm",
    );
    expect(schema.safeParse({}).error?.issues[0]?.message).toBe("Type the service's name to confirm");
  });
});
