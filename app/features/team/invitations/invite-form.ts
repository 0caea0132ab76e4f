import * as z from "zod";
import {
  invitationEmailSchema,
  MAX_INVITATIONS_PER_REQUEST,
  type CreateInvitations,
} from "#contract/invitations";
import { roleChoiceSchema, roleOfChoice } from "../member-roles";

export const scopes = ["organization", "environments"] as const;

/** Addresses typed one per line, or separated by commas, semicolons or spaces. */
function splitAddresses(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/**
 * The invite page's form: several addresses in one field, one role (built-in or custom), and its scope. Each address is
 * checked with the contract's schema, so the page refuses what the platform would.
 */
export const inviteFormSchema = z
  .object({
    emails: z.string({ error: "Email is a required field" }).transform((text, context) => {
      const addresses = splitAddresses(text);
      if (addresses.length === 0) {
        context.addIssue({ code: "custom", message: "Email is a required field" });
        return z.NEVER;
      }
      const invalid = addresses.filter((address) => !invitationEmailSchema.safeParse(address).success);
      if (invalid.length) {
        context.addIssue({ code: "custom", message: `Not a valid email: ${invalid.join(", ")}` });
        return z.NEVER;
      }
      const unique = [...new Set(addresses.map((address) => address.toLowerCase()))];
      if (unique.length > MAX_INVITATIONS_PER_REQUEST) {
        context.addIssue({
          code: "custom",
          message: `Invite at most ${MAX_INVITATIONS_PER_REQUEST} addresses at once`,
        });
        return z.NEVER;
      }
      return unique;
    }),
    role: roleChoiceSchema,
    scope: z.enum(scopes).default("organization"),
    environmentIds: z.array(z.guid()).default([]),
  })
  .refine((form) => form.scope === "organization" || form.environmentIds.length > 0, {
    message: "Choose at least one environment, or invite on the whole organization",
    path: ["environmentIds"],
  });

export type InviteForm = z.output<typeof inviteFormSchema>;

export function invitationRequest(form: InviteForm): CreateInvitations {
  return {
    emails: form.emails,
    grants: [
      {
        ...roleOfChoice(form.role),
        environmentIds: form.scope === "organization" ? null : form.environmentIds,
      },
    ],
  };
}

/** The platform's field errors (`emails.1`, `grants.0.environmentIds.0`, ...) on the form's fields. */
export function inviteFormErrors(fieldErrors: Record<string, string[]>): Record<string, string[]> {
  const formErrors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const field = key.startsWith("emails")
      ? "emails"
      : key.includes("environmentIds")
        ? "environmentIds"
        : key.startsWith("grants")
          ? "role"
          : "";
    (formErrors[field] ??= []).push(...messages);
  }
  return formErrors;
}
