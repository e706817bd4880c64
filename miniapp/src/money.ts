/** Money as the reader's language writes it. */
import { fmtNumber, language } from "./i18n";

/** An amount in its currency, as the language writes it ("5 000 ₽", "$50"). */
export function money(n: number | null | undefined, currency: string | undefined): string {
  if (n === null || n === undefined || !currency) return "—";
  const whole = Math.round(n * 100) % 100 === 0;
  const digits = whole ? 0 : 2;
  try {
    return new Intl.NumberFormat(language(), {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(n);
  } catch {
    return `${fmtNumber(n, { maximumFractionDigits: 2 })} ${currency}`;
  }
}
