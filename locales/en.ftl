# The bot's English texts. Every key here is also in ru.ftl, with the same variables
# (test/bot/i18n.test.ts checks both files against the code). docs/bot.md: "Languages".

## Errors and navigation
error-toast = Something went wrong; it was logged. Please try again.
error-message = ⚠️ Something went wrong on my side; it was logged. Please try again.
nav-outdated = This screen had changed: here it is as it is now.
nav-menu = ⬅️ Menu
nav-stale-button = This button is no longer active. Send /start for the menu.
deep-link-owner-only = This button works only in the owner's chat with the bot.
open-in-bot = Open in the bot

## Problems (bot/problem.ts; English shows the core's own sentences)
problem-not_found = It is gone: it was deleted or is not yours.
problem-plan_limit = Your plan's limit is reached.
problem-plan_limit-of = Your { $plan } plan allows { $max } { $what }; you have { $current }. Upgrade to add more.
plan-limit-what-links = links
plan-limit-what-trackers = trackers
plan-limit-what-secureFiles = secure files
plan-limit-what-storageMB = MB of storage
plan-limit-what-requestStorageMB = MB sent through request links
problem-rate_limited = Too many attempts; try again a little later.
problem-forbidden = That is not allowed.
problem-conflict = That already exists.
problem-gone = That is no longer available.
problem-too_large = That is too large.
problem-upstream_error = Telegram or another service did not answer; try again a little later.
problem-not_configured = This is not set up on this server.
problem-invalid_query = The keyword query does not parse; check the quotes and brackets.
problem-chat_not_yours = Notifications can only go to one of your channels or groups where the bot is an administrator.
problem-other = That did not work; check what you sent and try again.

## /start, /help, /cancel, unknown input
start-welcome = 👋 Welcome! I shorten and track links, share files securely and watch chats for keywords. Paste a link to start.
start-welcome-named = 👋 Welcome, { $name }! I shorten and track links, share files securely and watch chats for keywords. Paste a link to start.
help-text =
    Here is what I understand:

    { $commands }

    Paste any link (or a domain like example.com) to shorten it; send a file or a text to store it securely. In any chat, type @{ $bot } and a link to share its short link there.

    Everything is also in the menu (/start) and in the app: { $app }/
cancel-done = Cancelled. Nothing was saved.
cancel-nothing = There is nothing to cancel.
unknown-command = I don't know the command { $command }. Send /help for the list, or pick a section:
unknown-voice = I cannot listen to voice or video messages. Type what you need (a link to shorten, words to track), send it as a file to store it, or pick a section below:
unknown-sticker = Stickers and GIFs have nothing for me to do. Paste a link to shorten it, pick a section below, or send /help:
help-group = In this group I deliver keyword matches and count joins for the people who set me up. Everything else happens in a private chat with me: @{ $bot }
unknown-message = I'm not sure what to do with that. Paste a link to shorten it, pick a section below, or send /help:

## Commands (the menu of commands Telegram shows)
command-start = Main menu
command-new = Shorten a link: /new <url>, or /new and send the URL
command-links = Your links: cards, options, stats
command-ads = Ads you bought: price, clicks, joins, who stayed and the cost of each
command-adpost = Ad post: every link in it becomes a tracking link for one placement
command-summary = Clicks of all links as a picture: /summary [7d|30d|90d|all]
command-secure = Secure sharing: folders, files and share links
command-track = Create a keyword tracker
command-trackers = Your keyword trackers and their matches
command-channels = Your channels: invite links, who joins and who stays
command-trackguide = How to add the bot to a channel or group
command-settings = Plan and usage, API tokens, tags, pixels, passkeys, email, language
command-help = What this bot can do
command-cancel = Leave the current dialog

## Main menu
main-text = What would you like to do?
main-links = 🔗 Links
main-secure = 🔒 Secure sharing
main-trackers = 🔎 Keyword tracking
main-channels = 📣 Channels
main-ads = 📢 Ads
main-settings = ⚙️ Settings
main-app = 📱 Open the app

## Settings
settings-title = <b>⚙️ Settings</b>
plan-free = Free
plan-starter = Starter
plan-pro = Pro
plan-business = Business
settings-plan = Plan: <b>{ $plan }</b>
settings-plan-until = Plan: <b>{ $plan }</b> until { $date }
settings-plan-forever = Plan: <b>{ $plan }</b> (no expiry)
settings-usage-links = 🔗 Links: { $used } of { $limit }
settings-usage-trackers = 🔎 Trackers: { $used } of { $limit }
settings-usage-files = 🔐 Secure files: { $used } of { $limit }
settings-usage-full = ⛔️ full
settings-storage = 💾 Storage: { $used } of { $limit } MB
settings-sign-in = Sign-in: { $methods }
settings-language = Language: English
settings-sign-in-passkey = passkey “{ $name }”
settings-sign-in-email = email { $email }
settings-sign-in-telegram = Telegram
settings-back = ⬅️ Settings
settings-tokens = 🔑 API tokens
settings-passkeys = 🔐 Passkeys
settings-tags = 🏷 Tags
settings-pixels = 📡 Pixels
settings-link-email = 📧 Link an email
settings-sign-ins = 🪪 Sign-in methods
settings-reports = 📬 Reports and time zone
reports-title = <b>📬 Reports</b>
reports-off = Reports are off.
reports-daily = Every day at { $hour }: the day before.
reports-weekly = Every { $weekday } at { $hour }: the seven days before.
reports-zone = Time zone: { $zone }
reports-about = A report counts clicks and unique visitors against the period before, your top links, joins and leaves of your channels and keyword matches.
reports-set-off = No reports
reports-set-daily = Daily
reports-set-weekly = Weekly
reports-earlier = ◀️ An hour earlier
reports-later = An hour later ▶️
reports-next-day = 📅 Next weekday
reports-time-zone = 🌍 Time zone
weekday-1 = Monday
weekday-2 = Tuesday
weekday-3 = Wednesday
weekday-4 = Thursday
weekday-5 = Friday
weekday-6 = Saturday
weekday-7 = Sunday
time-zone-ask = Send your time zone: a city (Moscow, Almaty), a zone name (Europe/Berlin) or an offset from UTC (+3). /cancel keeps the one you have.
time-zone-unknown = I do not know the time zone “{ $text }”. Send a city (Moscow), a zone name (Europe/Berlin) or an offset (+3), or /cancel.
time-zone-set = ✅ Time zone: { $zone }.
settings-switch-language = 🇷🇺 Русский
settings-language-set = Language: English.
never = never
item-remove-label = 🗑 { $label }
item-remove-yes = 🗑 Yes, remove
item-keep = Keep it
tokens-empty = <b>🔑 API tokens</b>
    No API tokens yet. A token lets scripts use the API.
tokens-head = <b>🔑 API tokens</b> ({ $count }), tap one to revoke it:
tokens-item = • <b>{ $name }</b> <code>{ $hint }…</code> — { $scopes }; expires { $expires }, last used { $used }
tokens-revoke-label = Revoke { $name }
tokens-confirm = Revoke the token “{ $name }”? Scripts using it stop working at once.
tokens-removed = 🗑 Token revoked.
tokens-add = ➕ New API token
tags-head = <b>🏷 Tags</b> ({ $count }): tap one to delete it (its links stay).
tags-empty = <b>🏷 Tags</b>
    No tags yet. Add one here or from a link's card.
tags-confirm = Delete the tag “{ $name }”? Links keep working; they just lose this tag.
tags-removed = 🗑 Tag deleted.
tags-add = ➕ New tag
pixels-empty = <b>📡 Pixels</b>
    No pixels yet. A pixel fires on the redirect page of the links you attach it to.
pixels-head = <b>📡 Pixels</b> ({ $count }), tap one to delete it:
pixels-confirm = Delete the pixel “{ $name }”? It stops firing on every link.
pixels-removed = 🗑 Pixel deleted.
pixels-add = ➕ New pixel
passkeys-add-hint = Add passkeys in the app ({ $app }/): they need a browser.
passkeys-head = <b>🔐 Passkeys</b> ({ $count }): tap one to remove it.
    { $hint }
passkeys-empty = <b>🔐 Passkeys</b>
    No passkeys. { $hint }
passkey-unnamed = Passkey
passkeys-confirm = Remove the passkey “{ $name }”? It can no longer sign in to this account.
passkeys-removed = 🗑 Passkey removed.
sign-ins-head = <b>🪪 Sign-in methods</b>
    This Telegram account signs you in here and stays. Tap another to unlink it:
sign-ins-none = <b>🪪 Sign-in methods</b>
    This Telegram account signs you in here and stays. Nothing else to unlink (passkeys have their own list).
sign-in-email = email { $email }
sign-in-telegram = Telegram account { $id }
sign-ins-confirm = Unlink { $name }? It can no longer sign in to this account (its links and files stay).
sign-ins-removed = 🗑 Sign-in unlinked.

## Settings dialogs
dialog-try-again = { $problem }
    Try again, or /cancel.
token-ask-name = Name the new API token (e.g. “ci” or “zapier”), or /cancel:
token-name-too-long = At most 100 characters, please.
token-pick-scopes = Token “{ $name }”: what may it do? Tap 👁 Read only, or tap the scopes one by one and then Create, or type them (e.g. “links: read, stats: read”). Nothing chosen is full access (*).
token-preset-read = 👁 Read only (every read scope)
token-scopes-rule = I know these scopes: { $names } (or “all”). Type them separated by commas, or tap the buttons above.
token-create-with = ✔️ Create with { $count ->
        [one] { $count } scope
       *[other] { $count } scopes
    }
token-create-all = ✔️ Create with all scopes (*)
token-created =
    ✅ Token <b>{ $name }</b> created with scopes { $scopes }.

    <code>{ $token }</code>

    Copy it now: it is not shown again. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
tag-ask-name = Send the new tag's name (at most 50 characters), or /cancel.
tag-created = ✅ Tag “{ $name }” created.
pixel-ask = Send the pixel as “type id name”, e.g. “facebook 123456789012345 Main shop”. Types: { $types }. /cancel stops.
pixel-added = ✅ Pixel “{ $name }” added.
email-ask = 📧 Send the email address to link to this account. I mail it a code. /cancel stops.
email-try-another = { $problem }
    Send another address, or /cancel.
email-code-sent = I sent a code to { $email }. Send it here (it is valid for 10 minutes).
email-code-again = { $problem }
    Send the code again, or /cancel.
email-linked = ✅ { $email } is linked: you can sign in with it in the app.
email-linked-merged = ✅ { $email } is linked: you can sign in with it in the app. The account that email had was merged into this one.

## Option names in error messages (bot/plain.ts)
field-rule = rule
field-variant = variant
field-url = the target URL
field-title = the title
field-code = the short code
field-utm_source = the UTM source
field-utm_medium = the UTM medium
field-utm_campaign = the UTM campaign
field-tagIds = the tags
field-tags = the tags
field-starts_at = the start
field-expires_at = the expiry
field-expired_url = the after-expiry URL
field-max_clicks = the click cap
field-password = the password
field-ios_url = the iPhone and iPad target
field-android_url = the Android target
field-desktop_url = the desktop target
field-pixelIds = the pixels
field-domain_id = the domain
field-webhook_url = the webhook URL
field-webhook_method = the webhook method
field-rules = the rules
field-variants = the A/B split
field-weight = weight
field-keyword = the keyword
field-name = the name
field-minus_words = the minus words
field-include_sources = the sources to watch
field-exclude_sources = the sources to skip
field-filter_geo = the country
field-filter_language = the language
field-filter_category = the category
field-filter_min_subscribers = the minimum of subscribers
field-notify_via = where I notify you
field-notify_chat_id = the chat for notifications
field-email = the email address
field-cost = the price
field-member_limit = the member limit
field-welcome_message = the welcome message
field-scopes = the permissions
field-hostname = the domain name
field-pixelId = the pixel id
field-period = the period
field-format = the format
field-time_zone = the time zone
field-post_url = the post's URL
field-venue = where it runs
field-publish_at = the publication date
field-notes = the notes
field-views = the views
field-currency = the currency
field-type = the type

## Reading a URL (bot/url-text.ts)
url-not-a-link = That does not look like a link.
url-scheme = Only http:// and https:// links can be shortened, not { $scheme }: links.
url-spaces = A link cannot contain spaces. Send the URL alone, or encode spaces as %20.
url-too-long = That link is { $length } characters long; at most { $max } can be shortened.
url-not-target = That cannot be a target: it { $reason }.
new-usage = { $problem }
    Send /new followed by a URL, or just /new.

## Links: the list, the card, creating
links-title = 🔗 <b>Your links</b>
links-title-tagged = 🔗 <b>Your links</b> tagged “{ $tag }”
links-count = { $title } ({ $count })
    Open one to see its card and change its options.
links-none-tagged = { $title }
    No links carry this tag.
links-none = { $title }
    No links yet. Paste a URL here to create one, or tap “New link”.
links-all = All
links-all-current = • All
links-new = ➕ New link
links-orphans = 👻 Dead-code visits
card-clicks = 👆 Clicks: <b>{ $total }</b> · unique { $unique } · bots { $bots }
card-active = 🟢 Active
card-inactive = ⚪️ Inactive: visitors get “not found”
card-invite = 📣 Invite “{ $name }”: joined { $joins } · left { $leaves } · net { $net }
placement-private = a private chat
placement-line = 📍 Posted in { $channels ->
        [one] { $channels } channel
       *[other] { $channels } channels
    }{ $posts ->
        [0] {""}
       *[other] {" "}({ $posts } posts)
    }: { $names }{ $more ->
        [0] {""}
       *[other] {" "}and { $more } more
    }
card-copy = 📋 Copy link
card-share = ↗️ Share
card-turn-off = ⏸ Turn off
card-turn-on = ▶️ Turn on
card-stats = 📊 Stats
card-chart = 📈 Chart
card-export = 📤 Export
card-qr = 🔳 QR
card-webhook = 🔔 Webhook: test, deliveries, secret
card-delete = 🗑 Delete
card-back = ⬅️ My links
link-delete-confirm = Delete <b>{ $title }</b>?
    { $clicks ->
        [one] Its { $clicks } recorded click is deleted too
       *[other] Its { $clicks } recorded clicks are deleted too
    }, and { $url } stops working.
link-delete-yes = 🗑 Yes, delete
link-delete-cancel = Cancel
link-deleted = 🗑 Deleted.
link-created = ✅ Your tracking link:
    <code>{ $url }</code>
    Tap an option below to change it.
