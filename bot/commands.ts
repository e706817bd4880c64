/** The bot's command list, sent with setMyCommands at start and shown by /help. Features add theirs here. */
export const COMMANDS: { command: string; description: string }[] = [
  { command: "start", description: "Main menu" },
  { command: "help", description: "What this bot can do" },
  { command: "secure", description: "Secure sharing: folders, files and share links" },
  { command: "track", description: "Create a keyword tracker" },
  { command: "trackers", description: "Your keyword trackers and their matches" },
  { command: "trackguide", description: "How to add the bot to a channel or group" },
  { command: "settings", description: "Plan, limits and API tokens" },
  { command: "cancel", description: "Leave the current dialog" },
];
