import type { Transformer } from "grammy";

/**
 * Every text the bot sends is HTML: this transformer gives each message, caption, album or edited
 * medium and inline result `parse_mode: "HTML"` unless the call formats it itself (its own mode, or
 * entities). It is the one place the parse mode is set; user and outside text in a message is
 * escaped (Bun.escapeHTML) where the message is put together. Toasts (answerCallbackQuery's text)
 * are not messages and stay plain.
 */
export const htmlByDefault: Transformer = (prev, method, payload, signal) => {
  if (!payload || typeof payload !== "object" || !HTML_METHODS.has(method)) return prev(method, payload, signal);
  return prev(method, withHtml(payload as Fields) as typeof payload, signal);
};

/** The Bot API methods whose text, caption, media or results Telegram reads in a parse mode. */
const HTML_METHODS = new Set<string>([
  "sendMessage",
  "editMessageText",
  "sendPhoto",
  "sendVideo",
  "sendAnimation",
  "sendAudio",
  "sendDocument",
  "sendVoice",
  "sendPaidMedia",
  "copyMessage",
  "editMessageCaption",
  "sendMediaGroup",
  "editMessageMedia",
  "answerInlineQuery",
]);

type Fields = Record<string, unknown>;

/** Fields that format a text themselves: a text given with its entities (a copied post) is sent as it is. */
const FORMATTED = ["parse_mode", "entities", "caption_entities"];

/**
 * `fields` with parse_mode HTML when it has a `text` field (`message_text` in an inline result) or a
 * caption, and nothing that formats it already.
 */
function html(fields: Fields, text = "text"): Fields {
  return (text in fields || "caption" in fields) && !FORMATTED.some((f) => f in fields) ? { ...fields, parse_mode: "HTML" } : fields;
}

function withHtml(payload: Fields): Fields {
  const out = { ...html(payload) };
  if (Array.isArray(out.results))
    out.results = (out.results as Fields[]).map((r) => {
      const content = r.input_message_content as Fields | undefined;
      return { ...html(r, "caption"), ...(content ? { input_message_content: html(content, "message_text") } : {}) };
    });
  if (Array.isArray(out.media)) out.media = (out.media as Fields[]).map((m) => html(m, "caption"));
  else if (out.media && typeof out.media === "object") out.media = html(out.media as Fields, "caption");
  return out;
}
