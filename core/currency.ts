/** The ISO 4217 codes this runtime knows (upper case). */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/**
 * ISO 4217 codes that name no money anyone pays an ad or a sale in: "no currency" and the testing
 * code, precious metals, bond-market units and the IMF's and regional accounting units.
 */
const NOT_MONEY = new Set(["XXX", "XTS", "XAU", "XAG", "XPT", "XPD", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA"]);

/** Whether `code` (upper case) is an ISO 4217 currency code of money: prices, invite costs and the account's currency all check with this. */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code) && !NOT_MONEY.has(code);
}
