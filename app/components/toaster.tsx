import type { MantineColor } from "@mantine/core";
import { Notifications, notifications } from "@mantine/notifications";
import { useEffect } from "react";
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT, type Toast, type ToastInput, type ToastVariant } from "~/toast";

/** Toast colours: SPEC §9 palette colours from the theme; default is the primary colour, info Mantine's blue. */
export const toastColors: Record<ToastVariant, MantineColor | undefined> = {
  default: undefined,
  success: "success",
  warning: "warning",
  error: "error",
  info: "blue",
};

/** Ids already shown in this page, so a toast carried by the root loader's data appears once. */
const shownToastIds = new Set<string>();

let sequence = 0;

/**
 * Shows a toast from the browser (SPEC §4 variants). Server responses carry toasts with `redirectWithToast`
 * or `dataWithToast` from `~/toast.server` instead. Returns the toast's id.
 */
export function showToast({ id, variant = "default", title, message, autoClose }: ToastInput): string {
  sequence += 1;
  const toastId = id ?? `toast-${Date.now().toString(36)}-${sequence}`;
  if (shownToastIds.has(toastId)) return toastId;
  shownToastIds.add(toastId);
  notifications.show({
    id: toastId,
    color: toastColors[variant],
    title,
    message,
    autoClose: autoClose ?? TOAST_AUTO_CLOSE_MS,
    withBorder: true,
    "data-toast-variant": variant,
  });
  return toastId;
}

/**
 * The one Toaster (rendered by root): Mantine's notifications bottom right, at most 5 at once with the
 * others queued, hiding after 3 s (SPEC §9); shows the toast the root loader read from the flash cookie.
 */
export function Toaster({ toast }: { toast: Toast | null | undefined }) {
  useEffect(() => {
    if (toast) showToast(toast);
  }, [toast]);
  return <Notifications position="bottom-right" limit={TOAST_LIMIT} autoClose={TOAST_AUTO_CLOSE_MS} />;
}
