/** The bot's command list, sent with setMyCommands at start and shown by /help. Features add theirs here. */
export const COMMANDS: { command: string; description: string }[] = [
  { command: "start", description: "Main menu" },
  { command: "help", description: "What this bot can do" },
  { command: "settings", description: "Plan, limits and API tokens" },
  { command: "cancel", description: "Leave the current dialog" },
];
