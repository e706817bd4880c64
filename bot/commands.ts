/** The bot's command list, sent with setMyCommands at start and shown by /help. */
export const COMMANDS: { command: string; description: string }[] = [
  { command: "start", description: "Main menu" },
  { command: "new", description: "Shorten a link: /new <url>, or /new and send the URL" },
  { command: "links", description: "Your links: cards, options, stats" },
  { command: "adpost", description: "Ad post: every link in it becomes a tracking link for one placement" },
  { command: "summary", description: "Clicks of all links as a picture: /summary [7d|30d|90d|all]" },
  { command: "secure", description: "Secure sharing: folders, files and share links" },
  { command: "track", description: "Create a keyword tracker" },
  { command: "trackers", description: "Your keyword trackers and their matches" },
  { command: "channels", description: "Your channels: invite links, who joins and who stays" },
  { command: "trackguide", description: "How to add the bot to a channel or group" },
  { command: "settings", description: "Plan and usage, API tokens, tags, pixels, passkeys, email" },
  { command: "help", description: "What this bot can do" },
  { command: "cancel", description: "Leave the current dialog" },
];
