import { Elysia, t } from "elysia";
import { join } from "node:path";
import { NotFound } from "../../core/errors";

const FILES: Record<string, string> = { "countdown.js": "countdown.js", "pixels.js": "pixels.js" };

/**
 * The scripts of the visitor pages at /static/<file> (on SHORT_URL and BASE_URL alike): files, not
 * inline scripts, so the pages' Content-Security-Policy can allow scripts from the service only. And
 * /favicon.ico, which every browser asks for, answered 204: the service has no icon.
 */
export function pageAssets() {
  return (
    new Elysia({ name: "page-assets" })
      // a browser asks every site for its icon: none, said without an error (a 404 is a console error on every page)
      .get("/favicon.ico", () => new Response(null, { status: 204, headers: { "cache-control": "public, max-age=86400" } }), {
        detail: { hide: true },
      })
      .get(
        "/static/:file",
        ({ params }) => {
          const name = Object.hasOwn(FILES, params.file) ? FILES[params.file] : undefined;
          if (!name) throw new NotFound("Static file");
          return new Response(Bun.file(join(import.meta.dir, "static", name)), {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "public, max-age=3600",
              "x-content-type-options": "nosniff",
            },
          });
        },
        { params: t.Object({ file: t.String({ maxLength: 64 }) }), detail: { hide: true } },
      )
  );
}
