import { describe, expect, it } from "vitest";
import { onboardingSteps, type OnboardingStep } from "#contract/onboarding-steps";
import { checklistView, firstOpenStep, parseStep, stepGuide } from "./steps.server";

const checklistWith = (...done: OnboardingStep[]) =>
  onboardingSteps.map((step) => ({ step, done: done.includes(step) }));

describe("the onboarding walk-through's steps", () => {
  it("opens on the first step not done yet, or the first when all are", () => {
    expect(firstOpenStep(checklistWith())).toBe("cloud-account");
    expect(firstOpenStep(checklistWith("cloud-account", "environment"))).toBe("application");
    expect(firstOpenStep(checklistWith(...onboardingSteps))).toBe("cloud-account");
  });

  it("reads only known steps from the address", () => {
    expect(parseStep("team", checklistWith())).toBe("team");
    expect(parseStep("billing", checklistWith())).toBeNull();
    expect(parseStep(null, checklistWith())).toBeNull();
  });

  it("walks only the steps offered: without Slack or Teams, the team step is the last of four", () => {
    const offered = checklistWith().filter((item) => item.step !== "notifications");
    expect(parseStep("notifications", offered)).toBeNull();
    expect(stepGuide("team", { checklist: offered, environmentName: null })).toMatchObject({
      position: 4,
      count: 4,
      previous: "/onboarding?step=application",
      next: "/onboarding/overview",
    });
  });

  it("links the environment step into the create form and fastboot, both coming back to the next step", () => {
    const guide = stepGuide("environment", { checklist: checklistWith(), environmentName: null });
    expect(guide.links).toEqual([
      {
        label: "Create an environment",
        to: "/environments/create?returnTo=%2Fonboarding%3Fstep%3Dapplication",
      },
      {
        label: "Fastboot a starter stack",
        to: "/fastboot/configure?returnTo=%2Fonboarding%3Fstep%3Dapplication",
      },
    ]);
    expect(guide).toMatchObject({
      done: false,
      blocked: null,
      previous: "/onboarding?step=cloud-account",
      next: "/onboarding?step=application",
    });
  });

  it("asks for an environment before an application, then links into the current one", () => {
    const without = stepGuide("application", { checklist: checklistWith(), environmentName: null });
    expect(without.links).toEqual([]);
    expect(without.blocked).toBe("Create an environment first: applications run in one.");
    const within = stepGuide("application", {
      checklist: checklistWith("environment"),
      environmentName: "staging",
    });
    expect(within.blocked).toBeNull();
    expect(within.links[0]?.to).toBe("/env/staging/applications/create");
  });

  it("comes back from the last step to the overview, and marks a step done from the checklist", () => {
    const guide = stepGuide("notifications", {
      checklist: checklistWith("notifications"),
      environmentName: null,
    });
    expect(guide).toMatchObject({ done: true, next: "/onboarding/overview", position: 5, count: 5 });
    expect(guide.links[0]?.to).toBe(
      "/settings/connections/create/communication-platform?returnTo=%2Fonboarding%2Foverview",
    );
  });

  it("gives the overview each step's title, what ticks it and its link", () => {
    expect(checklistView(checklistWith("team"))[3]).toEqual({
      step: "team",
      done: true,
      title: "Invite your team",
      criteria: "A second member has joined, or an invitation has been sent.",
      to: "/onboarding?step=team",
    });
  });
});
