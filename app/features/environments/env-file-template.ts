/** SPEC §9 sample .env template: its variables, each with a placeholder value to replace. */
export const envFileTemplateVariables = [
  { name: "ENVIRONMENT", placeholder: "staging" },
  { name: "ENABLE_TLS", placeholder: "true" },
  { name: "TLS_CERT_FILE", placeholder: "/etc/tls/tls.crt" },
  { name: "TLS_KEY_FILE", placeholder: "/etc/tls/tls.key" },
  { name: "DEBUG", placeholder: "false" },
  { name: "API_KEY", placeholder: "replace-with-your-api-key" },
  { name: "DB_PASSWORD", placeholder: "replace-with-your-database-password" },
] as const;

export const ENV_FILE_TEMPLATE_NAME = "sample.env";

export function envFileTemplate(): string {
  const lines = envFileTemplateVariables.map(({ name, placeholder }) => `${name}=${placeholder}`);
  return `# Replace each placeholder with your value, then import this file into an environment.\n${lines.join("\n")}\n`;
}
