/**
 * Time zones by the cities people name them after, in Russian and English (pure: the mini-app may
 * bundle it). Each zone's first city is its name on screens ("Москва", "Moscow"); the others are
 * only read. Zones not listed are named by their IANA city ("Europe/Berlin" → "Berlin").
 */
import type { Language } from "./language";

/** zone → [Russian names…], [English names…]; the first of each is how the zone is shown. */
const PLACES: Record<string, [string[], string[]]> = {
  "Europe/Moscow": [
    [
      "Москва",
      "мск",
      "Санкт-Петербург",
      "Питер",
      "Петербург",
      "СПб",
      "Казань",
      "Нижний Новгород",
      "Ростов-на-Дону",
      "Краснодар",
      "Сочи",
      "Воронеж",
      "Ярославль",
    ],
    ["Moscow", "Saint Petersburg", "St Petersburg", "St. Petersburg", "Kazan", "Sochi"],
  ],
  "Europe/Minsk": [["Минск"], ["Minsk"]],
  "Europe/Kyiv": [
    ["Киев", "Київ"],
    ["Kyiv", "Kiev"],
  ],
  "Europe/Kaliningrad": [["Калининград"], ["Kaliningrad"]],
  "Europe/Samara": [["Самара", "Ижевск"], ["Samara"]],
  "Europe/Volgograd": [["Волгоград"], ["Volgograd"]],
  "Europe/Saratov": [["Саратов"], ["Saratov"]],
  "Asia/Yekaterinburg": [
    ["Екатеринбург", "Екб", "Челябинск", "Уфа", "Пермь", "Тюмень"],
    ["Yekaterinburg", "Ekaterinburg"],
  ],
  "Asia/Omsk": [["Омск"], ["Omsk"]],
  "Asia/Novosibirsk": [["Новосибирск"], ["Novosibirsk"]],
  "Asia/Krasnoyarsk": [["Красноярск"], ["Krasnoyarsk"]],
  "Asia/Irkutsk": [["Иркутск"], ["Irkutsk"]],
  "Asia/Yakutsk": [["Якутск"], ["Yakutsk"]],
  "Asia/Vladivostok": [
    ["Владивосток", "Хабаровск"],
    ["Vladivostok", "Khabarovsk"],
  ],
  "Asia/Magadan": [["Магадан"], ["Magadan"]],
  "Asia/Kamchatka": [["Петропавловск-Камчатский", "Камчатка"], ["Kamchatka"]],
  "Asia/Almaty": [
    ["Алматы", "Астана"],
    ["Almaty", "Astana"],
  ],
  "Asia/Tashkent": [["Ташкент"], ["Tashkent"]],
  "Asia/Tbilisi": [["Тбилиси"], ["Tbilisi"]],
  "Asia/Yerevan": [["Ереван"], ["Yerevan"]],
  "Asia/Baku": [["Баку"], ["Baku"]],
  "Asia/Bishkek": [["Бишкек"], ["Bishkek"]],
  "Asia/Dubai": [["Дубай"], ["Dubai"]],
  "Asia/Jerusalem": [
    ["Тель-Авив", "Иерусалим"],
    ["Tel Aviv", "Jerusalem"],
  ],
  "Asia/Kolkata": [
    ["Дели", "Мумбаи"],
    ["Delhi", "Mumbai", "New Delhi"],
  ],
  "Asia/Shanghai": [
    ["Пекин", "Шанхай"],
    ["Beijing", "Shanghai"],
  ],
  "Asia/Tokyo": [["Токио"], ["Tokyo"]],
  "Asia/Bangkok": [["Бангкок"], ["Bangkok"]],
  "Asia/Singapore": [["Сингапур"], ["Singapore"]],
  "Europe/Istanbul": [
    ["Стамбул", "Анкара"],
    ["Istanbul", "Ankara"],
  ],
  "Europe/Berlin": [["Берлин"], ["Berlin"]],
  "Europe/Paris": [["Париж"], ["Paris"]],
  "Europe/London": [["Лондон"], ["London"]],
  "Europe/Warsaw": [["Варшава"], ["Warsaw"]],
  "Europe/Prague": [["Прага"], ["Prague"]],
  "Europe/Riga": [["Рига"], ["Riga"]],
  "Europe/Vilnius": [["Вильнюс"], ["Vilnius"]],
  "Europe/Tallinn": [["Таллин"], ["Tallinn"]],
  "Europe/Helsinki": [["Хельсинки"], ["Helsinki"]],
  "Europe/Madrid": [["Мадрид"], ["Madrid"]],
  "Europe/Rome": [["Рим"], ["Rome"]],
  "Europe/Amsterdam": [["Амстердам"], ["Amsterdam"]],
  "Europe/Belgrade": [["Белград"], ["Belgrade"]],
  "Europe/Chisinau": [["Кишинёв", "Кишинев"], ["Chisinau"]],
  "America/New_York": [
    ["Нью-Йорк", "Вашингтон"],
    ["New York", "Washington", "NYC"],
  ],
  "America/Chicago": [["Чикаго"], ["Chicago"]],
  "America/Los_Angeles": [
    ["Лос-Анджелес", "Сан-Франциско"],
    ["Los Angeles", "San Francisco", "LA", "SF"],
  ],
};

const key = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/[\s_.]+/g, " ")
    .replace(/ ?- ?/g, "-");

/** name (lower case, spaces for `_`) → zone, for both languages. */
const BY_NAME = new Map<string, string>();
for (const [zone, [ru, en]] of Object.entries(PLACES)) for (const name of [...ru, ...en]) BY_NAME.set(key(name), zone);

/** The zone of a city a person typed, in Russian or English ("Москва", "new york", "Питер"); null when unknown. */
export function zoneOfPlace(text: string): string | null {
  return BY_NAME.get(key(text)) ?? null;
}

/** The zone's place as people say it in `language`: its first city, else the IANA city with spaces; null for offsets and UTC. */
export function placeOfZone(zone: string, language: Language): string | null {
  const names = PLACES[zone];
  if (names) return names[language === "ru" ? 0 : 1][0]!;
  if (zone === "UTC" || zone.startsWith("Etc/") || !zone.includes("/")) return null;
  return zone.slice(zone.lastIndexOf("/") + 1).replace(/_/g, " ");
}
