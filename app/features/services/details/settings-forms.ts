import * as z from "zod";
import { type SettingsSubTab } from "#contract/service-catalogue";
import { serviceSettingsSchema, type ServiceSettings } from "#contract/services";
import { messages } from "#contract/validation";

/** The part of the settings each sub-tab edits. */
export const settingsKeyOfSubTab = {
  envvars: "envvars",
  scaling: "scaling",
  hardware: "hardware",
  networking: "networking",
  volumes: "volumes",
  "health-check": "healthCheck",
  schedule: "schedule",
} as const satisfies Record<SettingsSubTab, keyof ServiceSettings>;
export type SettingsKey = (typeof settingsKeyOfSubTab)[SettingsSubTab];

const shape = serviceSettingsSchema.shape;

const versionField = z
  .number({ error: messages.required("version") })
  .int()
  .positive();

/**
 * Each part as its form submits it: an unchecked switch sends nothing (off), an emptied custom domain sends
 * nothing (none), and an empty list sends nothing at all (conform makes that an empty list).
 */
const settingsPartSchemas = {
  envvars: shape.envvars,
  scaling: shape.scaling,
  hardware: shape.hardware,
  networking: shape.networking.extend({
    public: z.boolean().default(false),
    customDomain: shape.networking.shape.customDomain.default(""),
  }),
  volumes: shape.volumes,
  healthCheck: shape.healthCheck,
  schedule: shape.schedule,
} satisfies Record<SettingsKey, z.ZodType>;

/** The form of one sub-tab: which part, the version it edited, and the part's values under its own key. */
export function settingsFormSchema<K extends SettingsKey>(key: K) {
  return z.object({
    intent: z.literal("save-settings"),
    section: z.literal(key),
    version: versionField,
    [key]: settingsPartSchemas[key],
  } as {
    intent: z.ZodLiteral<"save-settings">;
    section: z.ZodLiteral<K>;
    version: typeof versionField;
  } & { [P in K]: (typeof settingsPartSchemas)[P] });
}

/** Which part a settings submission is for, read before it is parsed with that part's schema. */
export function settingsKeyOf(formData: FormData): SettingsKey | null {
  const section = formData.get("section");
  return (Object.values(settingsKeyOfSubTab) as string[]).includes(String(section))
    ? (section as SettingsKey)
    : null;
}

/** The whole settings a PUT carries: the edited part replaced, every other part as it is now. */
export function mergeSettings<K extends SettingsKey>(
  current: ServiceSettings,
  key: K,
  part: ServiceSettings[K],
): ServiceSettings {
  return { ...current, [key]: part };
}

/** The form's default values of one part. */
export function settingsFormDefaults(settings: ServiceSettings, key: SettingsKey, version: number) {
  return { intent: "save-settings", section: key, version, [key]: settings[key] };
}

/** A new, empty row of a list part. */
export const emptyRows = {
  envvars: { name: "", value: "" },
  volumes: { name: "", mountPath: "/data", sizeGb: 10 },
  schedule: { days: ["mon", "tue", "wed", "thu", "fri"], start: "08:00", end: "18:00", minInstances: 1 },
} as const;
