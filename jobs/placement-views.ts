import type { Deps } from "../core/deps";
import type { MtprotoSource } from "../core/tracking/mtproto";
import { readDueViews, webPreviewReader, type ViewsReader } from "../core/placements/views";
import type { Job } from "./index";

/**
 * Reads the views of the placements' ad posts that are due (every minute: a new post URL is read
 * within one): through the MTProto account when it runs on this node, else Telegram's public web
 * preview. `mtproto` gives the running MTProto source, if any.
 */
export function placementViewsJob(mtproto: () => MtprotoSource | null): Job {
  return {
    name: "placement-views",
    pattern: "* * * * *",
    run(deps: Deps) {
      const source = mtproto();
      const readers: ViewsReader[] = [];
      if (source?.views) readers.push({ source: "mtproto", read: source.views });
      readers.push(webPreviewReader(deps));
      return readDueViews(deps, readers);
    },
  };
}
