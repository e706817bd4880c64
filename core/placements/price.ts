/**
 * Prices as people write them: `5000`, `5 000 ₽`, `5000 руб`, `5000 р.`, `$50`, `50 usd`, `50 $`,
 * `5000 RUB`, `1 500,50 €`. A number alone takes the account's default currency.
 */
import { AppError } from "../errors";
import type { InviteCost } from "../../db/tables/channels";
import { isCurrencyCode } from "../currency";

/** A price: a non-negative amount in an ISO 4217 currency (the same shape as an invite's cost). */
export type Price = InviteCost;

/** Signs and words for currencies, lower case, besides the ISO codes themselves. */
const WORDS: Record<string, string> = {
  "₽": "RUB",
  р: "RUB",
  "р.": "RUB",
  руб: "RUB",
  "руб.": "RUB",
  рублей: "RUB",
  рубля: "RUB",
  рубль: "RUB",
  rub: "RUB",
  rur: "RUB",
  $: "USD",
  usd: "USD",
  долл: "USD",
  "долл.": "USD",
  долларов: "USD",
  доллара: "USD",
  доллар: "USD",
  "€": "EUR",
  евро: "EUR",
  "£": "GBP",
  "₸": "KZT",
  тг: "KZT",
  тенге: "KZT",
  "₴": "UAH",
  грн: "UAH",
  "грн.": "UAH",
  "₺": "TRY",
  "₹": "INR",
  "¥": "JPY",
  "₿": "BTC",
};

/** The currency a word or sign names, or null. */
function currencyOf(word: string): string | null {
  const w = word.trim().toLowerCase();
  if (!w) return null;
  if (WORDS[w]) return WORDS[w]!;
  const code = w.toUpperCase();
  return isCurrencyCode(code) ? code : null;
}

/** `5 000`, `5 000,50`, `5,000.50`, `5000.5`: the amount, or null. */
function amountOf(text: string): number | null {
  let t = text.replace(/[\s\u00a0\u202f']/g, "");
  if (!/^\d[\d.,]*$/.test(t)) return null;
  const lastSep = Math.max(t.lastIndexOf("."), t.lastIndexOf(","));
  // a separator followed by 1–2 digits is the decimal point; every other one groups thousands
  if (lastSep >= 0 && t.length - lastSep - 1 <= 2) t = `${t.slice(0, lastSep).replace(/[.,]/g, "")}.${t.slice(lastSep + 1)}`;
  else t = t.replace(/[.,]/g, "");
  const n = Number(t);
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : null;
}

const invalid = (text: string) =>
  new AppError(400, "invalid_price", `"${text.trim()}" is not a price: write an amount and a currency, e.g. 5000 RUB, 5 000 ₽ or $50`, [
    { field: "cost", message: "not a price" },
  ]);

/**
 * Reads a price: an amount with the currency before or after it (sign, ISO code or word, in any
 * case), or an amount alone in `defaultCurrency`. Throws AppError 400 `invalid_price` otherwise.
 */
export function parsePrice(text: string, defaultCurrency: string): Price {
  const t = text.trim();
  const m = /^(\D*?)\s*(\d[\d\s\u00a0\u202f.,']*)\s*(\D*)$/u.exec(t);
  if (!m) throw invalid(text);
  const [, before, number, after] = m as unknown as [string, string, string, string];
  const amount = amountOf(number);
  if (amount === null) throw invalid(text);
  if (before.trim() && after.trim()) throw invalid(text);
  const word = before.trim() || after.trim();
  const currency = word ? currencyOf(word) : defaultCurrency.toUpperCase();
  if (!currency || !isCurrencyCode(currency)) throw invalid(text);
  return { amount, currency };
}
