import { Center, Stack, Text, Title } from "@mantine/core";

/**
 * SPEC §1: what phones and tablets see instead of the app. Every page carries it, hidden unless
 * unsupported-device.css shows it, so it is plain elements with Mantine's classes (its layout is in that file).
 */
export function UnsupportedDevicePage() {
  return (
    <div className={`${Center.classes.root} unsupported-device-page`} data-testid="unsupported-device-page">
      <div className={`${Stack.classes.root} unsupported-device-message`}>
        <h1 className={`${Title.classes.root} unsupported-device-title`} data-order="1">
          Cloud Console is not available on phones and tablets
        </h1>
        <p className={`mantine-focus-auto ${Text.classes.root}`}>
          Please use a computer: open Cloud Console in the browser of a laptop or desktop computer.
        </p>
      </div>
    </div>
  );
}
