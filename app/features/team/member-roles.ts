import * as z from "zod";
import { roleGrantSchema, roleNames, type RoleGrant, type RoleName } from "#contract/permissions";
import type { Member, MemberGrant, Role } from "#contract/users";

/** A role choice in a form: a built-in role's name, or `custom:{id}` for a custom role. */
const customRolePrefix = "custom:";

export const roleChoiceOf = (grant: Pick<MemberGrant, "role" | "customRole">): string =>
  grant.role ?? `${customRolePrefix}${grant.customRole?.id ?? ""}`;

/** The grant's role named by a form's choice: a built-in role, or the custom role whose id follows `custom:`. */
export function roleOfChoice(choice: string): Pick<RoleGrant, "role" | "customRoleId"> {
  return choice.startsWith(customRolePrefix)
    ? { customRoleId: choice.slice(customRolePrefix.length) }
    : { role: choice as RoleName };
}

/** A form's role choice that names a built-in role or a custom role (whose existence the platform checks). */
export const roleChoiceSchema = z
  .string({ error: "Choose a role" })
  .trim()
  .refine(
    (choice) => roleGrantSchema.safeParse({ ...roleOfChoice(choice), environmentIds: null }).success,
    "Choose a role",
  );

/** The roles as a form offers them, built-in then custom; `described` adds what each role is for. */
export function roleOptions(roles: Role[], { described = false }: { described?: boolean } = {}) {
  return roles.map((role) => ({
    value: role.builtIn ? role.name : `${customRolePrefix}${role.id}`,
    label: described && role.description ? `${role.name}: ${role.description}` : role.name,
  }));
}

/**
 * The edit page's role form: one role on the whole organization or on chosen environments. It becomes the
 * contract's grant, so the form reports the platform's own rules (at least one environment) on its fields.
 */
export const memberRoleFormSchema = z
  .object({
    role: z.string({ error: "Choose a role" }).trim().min(1, "Choose a role"),
    scope: z.enum(["organization", "environments"], { error: "Choose where the role applies" }),
    environmentIds: z.array(z.string()).default([]),
  })
  .transform((value, context): RoleGrant => {
    const grant = {
      ...roleOfChoice(value.role),
      environmentIds: value.scope === "organization" ? null : value.environmentIds,
    };
    const parsed = roleGrantSchema.safeParse(grant);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "environmentIds" ? "environmentIds" : "role";
      context.addIssue({
        code: "custom",
        message: field === "role" ? "Choose a role" : issue.message,
        path: [field],
      });
    }
    return z.NEVER;
  });

/** "developer on staging, production" or "admin": a grant as the member pages show it. */
export function describeGrant(grant: MemberGrant, environmentNames: ReadonlyMap<string, string>): string {
  const role = grant.role ?? grant.customRole?.name ?? "unknown role";
  if (grant.environmentIds === null) return role;
  const names = grant.environmentIds.map((id) => environmentNames.get(id) ?? "a deleted environment");
  return `${role} on ${names.join(", ")}`;
}

/** Members counted by role (organization-wide or scoped alike), in the catalogue's order, custom roles last. */
export function membersPerRole(members: Member[]): { role: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const member of members) {
    const held = new Set(member.roles.map((grant) => grant.role ?? grant.customRole?.name ?? ""));
    for (const role of held) counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  const builtIn: string[] = [...roleNames];
  return [...counts.entries()]
    .map(([role, count]) => ({ role, count }))
    .sort((a, b) => {
      const rank = (role: string) => (builtIn.includes(role) ? builtIn.indexOf(role) : builtIn.length);
      return rank(a.role) - rank(b.role) || a.role.localeCompare(b.role);
    });
}

/** Whether `query` (name or e-mail, any case) finds the member. */
export function matchesMember(member: Pick<Member, "name" | "email">, query: string): boolean {
  const needle = query.trim().toLowerCase();
  return !needle || member.name.toLowerCase().includes(needle) || member.email.toLowerCase().includes(needle);
}

/** "3 minutes ago", "never": when the member last used the organization, relative to `now`. */
export function lastActiveLabel(lastActiveAt: string | null, now: Date): string {
  if (!lastActiveAt) return "Never";
  const minutes = Math.floor((now.getTime() - new Date(lastActiveAt).getTime()) / 60_000);
  if (minutes < 1) return "Just now";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}
