import type { MouseEvent, ReactNode } from "react";
import { Button, type ButtonProps } from "./button";

/**
 * A button that does its work in the page with JavaScript (`onActivate`: open a dialog, fetch a value) and,
 * without JavaScript, is the submit button of a GET form asking the server for the same page with `query` (for
 * example `?dialog=add`), which the page then answers with a plain HTML form or the value.
 */
export function GetFormButton({
  query,
  onActivate,
  children,
  ...buttonProps
}: ButtonProps & {
  query: Record<string, string>;
  onActivate: () => void;
  children: ReactNode;
  "aria-label"?: string;
}) {
  return (
    <form method="get" style={{ display: "contents" }}>
      {Object.entries(query).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button
        type="submit"
        {...buttonProps}
        onClick={(event: MouseEvent) => {
          event.preventDefault();
          onActivate();
        }}
      >
        {children}
      </Button>
    </form>
  );
}
