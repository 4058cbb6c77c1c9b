import type { NaviPluginApi } from "../navi.d.ts";

enum Kind {
  Informational = 1,
  Success,
  Redirection,
  ClientError,
  ServerError,
}

export default function register(navi: NaviPluginApi): void {
  const settings = (navi.config ?? {}) as { extra?: Record<string, string> };
  navi.registerTool({
    name: "http_status",
    description: "- Explains an HTTP status code: its class and, for common codes, its meaning.",
    parameters: navi.z.object({ code: navi.z.number().int().min(100).max(599) }),
    approval: "read_only",
    handler: ({ code }) => {
      const known: Record<number, string> = {
        200: "OK",
        201: "Created",
        204: "No Content",
        301: "Moved Permanently",
        304: "Not Modified",
        400: "Bad Request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not Found",
        429: "Too Many Requests",
        500: "Internal Server Error",
        503: "Service Unavailable",
        ...settings.extra,
      };
      return {
        ok: true,
        code,
        class: Kind[Math.floor(code / 100) as Kind],
        meaning: known[code] ?? "unknown",
      };
    },
  });
}
