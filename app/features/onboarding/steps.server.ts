import { connectionPages } from "#contract/connections";
import type { Onboarding } from "#contract/onboarding";
import {
  onboardingStepCriteria,
  onboardingSteps,
  onboardingStepTitles,
  type OnboardingStep,
} from "#contract/onboarding-steps";
import { onboardingPages } from "~/features/onboarding/paths";
import { environmentPagePaths } from "~/features/environments/paths";
import { servicePagePaths } from "~/features/services/paths";
import { teamPagePaths } from "~/features/team/paths";
import { withReturnTo } from "./mirror";

/** Fastboot's form (issue 17's other half): a starter stack in a new environment, in one click. */
export const FASTBOOT_CONFIGURE_PATH = "/fastboot/configure";

export type StepLink = { label: string; to: string };

/** A step of the walk-through as its page shows it: links into the product's own screens, each coming back here. */
export type StepGuide = {
  step: OnboardingStep;
  title: string;
  description: string;
  done: boolean;
  links: StepLink[];
  /** Why the step cannot be done yet, when it cannot. */
  blocked: string | null;
  /** Its place among the steps offered to the organization (1-based), and how many are offered. */
  position: number;
  count: number;
  /** Where "Back" and "Skip this step" go. */
  previous: string | null;
  next: string;
};

const descriptions: Record<OnboardingStep, string> = {
  "cloud-account":
    "Your environments run in your own AWS, GCP or Azure account. Without one, an environment runs on a simulated cloud, which is fine for trying things out.",
  environment:
    "An environment holds the services of one stage of your delivery, such as production or staging. Create an empty one, or fastboot a starter stack that is ready in one click.",
  application:
    "Deploy an application from a public image, a registry or a GitHub repository, and see it running with its URL.",
  team: "Invite the people you work with, each with a role on the whole organization or on chosen environments.",
  notifications: "Post deployments and failures to a Slack or Microsoft Teams channel.",
};

/** The step a walk-through without `?step=` opens: the first one not done yet. */
export function firstOpenStep(checklist: Onboarding["checklist"]): OnboardingStep {
  return checklist.find((item) => !item.done)?.step ?? checklist[0]?.step ?? onboardingSteps[0];
}

/** The step the address names, if the platform offers it to the organization (its checklist has it). */
export function parseStep(value: string | null, checklist: Onboarding["checklist"]): OnboardingStep | null {
  return checklist.find((item) => item.step === value)?.step ?? null;
}

/**
 * The guide of `step`, one of the checklist's (the steps offered): its links carry `returnTo` the next offered step
 * (the last step's, the overview).
 */
export function stepGuide(
  step: OnboardingStep,
  { checklist, environmentName }: { checklist: Onboarding["checklist"]; environmentName: string | null },
): StepGuide {
  const offered = checklist.map((item) => item.step);
  const index = offered.indexOf(step);
  const nextStep = offered[index + 1];
  const previousStep = index > 0 ? offered[index - 1] : undefined;
  const next = nextStep ? onboardingPages.step(nextStep) : onboardingPages.overview;
  const back = (path: string) => withReturnTo(path, next);
  const links: Record<OnboardingStep, StepLink[]> = {
    "cloud-account": [
      { label: "Connect a cloud account", to: back(connectionPages.create("cloud-provider")) },
    ],
    environment: [
      { label: "Create an environment", to: back(environmentPagePaths.create) },
      { label: "Fastboot a starter stack", to: back(FASTBOOT_CONFIGURE_PATH) },
    ],
    application: environmentName
      ? // Without returnTo: the create form tells its own submissions by an action ending in /create. The
        // shell's banner still leads back (the mirror says onboarding is in progress).
        [
          {
            label: "Deploy an application",
            to: servicePagePaths.underApplications(environmentName, "create"),
          },
        ]
      : [],
    team: [{ label: "Invite your team", to: back(teamPagePaths.invite) }],
    notifications: [
      { label: "Connect Slack or Teams", to: back(connectionPages.create("communication-platform")) },
    ],
  };
  return {
    step,
    title: onboardingStepTitles[step],
    description: descriptions[step],
    done: checklist.find((item) => item.step === step)?.done ?? false,
    links: links[step],
    blocked:
      step === "application" && !environmentName
        ? "Create an environment first: applications run in one."
        : null,
    position: index + 1,
    count: offered.length,
    previous: previousStep ? onboardingPages.step(previousStep) : null,
    next,
  };
}

/** The overview's checklist: each step with what ticks it and the link to its step of the walk-through. */
export function checklistView(checklist: Onboarding["checklist"]) {
  return checklist.map(({ step, done }) => ({
    step,
    done,
    title: onboardingStepTitles[step],
    criteria: onboardingStepCriteria[step],
    to: onboardingPages.step(step),
  }));
}
