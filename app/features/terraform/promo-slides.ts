/** SPEC §2.4: the carousel's five topics, each with a local illustration. */
export const promoSlides = [
  {
    title: "Expand your DevOps team, not your payroll",
    text: "Cloud Console sets up environments, pipelines and guardrails, so your engineers ship instead of wiring infrastructure.",
    image: "/terraform/slides/devops-team.svg",
  },
  {
    title: "From code to cloud in a few clicks",
    text: "Deploy applications, databases, caches and queues into your own cloud account without writing Terraform by hand.",
    image: "/terraform/slides/code-to-cloud.svg",
  },
  {
    title: "Observability out of the box",
    text: "Logs, metrics and alerts for every service from the first deploy, with no monitoring stack to assemble.",
    image: "/terraform/slides/observability.svg",
  },
  {
    title: "Security and SOC 2 audit ready",
    text: "Secure defaults and the evidence a SOC 2 audit asks for, collected while you deploy.",
    image: "/terraform/slides/security-audit.svg",
  },
  {
    title: "Free to start",
    text: "Cloud Console is free: connect your cloud and deploy your first service today.",
    image: "/terraform/slides/free.svg",
  },
] as const;
