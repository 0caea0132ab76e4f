import { z } from "zod";

/** SPEC §4 notification variants. */
export const toastVariants = ["default", "success", "warning", "error", "info"] as const;
export type ToastVariant = (typeof toastVariants)[number];

/** SPEC §9: toasts hide after 3 s. */
export const TOAST_AUTO_CLOSE_MS = 3000;
/** SPEC §9: at most 5 toasts are visible; the others wait in a queue. */
export const TOAST_LIMIT = 5;

export const toastSchema = z.object({
  /** Tells toasts apart, so one carried by a cookie is shown once however often the data is rendered. */
  id: z.string().min(1),
  variant: z.enum(toastVariants).default("default"),
  title: z.string().optional(),
  message: z.string().min(1),
  /** Milliseconds; defaults to TOAST_AUTO_CLOSE_MS. */
  autoClose: z.number().int().positive().optional(),
});

export type Toast = z.infer<typeof toastSchema>;
/** What callers describe; the id is added for them. */
export type ToastInput = Omit<z.input<typeof toastSchema>, "id"> & { id?: string };
