/** The ISO 4217 codes this runtime knows (upper case). */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** Whether `code` (upper case) is an ISO 4217 currency code: prices, invite costs and the account's currency all check with this. */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}
