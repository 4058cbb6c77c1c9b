import type { Client, McpPrompt, McpResource, McpResourceTemplate } from "./sdk.ts";

/** What a server offers besides tools: resources, resource templates and prompts. */
export interface Catalog {
  /** Resources by URI (`resources/list`). */
  resources: McpResource[];
  /** URI templates (`resources/templates/list`). */
  templates: McpResourceTemplate[];
  /** Prompts (`prompts/list`). */
  prompts: McpPrompt[];
}

/** An empty catalog (a server without resources or prompts). */
export const EMPTY_CATALOG: Catalog = { resources: [], templates: [], prompts: [] };

async function pages<T>(
  fetch: (cursor: string | undefined) => Promise<{ nextCursor?: string } & Record<string, unknown>>,
  key: string,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  let guard = 0;
  do {
    const page = await fetch(cursor);
    out.push(...((page[key] as T[] | undefined) ?? []));
    cursor = page.nextCursor;
  } while (cursor && ++guard < 100);
  return out;
}

/** List a connected server's resources, templates and prompts (what its capabilities say it has). */
export async function fetchCatalog(client: Client, timeout: number): Promise<Catalog> {
  const caps = client.getServerCapabilities() ?? {};
  const opts = { timeout };
  const params = (cursor: string | undefined) => (cursor ? { cursor } : undefined);
  const [resources, templates, prompts] = await Promise.all([
    caps.resources
      ? pages<McpResource>((c) => client.listResources(params(c), opts), "resources")
      : Promise.resolve([]),
    caps.resources
      ? pages<McpResourceTemplate>((c) => client.listResourceTemplates(params(c), opts), "resourceTemplates")
        .catch(() => [])
      : Promise.resolve([]),
    caps.prompts
      ? pages<McpPrompt>((c) => client.listPrompts(params(c), opts), "prompts")
      : Promise.resolve([]),
  ]);
  return { resources, templates, prompts };
}