link-cut-at = ⚠️ The link ends at the space after { $url }. If the space belongs to the address, send it again with %20 in its place.
link-create-failed = Could not create the link:
    { $problem }
link-limit = ⛔️ { $problem }
link-duplicate = You already have a link to this URL: { $url }, { $clicks ->
        [one] { $clicks } click so far.
       *[other] { $clicks } clicks so far.
    }
link-duplicate-titled = You already have a link to this URL: { $url } ({ $title }), { $clicks ->
        [one] { $clicks } click so far.
       *[other] { $clicks } clicks so far.
    }
link-duplicate-open = 📂 Open it
link-duplicate-new = ➕ Make another
link-duplicate-hint = Press 📂 Open it or ➕ Make another, or /cancel.
dialog-cancelled-nothing-created = Cancelled. Nothing was created.
link-ask-url = Send the link to shorten (a URL or a domain like example.com). /cancel stops.
link-ask-url-again = { $problem }
    Send a URL, or /cancel.
option-ask = { $label }: { $prompt }
    /cancel keeps it as it is.
option-ask-clearable = { $label }: { $prompt }
    /clear removes it · /cancel keeps it as it is.
option-cannot-clear = { $option } cannot be removed; send a new one, or /cancel.
option-cannot-clear-generic = This option cannot be cleared; send a new value.
option-saved = ✅ Saved: { $option }.
option-cleared = ✅ Cleared: { $option }.
warning = ⚠️ { $text }
choice-expired = This choice has expired: start that step again from the menu.
choice-cancel = Cancel
choice-on = ✅ On
choice-off = ❌ Off
choice-syntax-query = 🧩 Query
choice-syntax-plain = 🔤 Plain word or phrase
choice-reposts-skip = Skip them
choice-reposts-keep = Keep them
choice-every-instant = At once
choice-every-hour = Hourly
choice-every-day = Daily
telegram-refused = Telegram refused: { $reason }
telegram-refused-why = Telegram refused: { $why }.
tg-why-invite-rights = the bot lacks the “Invite users via link” right in this chat; turn it on in the list of administrators (Manage channel → Administrators → the bot)
tg-why-admin-rights = the bot lacks an administrator right this needs in this chat; check its rights in the list of administrators
tg-why-not-member = the bot is not in this chat; add it as an administrator
tg-why-chat-not-found = Telegram does not know this chat, or the bot is not in it
tg-why-request-gone = this request is gone: it was approved or declined in Telegram, or the person took it back
tg-why-user-full = this person is in too many channels and groups; Telegram takes them in no more

## Inline mode
inline-hint-title = Type or paste a link
inline-hint-description = e.g. example.com/page
inline-hint-text = Shorten links with me: type @{ $bot } and a link.
inline-problem-title = This cannot be shortened
inline-existing = Your link to { $url }
inline-making = ⏳ Making the short link…
inline-new-title = Shorten { $url }
inline-new-description = Your tracking link is made when you send this
inline-recent = { $url } · { $clicks ->
        [one] { $clicks } click
       *[other] { $clicks } clicks
    }
inline-failed = ⚠️ I could not shorten { $url }: { $problem }

## Stats and export
period-1d = last 24 hours
period-7d = last 7 days
period-30d = last 30 days
period-90d = last 90 days
period-1y = last year
period-all = all time
stats-title = 📊 { $name } — { $period }
stats-clicks = Clicks: { $count }
stats-unique = Unique: { $count }
stats-bots = Bots: { $count }
stats-per-day = Per day: { $count }
stats-countries = Top countries: { $list }
stats-devices = Devices: { $list }
stats-rules = By rule (first match wins):
stats-rule-clicks = { $clicks ->
        [one] { $clicks } click
       *[other] { $clicks } clicks
    }
stats-variants = A/B split, side by side:
stats-variant-clicks = { $clicks ->
        [one] { $clicks } click
       *[other] { $clicks } clicks
    } ({ $percentage }%), { $unique } unique
stats-period = { $period }
stats-period-current = • { $period } •
stats-back = ⬅️ Link
export-title = 📤 Export the clicks of { $url } (newest first, up to { $max }). Choose a format:
export-button = { $format } · { $period ->
        [all] all time
       *[other] last 30 days
    }
export-running = ⏳ Exporting { $format }…
export-progress = ⏳ Exporting { $format }… { $done } of { $total } rows ({ $percent }%)
export-empty = ℹ️ No clicks on { $code } in the chosen period ({ $period }); nothing was sent
export-sent = ✅ Sent { $filename } with { $count ->
        [one] { $count } click
       *[other] { $count } clicks
    } to your Telegram chat
export-sent-capped = ✅ Sent { $filename } with { $count ->
        [one] { $count } click
       *[other] { $count } clicks
    } (the newest { $max }, the export limit) to your Telegram chat
qr-caption = QR code for { $url }

## Keyword trackers
track-guide =
    <b>Adding me as a source</b>
    I find keywords in every channel and group I am a member of.

    • <b>Channel</b>: channel → Administrators → Add admin → search for me. Posting rights are not needed; admins are the only way for a bot to read a channel.
    • <b>Group</b>: group → Add members → me. In groups with privacy mode on, make me an admin so I can read every message.

    I read new posts and edits from the moment I am added. Past messages are not searched. I tell you when I am added or removed.
trackers-none = 🔎 You have no keyword trackers yet. Create one to be told when a word appears in channels and chats I am in.
trackers-title = 🔎 <b>Your keyword trackers</b>
    Tap one to see matches or change it.
trackers-title-paged = 🔎 <b>Your keyword trackers</b> ({ $from }–{ $to } of { $total })
    Tap one to see matches or change it.
trackers-item-new = ({ $count } new)
trackers-limit = Your { $plan } plan allows { $max } trackers and you have { $current }. Delete one or upgrade to add more.
trackers-new = ➕ New tracker
trackers-guide = 📖 Add me to a channel
trackers-back = ⬅️ Trackers
page-previous = « Previous
page-more = More »
tracker-preview-none = Preview: no recent posts to try it on yet.
tracker-preview-query = 👀 This query would have matched { $matched ->
        [0] these 0 of the last { $of } posts.
        [one] this { $matched } of the last { $of } posts:
       *[other] these { $matched } of the last { $of } posts:
    }
tracker-preview-keyword = 👀 This keyword would have matched { $matched ->
        [0] these 0 of the last { $of } posts.
        [one] this { $matched } of the last { $of } posts:
       *[other] these { $matched } of the last { $of } posts:
    }
tracker-preview-skipped = ⏳ { $count ->
        [one] { $count } post was
       *[other] { $count } posts were
    } too costly to check with this query and { $count ->
        [one] was
       *[other] were
    } skipped.
tracker-over-budget = ⚠️ Tracker <b>{ $name }</b>: a post was too costly to check with this query, so it was skipped for this tracker. Posts like it will be skipped too, and you will not be told again. A query with fewer NEAR pairs or with rarer words costs less.
tracker-via-webhook = webhook { $url }
tracker-via-chat = chat { $chat }
tracker-via-topic = chat { $chat }, topic { $topic }
tracker-via-here = this chat
tracker-active = 🟢 active
tracker-paused = ⏸ paused
tracker-query = Query: <code>{ $keyword }</code>
tracker-keyword = Keyword: <code>{ $keyword }</code>
tracker-keyword-whole = Keyword: <code>{ $keyword }</code> (whole words)
tracker-word-forms = any word forms
tracker-skip-reposts = reposts and copies skipped
tracker-watch-links = posts with my links too
tracker-minus = Minus words: { $words }
tracker-searches-both = Searches: channels and chats
tracker-searches-channels = Searches: channels
tracker-searches-chats = Searches: chats
tracker-only = Only: { $sources }
tracker-never = Never: { $sources }
tracker-min-members = At least { $count } members
tracker-language = Language: { $language }
tracker-notify = Notifies via: { $via }
tracker-notify-hourly = Notifies via: { $via }, one digest an hour
tracker-notify-daily = Notifies via: { $via }, one digest a day
tracker-matches = Matches: { $total } ({ $unread } unread)
tracker-disable = ⏸ Disable
tracker-enable = ▶️ Enable
tracker-feed = 📰 Matches
tracker-mark-all = ✓ Mark all read
tracker-marked-all = ✓ All matches marked as read.
tracker-delete-confirm = Delete the tracker “{ $name }” and its matches?
tracker-delete-yes = 🗑 Yes, delete it and its matches
tracker-deleted = 🗑 Tracker deleted.
tracker-keep = No, keep it
feed-chat = chat
feed-open = open
feed-deleted = (deleted)
feed-edited-out = ✏️ edited: no longer matches
feed-header = <b>{ $name }</b>: matches { $from }–{ $to } of { $total }
feed-empty = <b>{ $name }</b>: no matches yet.
feed-newer = « Newer
feed-older = Older »
feed-back = ⬅️ Tracker
match-marked = ✓ Marked as read.
match-already-read = That match was already read or is gone.
matches-marked = ✓ { $count } marked as read.
match-read-note = ✓ Read
matches-read-note = ✓ All read

## New tracker dialog
track-ask = { $question }

    /cancel to stop.
track-ask-skippable = { $question }

    /skip to leave it out, /cancel to stop.
track-text-please = Please answer with text, or /cancel.
track-choice-hint = Please press one of the buttons above, or type { $words }; /cancel stops.
track-keyword = 🔎 New keyword tracker.
    Send the keyword or phrase to look for in channels and chats.
track-exact = Match whole words only?
    (Whole words: «rust» does not match «trusted».)
track-exact-whole = Whole words
track-exact-anywhere = Anywhere in the text
track-minus = Minus words: a post containing any of them is ignored. Send them separated by commas.
track-where = Where should I look?
track-where-both = Channels and chats
track-where-channels = Only channels
track-where-chats = Only chats
track-sources = Only specific sources? Send @usernames, chat ids or t.me links separated by spaces.
track-via = How should I notify you?
track-via-bot = Message from this bot
track-via-webhook = Webhook (HTTP POST)
track-webhook = Send the webhook URL (it must answer 200 to a test request).
track-private-only = Please talk to me in a private chat.
track-failed = ❌ { $problem }

    Send /track to try again.
track-created = ✅ Tracker created: «{ $keyword }». I will tell you when it appears in a chat or channel I am in. Add me to more channels or groups to widen the search: /trackguide
track-keyword-again = Send the keyword again, or a corrected query.
track-query-taken = 🔣 I read this as a query: { $meaning }.
track-created-word-forms = 🌿 Word forms are on: other forms of the words match too. To match only as written: the 🌿 Word forms button below, then “off”.
query-words-or = {" "}or{" "}
query-words-and = {" "}and{" "}
query-words-without = without “{ $what }”
query-words-phrase = the phrase “{ $phrase }”
query-words-prefix = words starting with “{ $word }”
query-words-near = { $a } and { $b } at most { $distance ->
    [one] one word
   *[other] { $distance } words
  } apart
query-refused = ❌ I can't read this query: { $reason }.
query-refused-at = ❌ I can't read this query at character { $position }: { $reason }.
    <code>{ $shown }</code>
query-problem-quote = this quote is never closed
query-problem-dash = a “-” stands alone; write it right before the word to exclude, as in -scam
query-problem-near = write NEAR/ with the number of words allowed between, as in NEAR/3
query-problem-long = a query is at most { $max } characters, this one has { $length }
query-problem-ends = the query ends where a word was expected
query-problem-expected-word = a word, a phrase or a group was expected here
query-problem-after-near = a word or a phrase must follow NEAR
query-problem-after-or = a word or a group must follow OR
query-problem-before-or = OR must stand between two words or groups
query-problem-before-near = NEAR must stand between two words
query-problem-nothing = there is nothing to look for in “{ $text }”
query-problem-empty-phrase = the quotes hold no words
query-problem-terms = a query has at most { $max } words and phrases
query-problem-open = this parenthesis is never closed
query-problem-parens-empty = the parentheses are empty
query-problem-closes-nothing = this parenthesis closes nothing
query-problem-empty = the query is empty
query-problem-only-not = it only excludes words; add a word that must appear

## Channels
channel-public-note = ℹ️ Telegram does not say how someone joined a public channel by its @name, so such joins count as unattributed. For a public channel, use invite links with join requests: every join through them is counted.
channels-title = 📣 <b>Your channels</b>
    Tap one to see who joins and who leaves, and to make invite links for your ads. Your newest invites are listed below them.
channels-none = 📣 You have no channels yet. Make me an administrator of your channel or group (with the right to invite users): it appears here, and I count who joins through each of your invite links.
channel-members = Members: { $count }
channel-today = Today: +{ $joins } / −{ $leaves }
channel-total = In total: +{ $joins } / −{ $leaves } (net { $net })
channel-unattributed = Unattributed: +{ $joins } / −{ $leaves }
channel-waiting = 🙋 { $count } waiting to join
channel-not-admin = ⚠️ I am no longer an administrator there: joins and leaves are no longer counted and no new invites can be made. Make me an administrator with the right to invite users again to resume.
channel-cannot-invite = ⚠️ I lack the right to invite users there: give me “Invite users via link”.
channel-new-invite = ➕ New invite
channel-requests = 🙋 Requests ({ $count })
requests-approve-all = ✅ Approve all ({ $count })
channel-export-empty = ℹ️ Nobody has joined or left through your invite links yet; nothing was sent.
channels-back = ⬅️ Channels
channel-back = ⬅️ Channel
invite-revoked-mark = (revoked)
invite-tracking = Tracking link: { $url } ({ $clicks ->
        [one] { $clicks } click
       *[other] { $clicks } clicks
    }, { $unique } unique)
invite-requests-auto = People ask to join; approval automatic{ $pending ->
        [0] {""}
       *[other] , { $pending } waiting
    }
invite-requests-manual = People ask to join; approval by you{ $pending ->
        [0] {""}
       *[other] , { $pending } waiting
    }
invite-expires = Expires { $date }
invite-member-limit = At most { $count } people
invite-figures = Joined: { $joins } · left: { $leaves } · net: { $net }
invite-conversion = Conversion: { $percent } of unique clicks
invite-retention = Stayed 24 h: { $day } of { $dayOf } · 7 d: { $week } of { $weekOf } · 30 d: { $month } of { $monthOf }
invite-cost = Price: { $price } · per join: { $perJoin } · per subscriber who stayed 7 d: { $perStayed }
invite-revoke-confirm = Revoke “{ $name }”? Nobody can join through it any more; its figures stay.
invite-revoke = 🚫 Revoke
invite-revoke-yes = 🚫 Yes, revoke it
invite-revoked = 🚫 Revoked: nobody can join through it any more.
requests-title = 🙋 <b>Waiting to join</b> ({ $count })
    Approve or decline each one.
