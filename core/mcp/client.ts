import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import {
  AjvJsonSchemaValidator,
  Client,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "./sdk.ts";

/** An elicitation request from a server; the answer follows the MCP ElicitResult shape. */
export type Elicit = (req: { server: string; message: string; schema: unknown }) => Promise<{
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}>;

/** What an SDK client for one server answers and hears. */
export interface ClientHooks {
  /** The server's name. */
  server: string;
  /** navi's version. */
  version: string;
  /** The workspace root, the only root offered. */
  workspace: string;
  /** Answers elicitation requests; without it they are declined. */
  elicit?: Elicit;
  /** `notifications/tools/list_changed` arrived. */
  toolsChanged(): void;
  /** `notifications/resources/list_changed` or `notifications/prompts/list_changed` arrived. */
  catalogChanged(): void;
}

type Validate = (input: unknown) => unknown;

/**
 * Output-schema validators built on first use. The SDK's default builds an ajv instance with every client
 * and compiles each tool's outputSchema when tools/list answers: CPU a run that never calls that tool (a
 * one-shot task calls one or two) does not need.
 */
export class LazyValidators {
  #ajv?: AjvJsonSchemaValidator;

  /** A validator of `schema`, compiled (and ajv created) at its first call. */
  getValidator(schema: unknown): Validate {
    let compiled: Validate | undefined;
    return (input) => {
      this.#ajv ??= new AjvJsonSchemaValidator();
      compiled ??= this.#ajv.getValidator(schema as never) as Validate;
      return compiled(input);
    };
  }
}

/** An SDK client offering roots (the workspace) and elicitation, with list-change notifications wired. */
export function newClient(hooks: ClientHooks): Client {
  const client = new Client({ name: "navi", version: hooks.version }, {
    capabilities: { roots: { listChanged: false }, elicitation: {} },
    jsonSchemaValidator: new LazyValidators() as never,
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.toolsChanged());
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => hooks.catalogChanged());
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => hooks.catalogChanged());
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(hooks.workspace).href, name: basename(hooks.workspace) }],
  }));
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    if (!hooks.elicit) return { action: "decline" };
    const p = req.params as { message: string; requestedSchema?: unknown };
    return await hooks.elicit({ server: hooks.server, message: p.message, schema: p.requestedSchema });
  });
  return client;
}
