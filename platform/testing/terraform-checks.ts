import { getReferencesInExpression, parse } from "@cdktf/hcl2json";

/** What the generated Terraform says, read back with an HCL2 parser (the checks of the tests). */
export type ParsedProject = {
  /** `folder/aws_type.name` of every declared resource. */
  resources: Set<string>;
  /** Every `aws_*` reference found in an expression, with where it was found. */
  references: { folder: string; file: string; reference: string }[];
  /** Every import block: the resource it adopts (`folder/aws_type.name`) and the import id. */
  imports: { folder: string; to: string; id: string }[];
  /** The parsed JSON of each file, by path. */
  files: Record<string, Record<string, unknown>>;
};

async function collectReferences(value: unknown, file: string, found: string[]): Promise<void> {
  if (typeof value === "string") {
    if (!value.includes("${")) return;
    for (const reference of await getReferencesInExpression(file, value)) found.push(reference.value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) await collectReferences(item, file, found);
    return;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      // ignore_changes lists attribute names, not references.
      if (key !== "lifecycle") await collectReferences(item, file, found);
    }
  }
}

/** Parses every .tf file (an unparsable file throws, naming it) and gathers declarations, references, imports. */
export async function parseProject(files: Record<string, string>): Promise<ParsedProject> {
  const project: ParsedProject = { resources: new Set(), references: [], imports: [], files: {} };
  for (const [path, content] of Object.entries(files)) {
    if (!path.endsWith(".tf")) continue;
    const folder = path.split("/").slice(0, -1).join("/");
    let parsed: Record<string, unknown>;
    try {
      parsed = (await parse(path, content)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${path} does not parse as HCL2: ${String(error)}`);
    }
    project.files[path] = parsed;
    const resources = (parsed.resource ?? {}) as Record<string, Record<string, unknown>>;
    for (const [type, byName] of Object.entries(resources)) {
      for (const name of Object.keys(byName)) project.resources.add(`${folder}/${type}.${name}`);
    }
    const found: string[] = [];
    await collectReferences({ resource: parsed.resource, output: parsed.output }, path, found);
    for (const reference of found) {
      if (reference.startsWith("aws_")) project.references.push({ folder, file: path, reference });
    }
    for (const block of (parsed.import ?? []) as { to: string; id: string }[]) {
      project.imports.push({ folder, to: block.to.replace(/^\$\{|\}$/g, ""), id: block.id });
    }
  }
  return project;
}

/** References whose resource (`aws_type.name`, before any attribute) is not declared in the same folder. */
export function unresolvedReferences(project: ParsedProject): string[] {
  return project.references
    .filter(({ folder, reference }) => {
      const [type, name] = reference.split(".");
      return !project.resources.has(`${folder}/${type}.${name}`);
    })
    .map(({ file, reference }) => `${file}: ${reference}`);
}

/** Import blocks whose target is not declared in their folder. */
export function unresolvedImports(project: ParsedProject): string[] {
  return project.imports
    .filter(({ folder, to }) => !project.resources.has(`${folder}/${to}`))
    .map(({ folder, to }) => `${folder}: ${to}`);
}

/** Import ids by resource type, sorted, for comparison with what was seeded. */
export function importIdsByType(project: ParsedProject): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const { to, id } of project.imports) (result[to.split(".")[0] ?? ""] ??= []).push(id);
  for (const ids of Object.values(result)) ids.sort();
  return result;
}