requests-none = Nobody is waiting to join.
requests-user = user { $id }
request-approved = ✅ { $name } was let in.
request-declined = ❌ { $name } was declined.
invite-ask-name = 🔗 New invite link.
    Send its name, e.g. the channel where the ad runs (at most 32 characters; people joining do not see it).

    /cancel to stop.
invite-name-text-please = Please send the name as text, or /cancel.
invite-name-too-long = That name has { $length } characters; Telegram allows 32. Send a shorter one, or /cancel.
invite-ask-mode = How do people join through it? With requests every join is counted, even in a public channel.
invite-mode-open = They join at once
invite-mode-requests = They ask to join
invite-mode-hint = Please press one of the buttons above, or /cancel.
invite-made = ✅ Invite link made. Put it in your ad; I count who joins and who leaves through it. Set its price below to see what a subscriber costs.
invite-made-priced = ✅ Invite link made, with its price. Put it in your ad; I count who joins and who leaves through it, and what each subscriber costs.
invite-ask-price = 💰 What did the ad cost? For example “5 000 ₽”, “$50”, “150 usd”, or a number alone in { $currency }. Or tap “No price yet” and set it later.
invite-no-price = No price yet
invite-price-rule = A price is a number with or without a currency: “5000” (in { $currency }), “5 000 ₽”, “150 USD”, “$50”. What did the ad cost? Or tap “No price yet”.

## Option buttons (their labels are keys in the option tables)
link-option-title = ✏️ Title
link-option-target = 🎯 Target URL
link-option-start = ⏳ Start
link-option-expiry = ⌛️ Expiry
link-option-after-expiry = ↪️ After expiry
link-option-click-cap = 🔢 Click cap
link-option-password = 🔒 Password
link-option-ios = 🍏 iOS target
link-option-android = 🤖 Android target
link-option-desktop = 🖥 Desktop target
link-option-utm = 📣 UTM
link-option-pixels = 📡 Pixels
link-option-tags = 🏷 Tags
link-option-domain = 🌐 Domain
link-option-webhook = 🔔 Webhook URL
link-option-on-off = ⏯ On / off
link-option-rules = 🧭 Rules
link-option-ab = 🅰️ A/B split
tracker-option-keyword = 🔤 Keyword
tracker-option-matching = 🎯 Matching
tracker-option-minus = ➖ Minus words
tracker-option-where = 📍 Where
tracker-option-only = ✅ Only sources
tracker-option-skip = 🚫 Skip sources
tracker-option-min-subscribers = 👥 Min. subscribers
tracker-option-language = 🗣 Language
tracker-option-notify = 📬 Notify via
tracker-option-syntax = 🧩 Syntax
tracker-option-word-forms = 🌿 Word forms
tracker-option-reposts = 🔁 Reposts
tracker-option-my-links = 📍 My links
tracker-option-how-often = ⏰ How often
invite-option-name = ✏️ Name
invite-option-price = 💰 Price
invite-option-expiry = ⏰ Expiry
invite-option-member-limit = 👥 Member limit
invite-option-welcome = 👋 Welcome
invite-option-approval = ✅ Approval
request-approved-toast = Approved
request-declined-toast = Declined
request-settled = This request was already settled.
request-gone = This request is gone.

## Added to or removed from a channel or group (sent to whoever did it)
source-removed = ℹ️ I was removed from { $kind ->
        [channel] the channel
       *[group] the group
    } “{ $title }”: it is no longer searched for keywords{ $kind ->
        [channel] , its joins and leaves are no longer counted, and it offers no New invite until you make me an administrator there again
       *[group] {""}
    }.
source-added-public = ✅ I was added to { $kind ->
        [channel] the channel
       *[group] the group
    } “{ $title }”. It is public, so its new { $kind ->
        [channel] posts
       *[group] messages
    } are searched for the keywords of everyone who tracks them, yours included. /trackers shows your trackers.
source-admin-private = ✅ I am an administrator of { $kind ->
        [channel] the channel
       *[group] the group
    } “{ $title }”. It is private: its new { $kind ->
        [channel] posts
       *[group] messages
    } are searched only for your keywords and those of other administrators who add it, never for anyone else's. /trackers shows your trackers.
source-added-private = ℹ️ I was added to { $kind ->
        [channel] the channel
       *[group] the group
    } “{ $title }”. It is private, so I search its { $kind ->
        [channel] posts
       *[group] messages
    } only for the keywords of people who own it: make me an administrator there and your trackers will see them. Nobody else's trackers ever do.
source-cannot-invite = ⚠️ I lack the right to invite users there, so I cannot make invite links for it. Give me “Invite users via link” to track who joins.
source-invites-ready = 📣 It is ready for invite tracking: /channels makes invite links for your ads and counts who joins and who stays.

## Tracker options: questions and refusals
tracker-prompt-keyword = Send the keyword or phrase to look for.
tracker-prompt-matching = Send “whole” to match whole words only («rust» does not match «trusted») or “anywhere”.
tracker-prompt-minus = Send minus words separated by commas: a post containing any of them is ignored.
tracker-prompt-where = Send where to look: “both”, “channels” or “chats”.
tracker-prompt-only = Send @usernames, chat ids or t.me links to search only those, separated by spaces.
tracker-prompt-skip = Send @usernames, chat ids or t.me links never to search, separated by spaces.
tracker-prompt-min-subscribers = Send the smallest member count a channel or group must have.
tracker-prompt-language = Send the language posts must be in, as a code such as en, ru or de.
tracker-prompt-notify = Where should I send this tracker's matches: here, into one of your groups or channels (you pick it by name, then a forum topic), or to a webhook?
tracker-prompt-syntax = Send “query” to write the keyword as a query — spaces: all words; OR or |: either; -word: not; "…": exact phrase; word*: starts with; ( ): group; a NEAR/3 b: close together — or “plain” for one word or phrase.
tracker-prompt-word-forms = Send “on” to match words in any form (канал: каналы, каналов; run: runs, running) or “off” for the words as written.
tracker-prompt-my-links = Send “on” to be told of every post that carries one of your short links or invite links (in the text, behind a text link or on a button), or “off”.
tracker-prompt-reposts = Send “skip” to ignore forwarded posts and copies of a post matched in the last 24 hours, or “keep” to match them too.
tracker-prompt-how-often = Send “instant” to be told at once, “hour” for one digest at the end of each hour or “day” for one a day (UTC).
tracker-refuse-matching = Send “whole” or “anywhere”.
tracker-refuse-where = Send “both”, “channels” or “chats”.
tracker-refuse-number = Send a whole number.
tracker-refuse-chat = Send “chat” and the group's id, e.g. chat -1001234567890, and a topic id after it if you like.
tracker-refuse-syntax = Send “query” or “plain”.
tracker-refuse-on-off = Send “on” or “off”.
tracker-refuse-reposts = Send “skip” or “keep”.
tracker-refuse-how-often = Send “instant”, “hour” or “day”.

## Invite options: questions and refusals
invite-prompt-name = Send the new name (at most 32 characters; people joining do not see it).
invite-prompt-price = Send what the ad cost, as an amount and a currency, e.g. 150 USD or 12000 RUB.
invite-prompt-expiry = Send when the link stops working, e.g. { $when }.
invite-prompt-member-limit = Send how many people may join through the link (1 to 99999).
invite-prompt-welcome = Send the message each person who asks to join gets from me at once (at most 1000 characters).
invite-prompt-approval = How are requests let in?
invite-refuse-price = Send an amount and a currency code, e.g. 150 USD.
invite-refuse-member-limit = Send a whole number from 1 to 99999.
invite-refuse-approval = Tap one of the buttons above (or send “auto” or “manual”), or /cancel.
invite-approval-auto = Let everyone in at once
invite-approval-manual = Approve each request here myself
invite-refuse-expiry = The expiry must be a time in the future — try { $when }.

