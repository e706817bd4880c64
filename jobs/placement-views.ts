import type { Config } from "../config";
import type { Deps } from "../core/deps";
import type { MtprotoSource } from "../core/tracking/mtproto";
import { readDueViews, webPreviewReader, type ViewsReader } from "../core/placements/views";
import type { Job } from "./index";

/** Every minute: a new post URL is read within one. */
const PLACEMENT_VIEWS_CRON = "* * * * *";

/**
 * Reads the views of the placements' ad posts that are due: through the MTProto account when
 * `mtproto` gives a running source, else Telegram's public web preview.
 */
export function placementViewsJob(mtproto: () => MtprotoSource | null): Job {
  return {
    name: "placement-views",
    pattern: PLACEMENT_VIEWS_CRON,
    run(deps: Deps) {
      const source = mtproto();
      const readers: ViewsReader[] = [];
      if (source?.views) readers.push({ source: "mtproto", read: source.views });
      readers.push(webPreviewReader(deps));
      return readDueViews(deps, readers);
    },
  };
}

/**
 * Where the views job runs. With MTProto configured it runs beside the MTProto source, on the node
 * that holds the source (its own lease would put it on any node, where only the web preview is
 * there): `leased` is empty and `withMtproto` is the job to run while leading the source. Without
 * MTProto it is an ordinary leased job.
 */
export function placementViewsPlacement(
  config: Pick<Config, "mtproto">,
  mtproto: () => MtprotoSource | null,
): { leased: Job[]; withMtproto: Job | null } {
  const job = placementViewsJob(mtproto);
  return config.mtproto ? { leased: [], withMtproto: job } : { leased: [job], withMtproto: null };
}
