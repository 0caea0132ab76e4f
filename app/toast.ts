// What a toast is, shared by the server (toast.server.ts, which validates it) and the Toaster. No zod here: every
// page's first visit loads this module with root.
/** SPEC §4 notification variants. */
export const toastVariants = ["default", "success", "warning", "error", "info"] as const;
export type ToastVariant = (typeof toastVariants)[number];

/** SPEC §9: toasts hide after 3 s. */
export const TOAST_AUTO_CLOSE_MS = 3000;
/** SPEC §9: at most 5 toasts are visible; the others wait in a queue. */
export const TOAST_LIMIT = 5;

export type Toast = {
  /** Tells toasts apart, so one carried by a cookie is shown once however often the data is rendered. */
  id: string;
  variant: ToastVariant;
  title?: string;
  message: string;
  /** Milliseconds; defaults to TOAST_AUTO_CLOSE_MS. */
  autoClose?: number;
};

/** What callers describe; the id is added for them and the variant defaults to "default". */
export type ToastInput = Omit<Toast, "id" | "variant"> & { id?: string; variant?: ToastVariant };