## Link options: questions, card lines and refusals
link-refuse-time = I could not read that time. Examples: { $when }.
link-refuse-past = That time has passed. Examples: { $when }.
link-prompt-title = Send the link's title (at most 200 characters).
link-prompt-target = Send the new target URL (http:// or https://).
link-line-start = ⏳ Starts { $date } (a countdown shows until then)
link-prompt-start = When should the link start working? Examples: { $when }.
link-line-expiry = ⌛️ Expires { $date }
link-prompt-expiry = When should the link expire? Examples: { $when }.
link-line-after-expiry = ↪️ After expiry or the click cap: { $url }
link-prompt-after-expiry = Where should visitors go once the link has expired or reached its click cap? Send a URL.
link-line-click-cap = 🔢 Stops after { $count ->
        [one] { $count } click
       *[other] { $count } clicks
    }
link-prompt-click-cap = After how many visitors should the link stop? Send a whole number.
link-refuse-click-cap = Send a whole number greater than 0.
link-line-password = 🔒 Visitors must enter a password
link-prompt-password = Send the password visitors must enter (I delete your message at once).
link-line-ios = 🍏 iPhone and iPad → { $url }
link-prompt-ios = Where should iPhone and iPad visitors go? Send a URL.
link-line-android = 🤖 Android → { $url }
link-prompt-android = Where should Android visitors go? Send a URL.
link-line-desktop = 🖥 Desktop → { $url }
link-prompt-desktop = Where should desktop visitors go? Send a URL.
link-line-utm = 📣 UTM { $utm } (added to the target)
link-prompt-utm = Send UTM source, medium and campaign separated by commas, e.g. “telegram, post, spring”. Leave a place empty to skip it: “telegram,,spring”.
link-refuse-utm = Send at most three values: source, medium, campaign.
link-line-pixels = 📡 Pixels: { $names }
link-prompt-pixels = Send the names of your pixels to fire on this link, separated by commas (add pixels in ⚙️ Settings → Pixels).
link-prompt-tags = Send tags separated by commas (new ones are created). They replace the link's tags.
link-refuse-tags = Send names of at most 50 characters, separated by commas.
link-line-domain = 🌐 On your domain { $host }
link-prompt-domain = Send the custom domain this link should use (add domains in the app first).
link-prompt-webhook = Send the URL to notify on every click, optionally followed by GET or POST (default POST), e.g. “https://example.com/hook POST”. It must answer 2xx to a test request.
link-refuse-webhook = Send a URL, optionally followed by GET or POST.
link-refuse-pixel = You have no pixel named “{ $name }”. Yours: { $yours }.
link-refuse-pixel-none = You have no pixel named “{ $name }”. Yours: none yet.
link-refuse-domain = You have no domain “{ $host }”. Yours: { $yours }.
link-refuse-domain-none = You have no domain “{ $host }”. Yours: none yet.
link-line-webhook-on = 🔔 Webhook { $method } { $url } (on)
link-line-webhook-off = 🔔 Webhook { $method } { $url } (off)
link-prompt-rules =
    Send a new rule: conditions, then → and the URL, e.g. “country=DE,AT language=de → https://example.de”.
    Conditions: country, language, os (iOS, Android, Windows, macOS, Linux), device (mobile, tablet, desktop), from and to (times in your time zone), q.&lt;name&gt;=&lt;value&gt; (the short link's own query). All given must hold.
    Or “remove 2” to delete rule 2, “move 3 1” to make rule 3 the first.
link-prompt-ab =
    Send “&lt;url&gt; &lt;weight 1–100&gt;” to add a variant; the first one also puts the link's own URL in the split (weight 50).
    Or “weight 2 70” to change variant 2's weight, “remove 2” to take it out, “move 3 1” to reorder.

## Dead-code visits
orphans-none = 👻 <b>Visits to dead codes</b> (last 30 days)
    None: nobody opened a code of a disabled or deleted link of yours, or an unknown code on your domains.
orphans-item = <code>{ $code }</code> · { $count } · last { $last }
orphans-more = …and { $count } more codes (the app lists them all).
orphans-title = 👻 <b>Visits to dead codes</b> (last 30 days): { $total }
    Codes of your disabled or deleted links and unknown codes on your domains, most visited first:

## A link's click webhook
webhook-none = Link <code>{ $code }</code> has no click webhook. Set one with “{ $option }” on the link's card.
webhook-state-on = on ✅
webhook-state-off-failures = off ⏸ (turned off after too many failed deliveries)
webhook-state-off = off ⏸
webhook-title = 🔔 <b>Click webhook of <code>{ $code }</code></b>
webhook-target = Target: { $method } { $url }
webhook-state = State: { $state }
webhook-failures = Failed deliveries: { $count } of { $limit } (at { $limit } it is turned off; turning it on resets the count)
webhook-signed = Requests are signed with your secret: header <code>X-Webhook-Signature</code>.
webhook-recent = <b>Recent deliveries</b>
webhook-no-deliveries = No deliveries yet.
webhook-click = click
webhook-rotate-confirm = Rotate the signing secret? Every receiver of your webhooks must switch to the new secret; deliveries signed from now on use it.
webhook-on = ✅ Webhook: on
webhook-on-failed = ✅ Webhook: on · { $count } failed
webhook-off = ⬜ Webhook: off
webhook-off-failed = ⬜ Webhook: off · { $count } failed
webhook-turned-on = 🔔 Webhook on; failure count reset to 0.
webhook-turned-off = 🔕 Webhook off: clicks are no longer sent.
webhook-test = 🧪 Send test webhook
webhook-test-sending = ⏳ Sending a test delivery to { $url }…
webhook-test-ok = ✅ Test webhook of <code>{ $code }</code> sent: the target answered { $status }.
webhook-test-failed = ❌ Test webhook of <code>{ $code }</code> failed: { $error }.
target-why-status = the receiver answered { $status }
target-why-timeout = the receiver did not answer in time
target-why-timeout-after = the receiver did not answer within { $seconds } s
target-why-network = the receiver could not be reached{ $detail }
target-why-refused = the address is in an internal network, where nothing is sent
target-why-invalid = the address is not a usable http(s) URL
webhook-show-secret = 👁 Show signing secret
webhook-secret = Your webhook signing secret (the same for all your links):
    <code>{ $secret }</code>
webhook-rotate = 🔑 Rotate secret
webhook-rotate-yes = 🔑 Yes, rotate
webhook-rotated = 🔑 Secret rotated: the new one is in the next message. Update your receivers.
webhook-new-secret = 🔑 New signing secret:
    <code>{ $secret }</code>

## Ad posts
adpost-ask = Forward the ad post here, or paste its text with the links. /cancel stops.
adpost-no-links = That post has no links to track. Forward a post with links, or /cancel.
adpost-ask-venue = This post has { $count ->
        [one] { $count } link
       *[other] { $count } different links
    }. Where will it run? Send the channel (<code>@bigchannel</code> or its t.me link) or, for an ad outside Telegram, a few words (<code>VK group Cats</code>); the day it runs may follow (<code>@bigchannel 30.11</code>). /cancel stops.
adpost-venue-rule = Where it runs is a channel's @name or t.me link, or up to { $max } characters of text (<code>@bigchannel</code>, <code>VK group Cats</code>). Where will it run?
adpost-ask-price = What did it cost? For example <code>5 000 ₽</code>, <code>$50</code>, <code>50 usd</code>, or a number alone in { $currency } (your default currency, in ⚙️ Settings). /skip if it was free.
adpost-price-rule = A price is a number with or without a currency: <code>5000</code> (in { $currency }), <code>5 000 ₽</code>, <code>5000 RUB</code>, <code>$50</code>, <code>50 EUR</code>. What did it cost? (/skip if it was free)
adpost-made = ✅ Placement <b>{ $name }</b>: { $links ->
        [0] no new links
        [one] { $links } new tracking link
       *[other] { $links } new tracking links
    }{ $invites ->
        [0] {""}
        [one] {", "}{ $invites } new invite link
       *[other] {", "}{ $invites } new invite links
    }. Send the post above to the channel's admin; its figures are in 📢 Ads.
adpost-skip-own-link = already a short link of this service
adpost-skip-credentials = it has a user name or password before the host, so it cannot be a target
adpost-skip-backslash = it has a backslash, so it cannot be a target
adpost-skip-loopback = it points to localhost or a loopback address, so it cannot be a target
adpost-skip-spaces = it has spaces, so it cannot be a target
adpost-skip-too-long = it is too long to be a target
adpost-skip-not-target = it cannot be a target
adpost-skipped = Left as they were:
adpost-copy = 📋 Copy post
adpost-share = ↗️ Share
adpost-open = 📢 Open the placement

## Secure sharing
share-option-password-change = 🔒 Change password
share-option-password-set = 🔒 Set password
share-line-password = 🔒 Opening needs a password
share-prompt-password = Send the password viewers must enter ({ $min } to { $max } characters; I delete your message at once).
share-option-views-off = ⬜ View messages: off
share-option-views-on = ✅ View messages: on
share-line-views = 🔔 You get a message for each view
secure-file-gone = That file no longer exists.
secure-share-gone = That share link no longer exists.
share-revoked-toast = ⛔ Revoked: the link no longer opens.
share-revoked-note = ⛔ Revoked: this link no longer opens.
request-state-active = open
request-state-inactive = turned off
request-state-expired = expired
request-state-full = full
request-received-of = { $count } of { $max }
requests-links-title = 📥 <b>Request links</b>: through each, anyone can send you files or texts into one of your folders.
requests-links-none = 📥 <b>Request links</b>: none yet. Open a folder and tap “📥 New request link” to let anyone send you files into it.
request-screen = 📥 <b>{ $title }</b>
    { $url }
    Into folder: { $folder }
    Received: { $received }
    State: { $state }
    Expires: { $expiry }
request-delete-confirm = Delete the request link { $url }? It stops taking files at once; what it received stays in the folder.
request-deleted = 🗑 Request link deleted.
request-turned-on = ▶️ Turned on: { $title } takes files again.
request-turned-off = ⏸ Turned off: { $title } answers that it takes nothing.
requests-links-back = ⬅️ Folders
request-back = ⬅️ Request links
cancelled = Cancelled.
folder-ask-name = 📁 Send a name for the new folder (or /cancel).
folder-name-too-long = That name is too long (at most 100 characters). Tap ➕ New folder to try again.
folder-created = 📁 Folder “{ $name }” created.
share-hours = { $hours ->
        [1] 1 hour
        [24] 24 hours
       *[other] { $days ->
            [0] { $hours } hours
           *[other] { $days } days
        }
    }
share-views-unlimited = Unlimited
share-ask-expiry = 🔗 How long should the link work? Tap a choice or type it (e.g. “3 days”, “12h”, “in 2 weeks”, “friday”, at most a year).
share-expiry-hint = I could not read that. Type a duration like “3 days”, “12h” or “in 2 weeks”, or a day like “friday” (at most a year), or tap a choice.
share-ask-views = 👁 How many times may it be opened? Tap a choice or type a number.
share-views-hint = Type a whole number of views, or “unlimited”, or tap a choice.
share-ask-password = 🔒 Should it ask for a password? Send one ({ $min } to { $max } characters; I delete your message at once), or tap “No password”.
share-no-password = 🔓 No password
share-password-rule = A password has { $min } to { $max } characters. Send another, or tap “No password”.
share-created-password = 🔒 It asks for the password you sent.
share-created = ✅ Share link (valid { $valid }, { $views ->
        [0] unlimited views
        [one] { $views } view
       *[other] { $views } views
    }):
    { $url }
share-option-ask = { $prompt }
    /clear removes it · /cancel keeps it as it is.
share-option-removed = ✅ Removed.
share-option-saved = ✅ Saved.

## Redirect rules and the A/B split
rule-refuse-os = “{ $value }” is not an os: use { $names }.
rule-refuse-device = “{ $value }” is not a device: use { $names }.
rule-refuse-shape = Put the conditions, then → (or ->) and the URL, e.g. country=DE,AT → https://example.de
rule-refuse-token = “{ $token }” is not a condition: write name=value.
rule-refuse-time = I could not read the time “{ $value }”: e.g. 2026-06-01 or 2026-06-01T18:30 (in your time zone), or 3d from now.
rule-refuse-key = “{ $key }” is not a condition: use country, language, os, device, from, to or q.<parameter>.
rule-line = 🧭 Rules, the first that matches wins:
    { $rules }
ab-line = 🅰️ A/B split of the visitors no rule caught:
    { $variants }
ab-variant = { $n }. { $url } (weight { $weight }, { $share }%)
ab-refuse-shape = Send a URL and a weight from 1 to 100, e.g. “https://example.com/b 30”.

## Keyword notifications and digests (sent by the service on its own)
notify-some-chat = a chat
notify-new-match = 🔔 { $trackers }: new match
notify-new-matches = 🔔 <b>{ $count ->
        [one] { $count } new match
       *[other] { $count } new matches
    }</b>
notify-and-more = …and { $count } more
notify-open = open
notify-open-post = Open post
notify-mark-read = ✓ Mark read
notify-mark-these-read = ✓ Mark these read
notify-tracker = 🔎 Tracker
notify-my-trackers = 🔎 My trackers
notify-deleted = 🗑 <b>{ $tracker }</b>: a matched post was deleted
notify-test = 🧪 Test
notify-test-channel = Test channel
notify-test-text = This is a test notification for { $keyword }
digest-head-hour = 🗓 <b>{ $tracker }</b>: { $count ->
        [one] { $count } match
       *[other] { $count } matches
    } in the last hour
digest-head-day = 🗓 <b>{ $tracker }</b>: { $count ->
        [one] { $count } match
       *[other] { $count } matches
    } in the last day

## Scheduled reports
report-head-daily = 📬 <b>Daily report</b> · { $period } · { $zone }
report-head-weekly = 📬 <b>Weekly report</b> · { $period } · { $zone }
report-clicks = 👆 Clicks: <b>{ $clicks }</b> · unique { $uniques }{ $change }
report-change = {" "}({ $change } % against the period before)
report-change-none-before = {" "}(none the period before)
report-channels = 📣 Channels: +{ $joins } joined · −{ $leaves } left · net { $net }
report-matches = 🔎 Keyword matches: { $count }
report-my-links = 🔗 My links
report-settings = ⚙️ Report settings

## Secure sharing notices (sent by the service on its own)
view-opened = 👁 <b>{ $name }</b> was opened
view-opened-again = 👁 <b>{ $name }</b> was opened again: { $views ->
        [one] { $views } view
       *[other] { $views } views
    } in all
view-link = Link: { $url }
view-time = Time: { $time }
view-latest = Latest: { $time }
view-from = From: { $country } · { $device }
view-left = Views left: { $left } of { $max }
view-left-unlimited = Views left: unlimited
view-country-unknown = unknown country
view-device-unknown = unknown device (no User-Agent)
view-browser-on-os = { $browser } on { $os }
view-revoke = ⛔ Revoke
view-manage = ⚙️ Manage
request-item-new = 📥 New item for request “{ $title }”
request-item-new-untitled = 📥 New item for an untitled request
request-item-open = 📄 Open in the bot
request-item-cut = …(cut; the whole text is in the folder)

## The summary card and charts (PNG)
summary-all-links = All links
summary-link-count = { $count ->
        [one] { $count } link
       *[other] { $count } links
    }
summary-clicks = Clicks
summary-unique = Unique
summary-bots = Bots
summary-per-day = Per day
summary-top-links = Top links
summary-top-countries = Top countries
summary-top-country = Top country: { $country }
summary-devices = Devices
summary-browsers = Browsers
chart-per-day = Clicks per day: { $total } in all, { $unique } unique
chart-per-hour = Clicks per hour: { $total } in all, { $unique } unique
chart-no-clicks = No clicks

## Files the service sends (exports, charts, QR codes)
file-open-in-bot = Open in the bot
export-column-date = Date
export-column-ip = IP
export-column-country = Country
export-column-city = City
export-column-device = Device
export-column-os = OS
export-column-browser = Browser
export-column-referer = Referer
export-column-bot = Bot
export-column-bot-name = Bot name
export-column-unique = Unique
export-column-click-id = Click ID
export-column-subs = Sub parameters
export-pdf-title = Clicks of { $url } ({ $period }, newest first)
export-pdf-page = page { $page } of { $pages } · { $rows ->
    [one] { $rows } row
   *[other] { $rows } rows
  }
export-yes = yes
export-no = no
export-clicks-caption = { $count ->
        [one] { $count } click
       *[other] { $count } clicks
    } of { $code } ({ $period }), { $format }

## Join requests and webhook notices (sent by the service on its own)
join-request-user = user { $id }
requests-notice-head = 🙋 <b>{ $channel }</b>: { $count ->
        [one] { $count } request
       *[other] { $count } requests
    } to join
requests-notice-line = • { $who } — through “{ $invite }”
requests-notice-more = …and { $count } more: see them on the Requests screen.
requests-notice-none = No one else is waiting to join <b>{ $channel }</b>.
requests-notice-approve-one = ✅ { $who }
requests-notice-decline-one = ❌
requests-notice-open = 📣 The channel
requests-approved-all = ✅ { $count ->
        [0] Nobody was let in
        [one] { $count } person was let in
       *[other] { $count } people were let in
    }{ $refused ->
        [0] .
       *[other] ; Telegram refused { $refused }, who still wait.
    }
requests-approved-all-toast = Approved: { $count }
join-request-approve = ✅ Approve
join-request-decline = ❌ Decline
join-request-open-invite = Open the invite
webhook-auto-disabled = ⚠️ The click webhook of link <code>{ $code }</code> was turned off after { $failures } failed deliveries.
    Target: { $url }
    Fix the target, then turn the webhook on again (this resets the count).
webhook-open-card = Open the link's card

## Channel exports and the joins chart
journal-column-joined = Joined
journal-column-left = Left
journal-column-user-id = User id
journal-column-username = Username
journal-column-first-name = First name
journal-column-invite = Invite
journal-column-via = Via
journal-column-via-request = Via join request
journal-caption = { $count ->
        [one] { $count } join or leave
       *[other] { $count } joins and leaves
    } of { $title }, { $format }
journal-chart-caption = Joins and leaves per day, { $title }, last { $days ->
        [one] day
       *[other] { $days } days
    }
chart-joins-title = { $title }: joins and leaves per day
chart-joins-of = { $name }: joins
chart-leaves = Leaves
chart-unattributed = Unattributed

## Custom domains (sent by the service on its own)
domain-lost = ⚠️ Your domain { $domain } no longer has its TXT record at { $name }, so its links no longer open there. Publish the record { $value } again and verify the domain in Settings → Domains.

## Secure sharing: folders, files, share links
secure-folders = 🔐 <b>Secure sharing</b>: your folders. Send me a file, photo, video, audio or text to store it.
secure-folders-none = 🔐 <b>Secure sharing</b>: no folders yet. Send me a file, photo, video, audio or text to store it, or create a folder.
secure-size-kb = { $size } KB
secure-folder = 📁 <b>{ $name }</b>
secure-folder-paused = 📁 <b>{ $name }</b> (paused: its share links do not open)
secure-file-count = { $count ->
        [one] { $count } file
       *[other] { $count } files
    }
secure-kind-text = text
secure-kind-image = image
secure-kind-video = video
secure-kind-audio = audio
secure-kind-file = file
secure-file-shares = { $count ->
        [one] { $count } share link: tap it to manage it.
       *[other] { $count } share links: tap one to manage it.
    }
secure-file-no-shares = No share links yet.
secure-share-file = 📄 <b>{ $name }</b>
secure-share-state = State: { $state }
secure-state-active = active
secure-state-revoked = revoked
secure-state-paused = paused
secure-state-expired = expired
secure-state-exhausted = out of views
secure-share-views = Views: { $views } of { $max }
secure-share-views-unlimited = Views: { $views } of unlimited
secure-share-expires = Expires: { $at }
secure-yes-delete = 🗑 Yes, delete
secure-keep-it = Keep it
secure-folder-delete-ask = Delete folder “{ $name }” with its { $count ->
        [one] { $count } file
       *[other] { $count } files
    } and all their links?
secure-folder-deleted = 🗑 Folder deleted.
secure-file-delete-ask = Delete “{ $name }” and its { $count ->
        [one] { $count } share link
       *[other] { $count } share links
    }?
secure-file-deleted = 🗑 File deleted.
secure-share-delete-ask = Delete the share link { $url }? It stops working at once.
secure-share-deleted = 🗑 Share link deleted.
secure-shares = 🔗 <b>Share links</b> ({ $count }): tap one to manage it, ⛔/♻️ to revoke or restore, 🗑 to delete.
secure-shares-newest = 🔗 <b>Share links</b> (the newest { $count }): tap one to manage it, ⛔/♻️ to revoke or restore, 🗑 to delete.
secure-shares-none = 🔗 <b>Share links</b>: none yet. Open a stored file and tap “🔗 New share link”.
secure-new-folder-button = ➕ New folder
secure-share-links = 🔗 Share links
secure-request-links = 📥 Request links
secure-resume = ▶️ Resume sharing
secure-pause = ⏸ Pause sharing
secure-paused = ⏸ Paused: its share links do not open until you resume.
secure-resumed = ▶️ Sharing resumed.
secure-delete-folder = 🗑 Delete folder
secure-new-request = 📥 New request link
secure-request-created = 📥 Request link created: anyone with it can send files or texts into this folder, up to { $items } items within { $days } days.
secure-back-folders = ⬅️ Folders
secure-back-folder = ⬅️ Folder
secure-back-file = ⬅️ File
secure-new-share = 🔗 New share link
secure-delete-file = 🗑 Delete file
secure-restore = ♻️ Restore
secure-revoke = ⛔ Revoke
secure-revoked = ⛔ Revoked: the link no longer opens.
secure-restored = ♻️ Restored.
secure-delete-link = 🗑 Delete link
secure-revoked-url = ⛔ Revoked { $url }: it no longer opens.
secure-restored-url = ♻️ Restored { $url }.

## Storing what the user sends
store-ask-note = Store this text as a secure note? Pick a folder.
store-help-hint = (Send /help to see everything else I can do.)
store-ask-file = Where should I store “{ $name }”? Pick a folder:
store-ask-it = Where should I store it? Pick a folder:
store-nothing-waiting = Nothing is waiting to be stored. Send me a file, photo, video, audio or text first.
store-cancel = ✖️ Cancel
store-cancelled = Cancelled: nothing was stored.
store-stored = 🔐 Stored “{ $name }” ({ $kind }).
store-stored-sized = 🔐 Stored “{ $name }” ({ $kind }, { $size }).
store-delete-offer = Your message with the text is still in this chat. Delete it, so that only the secure note keeps it?
store-delete-button = 🧹 Delete my message
store-deleted-toast = Deleted: the text is now only in the secure note.
store-not-deleted-toast = Telegram would not delete it (bots may delete messages for 48 hours only): delete it yourself.
store-deleted = 🧹 Your message with the text was deleted.
store-not-deleted = ⚠️ I could not delete your message: delete it yourself.
store-too-big = ⚠️ That file is too big: secure storage takes files up to { $mb } MB.
store-plan-files = ⛔️ Your { $plan } plan allows { $max } secure files and you have { $count }. Delete some (/secure) or upgrade to store more.
store-plan-storage = ⛔️ That would pass your { $plan } plan's { $max } MB of secure storage ({ $used } MB used).
store-no-download-path = Telegram did not give a download path for this file (bots cannot fetch files over 20 MB).
store-download-failed = Downloading the file from Telegram failed ({ $reason }). Send it again in a moment.

## Where clicks came from
stats-referrers = Sources: { $list }
stats-direct = direct
summary-referrers = Sources
summary-direct = Direct
device-mobile = mobile
device-desktop = desktop
device-tablet = tablet
device-bot = bot
## The mini-app (keys app-…: miniapp/src)

app-tab-links = Links
app-tab-secure = Secure
app-tab-tracking = Tracking
app-tab-channels = Channels
app-tab-settings = Settings
app-sections = Sections
app-page-not-found = Page not found.
app-go-to-links = Go to links
app-loading = Loading…
app-title = Dashboard
app-needs-javascript = This dashboard needs JavaScript: turn it on in the browser, or open the dashboard from the bot.
app-try-again = Try again
app-copy = Copy
app-copied = Copied
app-bytes = { $size } B
app-kilobytes = { $size } KB
app-megabytes = { $size } MB
app-clicks-label = Clicks
app-heatmap-label = Clicks by weekday and hour
app-heatmap-cell = { $day } { $hour } — { $clicks ->
        [one] { $clicks } click
       *[other] { $clicks } clicks
    }
app-links-title = Links
app-links-bulk = Bulk
app-links-new = New link
app-links-search-placeholder = Search by title, URL or code
app-links-search = Search links
app-links-filter-tags = Filter by tag
app-links-no-match = Nothing matches “{ $search }”.
app-links-none-tagged = No links with these tags.
app-links-none = No links yet.
app-links-create-first = Create your first link.
app-shown-of = { $shown } of { $total }
app-show-more = Show more
app-link-paused = paused
app-links-stats-title = total / unique / bots
app-links-clicks = { $count ->
        [one] click
       *[other] clicks
    }
app-links-unique-bots = { $unique } unique · { $bots } bots
app-orphans-title = Visits to dead codes
app-orphans-hint = Paused or deleted links, and mistyped codes on your domains.
app-period = Period
app-orphans-period = Orphan visits period
app-period-1d = 24 hours
app-period-7d = 7 days
app-period-30d = 30 days
app-period-90d = 90 days
app-period-1y = 1 year
app-period-all = All time
app-orphans-none = No visits to dead codes in this period.
app-orphans-visits = { $count ->
        [one] visit
       *[other] visits
    }
app-orphans-code = Code
app-orphans-count = Visits
app-orphans-last = Last
app-edit = Edit
app-link-paused-note = Paused: visitors see a “not found” page
app-link-webhook-on = Webhook { $method } { $url }: enabled
app-link-webhook-off = Webhook { $method } { $url }: disabled
app-link-webhook-failures = , { $count ->
        [one] { $count } failure
       *[other] { $count } failures
    }
app-placements-none = Not seen in any channel yet. A keyword tracker with “Also posts with my short links or invite links” finds where it is posted.
app-placements = Posted in { $channels ->
        [one] { $channels } channel
       *[other] { $channels } channels
    }
app-placements-posts = Posted in { $channels ->
        [one] { $channels } channel
       *[other] { $channels } channels
    } ({ $posts } posts)
app-placement-post = { $chat } · post { $post }
app-placement-private = a private chat
app-summary-sent = Summary sent to your bot chat
app-qr-sent = QR code sent to your bot chat
app-exported = Sent { $rows ->
        [one] { $rows } click
       *[other] { $rows } clicks
    } to your Telegram chat
app-export-empty = No clicks in the chosen period; nothing was sent
app-link-delete-confirm = Delete this link and all its clicks?
app-link-deleted = Link deleted
app-send-summary = Send summary
app-qr = QR code
app-export-format = Export format
app-export = Export
app-activate = Activate
app-pause = Pause
app-delete = Delete
app-qr-alt = QR code for { $url }
app-download = Download
app-send-to-bot = Send to bot chat
app-close = Close
app-granularity = Granularity
app-hourly = hourly
app-daily = daily
app-time-zone = Time zone
app-unique = Unique
app-bots = Bots
app-per-day = Per day
app-top-country = Top country
app-timeline = Timeline
app-timeline-label = Clicks over time
app-no-clicks-period = No clicks in this period.
app-countries = Countries
app-countries-label = Clicks by country
app-unknown = Unknown
app-no-countries = No countries yet.
app-bot-clicks = { $count ->
        [one] { $count } bot click
       *[other] { $count } bot clicks
    } ({ $percent })
app-no-bots = No bots seen.
app-devices-title = Devices, browsers and OS
app-no-devices = No device data yet.
app-devices-devices = Devices
app-devices-browsers = Browsers
app-devices-os = OS
app-devices-devices-label = Clicks by devices
app-devices-browsers-label = Clicks by browsers
app-devices-os-label = Clicks by os
app-day-hour = Day × hour
app-recent-clicks = Recent clicks
app-no-clicks = No clicks yet.
app-click-when = When
app-click-country = Country
app-click-device = Device
app-click-browser = Browser
app-click-referer = Referer
app-bot-badge = bot
app-newer = Newer
app-older = Older
app-range-of = { $from }–{ $to } of { $total }
app-variants = A/B variants
app-variants-label = Clicks and unique clicks by variant
app-variant = Variant
app-url = URL
app-share = Share
app-rules = Redirect rules
app-rule = Rule { $n }
app-settings-title = Settings
app-language = Language
app-language-hint = The bot and this app speak the same language.
app-language-en = English
app-language-ru = Русский
app-language-app = As in Telegram
app-account = Account
app-user-id = User { $id }
app-sign-in-methods = Sign-in methods
app-provider-telegram = Telegram
app-provider-email = Email
app-provider-passkey = Passkey
app-passkey-unnamed = unnamed
app-plan-limits = Plan and limits
app-plan = Plan:
app-plan-until = until { $date }
app-limit-links = Links
app-limit-trackers = Trackers
app-limit-secureFiles = Secure files
app-limit-storageMB = Storage (MB)
app-sign-out = Sign out
app-email-linked = Email linked
app-email-linked-merged = Email linked; accounts merged
app-link-email = Link an email
app-link-email-code = Enter the code sent to { $email }. If the email already has an account, the accounts are merged.
app-code = Code
app-confirm = Confirm
app-send-code = Send code
app-telegram-not-configured = Telegram linking is not configured on this server.
app-telegram-linked = Telegram account linked
app-link-telegram = Link Telegram
app-link-telegram-button = Link a Telegram account
app-passkey-added = Passkey added
app-passkeys = Passkeys
app-passkeys-none = No passkeys yet.
app-passkey-added-on = added { $date }
app-passkey-used-on = , used { $date }
app-passkey-remove-confirm = Remove this passkey?
app-passkey-removed = Passkey removed
app-remove = Remove
app-passkey-name-placeholder = Name (e.g. Laptop)
app-passkey-name = Passkey name
app-passkey-add = Add a passkey
app-tokens = API tokens
app-token-copy-now = Copy this token now; it will not be shown again.
app-done = Done
app-tokens-none = No API tokens.
app-token-expires = expires { $date }
app-token-no-expiry = no expiry
app-token-revoke-confirm = Revoke “{ $name }”?
app-token-revoked = Token revoked
app-revoke = Revoke
app-token-new = New token
app-token-name-placeholder = Name (e.g. CI)
app-token-name = Token name
app-token-scopes = Scopes
app-token-days-placeholder = Expires in days (optional)
app-token-days = Expires in days
app-token-create = Create token
app-domain-added = Domain added: publish its TXT record, then verify
app-domains = Custom domains
app-domains-none = No custom domains.
app-domain-verified = verified
app-domain-not-verified = not verified
app-domain-record-hint = Add this DNS record, then press Verify. Links on this domain work once it is verified.
app-domain-type = Type
app-domain-name = Name
app-domain-value = Value
app-domain-verified-toast = { $hostname } verified
app-verify = Verify
app-domain-remove-confirm = Remove { $hostname }? Its links go back to the default short URL.
app-domain-removed = Domain removed
app-domain-hostname = Domain name
app-domain-add = Add a domain
app-signin-title = Sign in
app-signin-hint = Links, secure sharing and keyword tracking in one place.
app-signin-code-sent = We sent a 6-digit code to { $email }.
app-signin-passkey-waiting = Waiting for your passkey: follow your browser's prompt.
app-signin-passkey = Sign in with a passkey
app-signin-passkey-hint = With a passkey the email is optional.
app-signin-other-email = Use another email
app-signin-telegram-not-configured = Telegram sign-in is not configured on this server.
app-signin-telegram = Sign in with Telegram
app-widget-script-failed = Telegram's sign-in script could not be loaded
app-widget-login = Log in with Telegram
app-passkey-not-used-for = No passkey was used: the prompt was cancelled or timed out, or this device has no passkey for { $email }. Try again, or sign in with an email code.
app-passkey-not-used = No passkey was used: the prompt was cancelled or timed out, or this device has no passkey for this site. Try again, or sign in with an email code.
app-passkey-not-created = No passkey was created: the prompt was cancelled or timed out.
app-unreachable = Cannot reach the service. Check your connection.
app-not-found = Not found
app-request-failed = Request failed ({ $status })
app-bulk-title = Bulk create
app-bulk-none = Paste at least one URL.
app-bulk-too-many = At most 100 URLs at once (you have { $count }).
app-bulk-create = Create links
app-bulk-create-n = { $count ->
        [one] Create { $count } link
       *[other] Create { $count } links
    }
app-bulk-label = URLs, one per line (1–100, with https://)
app-bulk-count = { $count ->
        [one] { $count } URL
       *[other] { $count } URLs
    }
app-creating = Creating…
app-bulk-result = { $created } created, { $failed } failed.
app-bulk-failed = Failed
app-upload-failed = Upload failed ({ $status })
app-save = Save
app-saving = Saving…
app-link-create = Create link
app-link-edit-title = Edit link
app-link-saved = Link saved
app-link-created = Created { $url }
app-form-url = Destination URL
app-form-title = Title
app-form-title-placeholder = Spring campaign
app-form-code = Custom code (optional)
app-form-code-hint = 3–64 letters, digits, - or _
app-form-tags = Tags
app-form-new-tag = New tag
app-form-add-tag = Add tag
app-form-utm = UTM parameters
app-form-schedule = Schedule and limits
app-form-starts = Starts at
app-form-starts-hint = Visitors see a countdown before this
app-form-expires = Expires at
app-form-max-clicks = Max clicks
app-form-expired-url = After expiry go to
app-form-password = Password
app-form-password-set = Password set; leave empty to keep it
app-form-password-none = No password set
app-form-password-remove = Remove password
app-form-platforms = Per-platform targets
app-form-ios = iOS URL
app-form-android = Android URL
app-form-desktop = Desktop URL
app-form-ab = A/B split
app-form-pixels = Pixels
app-form-pixels-none = No pixels yet.
app-form-webhook = Click webhook
app-form-webhook-url = Webhook URL
app-form-webhook-hint = Must answer 200 or 201 to a test request
app-form-method = Method
app-form-webhook-enabled = Webhook enabled
app-form-webhook-failures = { $count ->
        [one] { $count } failed delivery
       *[other] { $count } failed deliveries
    }
app-form-status = Status and domain
app-form-active = Link is active
app-form-domain = Domain
app-form-domain-default = Default
app-rule-field = Rule { $n } { $field }
app-rules-hint = Checked in order after the schedule, password and click cap; the first rule whose conditions all hold sends the visitor to its URL.
app-rule-countries = Countries
app-rule-languages = Languages
app-device-mobile = mobile
app-device-tablet = tablet
app-device-desktop = desktop
app-rule-from = From
app-rule-until = Until
app-rule-query = Query parameters
app-rule-url = Send to
app-rule-up = Move rule { $n } up
app-rule-down = Move rule { $n } down
app-rule-remove = Remove rule { $n }
app-rule-add = Add rule
app-variants-hint = Visitors no rule caught are split by weight; each visitor keeps the variant they got.
app-variant-url = Variant { $n } URL
app-variant-weight = Variant { $n } weight
app-variants-end = End split
app-variant-remove = Remove variant { $n }
app-variant-add = Add variant
app-variants-start = Start A/B split
app-folder-created = Folder created
app-secure-title = Secure sharing
app-requests = Requests
app-folders-none = No folders yet. Create one below, then add files and share them with expiring links.
app-files-count = { $count ->
        [one] file
       *[other] files
    }
app-folder-new = New folder
app-description = Description
app-folder-create = Create folder
app-folder-delete-confirm = Delete this folder with all its files and links?
app-folder-deleted = Folder deleted
app-folder-name = Folder name
app-folder-paused = Paused: every link in this folder answers “forbidden”.
app-folder-resume = Resume folder
app-folder-pause = Pause folder
app-rename = Rename
app-folder-delete = Delete folder
app-files = Files
app-files-none = No files yet. Add a note or upload a file.
app-note-save = Save note
app-upload = Upload
app-note-saved = Note saved
app-file-choose = Choose a file to upload.
app-file-too-big = The file is { $size }; the limit is 10 MB.
app-file-uploaded = File uploaded
app-file-add = Add a file
app-file-upload-tab = Upload file
app-note-tab = Text note
app-file-name-default = Defaults to the file name
app-note-name-default = Optional: without one it is “Note N” and the date
app-note-text = Text
app-file-field = File (max 10 MB)
app-name = Name
app-share-state-active = active
app-share-state-revoked = revoked
app-share-state-paused = folder paused
app-share-state-expired = expired
app-share-state-exhausted = used up
app-file-delete-confirm = Delete this file and its links?
app-file-deleted = File deleted
app-file-no-content = No content uploaded: links to this file cannot be opened.
app-share-links = Share links
app-share-links-none = No links yet. Create one below; anyone with it can view the file until it expires.
app-password-set = Password set
app-share-views = { $count ->
        [one] { $views } view
       *[other] { $views } views
    }
app-share-password-badge = password
app-share-notifies = notifies
app-share-restored = Link restored
app-restore = Restore
app-share-revoked = Link revoked
app-password-removed = Password removed
app-password-set-button = Set password
app-share-notify-on = You will be notified of each view
app-share-notify-off = View notifications off
app-share-notify = Notify me of views
app-share-delete-confirm = Delete this link?
app-password-new = New password
app-password-save = Save password
app-cancel = Cancel
app-share-created = Link created
app-share-new = New share link
app-share-hours = Expires in (hours)
app-share-max-views = Max views
app-unlimited = unlimited
app-share-password = Password (optional)
app-none = none
app-share-notify-telegram = Notify me in Telegram of each view
app-folders = Folders
app-folder = Folder
app-requests-hint = A request link lets anyone, without an account, send you files (up to 10 MB each) or texts. They land in the folder you choose and in your Telegram chat.
app-requests-none = No request links yet. Create one below and send it to whoever should send you something.
app-requests-need-folder = Create a folder first: request links put what they receive into a folder.
app-request-state-active = open
app-request-state-inactive = turned off
app-request-state-expired = expired
app-request-state-full = full
app-request-untitled = Untitled request
app-request-received = { $received } received · into { $folder }
app-request-a-folder = a folder
app-request-turned-off = Request turned off
app-request-turned-on = Request turned on
app-turn-off = Turn off
app-turn-on = Turn on
app-request-delete-confirm = Delete this request link? What it received stays in the folder.
app-request-deleted = Request deleted
app-request-created = Request link created
app-request-new = New request link
app-request-title-placeholder = What should they send?
app-request-hours = Open for (hours)
app-no-limit = no limit
app-request-max = Max items
app-request-create = Create request link
app-tracking-title = Keyword tracking
app-tracker-new = New tracker
app-tracker-limits = { $current } of { $max } trackers on the { $plan } plan
app-trackers-none = No trackers yet. Create one to get notified when a keyword shows up in channels and chats.
app-off = off
app-tracker-row = “{ $keyword }” · via { $via }
app-matches = { $count ->
        [one] match
       *[other] matches
    }
app-unread = { $count } unread
app-matches-read = All matches marked read
app-tracker-test-sent = Test notification sent
app-tracker-delete-confirm = Delete this tracker and its matches?
app-tracker-deleted = Tracker deleted
app-tracker-whole-words = (whole words)
app-tracker-minus = minus: { $words }
app-disable = Disable
app-enable = Enable
app-tracker-test = Send test
app-matches-read-all = Mark all read
app-matches-none = No matches yet.
app-match-unknown-source = Unknown source
app-match-new = new
app-match-deleted = deleted
app-match-edited = edited: no longer matches
app-match-open = Open post
app-channels-none = No channels yet. Make the bot an administrator of your channel (with the right to invite users): it shows up here.
app-channel-not-admin = bot not admin
app-members = { $count ->
        [one] member
       *[other] members
    }
app-sent-to-chat = Sent to your Telegram chat
app-channel-public-hint = Telegram does not say how someone joined a public channel by its @name: such joins count as unattributed. Invite links with join requests count every join.
app-joined = joined
app-left = left
app-unattributed = unattributed
app-journal = Journal { $format }
app-chart-to-chat = Chart to chat
app-invites = Invites
app-invites-none = No invite links yet: make one in the bot (/channels → New invite).
app-invite = Invite
app-joined-col = Joined
app-left-col = Left
app-stayed = Stayed 7 d
app-per-join = Per join
app-per-stayer = Per stayer
app-chart-of = Chart of
app-all-invites = all invites
app-joins-chart = Joins and leaves per day
app-joins = Joins
app-leaves = Leaves
app-tracker-create = Create tracker
app-tracker-edit = Edit tracker
app-tracker-saved = Tracker saved
app-tracker-created = Tracker created
app-any = Any
app-tracker-keyword = Keyword or phrase
app-tracker-query-hint = spaces: all words; OR or |: either; -word: not; "…": phrase; word*: starts with; ( ): group; a NEAR/3 b: close together
app-tracker-syntax = Syntax
app-tracker-syntax-plain = One word or phrase
app-tracker-syntax-query = Query (AND, OR, NOT, phrases, NEAR)
app-tracker-exact = Whole words only
app-tracker-word-forms = Any word forms (канал: каналы, каналов; run: runs, running)
app-tracker-skip-reposts = Skip forwards and copies of a post matched in the last 24 hours
app-tracker-watch-links = Also posts with my short links or invite links
app-tracker-minus-words = Minus words
app-tracker-minus-hint = Comma separated; any of them vetoes a match
app-tracker-where = Where to search
app-tracker-chats = Chats
app-tracker-category = Category
app-tracker-min-subscribers = Minimum subscribers
app-tracker-include = Only these sources
app-tracker-exclude = Exclude sources
app-tracker-sources-hint = @username, chat id or t.me link; comma separated
app-tracker-notifications = Notifications
app-tracker-notify-via = Notify via
app-tracker-via-bot = Bot message
app-tracker-via-chat = A channel or group of mine
app-tracker-via-webhook = Webhook
app-tracker-how-often = How often
app-tracker-instant = At once
app-tracker-hourly = One digest an hour
app-tracker-daily = One digest a day (UTC)
app-tracker-on-delete = Also notify when a matched post is deleted
app-tracker-chat = Chat
app-tracker-chat-hint = Your channels and groups where the bot is an administrator
app-tracker-chat-none = Add the bot to a channel or group of yours as an administrator first (Channels)
app-choose = Choose…
app-tracker-topic = Forum topic
app-tracker-topic-hint = Optional: the topic id in a group with topics
app-device-bot = bot
app-device-other = other
token-copy = 📋 Copy token

## Mini-app: errors the API answers, in the user's words

## Chat powers: whether the person still runs a chat the bot acts in for them
problem-not_chat_admin = Telegram says you are not an administrator of that chat, so the bot does not act for you there.
problem-no_invite_right = You are an administrator of that chat without the right to invite users, which the bot needs you to hold to act for you there: ask the chat's owner for it.
problem-rights_unconfirmed = Telegram could not be reached to confirm that you still administer that chat, so nothing was done; try again in a minute.
channel-lost = ⚠️ “{ $title }” is no longer yours to run through me: Telegram says { $reason ->
        [left] you left it
        [kicked] you were removed from it
        [no_invite_right] you do not have the right to invite users there
       *[member] you are no longer an administrator there
    }. From now on I make no invite links and settle no join requests there for you, its messages no longer reach your trackers, your notifications no longer go into it, and its list of who joined is closed to you. Your invite links keep their figures in /channels. If you are made an administrator with the right to invite users again, all of it comes back.
channel-regained = ✅ You run “{ $title }” again: invite links, join requests, its list of who joined and your trackers there work for you once more (/channels).
channel-powers-lost = New invite links, join requests, the list of who joined and the chart are closed to you; your invite links below keep their figures.
source-claim-refused = ⚠️ It is not added to your channels, because { $reason ->
        [left] you left it
        [kicked] you were removed from it
        [no_invite_right] you do not have the right to invite users there
        [unconfirmed] Telegram could not be reached to confirm your rights there
       *[member] you are no longer an administrator there
    }: only its creator or an administrator with the right to invite users can have me make invite links and read its messages for them.

## Ads: placements in the bot
ads-title = 📢 <b>Ads</b> · { $period } · by { $sort }
ads-none = No placements in this period. Forward an ad post here (or paste its text with the links), say where it runs and what it cost: it shows up in this table.
ads-line = { $n }. <b>{ $name }</b> · { $price }
    👆 { $clicks } · 👥 { $joins } · ✅ { $stayed } · 💰 { $perStayed }
ads-more = …and { $count } more: see the export.
ads-legend = 👆 unique clicks · 👥 joins · ✅ stayed a week · 💰 per subscriber who stayed
ads-no-price = no price
ads-period-30d = 30 days
ads-period-7d = 7 days
ads-period-90d = 90 days
ads-period-all = All time
ads-sort-cost_per_retained = cost per subscriber who stayed
ads-sort-cost_per_join = cost per join
ads-sort-joins = joins
ads-sort-unique_clicks = unique clicks
ads-by-cost_per_retained = 💰 Per stayed
ads-by-cost_per_join = 💵 Per join
ads-by-joins = 👥 Joins
ads-by-unique_clicks = 👆 Clicks
ads-venue = Where: { $venue }
ads-published = Published: { $date }
ads-price = Price: { $price }
ads-post = Post: { $url }
ads-post-none = Post: not known yet (🔗 Post URL)
ads-funnel-views = 👁 Views: { $views } · CPM { $cpm }
ads-funnel-clicks = 👆 Clicks: { $clicks }, unique { $unique } · CPC { $cpc }
ads-funnel-joins = 👥 Joins: { $joins }, left { $leaves } · per join { $perJoin }
ads-funnel-stayed = ✅ Stayed after 24 h: { $day } · 7 days: { $week } · 30 days: { $month }
ads-funnel-retained = 💰 Per subscriber who stayed a week: { $perStayed }
ads-stayed-of = { $stayed } of { $of } ({ $rate })
ads-bound = Tracking links: { $links } · invite links: { $invites }
ads-set-views = 👁 Views
ads-set-post_url = 🔗 Post URL
ads-set-cost = 💰 Price
ads-set-publish_at = 📅 Date
ads-set-name = ✏️ Name
ads-set-notes = 📝 Notes
ads-prompt-cost = what the ad cost, e.g. 5 000 ₽, $50, or a number alone in your account's currency
ads-prompt-publish-at = when the ad runs, e.g. { $when }
ads-prompt-name = the placement's name
ads-prompt-notes = your notes on this placement
ads-refuse-publish-at = I could not read that date. Examples: { $when }.
ads-notes = Notes: { $notes }
ads-open-post = ↗️ Open the post
ads-delete = 🗑 Delete
ads-delete-confirm = Delete the placement <b>{ $name }</b>? Its links and invite links stay, with their clicks and joins.
ads-delete-yes = 🗑 Yes, delete
ads-deleted = 🗑 Placement deleted.
ads-back = ⬅️ Ads
ads-prompt-views = how many views the ad post has (12000, 12 000 or 12.5K)
ads-prompt-post-url = the ad post's link, t.me/channel/123
ads-refuse-views = Views are a whole number: 12000, 12 000 or 12.5K.
ads-sheet = Ads
ads-export-caption = 📢 { $count ->
        [one] { $count } placement
       *[other] { $count } placements
    }, { $period } ({ $format })
ads-column-name = Placement
ads-column-venue = Where
ads-column-published = Published
ads-column-price = Price
ads-column-currency = Currency
ads-column-views = Views
ads-column-clicks = Clicks
ads-column-unique-clicks = Unique clicks
ads-column-joins = Joins
ads-column-leaves = Leaves
ads-column-stayed-24h = Stayed 24 h
ads-column-stayed-7d = Stayed 7 days
ads-column-stayed-30d = Stayed 30 days
ads-column-cpm = CPM
ads-column-cpc = CPC
ads-column-per-join = Per join
ads-column-per-stayed = Per subscriber who stayed
ads-column-post = Post
settings-currency = Currency of prices: { $currency }
settings-currency-set = Prices without a currency are now read in { $currency }.
report-ads = 📢 Best ad: { $best } ({ $bestJoins ->
        [one] { $bestJoins } join
       *[other] { $bestJoins } joins
    }, { $bestClicks ->
        [one] { $bestClicks } click
       *[other] { $bestClicks } clicks
    }) · worst: { $worst } ({ $worstJoins ->
        [one] { $worstJoins } join
       *[other] { $worstJoins } joins
    }, { $worstClicks ->
        [one] { $worstClicks } click
       *[other] { $worstClicks } clicks
    })
report-ads-one = 📢 Ads: only { $name } brought anyone ({ $joins ->
        [one] { $joins } join
       *[other] { $joins } joins
    }, { $clicks ->
        [one] { $clicks } click
       *[other] { $clicks } clicks
    })

## Mini-app: Ads
app-tab-ads = Ads
app-ads-send = Send to chat
app-ads-sent = Sent { $rows ->
        [one] { $rows } placement
       *[other] { $rows } placements
    } to your Telegram chat
app-ads-title = Ads
app-ads-period = Period
app-ads-period-30d = 30 days
app-ads-period-7d = 7 days
app-ads-period-90d = 90 days
app-ads-period-all = All time
app-ads-none = No placements in this period. Forward an ad post to the bot, say where it runs and what it cost: it shows up here.
app-ads-hint = Click a heading to sort by it, again for the other direction. Stayed: joined and still there a week later.
app-ads-col-name = Placement
app-ads-col-price = Price
app-ads-col-views = Views
app-ads-col-clicks = Clicks
app-ads-col-joins = Joins
app-ads-col-stayed = Stayed
app-ads-col-per-join = Per join
app-ads-col-per-stayed = Per stayed
app-ads-no-price = no price
app-ads-funnel = From views to who stayed
app-ads-step-views = Views
app-ads-step-clicks = Unique clicks
app-ads-step-joins = Joins
app-ads-step-h24 = Stayed 24 h
app-ads-step-d7 = Stayed 7 days
app-ads-step-d30 = Stayed 30 days
app-ads-cpm = CPM { $cost }
app-ads-cpc = CPC { $cost }
app-ads-per-join = { $cost } per join
app-ads-per-stayed = { $cost } per subscriber who stayed
app-ads-views-curve = Views of the ad post
app-ads-views-none = No views read yet: they come once the post's link is known.
app-currency = Currency of prices
app-currency-hint = A price written without a currency (5000) is read in this one, in the bot and here.

## The user's time: examples of what may be typed and the zone times are read and shown in

# { $date } is a week from today in the reader's way of writing dates; { $zone } as people say it ("Moscow (UTC+3)")
tz-examples = 2h, 3 days, in 2 weeks, tomorrow 18:00, friday, { $date }, { $date } 18:30; the time is { $zone }
# a spreadsheet column with times, and the zone they are in
tz-column = { $column } — { $zone }

## Refusals: a field's rule in words (core/i18n/problem.ts reads core's sentence); { $field } starts the sentence

problem-field = { $field }: that value does not fit.
check-length = { $field } must be { $min } to { $max } characters.
check-max-length = { $field } must be at most { $max } { $max ->
    [one] character
   *[other] characters
    }.
check-code-chars = { $field } must be { $min } to { $max } letters, digits, “-” or “_”.
check-days = { $field } must be a whole number of days from { $min } to { $max }.
check-whole-range = { $field } must be a whole number from { $min } to { $max }.
check-more-at-most = { $field } must be more than { $min } and at most { $max }.
check-positive = { $field } must be a whole number above 0.
check-whole = { $field } must be a whole number.
check-at-least = { $field } must be at least { $min }.
check-max-kb = { $field } must be at most { $max } KB.
check-url = { $field } must be a full address starting with http:// or https://.
check-no-spaces = { $field } cannot contain spaces (write them as %20).
check-no-credentials = { $field } cannot contain a user name or password.
check-no-backslash = { $field } cannot contain a backslash (use / or write it as %5C).
check-own-host = { $field } cannot lead to this service itself.
check-not-future = { $field } cannot be in the future.
check-future = { $field } must be in the future.
check-order = { $field } must be { $order ->
    [earlier] earlier
   *[later] later
    } than { $other }.
check-date = { $field } must be a date and time such as 2026-05-01 12:00.
check-one-of = { $field } must be one of: { $list }.
check-email = { $field } must be an address such as name@example.com.
check-email-code = { $field } must be the { $digits }-digit code from the email.
check-currency = { $field } must be a three-letter currency code such as USD, EUR or RUB.
check-domain = { $field } must be a domain name such as go.example.com, without http://, port or path.
check-entries-range = { $field }: from { $min } to { $max }.
check-entries-max = { $field }: at most { $max }.
check-visible = { $field } must have at least one visible character.
check-required = { $field } is required.

# API token scopes as the reader says them
scope-all = everything
scope-read-links = links: read
scope-write-links = links: change
scope-read-stats = stats: read
scope-read-channels = channels: read
scope-write-channels = channels: change
scope-read-pixels = pixels: read
scope-write-pixels = pixels: change
scope-read-secure = secure sharing: read
scope-write-secure = secure sharing: change
scope-read-tracking = trackers: read
scope-write-tracking = trackers: change
scope-read-conversions = conversions: read
scope-write-conversions = conversions: report
scope-read-webhooks = postbacks: read
scope-write-webhooks = postbacks: change
# period buttons of a link's stats
period-short-1d = 1d
period-short-7d = 7d
period-short-30d = 30d
period-short-90d = 90d
period-short-1y = 1y
period-short-all = all
# how a member joined, in the join journal's "Via" column
journal-via-invite = an invite of yours
journal-via-other_link = another invite link
journal-via-none = no link
journal-via-folder = a folder link
journal-via-request = a join request
# a note stored without a name: its number among the owner's notes and the day
note-default-name = Note { $n }, { $date }

# a period as typed after /summary (either language's is read)
period-typed-1d = 1d
period-typed-7d = 7d
period-typed-30d = 30d
period-typed-90d = 90d
period-typed-1y = 1y
period-typed-all = all
summary-period-refuse = The period is one of: { $list }.

# Public pages: short links (SHORT_URL/<code>), secure files (/s/<code>) and request links (/r/<code>)
visitor-not-found-title = Link not found
visitor-not-found-text = This link does not exist or has been turned off.
visitor-expired-title = Link expired
visitor-expired-text = This link has expired or reached its click limit.
visitor-countdown-title = Link not open yet
visitor-countdown-heading = This link opens soon
visitor-countdown-opens = The link opens at { $time }.
visitor-countdown-day-short = d
visitor-countdown-noscript = Reload the page when the time has come.
visitor-password-title = Password required
visitor-password-text = Enter the password to open this link.
visitor-password-label = Password
visitor-password-open = Open link
visitor-password-wrong = Wrong password, try again.
visitor-redirect-title = Redirecting…
visitor-redirect-text = Taking you to the destination…
visitor-redirect-continue = Continue
visitor-locked-title = Too many attempts
visitor-locked-text = Too many wrong passwords. Try again in { $minutes } min.
secure-page-shared = A secure file was shared with you
secure-page-kind = Kind
secure-page-name = Name
secure-page-file = File
secure-page-size = Size
secure-page-until = Available until
secure-page-views-left = Views left
secure-page-unlimited = unlimited
secure-page-password = Password
secure-page-last-view = This is the last view: after it the link stops working.
secure-page-show-text = Show the text
secure-page-show-file = Show the file
secure-page-counts-one = Opening counts one view.
secure-page-views-left-note = { $count ->
    [one] { $count } view left
   *[other] { $count } views left
}
secure-page-available-until = available until { $time }
secure-page-download = Download
secure-page-preview = Your own preview: no view was counted.
secure-page-counted = One view was counted. Keep this page open: the download works for a few hours from it.
secure-page-password-required = Enter the password to open this link.
secure-page-password-invalid = That password is wrong.
secure-page-403-title = Not available
secure-page-403-text = The owner has revoked this link or paused sharing. Ask them for a new link.
secure-page-404-title = Link not found
secure-page-404-text = There is no secure file at this address. Check that the link was copied completely.
secure-page-410-title = Link expired
secure-page-410-text = This link has expired or has been opened as many times as allowed.
secure-page-429-title = Too many attempts
secure-page-429-text = Wait a while before trying again.
secure-page-open-in-browser = Open the link in a browser to view it.
secure-page-bytes = { $size } B
secure-page-kilobytes = { $size } KB
secure-page-megabytes = { $size } MB
request-page-not-received = Nothing was received
request-page-nothing-kept = Nothing of it was kept.
request-page-try-again = Try again
request-page-title = Send a file
request-page-items-left = { $count ->
    [one] { $count } item can still be sent
   *[other] { $count } items can still be sent
}
request-page-open-until = open until { $time }
request-page-intro = Someone asked you to send them a file or a text. No account is needed.
request-page-file = File (at most 10 MB)
request-page-send-file = Send the file
request-page-or-text = Or a text
request-page-send-text = Send the text
request-page-send-another = Send another
request-page-received = Received
request-page-text-delivered = Your text has been delivered.
request-page-file-delivered = { $file } has been delivered.
secure-error-link_revoked = This link has been revoked by its owner.
secure-error-folder_paused = Sharing from this folder is paused by its owner.
secure-error-link_expired = This link has expired.
secure-error-views_exhausted = This link has reached its view limit.
secure-error-request_inactive = This request link has been turned off by its owner.
secure-error-request_expired = This request link has expired.
secure-error-request_full = This request link has received all the items it asked for.
secure-error-request_not_found = There is no request link at this address.
secure-error-file_too_large = That file is larger than 10 MB.
secure-error-plan_limit = The owner has no room left for more files: they need to free some before anything more can be received.
secure-error-request_storage_full = This request link has taken in all it may (100 MB in all).
secure-error-upload_too_slow = The upload took too long and was stopped.
secure-error-upload_stalled = The upload stopped coming and was cut off.
secure-page-kind-text = text
secure-page-kind-image = image
secure-page-kind-video = video
secure-page-kind-audio = audio
secure-page-kind-file = file

## Keyword tracking: notifications into a team chat, picked by name
trk-via-chat = Into a group or channel of mine
trk-no-team-chats = You have no group or channel where I can post yet: make me an administrator there (with the right to invite users for you to hold too), then choose again.
trk-pick-chat = Which group or channel should get the matches?
trk-pick-topic = Which topic of the forum?
trk-topic-general = # General
trk-pick-hint = Press one of the buttons, or type the start of its name.
trk-prompt-webhook = Send the webhook URL: it gets an HTTP POST per match and must answer 2xx to a test request.

## Conversions on the link, invite and placement cards (conv-…)
conv-card-none = 🎯 Conversions: none yet
conv-card-count = 🎯 Conversions: { $count }
conv-card-count-rate = 🎯 Conversions: { $count } · { $rate } of { $unique } unique clicks
conv-card-value = 💵 Worth: { $value }
conv-card-events = 📋 { $events }
conv-card-roas = 📈 ROAS: { $roas } (the conversions' worth against the ad's price)
conv-event-click = Click
conv-event-join_request = Join request
conv-event-join = Join
conv-event-leave = Leave
conv-event-start = Bot start
conv-event-lead = Lead
conv-event-registration = Sign-up
conv-event-purchase = Purchase
conv-event-deposit = Deposit
conv-event-subscribe = Subscription
conv-event-any = Any event

## Postbacks in the bot (pb-…) and keys for incoming conversions (pbk-…)
pb-settings = 📮 Postbacks
pb-card-none = 📮 Postback
pb-card-some = 📮 Postbacks: { $count }
pb-for-link = link «{ $name }»
pb-for-placement = placement «{ $name }»
pb-for-account = all your links and invites
pb-list-title = 📮 <b>Postbacks</b> · { $scope }
pb-list-none = None yet. A postback calls an address of yours (an ad network's, your tracker's) each time a chosen event happens: a click, a join, a purchase…
pb-events = Events: { $events }
pb-target-meta = Meta Conversions API · pixel <code>{ $pixel }</code>
pb-new = ➕ New postback
pb-keys = 🔑 Keys for incoming conversions
pb-test-short = 🧪
pb-back-placement = ⬅️ Placement
pb-back-list = ⬅️ Postbacks
pb-back-postback = ⬅️ Postback
pb-title = 📮 <b>Postback</b> · { $scope }
pb-signed = Requests are signed with your webhook secret: header <code>X-Webhook-Signature</code>.
pb-recent = <b>Recent deliveries</b>
pb-no-deliveries = Nothing sent yet.
pb-attempts = { $count ->
    [one] { $count } attempt
   *[other] { $count } attempts
}
pb-test = 🧪 Send a test
pb-log = 📜 Delivery log
pb-delete = 🗑 Delete
pb-log-title = 📜 <b>Delivery log</b> of { $target }
pb-delete-confirm = Delete the postback to { $target }? What is still waiting to be sent is dropped.
pb-delete-yes = 🗑 Yes, delete
pb-deleted = 🗑 Postback deleted.
pb-test-sending = ⏳ Sending a test to { $target }…
pb-test-body = «{ $body }»
pb-test-no-body = nothing in the body
pb-test-ok = ✅ The receiver took the test: it answered { $status }, { $body }.
pb-test-refused = ❌ The receiver refused the test: it answered { $status }, { $body }.
pb-test-unreachable = ❌ The test did not get through: { $error }.
pb-ask-url =
    📮 New postback for { $scope }.
    Send the address to call, with macros where the values go: { $macros }. For example:
    { $example }
    It is called with GET; add POST after the address to have the values sent as JSON. For Meta's Conversions API send <code>meta &lt;pixel id&gt; &lt;access token&gt;</code>.
pb-refuse-macro = <code>{ $name }</code> is no macro I know. The macros are: { $macros }. Send the address again.
pb-refuse-long = The address is too long: at most { $max } characters. Send a shorter one.
pb-refuse-http = That is not a full address: it must start with http:// or https://, like { $example }. Send it again.
pb-refuse-shape = Send one address (with POST after it if you like), or meta, the pixel id and the access token, separated by spaces.
pb-pick-events = Which events should call it? Tap to choose, or type other event names (as your server reports them), then save.
pb-save = { $count ->
    [0] ✅ Save and test
   *[other] ✅ Save and test ({ $count })
}
pb-pick-one = Choose at least one event first.
pb-refuse-event = «{ $name }» cannot be an event name: use lower-case letters, digits and _, starting with a letter, up to 40 characters.
pb-cancelled = Cancelled: no postback was made.
pb-saved = ✅ Postback saved. A test is on its way; its answer comes below.
pbk-settings = 🔑 Conversion keys
pbk-title = 🔑 <b>Keys for incoming conversions</b>
pbk-none = None yet. A server that can only call an address (not send an API request) reports a conversion with a GET to an address with a key in it. Make a key to get the address.
pbk-how = Report a conversion with a GET to the key's address (sent when the key was made), adding the values: <code>?event=purchase&amp;click_id=…&amp;value=990&amp;currency=RUB&amp;external_id=…</code>. <code>event</code> is required; the same <code>external_id</code> twice counts once. A revoked key is refused.
pbk-item = • { $key } «{ $name }», made { $made }
pbk-default-name = Key of { $date }
pbk-revoke-label = 🚫 Revoke { $key }
pbk-revoke-confirm = Revoke key { $key }? Conversions reported with it are refused from now on.
pbk-revoke-yes = 🚫 Yes, revoke
pbk-revoked = 🚫 Key revoked.
pbk-new = ➕ New key
pbk-made = 🔑 New key. Report conversions with a GET to this address (add <code>?event=purchase&amp;click_id=…</code>); it is shown only now, so keep it:
    { $url }
pbk-copy = 📋 Copy address

## Mini-app: conversions and postbacks (app-conv-…, app-pb-…, app-pbk-…)
app-conv-title = Conversions
app-conv-none = No conversions yet. They come from your server through the API, from a conversion key's address, and from joins through invites.
app-conv-count = { $count ->
    [one] conversion
   *[other] conversions
    }
app-conv-rate = of unique clicks
app-conv-value = worth
app-conv-roas = ROAS
app-conv-col = Conversions
app-conv-postbacks-link = Postbacks: tell an ad network or your tracker of each conversion
app-conv-event-click = Click
app-conv-event-join_request = Join request
app-conv-event-join = Join
app-conv-event-leave = Leave
app-conv-event-start = Bot start
app-conv-event-lead = Lead
app-conv-event-registration = Sign-up
app-conv-event-purchase = Purchase
app-conv-event-deposit = Deposit
app-conv-event-subscribe = Subscription
app-conv-event-any = Any event
app-pb-title = Postbacks
app-pb-intro = A postback calls an address of yours (an ad network's, your tracker's) each time a chosen event happens. These are all of your account's.
app-pb-for-link = This link's postbacks; a new one here calls only for this link.
app-pb-for-placement = This placement's postbacks; a new one here calls only for this placement.
app-pb-none = No postbacks yet.
app-pb-settings-hint = Tell ad networks and your tracker of clicks, joins and conversions; keys for conversions reported with a GET.
app-pb-open = Open postbacks
app-pb-meta-target = Meta Conversions API · pixel { $pixel }
app-pb-scope-link = link #{ $id }
app-pb-scope-placement = placement #{ $id }
app-pb-scope-all = all links and invites
app-pb-events = events: { $events }
app-pb-test = Send a test
app-pb-log = Delivery log
app-pb-delete-confirm = Delete the postback to { $target }? What is still waiting to be sent is dropped.
app-pb-deleted = Postback deleted
app-pb-test-body = “{ $body }”
app-pb-test-no-body = nothing in the body
app-pb-test-ok = The receiver took the test: it answered { $status }, { $body }.
app-pb-test-refused = The receiver refused the test: it answered { $status }, { $body }.
app-pb-test-unreachable = The test did not get through: { $error }.
app-target-why-status = the receiver answered { $status }
app-target-why-timeout = the receiver did not answer in time
app-target-why-timeout-after = the receiver did not answer within { $seconds } s
app-target-why-network = the receiver could not be reached{ $detail }
app-target-why-refused = the address is in an internal network, where nothing is sent
app-target-why-invalid = the address is not a usable http(s) URL
app-pb-log-none = Nothing sent yet.
app-pb-log-when = When
app-pb-log-event = Event
app-pb-log-state = State
app-pb-log-answer = Answer
app-pb-state-pending = waiting
app-pb-state-sending = sending
app-pb-state-done = delivered
app-pb-state-failed = failed
app-pb-state-cancelled = cancelled
app-pb-attempts = { $count ->
    [one] { $count } attempt
   *[other] { $count } attempts
    }
app-pb-new = New postback
app-pb-kind = Receiver
app-pb-kind-url = An address (URL template)
app-pb-kind-meta = Meta Conversions API
app-pb-url = Address to call
app-pb-macros = Macros such as {"{"}click_id{"}"}, {"{"}event{"}"}, {"{"}value{"}"}, {"{"}currency{"}"} or {"{"}sub1{"}"} are replaced by the values (the bot lists them all).
app-pb-post-json = POST (values as JSON)
app-pb-pixel = Pixel id
app-pb-access-token = Access token
app-pb-events-label = Events
app-pb-other-events = Other events (as your server reports them, comma-separated)
app-pb-create = Save postback
app-pbk-title = Keys for incoming conversions
app-pbk-how = A server that can only call an address reports a conversion with a GET to a key's address, filling in event (required), click_id, value, currency and external_id (the same one twice counts once). A revoked key is refused.
app-pbk-none = No keys yet.
app-pbk-new = New key
app-pbk-name = The key's name (which server uses it)
app-pbk-copy-now = Copy the address now: it is shown only once. Add ?event=purchase&click_id=… to report a conversion.
app-pbk-made-on = made { $date }
app-pbk-revoke-confirm = Revoke key “{ $name }”? Conversions reported with it are refused from now on.
app-pbk-revoked = Key revoked

## Workspaces in the bot (bot/menus/workspaces.ts, bot/features/team-chat.ts)
problem-forbidden_role = Your role in this workspace does not allow that; ask its owner or an admin.
problem-personal_workspace = Your personal workspace has no team: switch to a team workspace in Settings first.
problem-invite_used = This invitation was already used; ask for a new one.
problem-invite_expired = This invitation has expired; ask for a new one.
problem-invite_revoked = Whoever made this invitation can no longer invite to this team; ask for a new one.
problem-last_owner = A workspace needs an owner: make someone else an owner first.
ws-personal = Personal
ws-line-personal = 🏢 Workspace: <b>personal</b>
ws-line-team = 🏢 Workspace: <b>{ $name }</b> · { $role }
ws-role-owner = owner
ws-role-admin = admin
ws-role-editor = editor
ws-role-viewer = viewer
ws-switched = You now work in <b>{ $name }</b>: every list shows its data.
ws-team-button = 👥 Team
ws-new-team = ➕ New team
ws-new-team-ask = Name the new team workspace (for example, the agency or the channel network):
ws-created = Team <b>{ $name }</b> is made and you work in it now. Invite people from 👥 Team.
ws-team-title = <b>👥 { $name }</b> · { $count ->
    [one] { $count } member
   *[other] { $count } members
}
ws-member-line = • { $name } — { $role }
ws-group-line = 💬 Team group: <b>{ $title }</b> gets the reports, alerts, tracker notifications and join requests.
ws-group-topic-line = 💬 Team group: a topic of <b>{ $title }</b> gets the reports, alerts, tracker notifications and join requests.
ws-group-none = 💬 No team group: reports, alerts, tracker notifications and join requests go to the owners and admins. To change that, add @{ $bot } to the team's group and send /connect there (in a forum, inside the topic to use).
ws-invite-button = ➕ Invite
ws-audit-button = 📜 Last changes
ws-back-team = ⬅️ Team
ws-member-title = <b>{ $name }</b> — { $role }, a member since { $since }
ws-make-role = Make { $role ->
    [owner] an owner
    [admin] an admin
    [editor] an editor
   *[viewer] a viewer
}
ws-remove-member = ❌ Remove from the team
ws-role-changed = { $name } is { $role } now.
ws-member-removed = { $name } is no longer in the team: their access and the API tokens they made here stopped at once.
ws-invite-text = Invite someone into <b>{ $name }</b>: choose the role they get. The link works once, for 7 days.
ws-invite-as = As { $role ->
    [owner] an owner
    [admin] an admin
    [editor] an editor
   *[viewer] a viewer
}
ws-invite-made = 🔗 An invitation into <b>{ $name }</b> as { $role }, for one person, until { $until }:
    { $url }
ws-invite-share = 📤 Send the invitation
ws-invite-share-text = Join { $name } in the bot
ws-joined = 👋 You joined <b>{ $name }</b> as { $role } and work in it now. Your personal workspace is one tap away in Settings.
ws-audit-empty = No changes recorded yet.
ws-audit-title = <b>📜 Last changes</b> ({ $count } in all; the app has them all, with filters)
ws-audit-service = the service
ws-audit-line = { $at } · { $who }: { $verb ->
    [create] created
    [update] changed
    [delete] deleted
    [revoke] revoked
    [approve] approved
    [decline] declined
    [role] changed the role of
    [join] joined
    [remove] removed
    [leave] left
    [connect] connected
    [disconnect] disconnected
    [rename] renamed
    [chart] sent the chart of
    [export] exported
    [invites] made an invite of
    [links] bound a link to
    [verify] verified
    [share_qr] sent the QR code of
    [test] tested
    [upload] uploaded to
    [read_all] marked as read
    [redeliver] redelivered
   *[other] { $verb }
} { $area ->
    [links] link
    [tags] tag
    [pixels] pixel
    [domains] domain
    [webhooks] webhook
    [folders] folder
    [files] file
    [shares] share link
    [requests] request
    [trackers] tracker
    [tracking] tracker
    [channels] channel
    [invites] invitation
    [placements] placement
    [tokens] API token
    [members] member
    [workspaces] workspace
    [settings] the settings
    [team_chat] team group
    [conversions] conversion
    [bulk] links in bulk
    [send_summary] summary to the chat
    [export] table export
    [postback_keys] conversion key
    [postbacks] postback
    [pause] folder pause
    [restore] link restore
    [revoke] link revocation
    [matches] tracker matches
    [deliveries] webhook delivery
    [rotate] webhook secret
    [workspace] team
    [audit] change log
    [join] team membership
   *[other] { $area }
} { $id }
ws-group-start-first = First open a private chat with @{ $bot } and press Start: then I know who you are.
ws-connect-anonymous = I cannot tell who sent that: an anonymous administrator cannot connect a group. Send /connect as yourself.
ws-connect-personal = Your current workspace is your personal one: pick the team in @{ $bot } → Settings, then send /connect here again.
ws-connect-not-admin = Only the group's administrators can connect it to a team.
ws-connected = ✅ This group is now the team group of <b>{ $workspace }</b>: its reports, alerts, tracker notifications and join requests come here.
ws-connected-topic = ✅ This topic is now where <b>{ $workspace }</b> gets its reports, alerts, tracker notifications and join requests.
ws-disconnected = This group no longer gets the messages of <b>{ $workspace }</b>: they go to its owners and admins again.
ws-not-connected = This group is not connected to <b>{ $workspace }</b>.

## Workspaces in the mini-app (miniapp/src/pages/workspace-bar.ts, members.ts, audit.ts)
app-ws-label = Workspace
app-ws-personal = Personal
app-ws-role-owner = owner
app-ws-role-admin = admin
app-ws-role-editor = editor
app-ws-role-viewer = viewer
app-ws-members = Members
app-ws-audit = Changes
app-ws-since = since { $date }
app-ws-role = Role
app-ws-role-saved = Role changed
app-ws-remove = Remove
app-ws-remove-confirm = Remove { $name } from the team? Their access and the API tokens they made here stop at once.
app-ws-removed = Removed from the team
app-ws-invite = Invite someone
app-ws-invite-hint = The link works once, for 7 days: whoever opens it in the bot joins with the role chosen here.
app-ws-invite-make = Make an invitation
app-ws-invite-until = Valid until { $date }
app-ws-share = Send in Telegram
app-ws-share-text = Join { $name } in the bot
app-ws-audit-export = Send to the chat
app-ws-audit-action = What
app-ws-audit-any = Anything
app-ws-audit-member = Who
app-ws-audit-anyone = Anyone
app-ws-audit-from = From
app-ws-audit-to = To
app-ws-audit-none = No changes match.
app-ws-audit-when = When
app-ws-audit-who = Who
app-ws-audit-what = What
app-ws-audit-subject = Which
app-ws-audit-service = the service
app-ws-audit-newer = ← Newer
app-ws-audit-older = Older →
app-ws-audit-count = { $count ->
    [one] { $count } change
   *[other] { $count } changes
}
app-ws-area-links = Link
app-ws-area-tags = Tag
app-ws-area-pixels = Pixel
app-ws-area-domains = Domain
app-ws-area-secure = Secure sharing
app-ws-area-tracking = Tracker
app-ws-area-folders = Folder
app-ws-area-files = File
app-ws-area-requests = Request
app-ws-area-channels = Channel
app-ws-area-invites = Invitation
app-ws-area-placements = Placement
app-ws-area-tokens = API token
app-ws-area-members = Member
app-ws-area-workspaces = Workspace
app-ws-area-conversions = Conversion
app-ws-area-bulk = Links in bulk
app-ws-area-send_summary = Summary to the chat
app-ws-area-export = Table export
app-ws-area-postback_keys = Conversion key
app-ws-area-postbacks = Postback
app-ws-area-pause = Folder pause
app-ws-area-restore = Link restore
app-ws-area-revoke = Link revocation
app-ws-area-matches = Tracker matches
app-ws-area-deliveries = Webhook delivery
app-ws-area-rotate = Webhook secret
app-ws-area-workspace = Team
app-ws-area-audit = Change log
app-ws-area-join = Team membership
app-ws-area-settings = Settings
app-ws-area-team_chat = Team group
app-ws-area-webhooks = Webhook
app-ws-area-shares = Share link
app-ws-area-trackers = Tracker
app-ws-verb-create = created
app-ws-verb-update = changed
app-ws-verb-delete = deleted
app-ws-verb-revoke = revoked
app-ws-verb-approve = approved
app-ws-verb-decline = declined
app-ws-verb-role = role changed
app-ws-verb-join = joined
app-ws-verb-remove = removed
app-ws-verb-leave = left
app-ws-verb-connect = connected
app-ws-verb-disconnect = disconnected
app-ws-verb-rename = renamed
app-ws-verb-chart = chart sent
app-ws-verb-export = exported
app-ws-verb-invites = invite made
app-ws-verb-links = link bound
app-ws-verb-verify = verified
app-ws-verb-share_qr = QR code sent
app-ws-verb-test = tested
app-ws-verb-upload = uploaded
app-ws-verb-read_all = marked as read
app-ws-verb-redeliver = redelivered

## Workspaces: the audit log's export (ws-)
ws-audit-column-at = Time
ws-audit-column-actor = Who
ws-audit-column-action = Action
ws-audit-column-subject = What
ws-audit-column-details = Details
ws-audit-sheet = Changes
ws-audit-export-caption = { $count ->
        [one] { $count } change
       *[other] { $count } changes
    } in { $workspace }

## Workspaces: what a viewer reads where the buttons that change things are not drawn (ws-read-)
ws-read-tags = <b>🏷 Tags</b> ({ $count }):
ws-read-pixels = <b>📡 Pixels</b> ({ $count }):
ws-read-requests = 🙋 <b>Waiting to join</b> ({ $count }):
ws-read-shares = 🔗 <b>Share links</b> ({ $count }): tap one to see it.
