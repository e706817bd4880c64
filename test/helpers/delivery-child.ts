/** A separate process that runs only the delivery worker on DATA_DIR, so a test can kill -9 it mid-delivery. */
import { loadConfig } from "../../config";
import { createDeps } from "../../app";
import { deliveryWorker } from "../../app/delivery-routes";

const deps = createDeps(loadConfig());
await deliveryWorker(deps, { pollMs: 20 }).start();
console.log("worker started");
