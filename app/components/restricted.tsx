import { Alert, Tooltip } from "@mantine/core";
import { cloneElement, type MouseEvent, type ReactElement, type ReactNode } from "react";
import { errorMessages } from "#contract/errors";
import { Button, type ButtonProps } from "./button";

/**
 * A control the user may not use: it looks disabled and does nothing, yet stays focusable (Mantine's
 * `data-disabled` rather than `disabled`, which would also silence the tooltip) and says why on hover and focus.
 * A link becomes a button, so it leads nowhere. Allowed, the control is rendered as it is.
 */
export function Restricted({ allowed, children }: { allowed: boolean; children: ReactElement }) {
  if (allowed) return children;
  return (
    <Tooltip label={errorMessages.restrictedAccess} events={{ hover: true, focus: true, touch: true }}>
      {cloneElement(children, {
        component: "button",
        type: "button",
        to: undefined,
        href: undefined,
        "data-disabled": true,
        "aria-disabled": true,
        onClick: (event: MouseEvent) => event.preventDefault(),
      })}
    </Tooltip>
  );
}

/** In place of a control that opens a dialog (and so takes no props of Restricted's): a restricted button. */
export function RestrictedButton(props: ButtonProps & { "aria-label"?: string }) {
  return (
    <Restricted allowed={false}>
      <Button {...props} />
    </Restricted>
  );
}

/** Says why a form's fields and buttons are disabled. */
export function RestrictedNote() {
  return (
    <Alert color="gray" variant="light" data-testid="restricted-note">
      {errorMessages.restrictedAccess}
    </Alert>
  );
}

/** A form's fields, read-only with the note above them when the user may not change what they hold. */
export function RestrictedFields({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  if (allowed) return children;
  return (
    <>
      <RestrictedNote />
      {/* A plain fieldset: disabling it disables every field inside, Mantine's included. */}
      <fieldset disabled style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        {children}
      </fieldset>
    </>
  );
}
