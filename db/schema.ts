export * from "./schema/accounts";
export * from "./schema/links";
export * from "./schema/secure";
export * from "./schema/tracking";
export * from "./schema/delivery";
export * from "./schema/bot";
export * from "./schema/webhooks";
export * from "./schema/analytics";
