import { visitorSuite } from "./visitor-suite";

visitorSuite("visitor flow", { listen: false });
