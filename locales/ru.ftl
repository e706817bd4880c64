# Тексты бота на русском. Каждый ключ есть и в en.ftl, с теми же переменными
# (test/bot/i18n.test.ts сверяет оба файла с кодом). docs/bot.md: «Languages».

## Ошибки и навигация
error-toast = Что-то пошло не так; мы уже записали ошибку. Попробуйте ещё раз.
error-message = ⚠️ Что-то пошло не так на моей стороне; ошибка записана. Попробуйте ещё раз.
nav-outdated = Экран успел измениться — вот как он выглядит сейчас.
nav-menu = ⬅️ Меню
nav-stale-button = Эта кнопка больше не работает. Отправьте /start, чтобы открыть меню.
deep-link-owner-only = Эта кнопка работает только в чате владельца с ботом.
open-in-bot = Открыть в боте

## Ошибки (bot/problem.ts)
problem-not_found = Этого больше нет: удалено или принадлежит другому пользователю.
problem-plan_limit = Достигнут лимит вашего тарифа.
problem-plan_limit-of = Лимит тарифа { $plan }: { $what } — не больше { $max }, у вас уже { $current }. Чтобы добавить ещё, смените тариф.
plan-limit-what-links = ссылок
plan-limit-what-trackers = трекеров
plan-limit-what-secureFiles = защищённых файлов
plan-limit-what-storageMB = МБ в хранилище
plan-limit-what-requestStorageMB = МБ через ссылки-запросы
problem-rate_limited = Слишком много попыток; попробуйте чуть позже.
problem-forbidden = Так сделать нельзя.
problem-conflict = Такое уже есть.
problem-gone = Это больше недоступно.
problem-too_large = Слишком большой размер.
problem-upstream_error = Telegram или другой сервис не ответил; попробуйте чуть позже.
problem-not_configured = На этом сервере это не настроено.
problem-invalid_query = Не получается разобрать запрос: проверьте кавычки и скобки.
problem-chat_not_yours = Уведомления можно присылать только в ваш канал или группу, где бот — администратор.
problem-other = Не получилось; проверьте, что отправили, и попробуйте ещё раз.

## /start, /help, /cancel, непонятный ввод
start-welcome = 👋 Добро пожаловать! Я сокращаю ссылки и считаю переходы, надёжно храню файлы и слежу за ключевыми словами в чатах. Пришлите ссылку, чтобы начать.
start-welcome-named = 👋 Добро пожаловать, { $name }! Я сокращаю ссылки и считаю переходы, надёжно храню файлы и слежу за ключевыми словами в чатах. Пришлите ссылку, чтобы начать.
help-text =
    Вот что я умею:

    { $commands }

    Пришлите любую ссылку (или домен вроде example.com) — я её сокращу; пришлите файл или текст — сохраню его под защитой. В любом чате наберите @{ $bot } и ссылку, чтобы поделиться короткой ссылкой.

    Всё это есть и в меню (/start), и в приложении: { $app }/
cancel-done = Отменено. Ничего не сохранено.
cancel-nothing = Отменять нечего.
unknown-command = Я не знаю команду { $command }. Отправьте /help, чтобы увидеть список, или выберите раздел:
unknown-voice = Голосовые и видеосообщения я не слушаю. Напишите текстом, что нужно (ссылку для сокращения, слова для поиска), пришлите файлом, чтобы сохранить, или выберите раздел ниже:
unknown-sticker = Со стикерами и GIF мне нечего делать. Пришлите ссылку, чтобы сократить её, выберите раздел ниже или отправьте /help:
help-group = В этой группе я присылаю найденные упоминания и считаю вступления для тех, кто меня настроил. Всё остальное — в личном чате со мной: @{ $bot }
unknown-message = Не понимаю, что с этим сделать. Пришлите ссылку, чтобы сократить её, выберите раздел ниже или отправьте /help:

## Команды (меню команд в Telegram)
command-start = Главное меню
command-new = Сократить ссылку: /new <адрес> или /new, а затем адрес
command-links = Ваши ссылки: карточки, настройки, статистика
command-ads = Купленная реклама: цена, переходы, вступления, кто остался и во что обошёлся каждый
command-adpost = Рекламный пост: каждая ссылка в нём станет трекинговой для одного размещения
command-summary = Переходы по всем ссылкам на графике: /summary [7д|30д|90д|всё]
command-secure = Защищённый обмен: папки, файлы и ссылки для доступа
command-track = Создать трекер ключевых слов
command-trackers = Ваши трекеры и найденные упоминания
command-channels = Ваши каналы: пригласительные ссылки, кто подписался и кто остался
command-trackguide = Как добавить бота в канал или группу
command-settings = Тариф и лимиты, API-токены, теги, пиксели, ключи входа, почта, язык
command-help = Что умеет бот
command-cancel = Выйти из текущего диалога

## Главное меню
main-text = Что будем делать?
main-links = 🔗 Ссылки
main-secure = 🔒 Защищённый обмен
main-trackers = 🔎 Трекеры слов
main-channels = 📣 Каналы
main-ads = 📢 Реклама
main-settings = ⚙️ Настройки
main-app = 📱 Открыть приложение

## Настройки
settings-title = <b>⚙️ Настройки</b>
plan-free = Бесплатный
plan-starter = Стартовый
plan-pro = Pro
plan-business = Бизнес
settings-plan = Тариф: <b>{ $plan }</b>
settings-plan-until = Тариф: <b>{ $plan }</b> до { $date }
settings-plan-forever = Тариф: <b>{ $plan }</b> (бессрочно)
settings-usage-links = 🔗 Ссылки: { $used } из { $limit }
settings-usage-trackers = 🔎 Трекеры: { $used } из { $limit }
settings-usage-files = 🔐 Защищённые файлы: { $used } из { $limit }
settings-usage-full = ⛔️ лимит исчерпан
settings-storage = 💾 Хранилище: { $used } из { $limit } МБ
settings-sign-in = Вход: { $methods }
settings-language = Язык: русский
settings-sign-in-passkey = ключ входа «{ $name }»
settings-sign-in-email = почта { $email }
settings-sign-in-telegram = Telegram
settings-back = ⬅️ Настройки
settings-tokens = 🔑 API-токены
settings-passkeys = 🔐 Ключи входа
settings-tags = 🏷 Теги
settings-pixels = 📡 Пиксели
settings-link-email = 📧 Привязать почту
settings-sign-ins = 🪪 Способы входа
settings-reports = 📬 Отчёты и часовой пояс
reports-title = <b>📬 Отчёты</b>
reports-off = Отчёты выключены.
reports-daily = Каждый день в { $hour }: за прошедший день.
reports-weekly = Каждую неделю, { $weekday } в { $hour }: за прошедшие семь дней.
reports-zone = Часовой пояс: { $zone }
reports-about = В отчёте — переходы и уникальные посетители в сравнении с прошлым периодом, лучшие ссылки, подписки и отписки в ваших каналах и найденные упоминания.
reports-set-off = Без отчётов
reports-set-daily = Каждый день
reports-set-weekly = Каждую неделю
reports-earlier = ◀️ На час раньше
reports-later = На час позже ▶️
reports-next-day = 📅 Другой день недели
reports-time-zone = 🌍 Часовой пояс
weekday-1 = понедельник
weekday-2 = вторник
weekday-3 = среда
weekday-4 = четверг
weekday-5 = пятница
weekday-6 = суббота
weekday-7 = воскресенье
time-zone-ask = Пришлите ваш часовой пояс: город (Москва, Алматы), название пояса (Europe/Berlin) или смещение от UTC (+3). /cancel оставит прежний.
time-zone-unknown = Я не знаю часовой пояс «{ $text }». Пришлите город (Москва), название пояса (Europe/Berlin) или смещение (+3), или /cancel.
time-zone-set = ✅ Часовой пояс: { $zone }.
settings-switch-language = 🇬🇧 English
settings-language-set = Язык: русский.
never = никогда
item-remove-label = 🗑 { $label }
item-remove-yes = 🗑 Да, удалить
item-keep = Оставить
tokens-empty = <b>🔑 API-токены</b>
    Токенов пока нет. Токен даёт скриптам доступ к API.
tokens-head = <b>🔑 API-токены</b> ({ $count }) — нажмите на токен, чтобы отозвать его:
tokens-item = • <b>{ $name }</b> <code>{ $hint }…</code> — { $scopes }; действует до: { $expires }, последнее использование: { $used }
tokens-revoke-label = Отозвать { $name }
tokens-confirm = Отозвать токен «{ $name }»? Скрипты с ним сразу перестанут работать.
tokens-removed = 🗑 Токен отозван.
tokens-add = ➕ Новый API-токен
tags-head = <b>🏷 Теги</b> ({ $count }) — нажмите на тег, чтобы удалить его (ссылки останутся).
tags-empty = <b>🏷 Теги</b>
    Тегов пока нет. Добавьте тег здесь или в карточке ссылки.
tags-confirm = Удалить тег «{ $name }»? Ссылки продолжат работать, просто без этого тега.
tags-removed = 🗑 Тег удалён.
tags-add = ➕ Новый тег
pixels-empty = <b>📡 Пиксели</b>
    Пикселей пока нет. Пиксель срабатывает на странице перехода по ссылкам, к которым он подключён.
pixels-head = <b>📡 Пиксели</b> ({ $count }) — нажмите на пиксель, чтобы удалить его:
pixels-confirm = Удалить пиксель «{ $name }»? Он перестанет срабатывать на всех ссылках.
pixels-removed = 🗑 Пиксель удалён.
pixels-add = ➕ Новый пиксель
passkeys-add-hint = Ключи входа добавляются в приложении ({ $app }/): для них нужен браузер.
passkeys-head = <b>🔐 Ключи входа</b> ({ $count }) — нажмите на ключ, чтобы удалить его.
    { $hint }
passkeys-empty = <b>🔐 Ключи входа</b>
    Ключей нет. { $hint }
passkey-unnamed = Ключ входа
passkeys-confirm = Удалить ключ входа «{ $name }»? С ним больше нельзя будет войти в этот аккаунт.
passkeys-removed = 🗑 Ключ входа удалён.
sign-ins-head = <b>🪪 Способы входа</b>
    Этот аккаунт Telegram — ваш основной вход, он останется. Нажмите на другой способ, чтобы отвязать его:
sign-ins-none = <b>🪪 Способы входа</b>
    Этот аккаунт Telegram — ваш основной вход, он останется. Больше отвязывать нечего (у ключей входа свой список).
sign-in-email = почта { $email }
sign-in-telegram = аккаунт Telegram { $id }
sign-ins-confirm = Отвязать { $name }? С ним больше нельзя будет войти в этот аккаунт (ссылки и файлы останутся).
sign-ins-removed = 🗑 Способ входа отвязан.

## Диалоги настроек
dialog-try-again = { $problem }
    Попробуйте ещё раз или отправьте /cancel.
token-ask-name = Как назвать новый API-токен (например, «сайт» или «отчёты»)? Или /cancel:
token-name-too-long = Не больше 100 символов, пожалуйста.
token-pick-scopes = Токен «{ $name }»: что ему можно? Нажмите 👁 Только чтение, или отметьте права по одному и нажмите «Создать», или напишите их (например, «ссылки: чтение, статистика: чтение»). Ничего не выбрано — полный доступ (*).
token-preset-read = 👁 Только чтение (все права на чтение)
token-scopes-rule = Я знаю такие права: { $names } (или «всё»). Напишите их через запятую или нажмите кнопки выше.
token-create-with = ✔️ Создать: { $count ->
        [one] { $count } право
        [few] { $count } права
       *[other] { $count } прав
    }
token-create-all = ✔️ Создать с полным доступом (*)
token-created =
    ✅ Токен <b>{ $name }</b> создан, права: { $scopes }.

    <code>{ $token }</code>

    Скопируйте его сейчас — больше он не покажется. Передавайте его в заголовке <code>Authorization: Bearer &lt;token&gt;</code>.
tag-ask-name = Пришлите название нового тега (до 50 символов) или /cancel.
tag-created = ✅ Тег «{ $name }» создан.
pixel-ask = Пришлите пиксель в виде «тип ID название», например «facebook 123456789012345 Магазин». Типы: { $types }. /cancel — отмена.
pixel-added = ✅ Пиксель «{ $name }» добавлен.
email-ask = 📧 Пришлите адрес почты, который нужно привязать к аккаунту. Я отправлю на него код. /cancel — отмена.
email-try-another = { $problem }
    Пришлите другой адрес или /cancel.
email-code-sent = Я отправил код на { $email }. Пришлите его сюда (он действует 10 минут).
email-code-again = { $problem }
    Пришлите код ещё раз или /cancel.
email-linked = ✅ Почта { $email } привязана: теперь с ней можно входить в приложение.
email-linked-merged = ✅ Почта { $email } привязана: теперь с ней можно входить в приложение. Аккаунт, к которому она относилась, объединён с этим.

## Названия настроек в сообщениях об ошибках (bot/plain.ts)
field-rule = правило
field-variant = вариант
field-url = ссылка назначения
field-title = название
field-code = короткий код
field-utm_source = UTM source
field-utm_medium = UTM medium
field-utm_campaign = UTM campaign
field-tagIds = теги
field-tags = теги
field-starts_at = начало
field-expires_at = срок действия
field-expired_url = адрес после окончания срока
field-max_clicks = лимит переходов
field-password = пароль
field-ios_url = адрес для iPhone и iPad
field-android_url = адрес для Android
field-desktop_url = адрес для компьютеров
field-pixelIds = пиксели
field-domain_id = домен
field-webhook_url = адрес вебхука
field-webhook_method = метод вебхука
field-rules = правила
field-variants = A/B-тест
field-weight = вес
field-keyword = ключевое слово
field-name = название
field-minus_words = минус-слова
field-include_sources = источники для поиска
field-exclude_sources = исключённые источники
field-filter_geo = страна
field-filter_language = язык
field-filter_category = категория
field-filter_min_subscribers = минимум подписчиков
field-notify_via = куда присылать уведомления
field-notify_chat_id = чат для уведомлений
field-email = адрес почты
field-cost = цена
field-member_limit = лимит участников
field-welcome_message = приветствие
field-scopes = права доступа
field-hostname = доменное имя
field-pixelId = ID пикселя
field-period = период
field-format = формат
field-time_zone = часовой пояс
field-post_url = ссылка на пост
field-venue = площадка
field-publish_at = дата публикации
field-notes = заметки
field-views = просмотры
field-currency = валюта
field-type = тип

## Разбор ссылки (bot/url-text.ts)
url-not-a-link = Это не похоже на ссылку.
url-scheme = Сокращать можно только ссылки http:// и https://, а не { $scheme }:.
url-spaces = В ссылке не может быть пробелов. Пришлите только адрес или замените пробелы на %20.
url-too-long = В этой ссылке { $length } { $length ->
    [one] символ
    [few] символа
   *[other] символов
    }; сократить можно не длиннее { $max }.
url-not-target = Эту ссылку нельзя сделать адресом назначения: { $reason }.
new-usage = { $problem }
    Отправьте /new и адрес ссылки или просто /new.

## Ссылки: список, карточка, создание
links-title = 🔗 <b>Ваши ссылки</b>
links-title-tagged = 🔗 <b>Ваши ссылки</b> с тегом «{ $tag }»
links-count = { $title } ({ $count })
    Откройте ссылку, чтобы увидеть карточку и изменить настройки.
links-none-tagged = { $title }
    Ссылок с этим тегом нет.
links-none = { $title }
    Ссылок пока нет. Пришлите сюда адрес, чтобы создать ссылку, или нажмите «Новая ссылка».
links-all = Все
links-all-current = • Все
links-new = ➕ Новая ссылка
links-orphans = 👻 Переходы по несуществующим кодам
card-clicks = 👆 Переходы: <b>{ $total }</b> · уникальные { $unique } · боты { $bots }
card-active = 🟢 Работает
card-inactive = ⚪️ Выключена: посетители видят «не найдено»
card-invite = 📣 Приглашение «{ $name }»: подписались { $joins } · отписались { $leaves } · итого { $net }
placement-private = закрытый чат
placement-line = 📍 Опубликована в { $channels ->
        [one] { $channels } канале
        [few] { $channels } каналах
       *[other] { $channels } каналах
    }{ $posts ->
        [0] {""}
       *[other] {" "}({ $posts } { $posts ->
            [one] публикация
            [few] публикации
           *[other] публикаций
        })
    }: { $names }{ $more ->
        [0] {""}
       *[other] {" "}и ещё { $more }
    }
card-copy = 📋 Копировать
card-share = ↗️ Поделиться
card-turn-off = ⏸ Выключить
card-turn-on = ▶️ Включить
card-stats = 📊 Статистика
card-chart = 📈 График
card-export = 📤 Выгрузка
card-qr = 🔳 QR-код
card-webhook = 🔔 Вебхук: проверка, доставки, секрет
card-delete = 🗑 Удалить
card-back = ⬅️ Мои ссылки
link-delete-confirm = Удалить <b>{ $title }</b>?
    { $clicks ->
        [one] Записанный { $clicks } переход тоже удалится
        [few] Записанные { $clicks } перехода тоже удалятся
       *[other] Записанные { $clicks } переходов тоже удалятся
    }, а { $url } перестанет работать.
link-delete-yes = 🗑 Да, удалить
link-delete-cancel = Отмена
link-deleted = 🗑 Удалено.
link-created = ✅ Ваша трекинговая ссылка:
    <code>{ $url }</code>
    Нажмите на настройку ниже, чтобы изменить её.
link-cut-at = ⚠️ Ссылка обрывается на пробеле после { $url }. Если пробел — часть адреса, пришлите её ещё раз, заменив пробел на %20.
link-create-failed = Не удалось создать ссылку:
    { $problem }
link-limit = ⛔️ { $problem }
link-duplicate = У вас уже есть ссылка на этот адрес: { $url }, { $clicks ->
        [one] пока { $clicks } переход.
        [few] пока { $clicks } перехода.
       *[other] пока { $clicks } переходов.
    }
link-duplicate-titled = У вас уже есть ссылка на этот адрес: { $url } ({ $title }), { $clicks ->
        [one] пока { $clicks } переход.
        [few] пока { $clicks } перехода.
       *[other] пока { $clicks } переходов.
    }
link-duplicate-open = 📂 Открыть её
link-duplicate-new = ➕ Сделать новую
link-duplicate-hint = Нажмите «📂 Открыть её» или «➕ Сделать новую» либо отправьте /cancel.
dialog-cancelled-nothing-created = Отменено. Ничего не создано.
link-ask-url = Пришлите ссылку, которую нужно сократить (адрес или домен вроде example.com). /cancel — отмена.
link-ask-url-again = { $problem }
    Пришлите адрес или /cancel.
option-ask = { $label }: { $prompt }
    /cancel — оставить как есть.
option-ask-clearable = { $label }: { $prompt }
    /clear — убрать · /cancel — оставить как есть.
option-cannot-clear = Это нельзя убрать ({ $option }); пришлите новое значение или /cancel.
option-cannot-clear-generic = Эту настройку нельзя убрать; пришлите новое значение.
option-saved = ✅ Сохранено: { $option }.
option-cleared = ✅ Убрано: { $option }.
warning = ⚠️ { $text }
choice-expired = Этот выбор устарел: начните этот шаг заново из меню.
choice-cancel = Отмена
choice-on = ✅ Вкл
choice-off = ❌ Выкл
choice-syntax-query = 🧩 Запрос
choice-syntax-plain = 🔤 Простое слово или фраза
choice-reposts-skip = Пропускать
choice-reposts-keep = Оставлять
choice-every-instant = Сразу
choice-every-hour = Раз в час
choice-every-day = Раз в день
telegram-refused = Telegram отказал: { $reason }
telegram-refused-why = Telegram отказал: { $why }.
tg-why-invite-rights = у бота нет права «Пригласительные ссылки» в этом чате — включите его в списке администраторов (Управление каналом → Администраторы → бот)
tg-why-admin-rights = у бота нет нужного права администратора в этом чате — проверьте его права в списке администраторов
tg-why-not-member = бота нет в этом чате — добавьте его администратором
tg-why-chat-not-found = Telegram не знает этот чат, или бот в нём не состоит
tg-why-request-gone = этой заявки уже нет: её приняли или отклонили в Telegram, или человек её отозвал
tg-why-user-full = человек состоит в слишком многих каналах и группах, Telegram больше не принимает его

## Инлайн-режим
inline-hint-title = Наберите или вставьте ссылку
inline-hint-description = например, example.com/page
inline-hint-text = Сокращайте ссылки со мной: наберите @{ $bot } и ссылку.
inline-problem-title = Эту ссылку нельзя сократить
inline-existing = Ваша ссылка на { $url }
inline-making = ⏳ Делаю короткую ссылку…
inline-new-title = Сократить { $url }
inline-new-description = Трекинговая ссылка появится, когда вы это отправите
inline-recent = { $url } · { $clicks ->
        [one] { $clicks } переход
        [few] { $clicks } перехода
       *[other] { $clicks } переходов
    }
inline-failed = ⚠️ Не удалось сократить { $url }: { $problem }

## Статистика и выгрузка
period-1d = за сутки
period-7d = за 7 дней
period-30d = за 30 дней
period-90d = за 90 дней
period-1y = за год
period-all = за всё время
stats-title = 📊 { $name } — { $period }
stats-clicks = Переходы: { $count }
stats-unique = Уникальные: { $count }
stats-bots = Боты: { $count }
stats-per-day = В день: { $count }
stats-countries = Страны: { $list }
stats-devices = Устройства: { $list }
stats-rules = По правилам (срабатывает первое подходящее):
stats-rule-clicks = { $clicks ->
        [one] { $clicks } переход
        [few] { $clicks } перехода
       *[other] { $clicks } переходов
    }
stats-variants = A/B-тест, варианты рядом:
stats-variant-clicks = { $clicks ->
        [one] { $clicks } переход
        [few] { $clicks } перехода
       *[other] { $clicks } переходов
    } ({ $percentage }%), уникальных: { $unique }
stats-period = { $period }
stats-period-current = • { $period } •
stats-back = ⬅️ Ссылка
export-title = 📤 Выгрузка переходов по { $url } (сначала новые, не больше { $max }). Выберите формат:
export-button = { $format } · { $period ->
        [all] за всё время
       *[other] за 30 дней
    }
export-running = ⏳ Готовлю { $format }…
export-progress = ⏳ Готовлю { $format }… { $done } из { $total } { $total ->
    [one] строки
   *[other] строк
    } ({ $percent }%)
export-empty = ℹ️ По { $code } за выбранный период ({ $period }) переходов нет; ничего не отправлено
export-sent = ✅ Файл { $filename } отправлен в ваш чат: { $count ->
        [one] { $count } переход
        [few] { $count } перехода
       *[other] { $count } переходов
    }
export-sent-capped = ✅ Файл { $filename } отправлен в ваш чат: { $count ->
        [one] { $count } переход
        [few] { $count } перехода
       *[other] { $count } переходов
    } (самые новые { $max } — это предел выгрузки)
qr-caption = QR-код для { $url }

## Трекеры ключевых слов
track-guide =
    <b>Как добавить меня в источник</b>
    Я ищу ключевые слова во всех каналах и группах, где я состою.

    • <b>Канал</b>: канал → Администраторы → Добавить администратора → найдите меня. Права на публикацию не нужны; бот может читать канал, только будучи администратором.
    • <b>Группа</b>: группа → Добавить участников → я. Если в группе включён режим приватности, сделайте меня администратором, чтобы я видел все сообщения.

    Я читаю новые посты и правки с момента, как меня добавили. Старые сообщения не просматриваются. Я сообщу, когда меня добавят или удалят.
trackers-none = 🔎 Трекеров пока нет. Создайте трекер — и я сообщу, когда слово появится в каналах и чатах, где я состою.
trackers-title = 🔎 <b>Ваши трекеры</b>
    Нажмите на трекер, чтобы посмотреть упоминания или изменить его.
trackers-title-paged = 🔎 <b>Ваши трекеры</b> ({ $from }–{ $to } из { $total })
    Нажмите на трекер, чтобы посмотреть упоминания или изменить его.
trackers-item-new = ({ $count } { $count ->
    [one] новое
   *[other] новых
    })
trackers-limit = Ваш тариф { $plan } позволяет { $max } { $max ->
    [one] трекер
    [few] трекера
   *[other] трекеров
    }, у вас уже { $current }. Удалите один или перейдите на тариф выше.
trackers-new = ➕ Новый трекер
trackers-guide = 📖 Добавить меня в канал
trackers-back = ⬅️ Трекеры
page-previous = « Назад
page-more = Ещё »
tracker-preview-none = Предпросмотр: пока нет свежих постов для проверки.
tracker-preview-query = 👀 Этот запрос нашёл бы { $matched ->
        [0] 0 из последних { $of } постов.
        [one] { $matched } из последних { $of } постов:
       *[other] { $matched } из последних { $of } постов:
    }
tracker-preview-keyword = 👀 Это ключевое слово нашлось бы { $matched ->
        [0] в 0 из последних { $of } постов.
        [one] в { $matched } из последних { $of } постов:
       *[other] в { $matched } из последних { $of } постов:
    }
tracker-preview-skipped = ⏳ Пропущено постов, слишком тяжёлых для проверки этим запросом: { $count }.
tracker-over-budget = ⚠️ Трекер <b>{ $name }</b>: пост оказался слишком тяжёлым для проверки этим запросом, и трекер его пропустил. Похожие посты тоже будут пропускаться, повторно предупреждать не будем. Запрос с меньшим числом пар NEAR или с более редкими словами обходится дешевле.
tracker-via-webhook = вебхук { $url }
tracker-via-chat = чат { $chat }
tracker-via-topic = чат { $chat }, тема { $topic }
tracker-via-here = этот чат
tracker-active = 🟢 работает
tracker-paused = ⏸ на паузе
tracker-query = Запрос: <code>{ $keyword }</code>
tracker-keyword = Ключевое слово: <code>{ $keyword }</code>
tracker-keyword-whole = Ключевое слово: <code>{ $keyword }</code> (целые слова)
tracker-word-forms = любые формы слова
tracker-skip-reposts = репосты и копии пропускаются
tracker-watch-links = и посты с моими ссылками
tracker-minus = Минус-слова: { $words }
tracker-searches-both = Где искать: каналы и чаты
tracker-searches-channels = Где искать: каналы
tracker-searches-chats = Где искать: чаты
tracker-only = Только: { $sources }
tracker-never = Кроме: { $sources }
tracker-min-members = Не меньше { $count ->
        [one] { $count } подписчика
       *[other] { $count } подписчиков
    }
tracker-language = Язык: { $language }
tracker-notify = Уведомления: { $via }
tracker-notify-hourly = Уведомления: { $via }, сводка раз в час
tracker-notify-daily = Уведомления: { $via }, сводка раз в день
tracker-matches = Упоминания: { $total } (непрочитанных: { $unread })
tracker-disable = ⏸ Выключить
tracker-enable = ▶️ Включить
tracker-feed = 📰 Упоминания
tracker-mark-all = ✓ Прочитать все
tracker-marked-all = ✓ Все упоминания отмечены прочитанными.
tracker-delete-confirm = Удалить трекер «{ $name }» вместе с упоминаниями?
tracker-delete-yes = 🗑 Да, удалить вместе с упоминаниями
tracker-deleted = 🗑 Трекер удалён.
tracker-keep = Нет, оставить
feed-chat = чат
feed-open = открыть
feed-deleted = (удалено)
feed-edited-out = ✏️ отредактирован: больше не подходит
feed-header = <b>{ $name }</b>: упоминания { $from }–{ $to } из { $total }
feed-empty = <b>{ $name }</b>: упоминаний пока нет.
feed-newer = « Новее
feed-older = Старее »
feed-back = ⬅️ Трекер
match-marked = ✓ Отмечено прочитанным.
match-already-read = Это упоминание уже прочитано или удалено.
matches-marked = ✓ Отмечено прочитанными: { $count }.
match-read-note = ✓ Прочитано
matches-read-note = ✓ Всё прочитано

## Диалог нового трекера
track-ask = { $question }

    /cancel — отмена.
track-ask-skippable = { $question }

    /skip — пропустить, /cancel — отмена.
track-text-please = Ответьте, пожалуйста, текстом или отправьте /cancel.
track-choice-hint = Нажмите одну из кнопок выше или напишите { $words }; /cancel — отмена.
track-keyword = 🔎 Новый трекер.
    Пришлите слово или фразу, которую искать в каналах и чатах.
track-exact = Искать только целые слова?
    (Целые слова: «кот» не найдётся в «котёнок».)
track-exact-whole = Целые слова
track-exact-anywhere = Где угодно в тексте
track-minus = Минус-слова: пост, в котором есть любое из них, пропускается. Пришлите их через запятую.
track-where = Где искать?
track-where-both = В каналах и чатах
track-where-channels = Только в каналах
track-where-chats = Только в чатах
track-sources = Только в определённых источниках? Пришлите @юзернеймы, ID чатов или ссылки t.me через пробел.
track-via = Как вас уведомлять?
track-via-bot = Сообщением от этого бота
track-via-webhook = Вебхуком (запрос на ваш сервер)
track-webhook = Пришлите адрес вебхука (на проверочный запрос он должен ответить кодом 200).
track-private-only = Напишите мне, пожалуйста, в личном чате.
track-failed = ❌ { $problem }

    Отправьте /track, чтобы попробовать ещё раз.
track-created = ✅ Трекер создан: «{ $keyword }». Я сообщу, когда это появится в чате или канале, где я состою. Добавьте меня в другие каналы и группы, чтобы искать шире: /trackguide
track-keyword-again = Пришлите ключевое слово ещё раз или исправленный запрос.
track-query-taken = 🔣 Понял это как запрос: { $meaning }.
track-created-word-forms = 🌿 Формы слова включены: подходят и другие формы слов. Чтобы искать только как написано: кнопка 🌿 Формы слова ниже, затем «выкл».
query-words-or = {" "}или{" "}
query-words-and = {" "}и{" "}
query-words-without = без «{ $what }»
query-words-phrase = фраза «{ $phrase }»
query-words-prefix = слова на «{ $word }»
query-words-near = { $a } и { $b } не дальше { $distance ->
    [one] { $distance } слова
   *[other] { $distance } слов
  } друг от друга
query-refused = ❌ Не могу прочитать запрос: { $reason }.
query-refused-at = ❌ Не могу прочитать запрос на { $position }-м символе: { $reason }.
    <code>{ $shown }</code>
query-problem-quote = кавычка не закрыта
query-problem-dash = «-» стоит отдельно; пишите его вплотную к исключаемому слову, например -скам
query-problem-near = после NEAR/ нужно число слов между, например NEAR/3
query-problem-long = запрос — не больше { $max } символов, а в этом { $length }
query-problem-ends = запрос обрывается там, где ожидалось слово
query-problem-expected-word = здесь ожидалось слово, фраза или группа
query-problem-after-near = после NEAR должно идти слово или фраза
query-problem-after-or = после OR должно идти слово или группа
query-problem-before-or = OR должен стоять между двумя словами или группами
query-problem-before-near = NEAR должен стоять между двумя словами
query-problem-nothing = в «{ $text }» нечего искать
query-problem-empty-phrase = в кавычках нет слов
query-problem-terms = в запросе не больше { $max } слов и фраз
query-problem-open = скобка не закрыта
query-problem-parens-empty = в скобках пусто
query-problem-closes-nothing = эта скобка ничего не закрывает
query-problem-empty = запрос пуст
query-problem-only-not = в нём только исключения; добавьте слово, которое должно быть

## Каналы
channel-public-note = ℹ️ Telegram не сообщает, как человек вступил в публичный канал по @имени, поэтому такие подписки считаются «без источника». Для публичного канала используйте пригласительные ссылки с заявками: тогда учитывается каждая подписка.
channels-title = 📣 <b>Ваши каналы</b>
    Нажмите на канал, чтобы увидеть, кто подписывается и кто уходит, и сделать пригласительные ссылки для рекламы. Ниже — ваши последние приглашения.
channels-none = 📣 Каналов пока нет. Сделайте меня администратором канала или группы (с правом приглашать пользователей) — канал появится здесь, и я буду считать подписчиков по каждой вашей пригласительной ссылке.
channel-members = Подписчики: { $count }
channel-today = Сегодня: +{ $joins } / −{ $leaves }
channel-total = Всего: +{ $joins } / −{ $leaves } (итого { $net })
channel-unattributed = Без источника: +{ $joins } / −{ $leaves }
channel-waiting = 🙋 Заявок на вступление: { $count }
channel-not-admin = ⚠️ Я больше не администратор этого канала: вступления и выходы больше не считаются, новые приглашения не создать. Назначьте меня снова администратором с правом приглашать, чтобы всё заработало.
channel-cannot-invite = ⚠️ У меня нет права приглашать пользователей: дайте мне право «Пригласительные ссылки».
channel-new-invite = ➕ Новое приглашение
channel-requests = 🙋 Заявки ({ $count })
requests-approve-all = ✅ Принять все ({ $count })
channel-export-empty = ℹ️ По вашим пригласительным ссылкам ещё никто не подписался и не отписался; ничего не отправлено.
channels-back = ⬅️ Каналы
channel-back = ⬅️ Канал
invite-revoked-mark = (отозвана)
invite-tracking = Трекинговая ссылка: { $url } ({ $clicks ->
        [one] { $clicks } переход
        [few] { $clicks } перехода
       *[other] { $clicks } переходов
    }, уникальных: { $unique })
invite-requests-auto = Вступление по заявкам; одобрение автоматическое{ $pending ->
        [0] {""}
       *[other] , ждут: { $pending }
    }
invite-requests-manual = Вступление по заявкам; одобряете вы{ $pending ->
        [0] {""}
       *[other] , ждут: { $pending }
    }
invite-expires = Действует до { $date }
invite-member-limit = Не больше { $count ->
        [one] { $count } человека
       *[other] { $count } человек
    }
invite-figures = Подписались: { $joins } · отписались: { $leaves } · итого: { $net }
invite-conversion = Конверсия: { $percent } от уникальных переходов
invite-retention = Остались через сутки: { $day } из { $dayOf } · через 7 дней: { $week } из { $weekOf } · через 30 дней: { $month } из { $monthOf }
invite-cost = Цена: { $price } · за подписчика: { $perJoin } · за подписчика, оставшегося на 7 дней: { $perStayed }
invite-revoke-confirm = Отозвать «{ $name }»? По ней больше никто не сможет вступить; статистика сохранится.
invite-revoke = 🚫 Отозвать
invite-revoke-yes = 🚫 Да, отозвать
invite-revoked = 🚫 Отозвана: по ней больше никто не сможет вступить.
requests-title = 🙋 <b>Заявки на вступление</b> ({ $count })
    Одобрите или отклоните каждую.
requests-none = Заявок на вступление нет.
requests-user = пользователь { $id }
request-approved = ✅ Заявка { $name } одобрена.
request-declined = ❌ Заявка { $name } отклонена.
invite-ask-name = 🔗 Новая пригласительная ссылка.
    Пришлите её название, например канал, где выходит реклама (до 32 символов; вступающие его не видят).

    /cancel — отмена.
invite-name-text-please = Пришлите название текстом или /cancel.
invite-name-too-long = В названии { $length } { $length ->
    [one] символ
    [few] символа
   *[other] символов
    }, а Telegram разрешает 32. Пришлите покороче или /cancel.
invite-ask-mode = Как вступать по этой ссылке? По заявке учитывается каждая подписка, даже в публичном канале.
invite-mode-open = Сразу, без заявки
invite-mode-requests = По заявке
invite-mode-hint = Нажмите одну из кнопок выше или отправьте /cancel.
invite-made = ✅ Пригласительная ссылка готова. Поставьте её в рекламу — я посчитаю, кто по ней подписался и кто ушёл. Укажите цену ниже, чтобы видеть стоимость подписчика.
invite-made-priced = ✅ Пригласительная ссылка готова, цена записана. Поставьте её в рекламу — я посчитаю, кто по ней подписался и кто ушёл, и сколько стоит каждый подписчик.
invite-ask-price = 💰 Сколько стоила реклама? Например, «5 000 ₽», «$50», «150 USD» или просто число в { $currency }. Или нажмите «Без цены» и укажите её потом.
invite-no-price = Без цены
invite-price-rule = Цена — число с валютой или без: «5000» (в { $currency }), «5 000 ₽», «150 USD», «$50». Сколько стоила реклама? Или нажмите «Без цены».

## Кнопки настроек (подписи — ключи в таблицах настроек)
link-option-title = ✏️ Название
link-option-target = 🎯 Адрес назначения
link-option-start = ⏳ Начало
link-option-expiry = ⌛️ Срок действия
link-option-after-expiry = ↪️ После срока
link-option-click-cap = 🔢 Лимит переходов
link-option-password = 🔒 Пароль
link-option-ios = 🍏 Для iPhone
link-option-android = 🤖 Для Android
link-option-desktop = 🖥 Для компьютеров
link-option-utm = 📣 UTM-метки
link-option-pixels = 📡 Пиксели
link-option-tags = 🏷 Теги
link-option-domain = 🌐 Домен
link-option-webhook = 🔔 Вебхук
link-option-on-off = ⏯ Вкл. / выкл.
link-option-rules = 🧭 Правила
link-option-ab = 🅰️ A/B-тест
tracker-option-keyword = 🔤 Ключевое слово
tracker-option-matching = 🎯 Совпадение
tracker-option-minus = ➖ Минус-слова
tracker-option-where = 📍 Где искать
tracker-option-only = ✅ Только источники
tracker-option-skip = 🚫 Исключить источники
tracker-option-min-subscribers = 👥 Мин. подписчиков
tracker-option-language = 🗣 Язык
tracker-option-notify = 📬 Уведомления
tracker-option-syntax = 🧩 Синтаксис
tracker-option-word-forms = 🌿 Формы слова
tracker-option-reposts = 🔁 Репосты
tracker-option-my-links = 📍 Мои ссылки
tracker-option-how-often = ⏰ Как часто
invite-option-name = ✏️ Название
invite-option-price = 💰 Цена
invite-option-expiry = ⏰ Срок действия
invite-option-member-limit = 👥 Лимит участников
invite-option-welcome = 👋 Приветствие
invite-option-approval = ✅ Одобрение
request-approved-toast = Одобрено
request-declined-toast = Отклонено
request-settled = Эта заявка уже рассмотрена.
request-gone = Этой заявки больше нет.

## Бота добавили в канал или группу или удалили (сообщение тому, кто это сделал)
source-removed = ℹ️ Меня удалили из { $kind ->
        [channel] канала
       *[group] группы
    } «{ $title }»: там больше не ищутся ключевые слова{ $kind ->
        [channel] , вступления и выходы больше не считаются, а «Новое приглашение» недоступно, пока вы снова не назначите меня администратором
       *[group] {""}
    }.
source-added-public = ✅ Меня добавили в { $kind ->
        [channel] канал
       *[group] группу
    } «{ $title }». { $kind ->
        [channel] Канал публичный, поэтому его новые посты
       *[group] Группа публичная, поэтому её новые сообщения
    } проверяются по ключевым словам всех, кто их отслеживает, и по вашим тоже. Ваши трекеры — /trackers.
source-admin-private = ✅ Я администратор { $kind ->
        [channel] канала
       *[group] группы
    } «{ $title }». { $kind ->
        [channel] Канал закрытый: его новые посты
       *[group] Группа закрытая: её новые сообщения
    } проверяются только по вашим ключевым словам и словам других администраторов, которые её добавили, — и ни по чьим больше. Ваши трекеры — /trackers.
source-added-private = ℹ️ Меня добавили в { $kind ->
        [channel] канал
       *[group] группу
    } «{ $title }». { $kind ->
        [channel] Канал закрытый, поэтому его посты
       *[group] Группа закрытая, поэтому её сообщения
    } я проверяю только по ключевым словам владельцев: сделайте меня администратором, и ваши трекеры их увидят. Чужие трекеры — никогда.
source-cannot-invite = ⚠️ У меня нет права приглашать пользователей, поэтому я не могу делать для него пригласительные ссылки. Дайте мне право «Пригласительные ссылки», чтобы считать подписчиков.
source-invites-ready = 📣 Всё готово для учёта подписчиков: в /channels можно сделать пригласительные ссылки для рекламы и видеть, кто подписался и кто остался.

## Настройки приглашения: вопросы и отказы
invite-prompt-name = Пришлите новое название (до 32 символов; вступающие его не видят).
invite-prompt-price = Пришлите, сколько стоила реклама: сумму и валюту, например 12000 RUB или 150 USD.
invite-prompt-expiry = Пришлите, когда ссылка перестанет работать, например: { $when }.
invite-prompt-member-limit = Пришлите, сколько человек может вступить по ссылке (от 1 до 99999).
invite-prompt-welcome = Пришлите сообщение, которое я сразу отправлю каждому, кто подаст заявку (до 1000 символов).
invite-prompt-approval = Как пускать по заявкам?
invite-refuse-price = Пришлите сумму и код валюты, например 12000 RUB.
invite-refuse-member-limit = Пришлите целое число от 1 до 99999.
invite-refuse-approval = Нажмите одну из кнопок выше (или напишите «авто» или «вручную») или отправьте /cancel.
invite-approval-auto = Пускать всех сразу
invite-approval-manual = Одобрять каждую заявку здесь вручную
invite-refuse-expiry = Срок действия должен быть в будущем — например, { $when }.

## Настройки трекера: вопросы и отказы
tracker-prompt-keyword = Пришлите слово или фразу для поиска.
tracker-prompt-matching = Напишите «целые», чтобы искать только целые слова («кот» не найдётся в «котёнок»), или «где угодно».
tracker-prompt-minus = Пришлите минус-слова через запятую: пост, в котором есть любое из них, пропускается.
tracker-prompt-where = Напишите, где искать: «везде», «каналы» или «чаты».
tracker-prompt-only = Пришлите @юзернеймы, ID чатов или ссылки t.me через пробел — искать только в них.
tracker-prompt-skip = Пришлите @юзернеймы, ID чатов или ссылки t.me через пробел — в них не искать никогда.
tracker-prompt-min-subscribers = Пришлите, сколько подписчиков должно быть в канале или группе как минимум.
tracker-prompt-language = Пришлите язык постов кодом, например ru, en или de.
tracker-prompt-notify = Куда присылать упоминания этого трекера: сюда, в вашу группу или канал (выберете по названию, затем тему форума) или на вебхук?
tracker-prompt-syntax = Напишите «запрос», чтобы задать слово как запрос — пробел: все слова; OR или |: любое; -слово: исключить; "…": точная фраза; слово*: начинается с; ( ): группа; a NEAR/3 b: рядом, — или «простой» для одного слова или фразы.
tracker-prompt-word-forms = Напишите «вкл», чтобы искать слова в любой форме (канал: каналы, каналов; run: runs, running), или «выкл» — только как написано.
tracker-prompt-my-links = Пришлите «вкл», чтобы получать каждый пост с вашей короткой ссылкой или ссылкой-приглашением (в тексте, за текстовой ссылкой или на кнопке), или «выкл».
tracker-prompt-reposts = Напишите «пропускать», чтобы не учитывать пересланные посты и копии поста, найденного за последние сутки, или «оставить», чтобы учитывать и их.
tracker-prompt-how-often = Напишите «сразу», чтобы узнавать сразу, «час» — сводка в конце каждого часа, или «день» — раз в день (по UTC).
tracker-refuse-matching = Напишите «целые» или «где угодно».
tracker-refuse-where = Напишите «везде», «каналы» или «чаты».
tracker-refuse-number = Пришлите целое число.
tracker-refuse-chat = Напишите «чат» и ID группы, например чат -1001234567890, и при желании ID темы после него.
tracker-refuse-syntax = Напишите «запрос» или «простой».
tracker-refuse-on-off = Напишите «вкл» или «выкл».
tracker-refuse-reposts = Напишите «пропускать» или «оставить».
tracker-refuse-how-often = Напишите «сразу», «час» или «день».

## Настройки ссылки: вопросы, строки карточки и отказы
link-refuse-time = Не получилось понять время. Примеры: { $when }.
link-refuse-past = Это время уже прошло. Примеры: { $when }.
link-prompt-title = Пришлите название ссылки (до 200 символов).
link-prompt-target = Пришлите новый адрес назначения (http:// или https://).
link-line-start = ⏳ Начнёт работать { $date } (до этого показывается обратный отсчёт)
link-prompt-start = Когда ссылка должна заработать? Примеры: { $when }.
link-line-expiry = ⌛️ Действует до { $date }
link-prompt-expiry = Когда ссылка должна перестать работать? Примеры: { $when }.
link-line-after-expiry = ↪️ После окончания срока или лимита переходов: { $url }
link-prompt-after-expiry = Куда отправлять посетителей, когда срок ссылки истёк или исчерпан лимит переходов? Пришлите адрес.
link-line-click-cap = 🔢 Перестанет работать после { $count ->
        [one] { $count } перехода
       *[other] { $count } переходов
    }
link-prompt-click-cap = После скольких посетителей ссылка должна перестать работать? Пришлите целое число.
link-refuse-click-cap = Пришлите целое число больше 0.
link-line-password = 🔒 Посетители вводят пароль
link-prompt-password = Пришлите пароль, который будут вводить посетители (я сразу удалю ваше сообщение).
link-line-ios = 🍏 iPhone и iPad → { $url }
link-prompt-ios = Куда отправлять посетителей с iPhone и iPad? Пришлите адрес.
link-line-android = 🤖 Android → { $url }
link-prompt-android = Куда отправлять посетителей с Android? Пришлите адрес.
link-line-desktop = 🖥 Компьютеры → { $url }
link-prompt-desktop = Куда отправлять посетителей с компьютеров? Пришлите адрес.
link-line-utm = 📣 UTM { $utm } (добавляются к адресу назначения)
link-prompt-utm = Пришлите UTM source, medium и campaign через запятую, например «telegram, post, spring». Оставьте место пустым, чтобы пропустить: «telegram,,spring».
link-refuse-utm = Пришлите не больше трёх значений: source, medium, campaign.
link-line-pixels = 📡 Пиксели: { $names }
link-prompt-pixels = Пришлите через запятую названия пикселей, которые должны срабатывать на этой ссылке (пиксели добавляются в ⚙️ Настройки → Пиксели).
link-prompt-tags = Пришлите теги через запятую (новые будут созданы). Они заменят теги ссылки.
link-refuse-tags = Пришлите названия до 50 символов через запятую.
link-line-domain = 🌐 На вашем домене { $host }
link-prompt-domain = Пришлите свой домен для этой ссылки (сначала добавьте домен в приложении).
link-prompt-webhook = Пришлите адрес, который я буду оповещать о каждом переходе, и при желании GET или POST после него (по умолчанию POST), например «https://example.com/hook POST». На проверочный запрос он должен ответить успехом.
link-refuse-webhook = Пришлите адрес и при желании GET или POST после него.
link-refuse-pixel = У вас нет пикселя «{ $name }». Ваши: { $yours }.
link-refuse-pixel-none = У вас нет пикселя «{ $name }». Пикселей пока нет.
link-refuse-domain = У вас нет домена «{ $host }». Ваши: { $yours }.
link-refuse-domain-none = У вас нет домена «{ $host }». Доменов пока нет.
link-line-webhook-on = 🔔 Вебхук { $method } { $url } (включён)
link-line-webhook-off = 🔔 Вебхук { $method } { $url } (выключен)
link-prompt-rules =
    Пришлите новое правило: условия, затем → и адрес, например «country=DE,AT language=de → https://example.de».
    Условия: country (страна), language (язык), os (iOS, Android, Windows, macOS, Linux), device (mobile, tablet, desktop), from и to (время по вашему часовому поясу), q.&lt;имя&gt;=&lt;значение&gt; (параметр самой короткой ссылки). Должны выполняться все указанные.
    Или «убрать 2» — удалить правило 2, «переместить 3 1» — сделать правило 3 первым.
link-prompt-ab =
    Пришлите «&lt;адрес&gt; &lt;вес 1–100&gt;», чтобы добавить вариант; вместе с первым в тест попадёт и исходный адрес ссылки (вес 50).
    Или «вес 2 70» — изменить вес варианта 2, «убрать 2» — убрать его, «переместить 3 1» — поменять порядок.

## Переходы по несуществующим кодам
orphans-none = 👻 <b>Переходы по несуществующим кодам</b> (за 30 дней)
    Нет: никто не открывал коды ваших выключенных или удалённых ссылок и неизвестные коды на ваших доменах.
orphans-item = <code>{ $code }</code> · { $count } · последний { $last }
orphans-more = …и ещё { $count } (полный список — в приложении).
orphans-title = 👻 <b>Переходы по несуществующим кодам</b> (за 30 дней): { $total }
    Коды ваших выключенных или удалённых ссылок и неизвестные коды на ваших доменах, сначала самые посещаемые:

## Вебхук переходов ссылки
webhook-none = У ссылки <code>{ $code }</code> нет вебхука переходов. Задайте его кнопкой «{ $option }» в карточке ссылки.
webhook-state-on = включён ✅
webhook-state-off-failures = выключен ⏸ (отключён после слишком многих неудачных доставок)
webhook-state-off = выключен ⏸
webhook-title = 🔔 <b>Вебхук переходов <code>{ $code }</code></b>
webhook-target = Адрес: { $method } { $url }
webhook-state = Состояние: { $state }
webhook-failures = Неудачные доставки: { $count } из { $limit } (после { $limit } вебхук отключается; включение обнуляет счётчик)
webhook-signed = Запросы подписываются вашим секретом: заголовок <code>X-Webhook-Signature</code>.
webhook-recent = <b>Последние доставки</b>
webhook-no-deliveries = Доставок пока нет.
webhook-click = переход
webhook-rotate-confirm = Сменить секрет подписи? Все получатели ваших вебхуков должны перейти на новый секрет; с этого момента доставки подписываются им.
webhook-on = ✅ Вебхук: вкл.
webhook-on-failed = ✅ Вебхук: вкл. · неудач: { $count }
webhook-off = ⬜ Вебхук: выкл.
webhook-off-failed = ⬜ Вебхук: выкл. · неудач: { $count }
webhook-turned-on = 🔔 Вебхук включён, счётчик неудач обнулён.
webhook-turned-off = 🔕 Вебхук выключен: переходы больше не отправляются.
webhook-test = 🧪 Проверить вебхук
webhook-test-sending = ⏳ Отправляю проверочный запрос на { $url }…
webhook-test-ok = ✅ Проверка вебхука <code>{ $code }</code> прошла: адрес ответил { $status }.
webhook-test-failed = ❌ Проверка вебхука <code>{ $code }</code> не прошла: { $error }.
target-why-status = получатель ответил { $status }
target-why-timeout = получатель не ответил вовремя
target-why-timeout-after = получатель не ответил за { $seconds } с
target-why-network = до получателя не достучаться{ $detail }
target-why-refused = адрес во внутренней сети, туда ничего не отправляется
target-why-invalid = адрес не подходит: нужен адрес http(s)
webhook-show-secret = 👁 Показать секрет подписи
webhook-secret = Ваш секрет подписи вебхуков (один для всех ссылок):
    <code>{ $secret }</code>
webhook-rotate = 🔑 Сменить секрет
webhook-rotate-yes = 🔑 Да, сменить
webhook-rotated = 🔑 Секрет сменён: новый — в следующем сообщении. Обновите его у получателей.
webhook-new-secret = 🔑 Новый секрет подписи:
    <code>{ $secret }</code>

## Рекламные посты
adpost-ask = Перешлите сюда рекламный пост или вставьте его текст со ссылками. /cancel — отмена.
adpost-no-links = В этом посте нет ссылок для отслеживания. Перешлите пост со ссылками или отправьте /cancel.
adpost-ask-venue = В этом посте { $count ->
        [one] { $count } ссылка
        [few] { $count } разные ссылки
       *[other] { $count } разных ссылок
    }. Где он выйдет? Пришлите канал (<code>@bigchannel</code> или ссылку t.me) или, если реклама не в Telegram, пару слов (<code>группа ВК Котики</code>); можно сразу с датой выхода (<code>@bigchannel 30.11</code>). /cancel — отмена.
adpost-venue-rule = Место размещения — @имя канала или ссылка t.me либо текст до { $max } символов (<code>@bigchannel</code>, <code>группа ВК Котики</code>). Где выйдет пост?
adpost-ask-price = Сколько стоило? Например, <code>5 000 ₽</code>, <code>5000 руб</code>, <code>$50</code> или просто число в { $currency } (валюта по умолчанию, меняется в ⚙️ Настройках). /skip — если бесплатно.
adpost-price-rule = Цена — число с валютой или без: <code>5000</code> (в { $currency }), <code>5 000 ₽</code>, <code>5000 руб</code>, <code>$50</code>, <code>50 EUR</code>. Сколько стоило размещение? (/skip — если бесплатно)
adpost-made = ✅ Размещение <b>{ $name }</b>: { $links ->
        [0] новых ссылок нет
        [one] { $links } новая трекинговая ссылка
        [few] { $links } новые трекинговые ссылки
       *[other] { $links } новых трекинговых ссылок
    }{ $invites ->
        [0] {""}
        [one] {", "}{ $invites } новая ссылка-приглашение
        [few] {", "}{ $invites } новые ссылки-приглашения
       *[other] {", "}{ $invites } новых ссылок-приглашений
    }. Отправьте пост выше админу канала; его цифры — в 📢 Рекламе.
adpost-skip-own-link = это уже короткая ссылка сервиса
adpost-skip-credentials = перед адресом сайта стоят имя пользователя или пароль, такую ссылку нельзя сделать целью
adpost-skip-backslash = в ней обратная косая черта, такую ссылку нельзя сделать целью
adpost-skip-loopback = она ведёт на localhost или адрес самого компьютера, такую ссылку нельзя сделать целью
adpost-skip-spaces = в ней пробелы, такую ссылку нельзя сделать целью
adpost-skip-too-long = она слишком длинная, чтобы сделать её целью
adpost-skip-not-target = такую ссылку нельзя сделать целью
adpost-skipped = Оставлены как были:
adpost-copy = 📋 Копировать пост
adpost-share = ↗️ Поделиться
adpost-open = 📢 Открыть размещение

## Защищённый обмен
share-option-password-change = 🔒 Сменить пароль
share-option-password-set = 🔒 Задать пароль
share-line-password = 🔒 Открыть можно только с паролем
share-prompt-password = Пришлите пароль, который будут вводить получатели (от { $min } до { $max } символов; я сразу удалю ваше сообщение).
share-option-views-off = ⬜ Сообщения о просмотрах: выкл.
share-option-views-on = ✅ Сообщения о просмотрах: вкл.
share-line-views = 🔔 Вы получаете сообщение о каждом просмотре
secure-file-gone = Этого файла больше нет.
secure-share-gone = Этой ссылки для доступа больше нет.
share-revoked-toast = ⛔ Отозвана: ссылка больше не открывается.
share-revoked-note = ⛔ Отозвана: эта ссылка больше не открывается.
request-state-active = открыта
request-state-inactive = выключена
request-state-expired = срок истёк
request-state-full = лимит исчерпан
request-received-of = { $count } из { $max }
requests-links-title = 📥 <b>Ссылки для приёма файлов</b>: по каждой любой может прислать вам файлы или тексты в одну из ваших папок.
requests-links-none = 📥 <b>Ссылки для приёма файлов</b>: пока нет. Откройте папку и нажмите «📥 Новая ссылка для приёма», чтобы любой мог присылать в неё файлы.
request-screen = 📥 <b>{ $title }</b>
    { $url }
    В папку: { $folder }
    Получено: { $received }
    Состояние: { $state }
    Действует до: { $expiry }
request-delete-confirm = Удалить ссылку для приёма { $url }? Она сразу перестанет принимать файлы; полученное останется в папке.
request-deleted = 🗑 Ссылка для приёма удалена.
request-turned-on = ▶️ Включена: { $title } снова принимает файлы.
request-turned-off = ⏸ Выключена: { $title } отвечает, что ничего не принимает.
requests-links-back = ⬅️ Папки
request-back = ⬅️ Ссылки для приёма
cancelled = Отменено.
folder-ask-name = 📁 Пришлите название новой папки (или /cancel).
folder-name-too-long = Слишком длинное название (не больше 100 символов). Нажмите «➕ Новая папка», чтобы попробовать ещё раз.
folder-created = 📁 Папка «{ $name }» создана.
share-hours = { $hours ->
        [1] 1 час
        [24] 24 часа
       *[other] { $days ->
            [0] { $hours } ч
           *[other] { $days } дней
        }
    }
share-views-unlimited = Без ограничений
share-ask-expiry = 🔗 Сколько должна работать ссылка? Нажмите вариант или напишите (например, «3 дня», «12 ч», «через неделю», «до пятницы», не больше года).
share-expiry-hint = Не получилось понять. Напишите срок вроде «3 дня», «12 ч» или «через неделю» или день вроде «пятница» (не больше года) или нажмите вариант.
share-ask-views = 👁 Сколько раз её можно открыть? Нажмите вариант или напишите число.
share-views-hint = Напишите целое число просмотров, «без ограничений» или нажмите вариант.
share-ask-password = 🔒 Спрашивать пароль? Пришлите его (от { $min } до { $max } символов; я сразу удалю ваше сообщение) или нажмите «Без пароля».
share-no-password = 🔓 Без пароля
share-password-rule = Пароль — от { $min } до { $max } символов. Пришлите другой или нажмите «Без пароля».
share-created-password = 🔒 Ссылка спрашивает пароль, который вы прислали.
share-created = ✅ Ссылка для доступа (действует { $valid }, { $views ->
        [0] без ограничения просмотров
        [one] { $views } просмотр
        [few] { $views } просмотра
       *[other] { $views } просмотров
    }):
    { $url }
share-option-ask = { $prompt }
    /clear — убрать · /cancel — оставить как есть.
share-option-removed = ✅ Убрано.
share-option-saved = ✅ Сохранено.

## Правила перенаправления и A/B-тест
rule-refuse-os = «{ $value }» — не операционная система: используйте { $names }.
rule-refuse-device = «{ $value }» — не тип устройства: используйте { $names }.
rule-refuse-shape = Напишите условия, затем → (или ->) и адрес, например country=DE,AT → https://example.de
rule-refuse-token = «{ $token }» — не условие: пишите имя=значение.
rule-refuse-time = Не получилось понять время «{ $value }»: например, 2026-06-01 или 2026-06-01T18:30 (по вашему часовому поясу), или 3д — через 3 дня.
rule-refuse-key = «{ $key }» — не условие: используйте country, language, os, device, from, to или q.<параметр>.
rule-line = 🧭 Правила (срабатывает первое подходящее):
    { $rules }
ab-line = 🅰️ A/B-тест для посетителей, не попавших ни под одно правило:
    { $variants }
ab-variant = { $n }. { $url } (вес { $weight }, { $share }%)
ab-refuse-shape = Пришлите адрес и вес от 1 до 100, например «https://example.com/b 30».

## Уведомления о совпадениях и сводки (сервис присылает их сам)
notify-some-chat = чат
notify-new-match = 🔔 { $trackers }: новое совпадение
notify-new-matches = 🔔 <b>{ $count ->
        [one] { $count } новое совпадение
        [few] { $count } новых совпадения
       *[other] { $count } новых совпадений
    }</b>
notify-and-more = …и ещё { $count }
notify-open = открыть
notify-open-post = Открыть пост
notify-mark-read = ✓ Прочитано
notify-mark-these-read = ✓ Отметить прочитанными
notify-tracker = 🔎 Трекер
notify-my-trackers = 🔎 Мои трекеры
notify-deleted = 🗑 <b>{ $tracker }</b>: пост с совпадением удалён
notify-test = 🧪 Тест
notify-test-channel = Тестовый канал
notify-test-text = Это тестовое уведомление для «{ $keyword }»
digest-head-hour = 🗓 <b>{ $tracker }</b>: { $count ->
        [one] { $count } совпадение
        [few] { $count } совпадения
       *[other] { $count } совпадений
    } за последний час
digest-head-day = 🗓 <b>{ $tracker }</b>: { $count ->
        [one] { $count } совпадение
        [few] { $count } совпадения
       *[other] { $count } совпадений
    } за последние сутки

## Отчёты по расписанию
report-head-daily = 📬 <b>Отчёт за день</b> · { $period } · { $zone }
report-head-weekly = 📬 <b>Отчёт за неделю</b> · { $period } · { $zone }
report-clicks = 👆 Переходы: <b>{ $clicks }</b> · уникальных { $uniques }{ $change }
report-change = {" "}({ $change } % к прошлому периоду)
report-change-none-before = {" "}(в прошлом периоде не было)
report-channels = 📣 Каналы: +{ $joins } подписались · −{ $leaves } отписались · итого { $net }
report-matches = 🔎 Совпадения по ключевым словам: { $count }
report-my-links = 🔗 Мои ссылки
report-settings = ⚙️ Настройки отчётов

## Уведомления о защищённых ссылках (сервис присылает их сам)
view-opened = 👁 <b>{ $name }</b> открыли
view-opened-again = 👁 <b>{ $name }</b> открыли снова: всего { $views ->
        [one] { $views } просмотр
        [few] { $views } просмотра
       *[other] { $views } просмотров
    }
view-link = Ссылка: { $url }
view-time = Время: { $time }
view-latest = Последний раз: { $time }
view-from = Откуда: { $country } · { $device }
view-left = Осталось просмотров: { $left } из { $max }
view-left-unlimited = Осталось просмотров: без ограничений
view-country-unknown = страна неизвестна
view-device-unknown = устройство неизвестно (нет User-Agent)
view-browser-on-os = { $browser } на { $os }
view-revoke = ⛔ Отозвать
view-manage = ⚙️ Управлять
request-item-new = 📥 Новое поступление по запросу «{ $title }»
request-item-new-untitled = 📥 Новое поступление по запросу без названия
request-item-open = 📄 Открыть в боте
request-item-cut = …(обрезано; весь текст лежит в папке)

## Карточка сводки и графики (PNG)
summary-all-links = Все ссылки
summary-link-count = { $count ->
        [one] { $count } ссылка
        [few] { $count } ссылки
       *[other] { $count } ссылок
    }
summary-clicks = Переходы
summary-unique = Уникальные
summary-bots = Боты
summary-per-day = В день
summary-top-links = Лучшие ссылки
summary-top-countries = Страны
summary-top-country = Главная страна: { $country }
summary-devices = Устройства
summary-browsers = Браузеры
chart-per-day = Переходы по дням: всего { $total }, уникальных { $unique }
chart-per-hour = Переходы по часам: всего { $total }, уникальных { $unique }
chart-no-clicks = Переходов нет

## Файлы, которые присылает сервис (выгрузки, графики, QR-коды)
file-open-in-bot = Открыть в боте
export-column-date = Дата
export-column-ip = IP
export-column-country = Страна
export-column-city = Город
export-column-device = Устройство
export-column-os = ОС
export-column-browser = Браузер
export-column-referer = Источник
export-column-bot = Бот
export-column-bot-name = Имя бота
export-column-unique = Уникальный
export-column-click-id = ID клика
export-column-subs = Субметки
export-pdf-title = Переходы по { $url } ({ $period }, сначала новые)
export-pdf-page = стр. { $page } из { $pages } · { $rows ->
    [one] { $rows } строка
    [few] { $rows } строки
   *[many] { $rows } строк
  }
export-yes = да
export-no = нет
export-clicks-caption = { $count ->
        [one] { $count } переход
        [few] { $count } перехода
       *[other] { $count } переходов
    } по { $code } ({ $period }), { $format }

## Заявки на вступление и уведомления о вебхуках (сервис присылает их сам)
join-request-user = пользователь { $id }
requests-notice-head = 🙋 <b>{ $channel }</b>: { $count } { $count ->
        [one] заявка
        [few] заявки
       *[other] заявок
    } на вступление
requests-notice-line = • { $who } — по ссылке «{ $invite }»
requests-notice-more = …и ещё { $count }: все — на экране «Заявки».
requests-notice-none = Других заявок на вступление в <b>{ $channel }</b> нет.
requests-notice-approve-one = ✅ { $who }
requests-notice-decline-one = ❌
requests-notice-open = 📣 Канал
requests-approved-all = ✅ { $count ->
        [0] Никто не принят
        [one] Принят { $count } человек
        [few] Приняты { $count } человека
       *[other] Принято { $count } человек
    }{ $refused ->
        [0] .
       *[other] ; Telegram отказал для { $refused }, их заявки ждут.
    }
requests-approved-all-toast = Принято: { $count }
join-request-approve = ✅ Принять
join-request-decline = ❌ Отклонить
join-request-open-invite = Открыть приглашение
webhook-auto-disabled = ⚠️ Вебхук переходов ссылки <code>{ $code }</code> выключен после { $failures ->
        [one] { $failures } неудачной доставки
       *[other] { $failures } неудачных доставок
    }.
    Адрес: { $url }
    Исправьте адрес и снова включите вебхук (счётчик обнулится).
webhook-open-card = Открыть карточку ссылки

## Выгрузки по каналам и график подписок
journal-column-joined = Подписался
journal-column-left = Отписался
journal-column-user-id = ID пользователя
journal-column-username = Юзернейм
journal-column-first-name = Имя
journal-column-invite = Приглашение
journal-column-via = Откуда
journal-column-via-request = По заявке
journal-caption = { $count ->
        [one] { $count } подписка или отписка
        [few] { $count } подписки и отписки
       *[other] { $count } подписок и отписок
    } в { $title }, { $format }
journal-chart-caption = Подписки и отписки по дням, { $title }, последние { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[other] { $days } дней
    }
chart-joins-title = { $title }: подписки и отписки по дням
chart-joins-of = { $name }: подписки
chart-leaves = Отписки
chart-unattributed = Без приглашения

## Свои домены (сервис присылает сам)
domain-lost = ⚠️ У домена { $domain } больше нет TXT-записи { $name }, поэтому его ссылки там больше не открываются. Опубликуйте запись { $value } снова и подтвердите домен в Настройках → Домены.

## Защищённый обмен: папки, файлы, ссылки
secure-folders = 🔐 <b>Защищённый обмен</b>: ваши папки. Пришлите файл, фото, видео, аудио или текст, чтобы сохранить его.
secure-folders-none = 🔐 <b>Защищённый обмен</b>: папок пока нет. Пришлите файл, фото, видео, аудио или текст, чтобы сохранить его, или создайте папку.
secure-size-kb = { $size } КБ
secure-folder = 📁 <b>{ $name }</b>
secure-folder-paused = 📁 <b>{ $name }</b> (на паузе: её ссылки не открываются)
secure-file-count = { $count ->
        [one] { $count } файл
        [few] { $count } файла
       *[other] { $count } файлов
    }
secure-kind-text = текст
secure-kind-image = изображение
secure-kind-video = видео
secure-kind-audio = аудио
secure-kind-file = файл
secure-file-shares = { $count ->
        [one] { $count } ссылка: нажмите, чтобы настроить.
        [few] { $count } ссылки: нажмите на нужную, чтобы настроить.
       *[other] { $count } ссылок: нажмите на нужную, чтобы настроить.
    }
secure-file-no-shares = Ссылок пока нет.
secure-share-file = 📄 <b>{ $name }</b>
secure-share-state = Состояние: { $state }
secure-state-active = работает
secure-state-revoked = отозвана
secure-state-paused = на паузе
secure-state-expired = истекла
secure-state-exhausted = просмотры закончились
secure-share-views = Просмотры: { $views } из { $max }
secure-share-views-unlimited = Просмотры: { $views }, без ограничений
secure-share-expires = Действует до: { $at }
secure-yes-delete = 🗑 Да, удалить
secure-keep-it = Оставить
secure-folder-delete-ask = Удалить папку «{ $name }» { $count ->
        [0] (она пустая)
        [one] с { $count } файлом
       *[other] с { $count } файлами
    } и всеми их ссылками?
secure-folder-deleted = 🗑 Папка удалена.
secure-file-delete-ask = Удалить «{ $name }» { $count ->
        [0] (ссылок на него нет)
        [one] и { $count } ссылку на него
        [few] и { $count } ссылки на него
       *[other] и { $count } ссылок на него
    }?
secure-file-deleted = 🗑 Файл удалён.
secure-share-delete-ask = Удалить ссылку { $url }? Она сразу перестанет работать.
secure-share-deleted = 🗑 Ссылка удалена.
secure-shares = 🔗 <b>Ссылки на файлы</b> ({ $count }): нажмите на ссылку, чтобы настроить, ⛔/♻️ — отозвать или вернуть, 🗑 — удалить.
secure-shares-newest = 🔗 <b>Ссылки на файлы</b> (последние { $count }): нажмите на ссылку, чтобы настроить, ⛔/♻️ — отозвать или вернуть, 🗑 — удалить.
secure-shares-none = 🔗 <b>Ссылки на файлы</b>: пока нет. Откройте сохранённый файл и нажмите «🔗 Новая ссылка».
secure-new-folder-button = ➕ Новая папка
secure-share-links = 🔗 Ссылки на файлы
secure-request-links = 📥 Ссылки-запросы
secure-resume = ▶️ Возобновить доступ
secure-pause = ⏸ Приостановить доступ
secure-paused = ⏸ На паузе: её ссылки не откроются, пока вы не возобновите доступ.
secure-resumed = ▶️ Доступ возобновлён.
secure-delete-folder = 🗑 Удалить папку
secure-new-request = 📥 Новая ссылка-запрос
secure-request-created = 📥 Ссылка-запрос создана: по ней кто угодно может прислать в эту папку файлы или тексты, до { $items } { $items ->
    [one] штуки
    [few] штук
   *[other] штук
    } за { $days } { $days ->
    [one] день
    [few] дня
   *[other] дней
    }.
secure-back-folders = ⬅️ Папки
secure-back-folder = ⬅️ Папка
secure-back-file = ⬅️ Файл
secure-new-share = 🔗 Новая ссылка
secure-delete-file = 🗑 Удалить файл
secure-restore = ♻️ Вернуть
secure-revoke = ⛔ Отозвать
secure-revoked = ⛔ Отозвана: ссылка больше не открывается.
secure-restored = ♻️ Ссылка снова работает.
secure-delete-link = 🗑 Удалить ссылку
secure-revoked-url = ⛔ { $url } отозвана: она больше не открывается.
secure-restored-url = ♻️ { $url } снова работает.

## Сохранение присланного
store-ask-note = Сохранить этот текст как защищённую заметку? Выберите папку.
store-help-hint = (Отправьте /help, чтобы увидеть, что ещё я умею.)
store-ask-file = Куда сохранить «{ $name }»? Выберите папку:
store-ask-it = Куда сохранить? Выберите папку:
store-nothing-waiting = Нечего сохранять. Сначала пришлите файл, фото, видео, аудио или текст.
store-cancel = ✖️ Отмена
store-cancelled = Отменено: ничего не сохранено.
store-stored = 🔐 Сохранено: «{ $name }» ({ $kind }).
store-stored-sized = 🔐 Сохранено: «{ $name }» ({ $kind }, { $size }).
store-delete-offer = Ваше сообщение с этим текстом всё ещё в чате. Удалить его, чтобы текст остался только в защищённой заметке?
store-delete-button = 🧹 Удалить моё сообщение
store-deleted-toast = Удалено: текст теперь только в защищённой заметке.
store-not-deleted-toast = Telegram не дал удалить (боты могут удалять сообщения только 48 часов): удалите его сами.
store-deleted = 🧹 Ваше сообщение с текстом удалено.
store-not-deleted = ⚠️ Не получилось удалить ваше сообщение: удалите его сами.
store-too-big = ⚠️ Файл слишком большой: в защищённое хранилище помещаются файлы до { $mb } МБ.
store-plan-files = ⛔️ Тариф { $plan } позволяет хранить { $max } { $max ->
    [one] файл
    [few] файла
   *[other] файлов
    }, у вас их { $count }. Удалите часть (/secure) или перейдите на тариф побольше.
store-plan-storage = ⛔️ Это больше, чем { $max } МБ защищённого хранилища по тарифу { $plan } (занято { $used } МБ).
store-no-download-path = Telegram не дал ссылку на скачивание этого файла (боты не могут скачивать файлы больше 20 МБ).
store-download-failed = Не удалось скачать файл из Telegram ({ $reason }). Пришлите его ещё раз чуть позже.

## Откуда пришли переходы
stats-referrers = Источники: { $list }
stats-direct = напрямую
summary-referrers = Источники
summary-direct = Напрямую
device-mobile = телефон
device-desktop = компьютер
device-tablet = планшет
device-bot = бот
## Мини-приложение (ключи app-…: miniapp/src)

app-tab-links = Ссылки
app-tab-secure = Файлы
app-tab-tracking = Поиск
app-tab-channels = Каналы
app-tab-settings = Настройки
app-sections = Разделы
app-page-not-found = Страница не найдена.
app-go-to-links = К ссылкам
app-loading = Загрузка…
app-title = Панель
app-needs-javascript = Для панели нужен JavaScript: включите его в браузере или откройте панель из бота.
app-try-again = Повторить
app-copy = Копировать
app-copied = Скопировано
app-bytes = { $size } Б
app-kilobytes = { $size } КБ
app-megabytes = { $size } МБ
app-clicks-label = Переходы
app-heatmap-label = Переходы по дням недели и часам
app-heatmap-cell = { $day } { $hour } — { $clicks ->
        [one] { $clicks } переход
        [few] { $clicks } перехода
       *[other] { $clicks } переходов
    }
app-links-title = Ссылки
app-links-bulk = Списком
app-links-new = Новая ссылка
app-links-search-placeholder = Поиск по названию, адресу или коду
app-links-search = Поиск ссылок
app-links-filter-tags = Отбор по метке
app-links-no-match = По запросу «{ $search }» ничего нет.
app-links-none-tagged = Нет ссылок с этими метками.
app-links-none = Ссылок пока нет.
app-links-create-first = Создайте первую.
app-shown-of = { $shown } из { $total }
app-show-more = Показать ещё
app-link-paused = на паузе
app-links-stats-title = всего / уникальных / ботов
app-links-clicks = { $count ->
        [one] переход
        [few] перехода
       *[other] переходов
    }
app-links-unique-bots = уникальных { $unique } · ботов { $bots }
app-orphans-title = Переходы по мёртвым кодам
app-orphans-hint = Ссылки на паузе и удалённые, а также коды с опечаткой на ваших доменах.
app-period = Период
app-orphans-period = Период переходов по мёртвым кодам
app-period-1d = 24 часа
app-period-7d = 7 дней
app-period-30d = 30 дней
app-period-90d = 90 дней
app-period-1y = 1 год
app-period-all = Всё время
app-orphans-none = За этот период переходов по мёртвым кодам не было.
app-orphans-visits = { $count ->
        [one] переход
        [few] перехода
       *[other] переходов
    }
app-orphans-code = Код
app-orphans-count = Переходы
app-orphans-last = Последний
app-edit = Изменить
app-link-paused-note = На паузе: посетители видят страницу «не найдено»
app-link-webhook-on = Вебхук { $method } { $url }: включён
app-link-webhook-off = Вебхук { $method } { $url }: выключен
app-link-webhook-failures = , { $count ->
        [one] { $count } сбой
        [few] { $count } сбоя
       *[other] { $count } сбоев
    }
app-placements-none = Пока не замечена ни в одном канале. Где её опубликовали, найдёт поиск по словам с галочкой «Также публикации с моими короткими ссылками и приглашениями».
app-placements = Опубликована в { $channels ->
        [one] { $channels } канале
       *[other] { $channels } каналах
    }
app-placements-posts = Опубликована в { $channels ->
        [one] { $channels } канале
       *[other] { $channels } каналах
    } ({ $posts ->
        [one] { $posts } публикация
        [few] { $posts } публикации
       *[other] { $posts } публикаций
    })
app-placement-post = { $chat } · публикация { $post }
app-placement-private = закрытый чат
app-summary-sent = Сводка отправлена в чат с ботом
app-qr-sent = QR-код отправлен в чат с ботом
app-exported = Отправлено в ваш чат Telegram: { $rows ->
        [one] { $rows } переход
        [few] { $rows } перехода
       *[many] { $rows } переходов
    }
app-export-empty = За выбранный период переходов нет; ничего не отправлено
app-link-delete-confirm = Удалить ссылку и все переходы по ней?
app-link-deleted = Ссылка удалена
app-send-summary = Отправить сводку
app-qr = QR-код
app-export-format = Формат выгрузки
app-export = Выгрузить
app-activate = Включить
app-pause = Пауза
app-delete = Удалить
app-qr-alt = QR-код для { $url }
app-download = Скачать
app-send-to-bot = Отправить в чат с ботом
app-close = Закрыть
app-granularity = Шаг
app-hourly = по часам
app-daily = по дням
app-time-zone = Часовой пояс
app-unique = Уникальные
app-bots = Боты
app-per-day = В день
app-top-country = Главная страна
app-timeline = По времени
app-timeline-label = Переходы по времени
app-no-clicks-period = За этот период переходов не было.
app-countries = Страны
app-countries-label = Переходы по странам
app-unknown = Неизвестно
app-no-countries = Стран пока нет.
app-bot-clicks = { $count ->
        [one] { $count } переход бота
        [few] { $count } перехода ботов
       *[other] { $count } переходов ботов
    } ({ $percent })
app-no-bots = Ботов не замечено.
app-devices-title = Устройства, браузеры и ОС
app-no-devices = Данных об устройствах пока нет.
app-devices-devices = Устройства
app-devices-browsers = Браузеры
app-devices-os = ОС
app-devices-devices-label = Переходы по устройствам
app-devices-browsers-label = Переходы по браузерам
app-devices-os-label = Переходы по ОС
app-day-hour = День × час
app-recent-clicks = Последние переходы
app-no-clicks = Переходов пока нет.
app-click-when = Когда
app-click-country = Страна
app-click-device = Устройство
app-click-browser = Браузер
app-click-referer = Откуда
app-bot-badge = бот
app-newer = Новее
app-older = Старее
app-range-of = { $from }–{ $to } из { $total }
app-variants = A/B-варианты
app-variants-label = Переходы и уникальные переходы по вариантам
app-variant = Вариант
app-url = Адрес
app-share = Доля
app-rules = Правила переадресации
app-rule = Правило { $n }
app-settings-title = Настройки
app-language = Язык
app-language-hint = Бот и это приложение говорят на одном языке.
app-language-en = English
app-language-ru = Русский
app-language-app = Как в Telegram
app-account = Аккаунт
app-user-id = Пользователь { $id }
app-sign-in-methods = Способы входа
app-provider-telegram = Telegram
app-provider-email = Почта
app-provider-passkey = Ключ доступа
app-passkey-unnamed = без названия
app-plan-limits = Тариф и лимиты
app-plan = Тариф:
app-plan-until = до { $date }
app-limit-links = Ссылки
app-limit-trackers = Поиски
app-limit-secureFiles = Защищённые файлы
app-limit-storageMB = Хранилище (МБ)
app-sign-out = Выйти
app-email-linked = Почта привязана
app-email-linked-merged = Почта привязана, аккаунты объединены
app-link-email = Привязать почту
app-link-email-code = Введите код, отправленный на { $email }. Если у этой почты уже есть аккаунт, аккаунты объединятся.
app-code = Код
app-confirm = Подтвердить
app-send-code = Отправить код
app-telegram-not-configured = Привязка Telegram на этом сервере не настроена.
app-telegram-linked = Аккаунт Telegram привязан
app-link-telegram = Привязать Telegram
app-link-telegram-button = Привязать аккаунт Telegram
app-passkey-added = Ключ доступа добавлен
app-passkeys = Ключи доступа
app-passkeys-none = Ключей доступа пока нет.
app-passkey-added-on = добавлен { $date }
app-passkey-used-on = , использован { $date }
app-passkey-remove-confirm = Удалить этот ключ доступа?
app-passkey-removed = Ключ доступа удалён
app-remove = Удалить
app-passkey-name-placeholder = Название (например, Ноутбук)
app-passkey-name = Название ключа доступа
app-passkey-add = Добавить ключ доступа
app-tokens = API-токены
app-token-copy-now = Скопируйте токен сейчас: больше его не покажут.
app-done = Готово
app-tokens-none = API-токенов нет.
app-token-expires = действует до { $date }
app-token-no-expiry = бессрочный
app-token-revoke-confirm = Отозвать «{ $name }»?
app-token-revoked = Токен отозван
app-revoke = Отозвать
app-token-new = Новый токен
app-token-name-placeholder = Название (например, CI)
app-token-name = Название токена
app-token-scopes = Права
app-token-days-placeholder = Срок в днях (необязательно)
app-token-days = Срок в днях
app-token-create = Создать токен
app-domain-added = Домен добавлен: опубликуйте его TXT-запись и нажмите «Проверить»
app-domains = Свои домены
app-domains-none = Своих доменов нет.
app-domain-verified = подтверждён
app-domain-not-verified = не подтверждён
app-domain-record-hint = Добавьте эту DNS-запись и нажмите «Проверить». Ссылки на этом домене заработают после подтверждения.
app-domain-type = Тип
app-domain-name = Имя
app-domain-value = Значение
app-domain-verified-toast = { $hostname } подтверждён
app-verify = Проверить
app-domain-remove-confirm = Удалить { $hostname }? Его ссылки вернутся на короткий адрес по умолчанию.
app-domain-removed = Домен удалён
app-domain-hostname = Имя домена
app-domain-add = Добавить домен
app-signin-title = Войти
app-signin-hint = Ссылки, защищённый обмен файлами и поиск по словам в одном месте.
app-signin-code-sent = Мы отправили 6-значный код на { $email }.
app-signin-passkey-waiting = Ждём ключ доступа: следуйте подсказке браузера.
app-signin-passkey = Войти с ключом доступа
app-signin-passkey-hint = С ключом доступа почту можно не указывать.
app-signin-other-email = Другая почта
app-signin-telegram-not-configured = Вход через Telegram на этом сервере не настроен.
app-signin-telegram = Войти через Telegram
app-widget-script-failed = Не удалось загрузить скрипт входа Telegram
app-widget-login = Войти через Telegram
app-passkey-not-used-for = Ключ доступа не использован: запрос отменён или истёк, или на этом устройстве нет ключа для { $email }. Попробуйте ещё раз или войдите по коду из письма.
app-passkey-not-used = Ключ доступа не использован: запрос отменён или истёк, или на этом устройстве нет ключа для этого сайта. Попробуйте ещё раз или войдите по коду из письма.
app-passkey-not-created = Ключ доступа не создан: запрос отменён или истёк.
app-unreachable = Сервис недоступен. Проверьте подключение.
app-not-found = Не найдено
app-request-failed = Запрос не выполнен ({ $status })
app-bulk-title = Создать списком
app-bulk-none = Вставьте хотя бы один адрес.
app-bulk-too-many = Не больше 100 адресов за раз (у вас { $count }).
app-bulk-create = Создать ссылки
app-bulk-create-n = { $count ->
        [one] Создать { $count } ссылку
        [few] Создать { $count } ссылки
       *[other] Создать { $count } ссылок
    }
app-bulk-label = Адреса, по одному в строке (1–100, с https://)
app-bulk-count = { $count ->
        [one] { $count } адрес
        [few] { $count } адреса
       *[other] { $count } адресов
    }
app-creating = Создаём…
app-bulk-result = Создано: { $created }, с ошибкой: { $failed }.
app-bulk-failed = С ошибкой
app-upload-failed = Загрузка не удалась ({ $status })
app-save = Сохранить
app-saving = Сохраняем…
app-link-create = Создать ссылку
app-link-edit-title = Изменить ссылку
app-link-saved = Ссылка сохранена
app-link-created = Создана { $url }
app-form-url = Куда ведёт ссылка
app-form-title = Название
app-form-title-placeholder = Весенняя кампания
app-form-code = Свой код (необязательно)
app-form-code-hint = 3–64 знака: буквы, цифры, - или _
app-form-tags = Метки
app-form-new-tag = Новая метка
app-form-add-tag = Добавить метку
app-form-utm = UTM-метки
app-form-schedule = Расписание и лимиты
app-form-starts = Начало
app-form-starts-hint = До этого времени посетители видят обратный отсчёт
app-form-expires = Окончание
app-form-max-clicks = Предел переходов
app-form-expired-url = После окончания вести на
app-form-password = Пароль
app-form-password-set = Пароль задан; оставьте поле пустым, чтобы сохранить его
app-form-password-none = Пароль не задан
app-form-password-remove = Убрать пароль
app-form-platforms = Адреса для платформ
app-form-ios = Адрес для iOS
app-form-android = Адрес для Android
app-form-desktop = Адрес для компьютеров
app-form-ab = A/B-тест
app-form-pixels = Пиксели
app-form-pixels-none = Пикселей пока нет.
app-form-webhook = Вебхук переходов
app-form-webhook-url = Адрес вебхука
app-form-webhook-hint = Должен отвечать 200 или 201 на проверочный запрос
app-form-method = Метод
app-form-webhook-enabled = Вебхук включён
app-form-webhook-failures = { $count ->
        [one] { $count } неудачная доставка
        [few] { $count } неудачные доставки
       *[other] { $count } неудачных доставок
    }
app-form-status = Состояние и домен
app-form-active = Ссылка включена
app-form-domain = Домен
app-form-domain-default = По умолчанию
app-rule-field = Правило { $n }: { $field }
app-rules-hint = Проверяются по порядку после расписания, пароля и предела переходов; первое правило, все условия которого выполнены, отправляет посетителя на свой адрес.
app-rule-countries = Страны
app-rule-languages = Языки
app-device-mobile = телефон
app-device-tablet = планшет
app-device-desktop = компьютер
app-rule-from = С
app-rule-until = До
app-rule-query = Параметры запроса
app-rule-url = Куда вести
app-rule-up = Правило { $n } выше
app-rule-down = Правило { $n } ниже
app-rule-remove = Удалить правило { $n }
app-rule-add = Добавить правило
app-variants-hint = Посетителей, которых не поймало ни одно правило, делим по весам; каждый остаётся на своём варианте.
app-variant-url = Адрес варианта { $n }
app-variant-weight = Вес варианта { $n }
app-variants-end = Закончить тест
app-variant-remove = Удалить вариант { $n }
app-variant-add = Добавить вариант
app-variants-start = Начать A/B-тест
app-folder-created = Папка создана
app-secure-title = Защищённый обмен
app-requests = Запросы
app-folders-none = Папок пока нет. Создайте папку ниже, добавьте файлы и делитесь ими по ссылкам с ограниченным сроком.
app-files-count = { $count ->
        [one] файл
        [few] файла
       *[other] файлов
    }
app-folder-new = Новая папка
app-description = Описание
app-folder-create = Создать папку
app-folder-delete-confirm = Удалить папку со всеми файлами и ссылками?
app-folder-deleted = Папка удалена
app-folder-name = Название папки
app-folder-paused = На паузе: все ссылки этой папки отвечают «доступ запрещён».
app-folder-resume = Возобновить папку
app-folder-pause = Приостановить папку
app-rename = Переименовать
app-folder-delete = Удалить папку
app-files = Файлы
app-files-none = Файлов пока нет. Добавьте заметку или загрузите файл.
app-note-save = Сохранить заметку
app-upload = Загрузить
app-note-saved = Заметка сохранена
app-file-choose = Выберите файл для загрузки.
app-file-too-big = Файл весит { $size }, а предел — 10 МБ.
app-file-uploaded = Файл загружен
app-file-add = Добавить файл
app-file-upload-tab = Загрузить файл
app-note-tab = Текстовая заметка
app-file-name-default = По умолчанию — имя файла
app-note-name-default = Необязательно: без названия будет «Заметка N» и дата
app-note-text = Текст
app-file-field = Файл (до 10 МБ)
app-name = Название
app-share-state-active = действует
app-share-state-revoked = отозвана
app-share-state-paused = папка на паузе
app-share-state-expired = истекла
app-share-state-exhausted = исчерпана
app-file-delete-confirm = Удалить файл и его ссылки?
app-file-deleted = Файл удалён
app-file-no-content = Содержимое не загружено: ссылки на этот файл не откроются.
app-share-links = Ссылки для доступа
app-share-links-none = Ссылок пока нет. Создайте ссылку ниже: любой, у кого она есть, увидит файл, пока срок не истёк.
app-password-set = Пароль задан
app-share-views = { $count ->
        [one] { $views } просмотр
        [few] { $views } просмотра
       *[other] { $views } просмотров
    }
app-share-password-badge = пароль
app-share-notifies = уведомляет
app-share-restored = Ссылка восстановлена
app-restore = Восстановить
app-share-revoked = Ссылка отозвана
app-password-removed = Пароль убран
app-password-set-button = Задать пароль
app-share-notify-on = Вы будете получать уведомление о каждом просмотре
app-share-notify-off = Уведомления о просмотрах выключены
app-share-notify = Уведомлять о просмотрах
app-share-delete-confirm = Удалить эту ссылку?
app-password-new = Новый пароль
app-password-save = Сохранить пароль
app-cancel = Отмена
app-share-created = Ссылка создана
app-share-new = Новая ссылка для доступа
app-share-hours = Срок (в часах)
app-share-max-views = Предел просмотров
app-unlimited = без ограничений
app-share-password = Пароль (необязательно)
app-none = нет
app-share-notify-telegram = Уведомлять меня в Telegram о каждом просмотре
app-folders = Папки
app-folder = Папка
app-requests-hint = По ссылке-запросу кто угодно без аккаунта пришлёт вам файлы (до 10 МБ каждый) или тексты. Они попадут в выбранную папку и в ваш чат в Telegram.
app-requests-none = Ссылок-запросов пока нет. Создайте ссылку ниже и отправьте тому, кто должен вам что-то прислать.
app-requests-need-folder = Сначала создайте папку: ссылки-запросы складывают полученное в папку.
app-request-state-active = открыт
app-request-state-inactive = выключен
app-request-state-expired = истёк
app-request-state-full = заполнен
app-request-untitled = Запрос без названия
app-request-received = получено { $received } · в папку { $folder }
app-request-a-folder = без названия
app-request-turned-off = Запрос выключен
app-request-turned-on = Запрос включён
app-turn-off = Выключить
app-turn-on = Включить
app-request-delete-confirm = Удалить ссылку-запрос? Полученное останется в папке.
app-request-deleted = Запрос удалён
app-request-created = Ссылка-запрос создана
app-request-new = Новая ссылка-запрос
app-request-title-placeholder = Что нужно прислать?
app-request-hours = Открыт (часов)
app-no-limit = без ограничений
app-request-max = Предел присланного
app-request-create = Создать ссылку-запрос
app-tracking-title = Поиск по словам
app-tracker-new = Новый поиск
app-tracker-limits = Поисков: { $current } из { $max } по тарифу { $plan }
app-trackers-none = Поисков пока нет. Создайте поиск, чтобы узнавать, когда слово появляется в каналах и чатах.
app-off = выкл.
app-tracker-row = «{ $keyword }» · через { $via }
app-matches = { $count ->
        [one] совпадение
        [few] совпадения
       *[other] совпадений
    }
app-unread = непрочитанных: { $count }
app-matches-read = Все совпадения отмечены прочитанными
app-tracker-test-sent = Проверочное уведомление отправлено
app-tracker-delete-confirm = Удалить поиск и его совпадения?
app-tracker-deleted = Поиск удалён
app-tracker-whole-words = (целые слова)
app-tracker-minus = минус-слова: { $words }
app-disable = Выключить
app-enable = Включить
app-tracker-test = Проверить
app-matches-read-all = Прочитать все
app-matches-none = Совпадений пока нет.
app-match-unknown-source = Источник неизвестен
app-match-new = новое
app-match-deleted = удалено
app-match-edited = изменено: больше не подходит
app-match-open = Открыть публикацию
app-channels-none = Каналов пока нет. Сделайте бота администратором своего канала (с правом приглашать): канал появится здесь.
app-channel-not-admin = бот не администратор
app-members = { $count ->
        [one] подписчик
        [few] подписчика
       *[other] подписчиков
    }
app-sent-to-chat = Отправлено в ваш чат в Telegram
app-channel-public-hint = Telegram не сообщает, как человек вступил в публичный канал по его @имени: такие вступления считаются неопознанными. Пригласительные ссылки с заявками учитывают каждое вступление.
app-joined = вступили
app-left = вышли
app-unattributed = неопознанные
app-journal = Журнал { $format }
app-chart-to-chat = График в чат
app-invites = Приглашения
app-invites-none = Пригласительных ссылок пока нет: создайте ссылку в боте (/channels → Новое приглашение).
app-invite = Приглашение
app-joined-col = Вступили
app-left-col = Вышли
app-stayed = Остались 7 дн.
app-per-join = За вступление
app-per-stayer = За оставшегося
app-chart-of = График для
app-all-invites = всех приглашений
app-joins-chart = Вступления и выходы по дням
app-joins = Вступления
app-leaves = Выходы
app-tracker-create = Создать поиск
app-tracker-edit = Изменить поиск
app-tracker-saved = Поиск сохранён
app-tracker-created = Поиск создан
app-any = Любой
app-tracker-keyword = Слово или фраза
app-tracker-query-hint = пробел: все слова; OR или |: любое; -слово: без него; "…": фраза; слово*: начинается с; ( ): группа; a NEAR/3 b: рядом
app-tracker-syntax = Синтаксис
app-tracker-syntax-plain = Одно слово или фраза
app-tracker-syntax-query = Запрос (AND, OR, NOT, фразы, NEAR)
app-tracker-exact = Только целые слова
app-tracker-word-forms = Любые формы слова (канал: каналы, каналов; run: runs, running)
app-tracker-skip-reposts = Пропускать пересылки и копии публикации, найденной за последние 24 часа
app-tracker-watch-links = Также публикации с моими короткими ссылками и приглашениями
app-tracker-minus-words = Минус-слова
app-tracker-minus-hint = Через запятую; любое из них отменяет совпадение
app-tracker-where = Где искать
app-tracker-chats = Чаты
app-tracker-category = Категория
app-tracker-min-subscribers = Минимум подписчиков
app-tracker-include = Только эти источники
app-tracker-exclude = Кроме этих источников
app-tracker-sources-hint = @имя, id чата или ссылка t.me; через запятую
app-tracker-notifications = Уведомления
app-tracker-notify-via = Куда уведомлять
app-tracker-via-bot = Сообщением бота
app-tracker-via-chat = В мой канал или группу
app-tracker-via-webhook = Вебхуком
app-tracker-how-often = Как часто
app-tracker-instant = Сразу
app-tracker-hourly = Сводка раз в час
app-tracker-daily = Сводка раз в день (UTC)
app-tracker-on-delete = Уведомлять и об удалении найденной публикации
app-tracker-chat = Чат
app-tracker-chat-hint = Ваши каналы и группы, где бот — администратор
app-tracker-chat-none = Сначала добавьте бота администратором в свой канал или группу (Каналы)
app-choose = Выберите…
app-tracker-topic = Тема форума
app-tracker-topic-hint = Необязательно: id темы в группе с темами
app-device-bot = бот
app-device-other = другое
token-copy = 📋 Копировать токен

## Мини-приложение: ошибки API своими словами

## Права в чате: управляет ли человек ещё чатом, в котором бот действует за него
problem-not_chat_admin = По данным Telegram, вы не администратор этого чата, поэтому бот не действует там от вашего имени.
problem-no_invite_right = Вы администратор этого чата, но без права приглашать пользователей, а без него бот не действует там от вашего имени. Попросите это право у владельца чата.
problem-rights_unconfirmed = Не удалось связаться с Telegram и проверить, что вы всё ещё администратор этого чата, поэтому ничего не сделано. Попробуйте через минуту.
channel-lost = ⚠️ «{ $title }» больше не ваш чат в боте: по данным Telegram, { $reason ->
        [left] вы вышли из него
        [kicked] вас из него удалили
        [no_invite_right] у вас нет права приглашать пользователей
       *[member] вы больше не администратор
    }. С этого момента я не делаю для вас пригласительные ссылки и не разбираю заявки в нём, его сообщения не попадают в ваши трекеры, уведомления туда больше не идут, а список вступивших для вас закрыт. Цифры ваших пригласительных ссылок остаются в /channels. Если вас снова сделают администратором с правом приглашать пользователей, всё вернётся.
channel-regained = ✅ «{ $title }» снова ваш: пригласительные ссылки, заявки, список вступивших и ваши трекеры там снова работают (/channels).
channel-powers-lost = Новые пригласительные ссылки, заявки, список вступивших и график для вас закрыты; цифры ваших ссылок ниже остаются.
source-claim-refused = ⚠️ В ваши каналы он не добавлен: { $reason ->
        [left] вы вышли из него
        [kicked] вас из него удалили
        [no_invite_right] у вас нет права приглашать пользователей
        [unconfirmed] не удалось связаться с Telegram и проверить ваши права
       *[member] вы больше не администратор
    }. Делать пригласительные ссылки и читать сообщения закрытого чата для человека я могу, только если он создатель чата или администратор с правом приглашать пользователей.

## Реклама: размещения в боте
ads-title = 📢 <b>Реклама</b> · { $period } · по { $sort }
ads-none = За этот период размещений нет. Перешлите сюда рекламный пост (или вставьте его текст со ссылками), укажите, где он выйдет и сколько стоил, — и он появится в этой таблице.
ads-line = { $n }. <b>{ $name }</b> · { $price }
    👆 { $clicks } · 👥 { $joins } · ✅ { $stayed } · 💰 { $perStayed }
ads-more = …и ещё { $count }: смотрите выгрузку.
ads-legend = 👆 уникальные переходы · 👥 вступили · ✅ остались через неделю · 💰 цена оставшегося подписчика
ads-no-price = цена не указана
ads-period-30d = 30 дней
ads-period-7d = 7 дней
ads-period-90d = 90 дней
ads-period-all = Всё время
ads-sort-cost_per_retained = цене оставшегося подписчика
ads-sort-cost_per_join = цене вступления
ads-sort-joins = вступлениям
ads-sort-unique_clicks = уникальным переходам
ads-by-cost_per_retained = 💰 За оставшегося
ads-by-cost_per_join = 💵 За вступление
ads-by-joins = 👥 Вступления
ads-by-unique_clicks = 👆 Переходы
ads-venue = Где: { $venue }
ads-published = Вышел: { $date }
ads-price = Цена: { $price }
ads-post = Пост: { $url }
ads-post-none = Пост: пока неизвестен (🔗 Ссылка на пост)
ads-funnel-views = 👁 Просмотры: { $views } · CPM { $cpm }
ads-funnel-clicks = 👆 Переходы: { $clicks }, уникальные { $unique } · CPC { $cpc }
ads-funnel-joins = 👥 Вступили: { $joins }, вышли { $leaves } · за вступление { $perJoin }
ads-funnel-stayed = ✅ Остались через 24 ч: { $day } · через 7 дней: { $week } · через 30 дней: { $month }
ads-funnel-retained = 💰 За подписчика, оставшегося на неделю: { $perStayed }
ads-stayed-of = { $stayed } из { $of } ({ $rate })
ads-bound = Трекинговые ссылки: { $links } · ссылки-приглашения: { $invites }
ads-set-views = 👁 Просмотры
ads-set-post_url = 🔗 Ссылка на пост
ads-set-cost = 💰 Цена
ads-set-publish_at = 📅 Дата
ads-set-name = ✏️ Название
ads-set-notes = 📝 Заметки
ads-prompt-cost = сколько стоила реклама, например 5 000 ₽, $50 или просто число в валюте аккаунта
ads-prompt-publish-at = когда выходит реклама, например { $when }
ads-prompt-name = название размещения
ads-prompt-notes = ваши заметки о размещении
ads-refuse-publish-at = Не получилось прочитать дату. Примеры: { $when }.
ads-notes = Заметки: { $notes }
ads-open-post = ↗️ Открыть пост
ads-delete = 🗑 Удалить
ads-delete-confirm = Удалить размещение <b>{ $name }</b>? Его ссылки и ссылки-приглашения останутся вместе с переходами и вступлениями.
ads-delete-yes = 🗑 Да, удалить
ads-deleted = 🗑 Размещение удалено.
ads-back = ⬅️ Реклама
ads-prompt-views = сколько просмотров у рекламного поста (12000, 12 000 или 12,5 тыс.)
ads-prompt-post-url = ссылка на рекламный пост, t.me/канал/123
ads-refuse-views = Просмотры — целое число: 12000, 12 000 или 12,5 тыс.
ads-sheet = Реклама
ads-export-caption = 📢 { $count ->
        [one] { $count } размещение
        [few] { $count } размещения
       *[other] { $count } размещений
    }, { $period } ({ $format })
ads-column-name = Размещение
ads-column-venue = Где
ads-column-published = Вышел
ads-column-price = Цена
ads-column-currency = Валюта
ads-column-views = Просмотры
ads-column-clicks = Переходы
ads-column-unique-clicks = Уникальные переходы
ads-column-joins = Вступили
ads-column-leaves = Вышли
ads-column-stayed-24h = Остались через 24 ч
ads-column-stayed-7d = Остались через 7 дней
ads-column-stayed-30d = Остались через 30 дней
ads-column-cpm = CPM
ads-column-cpc = CPC
ads-column-per-join = За вступление
ads-column-per-stayed = За оставшегося подписчика
ads-column-post = Пост
settings-currency = Валюта цен: { $currency }
settings-currency-set = Цены без валюты теперь читаются в { $currency }.
report-ads = 📢 Лучшая реклама: { $best } ({ $bestJoins ->
        [one] { $bestJoins } вступление
        [few] { $bestJoins } вступления
       *[other] { $bestJoins } вступлений
    }, { $bestClicks ->
        [one] { $bestClicks } переход
        [few] { $bestClicks } перехода
       *[other] { $bestClicks } переходов
    }) · худшая: { $worst } ({ $worstJoins ->
        [one] { $worstJoins } вступление
        [few] { $worstJoins } вступления
       *[other] { $worstJoins } вступлений
    }, { $worstClicks ->
        [one] { $worstClicks } переход
        [few] { $worstClicks } перехода
       *[other] { $worstClicks } переходов
    })
report-ads-one = 📢 Реклама: привела людей только { $name } ({ $joins ->
        [one] { $joins } вступление
        [few] { $joins } вступления
       *[other] { $joins } вступлений
    }, { $clicks ->
        [one] { $clicks } переход
        [few] { $clicks } перехода
       *[other] { $clicks } переходов
    })

## Мини-приложение: реклама
app-tab-ads = Реклама
app-ads-send = Отправить в чат
app-ads-sent = { $rows ->
        [one] Отправлено { $rows } размещение
        [few] Отправлено { $rows } размещения
       *[other] Отправлено { $rows } размещений
    } в ваш чат Telegram
app-ads-title = Реклама
app-ads-period = Период
app-ads-period-30d = 30 дней
app-ads-period-7d = 7 дней
app-ads-period-90d = 90 дней
app-ads-period-all = Всё время
app-ads-none = За этот период размещений нет. Перешлите рекламный пост боту, укажите, где он выйдет и сколько стоил, — и он появится здесь.
app-ads-hint = Нажмите на заголовок, чтобы отсортировать по нему, ещё раз — в обратном порядке. Остались — вступили и остались через неделю.
app-ads-col-name = Размещение
app-ads-col-price = Цена
app-ads-col-views = Просмотры
app-ads-col-clicks = Переходы
app-ads-col-joins = Вступили
app-ads-col-stayed = Остались
app-ads-col-per-join = За вступление
app-ads-col-per-stayed = За оставшегося
app-ads-no-price = цена не указана
app-ads-funnel = От просмотров до оставшихся
app-ads-step-views = Просмотры
app-ads-step-clicks = Уникальные переходы
app-ads-step-joins = Вступили
app-ads-step-h24 = Остались через 24 ч
app-ads-step-d7 = Остались через 7 дней
app-ads-step-d30 = Остались через 30 дней
app-ads-cpm = CPM { $cost }
app-ads-cpc = CPC { $cost }
app-ads-per-join = { $cost } за вступление
app-ads-per-stayed = { $cost } за оставшегося подписчика
app-ads-views-curve = Просмотры рекламного поста
app-ads-views-none = Просмотров пока нет: они появятся, когда станет известна ссылка на пост.
app-currency = Валюта цен
app-currency-hint = Цена без валюты (5000) читается в этой валюте — и в боте, и здесь.

## Время пользователя: примеры того, что можно написать, и часовой пояс, в котором время читается и показывается

tz-examples = 2ч, 3 дня, через неделю, завтра 18:00, в пятницу, { $date }, { $date } 18:30; время — { $zone }
tz-column = { $column } — { $zone }

## Отказы: правило поля словами (core/i18n/problem.ts читает фразу ядра); { $field } начинает предложение

problem-field = { $field }: такое значение не подходит.
check-length = { $field } — от { $min } до { $max } { $max ->
    [one] символа
   *[other] символов
    }.
check-max-length = { $field } — не длиннее { $max } { $max ->
    [one] символа
   *[other] символов
    }.
check-code-chars = { $field } — от { $min } до { $max } латинских букв, цифр, «-» или «_».
check-days = { $field } — целое число дней от { $min } до { $max }.
check-whole-range = { $field } — целое число от { $min } до { $max }.
check-more-at-most = { $field } — больше { $min } и не больше { $max }.
check-positive = { $field } — целое число больше 0.
check-whole = { $field } — целое число.
check-at-least = { $field } — не меньше { $min }.
check-max-kb = { $field } — не больше { $max } КБ.
check-url = { $field } — полный адрес, начинается с http:// или https://.
check-no-spaces = { $field } — без пробелов (пробел пишется как %20).
check-no-credentials = { $field } — без имени пользователя и пароля.
check-no-backslash = { $field } — без обратной косой черты (вместо неё / или %5C).
check-own-host = { $field } не может вести на сам этот сервис.
check-not-future = { $field } — не в будущем.
check-future = { $field } — только в будущем.
check-order = { $field } — { $order ->
    [earlier] раньше
   *[later] позже
    }, чем { $other }.
check-date = { $field } — дата и время вида 2026-05-01 12:00.
check-one-of = { $field } — одно из: { $list }.
check-email = { $field } — адрес вида name@example.com.
check-email-code = { $field } — { $digits }-значный код из письма.
check-currency = { $field } — код валюты из трёх букв, например USD, EUR или RUB.
check-domain = { $field } — доменное имя вроде go.example.com, без http://, порта и пути.
check-entries-range = { $field }: от { $min } до { $max }.
check-entries-max = { $field }: не больше { $max }.
check-visible = { $field } — нужен хотя бы один видимый символ.
check-required = { $field }: нужно указать.

# Права API-токенов словами
scope-all = всё
scope-read-links = ссылки: чтение
scope-write-links = ссылки: изменение
scope-read-stats = статистика: чтение
scope-read-channels = каналы: чтение
scope-write-channels = каналы: изменение
scope-read-pixels = пиксели: чтение
scope-write-pixels = пиксели: изменение
scope-read-secure = безопасная передача: чтение
scope-write-secure = безопасная передача: изменение
scope-read-tracking = трекеры: чтение
scope-write-tracking = трекеры: изменение
scope-read-conversions = конверсии: чтение
scope-write-conversions = конверсии: передача
scope-read-webhooks = постбэки: чтение
scope-write-webhooks = постбэки: изменение
# кнопки периода в статистике ссылки
period-short-1d = сутки
period-short-7d = 7 дн.
period-short-30d = 30 дн.
period-short-90d = 90 дн.
period-short-1y = год
period-short-all = всё
# как человек вступил: столбец «Откуда» журнала подписок
journal-via-invite = ваше приглашение
journal-via-other_link = другая ссылка-приглашение
journal-via-none = без ссылки
journal-via-folder = ссылка на папку
journal-via-request = заявка на вступление
# заметка без названия: её номер среди заметок владельца и день
note-default-name = Заметка { $n }, { $date }

# период после /summary (читается и английский вариант)
period-typed-1d = 1д
period-typed-7d = 7д
period-typed-30d = 30д
period-typed-90d = 90д
period-typed-1y = год
period-typed-all = всё
summary-period-refuse = Период — одно из: { $list }.

# Public pages: short links (SHORT_URL/<code>), secure files (/s/<code>) and request links (/r/<code>)
visitor-not-found-title = Ссылка не найдена
visitor-not-found-text = Такой ссылки нет или её выключили.
visitor-expired-title = Ссылка больше не действует
visitor-expired-text = Срок ссылки истёк или исчерпан предел переходов.
visitor-countdown-title = Ссылка ещё не открыта
visitor-countdown-heading = Ссылка скоро откроется
visitor-countdown-opens = Ссылка откроется { $time }.
visitor-countdown-day-short = дн.
visitor-countdown-noscript = Обновите страницу, когда время подойдёт.
visitor-password-title = Нужен пароль
visitor-password-text = Введите пароль, чтобы открыть ссылку.
visitor-password-label = Пароль
visitor-password-open = Открыть ссылку
visitor-password-wrong = Неверный пароль, попробуйте ещё раз.
visitor-redirect-title = Переходим…
visitor-redirect-text = Открываем страницу назначения…
visitor-redirect-continue = Продолжить
visitor-locked-title = Слишком много попыток
visitor-locked-text = Слишком много неверных паролей. Попробуйте снова через { $minutes } мин.
secure-page-shared = С вами поделились защищённым файлом
secure-page-kind = Тип
secure-page-name = Название
secure-page-file = Файл
secure-page-size = Размер
secure-page-until = Доступен до
secure-page-views-left = Осталось просмотров
secure-page-unlimited = без ограничений
secure-page-password = Пароль
secure-page-last-view = Это последний просмотр: после него ссылка перестанет работать.
secure-page-show-text = Показать текст
secure-page-show-file = Показать файл
secure-page-counts-one = Открытие засчитывается как один просмотр.
secure-page-views-left-note = { $count ->
    [one] остался { $count } просмотр
    [few] осталось { $count } просмотра
   *[other] осталось { $count } просмотров
}
secure-page-available-until = доступен до { $time }
secure-page-download = Скачать
secure-page-preview = Это ваш предпросмотр: просмотр не засчитан.
secure-page-counted = Засчитан один просмотр. Не закрывайте страницу: скачивание с неё работает ещё несколько часов.
secure-page-password-required = Введите пароль, чтобы открыть ссылку.
secure-page-password-invalid = Пароль неверный.
secure-page-403-title = Недоступно
secure-page-403-text = Владелец отозвал ссылку или приостановил доступ. Попросите у него новую ссылку.
secure-page-404-title = Ссылка не найдена
secure-page-404-text = По этому адресу нет защищённого файла. Проверьте, что ссылка скопирована целиком.
secure-page-410-title = Ссылка больше не действует
secure-page-410-text = Срок ссылки истёк или её открыли столько раз, сколько было разрешено.
secure-page-429-title = Слишком много попыток
secure-page-429-text = Подождите немного и попробуйте снова.
secure-page-open-in-browser = Откройте ссылку в браузере, чтобы посмотреть.
secure-page-bytes = { $size } Б
secure-page-kilobytes = { $size } КБ
secure-page-megabytes = { $size } МБ
request-page-not-received = Ничего не получено
request-page-nothing-kept = Ничего из отправленного не сохранено.
request-page-try-again = Попробовать снова
request-page-title = Отправить файл
request-page-items-left = { $count ->
    [one] можно отправить ещё { $count } вложение
    [few] можно отправить ещё { $count } вложения
   *[other] можно отправить ещё { $count } вложений
}
request-page-open-until = открыт до { $time }
request-page-intro = Вас попросили прислать файл или текст. Аккаунт не нужен.
request-page-file = Файл (до 10 МБ)
request-page-send-file = Отправить файл
request-page-or-text = Или текст
request-page-send-text = Отправить текст
request-page-send-another = Отправить ещё
request-page-received = Получено
request-page-text-delivered = Ваш текст доставлен.
request-page-file-delivered = { $file } доставлен.
secure-error-link_revoked = Владелец отозвал эту ссылку.
secure-error-folder_paused = Владелец приостановил доступ к этой папке.
secure-error-link_expired = Срок действия ссылки истёк.
secure-error-views_exhausted = Ссылку открыли столько раз, сколько было разрешено.
secure-error-request_inactive = Владелец выключил эту ссылку-запрос.
secure-error-request_expired = Срок ссылки-запроса истёк.
secure-error-request_full = По этой ссылке-запросу уже прислали всё, что просили.
secure-error-request_not_found = По этому адресу нет ссылки-запроса.
secure-error-file_too_large = Файл больше 10 МБ.
secure-error-plan_limit = У владельца не осталось места для файлов: ему нужно освободить место, чтобы принять что-то ещё.
secure-error-request_storage_full = Эта ссылка-запрос уже приняла всё, что ей можно (100 МБ в сумме).
secure-error-upload_too_slow = Загрузка шла слишком долго и была остановлена.
secure-error-upload_stalled = Загрузка прервалась.
secure-page-kind-text = текст
secure-page-kind-image = изображение
secure-page-kind-video = видео
secure-page-kind-audio = аудио
secure-page-kind-file = файл

## Отслеживание слов: уведомления в командный чат, выбранный по названию
trk-via-chat = В мою группу или канал
trk-no-team-chats = У вас пока нет группы или канала, куда я могу писать: сделайте меня там администратором (у вас самих там должно быть право приглашать участников) и выберите снова.
trk-pick-chat = В какую группу или канал присылать упоминания?
trk-pick-topic = В какую тему форума?
trk-topic-general = # Общая тема
trk-pick-hint = Нажмите одну из кнопок или напишите начало названия.
trk-prompt-webhook = Пришлите адрес вебхука: на каждое упоминание он получит POST-запрос и на проверочный запрос должен ответить кодом 2xx.

## Конверсии на карточках ссылки, приглашения и размещения (conv-…)
conv-card-none = 🎯 Конверсии: пока нет
conv-card-count = 🎯 Конверсии: { $count }
conv-card-count-rate = 🎯 Конверсии: { $count } · { $rate } от { $unique } уникальных переходов
conv-card-value = 💵 Принесли: { $value }
conv-card-events = 📋 { $events }
conv-card-roas = 📈 ROAS: { $roas } (сумма конверсий к цене рекламы)
conv-event-click = Переход
conv-event-join_request = Заявка на вступление
conv-event-join = Вступление
conv-event-leave = Выход
conv-event-start = Запуск бота
conv-event-lead = Лид
conv-event-registration = Регистрация
conv-event-purchase = Покупка
conv-event-deposit = Депозит
conv-event-subscribe = Подписка
conv-event-any = Любое событие

## Постбэки в боте (pb-…) и ключи для входящих конверсий (pbk-…)
pb-settings = 📮 Постбэки
pb-card-none = 📮 Постбэк
pb-card-some = 📮 Постбэки: { $count }
pb-for-link = ссылка «{ $name }»
pb-for-placement = размещение «{ $name }»
pb-for-account = все ваши ссылки и приглашения
pb-list-title = 📮 <b>Постбэки</b> · { $scope }
pb-list-none = Пока нет. Постбэк — это запрос на ваш адрес (рекламной сети или вашего трекера) каждый раз, когда происходит выбранное событие: переход, вступление, покупка…
pb-events = События: { $events }
pb-target-meta = Meta (API конверсий) · пиксель <code>{ $pixel }</code>
pb-new = ➕ Новый постбэк
pb-keys = 🔑 Ключи для входящих конверсий
pb-test-short = 🧪
pb-back-placement = ⬅️ Размещение
pb-back-list = ⬅️ Постбэки
pb-back-postback = ⬅️ Постбэк
pb-title = 📮 <b>Постбэк</b> · { $scope }
pb-signed = Запросы подписаны вашим секретом вебхуков: заголовок <code>X-Webhook-Signature</code>.
pb-recent = <b>Последние отправки</b>
pb-no-deliveries = Ещё ничего не отправлено.
pb-attempts = { $count ->
    [one] { $count } попытка
    [few] { $count } попытки
   *[other] { $count } попыток
}
pb-test = 🧪 Отправить проверку
pb-log = 📜 Журнал отправок
pb-delete = 🗑 Удалить
pb-log-title = 📜 <b>Журнал отправок</b>: { $target }
pb-delete-confirm = Удалить постбэк на { $target }? Всё, что ещё ждёт отправки, не уйдёт.
pb-delete-yes = 🗑 Да, удалить
pb-deleted = 🗑 Постбэк удалён.
pb-test-sending = ⏳ Отправляю проверку на { $target }…
pb-test-body = «{ $body }»
pb-test-no-body = тело ответа пустое
pb-test-ok = ✅ Получатель принял проверку: ответил { $status }, { $body }.
pb-test-refused = ❌ Получатель отклонил проверку: ответил { $status }, { $body }.
pb-test-unreachable = ❌ Проверка не дошла: { $error }.
pb-ask-url =
    📮 Новый постбэк: { $scope }.
    Пришлите адрес, на который слать запрос, с макросами там, где нужны значения: { $macros }. Например:
    { $example }
    Запрос уходит методом GET; допишите POST после адреса, чтобы значения приходили в JSON. Для API конверсий Meta пришлите <code>meta &lt;id пикселя&gt; &lt;токен доступа&gt;</code>.
pb-refuse-macro = Макроса <code>{ $name }</code> нет. Есть такие: { $macros }. Пришлите адрес ещё раз.
pb-refuse-long = Адрес слишком длинный: не больше { $max } символов. Пришлите покороче.
pb-refuse-http = Это не полный адрес: он должен начинаться с http:// или https://, например { $example }. Пришлите ещё раз.
pb-refuse-shape = Пришлите один адрес (при желании с POST после него) или meta, id пикселя и токен доступа через пробел.
pb-pick-events = На какие события его вызывать? Нажмите нужные или напишите названия других событий (как их присылает ваш сервер), затем сохраните.
pb-save = { $count ->
    [0] ✅ Сохранить и проверить
   *[other] ✅ Сохранить и проверить ({ $count })
}
pb-pick-one = Сначала выберите хотя бы одно событие.
pb-refuse-event = «{ $name }» не годится как название события: только строчные латинские буквы, цифры и _, в начале буква, до 40 символов.
pb-cancelled = Отменено: постбэк не создан.
pb-saved = ✅ Постбэк сохранён. Проверка уже отправлена, ответ получателя придёт ниже.
pbk-settings = 🔑 Ключи конверсий
pbk-title = 🔑 <b>Ключи для входящих конверсий</b>
pbk-none = Пока нет. Сервер, который умеет только открыть адрес (а не отправить запрос к API), сообщает о конверсии GET-запросом на адрес с ключом. Создайте ключ, чтобы получить адрес.
pbk-how = Сообщайте о конверсии GET-запросом на адрес ключа (он пришёл, когда ключ был создан), добавив значения: <code>?event=purchase&amp;click_id=…&amp;value=990&amp;currency=RUB&amp;external_id=…</code>. <code>event</code> обязателен; с одним и тем же <code>external_id</code> конверсия считается один раз. Отозванный ключ не принимается.
pbk-item = • { $key } «{ $name }», создан { $made }
pbk-default-name = Ключ от { $date }
pbk-revoke-label = 🚫 Отозвать { $key }
pbk-revoke-confirm = Отозвать ключ { $key }? Конверсии с ним больше не будут приниматься.
pbk-revoke-yes = 🚫 Да, отозвать
pbk-revoked = 🚫 Ключ отозван.
pbk-new = ➕ Новый ключ
pbk-made = 🔑 Новый ключ. Сообщайте о конверсиях GET-запросом на этот адрес (добавьте <code>?event=purchase&amp;click_id=…</code>); он показывается только сейчас, сохраните его:
    { $url }
pbk-copy = 📋 Скопировать адрес

## Мини-приложение: конверсии и постбэки (app-conv-…, app-pb-…, app-pbk-…)
app-conv-title = Конверсии
app-conv-none = Конверсий пока нет. Они приходят от вашего сервера через API, на адрес ключа конверсий и со вступлениями по приглашениям.
app-conv-count = { $count ->
    [one] конверсия
    [few] конверсии
   *[other] конверсий
    }
app-conv-rate = от уникальных переходов
app-conv-value = принесли
app-conv-roas = ROAS
app-conv-col = Конверсии
app-conv-postbacks-link = Постбэки: сообщать рекламной сети или вашему трекеру о каждой конверсии
app-conv-event-click = Переход
app-conv-event-join_request = Заявка на вступление
app-conv-event-join = Вступление
app-conv-event-leave = Выход
app-conv-event-start = Запуск бота
app-conv-event-lead = Лид
app-conv-event-registration = Регистрация
app-conv-event-purchase = Покупка
app-conv-event-deposit = Депозит
app-conv-event-subscribe = Подписка
app-conv-event-any = Любое событие
app-pb-title = Постбэки
app-pb-intro = Постбэк — это запрос на ваш адрес (рекламной сети или вашего трекера) каждый раз, когда происходит выбранное событие. Здесь все постбэки аккаунта.
app-pb-for-link = Постбэки этой ссылки; новый постбэк здесь срабатывает только для неё.
app-pb-for-placement = Постбэки этого размещения; новый постбэк здесь срабатывает только для него.
app-pb-none = Постбэков пока нет.
app-pb-settings-hint = Сообщайте рекламным сетям и своему трекеру о переходах, вступлениях и конверсиях; ключи для конверсий, которые присылают GET-запросом.
app-pb-open = Открыть постбэки
app-pb-meta-target = API конверсий Meta · пиксель { $pixel }
app-pb-scope-link = ссылка №{ $id }
app-pb-scope-placement = размещение №{ $id }
app-pb-scope-all = все ссылки и приглашения
app-pb-events = события: { $events }
app-pb-test = Отправить проверку
app-pb-log = Журнал отправок
app-pb-delete-confirm = Удалить постбэк на { $target }? Всё, что ещё ждёт отправки, не уйдёт.
app-pb-deleted = Постбэк удалён
app-pb-test-body = «{ $body }»
app-pb-test-no-body = тело ответа пустое
app-pb-test-ok = Получатель принял проверку: ответил { $status }, { $body }.
app-pb-test-refused = Получатель отклонил проверку: ответил { $status }, { $body }.
app-pb-test-unreachable = Проверка не дошла: { $error }.
app-target-why-status = получатель ответил { $status }
app-target-why-timeout = получатель не ответил вовремя
app-target-why-timeout-after = получатель не ответил за { $seconds } с
app-target-why-network = до получателя не достучаться{ $detail }
app-target-why-refused = адрес во внутренней сети, туда ничего не отправляется
app-target-why-invalid = адрес не подходит: нужен адрес http(s)
app-pb-log-none = Ещё ничего не отправлено.
app-pb-log-when = Когда
app-pb-log-event = Событие
app-pb-log-state = Состояние
app-pb-log-answer = Ответ
app-pb-state-pending = ждёт
app-pb-state-sending = отправляется
app-pb-state-done = доставлен
app-pb-state-failed = не доставлен
app-pb-state-cancelled = отменён
app-pb-attempts = { $count ->
    [one] { $count } попытка
    [few] { $count } попытки
   *[other] { $count } попыток
    }
app-pb-new = Новый постбэк
app-pb-kind = Получатель
app-pb-kind-url = Адрес (шаблон URL)
app-pb-kind-meta = API конверсий Meta
app-pb-url = Адрес для запроса
app-pb-macros = Макросы вроде {"{"}click_id{"}"}, {"{"}event{"}"}, {"{"}value{"}"}, {"{"}currency{"}"} или {"{"}sub1{"}"} заменяются значениями (бот перечисляет их все).
app-pb-post-json = POST (значения в JSON)
app-pb-pixel = Id пикселя
app-pb-access-token = Токен доступа
app-pb-events-label = События
app-pb-other-events = Другие события (как их присылает ваш сервер, через запятую)
app-pb-create = Сохранить постбэк
app-pbk-title = Ключи для входящих конверсий
app-pbk-how = Сервер, который умеет только открыть адрес, сообщает о конверсии GET-запросом на адрес ключа, подставив event (обязательно), click_id, value, currency и external_id (с одним и тем же конверсия считается один раз). Отозванный ключ не принимается.
app-pbk-none = Ключей пока нет.
app-pbk-new = Новый ключ
app-pbk-name = Название ключа (какой сервер им пользуется)
app-pbk-copy-now = Скопируйте адрес сейчас: он показывается только один раз. Чтобы сообщить о конверсии, добавьте ?event=purchase&click_id=….
app-pbk-made-on = создан { $date }
app-pbk-revoke-confirm = Отозвать ключ «{ $name }»? Конверсии с ним больше не будут приниматься.
app-pbk-revoked = Ключ отозван

## Workspaces in the bot (bot/menus/workspaces.ts, bot/features/team-chat.ts)
problem-forbidden_role = Ваша роль в этом пространстве этого не позволяет; попросите владельца или администратора.
problem-personal_workspace = В личном пространстве нет команды: сначала переключитесь на командное в настройках.
problem-invite_used = Это приглашение уже использовано; попросите новое.
problem-invite_expired = Срок приглашения истёк; попросите новое.
problem-invite_revoked = Автор приглашения больше не может приглашать в эту команду; попросите новое.
problem-last_owner = У пространства должен быть владелец: сначала сделайте владельцем кого-то ещё.
ws-personal = Личное
ws-line-personal = 🏢 Пространство: <b>личное</b>
ws-line-team = 🏢 Пространство: <b>{ $name }</b> · { $role }
ws-role-owner = владелец
ws-role-admin = администратор
ws-role-editor = редактор
ws-role-viewer = наблюдатель
ws-switched = Теперь вы работаете в <b>{ $name }</b>: все списки показывают его данные.
ws-team-button = 👥 Команда
ws-new-team = ➕ Новая команда
ws-new-team-ask = Как назвать командное пространство (например, агентство или сеть каналов)?
ws-created = Команда <b>{ $name }</b> создана, вы работаете в ней. Пригласите людей через 👥 Команда.
ws-team-title = <b>👥 { $name }</b> · { $count ->
    [one] { $count } участник
    [few] { $count } участника
   *[other] { $count } участников
}
ws-member-line = • { $name } — { $role }
ws-group-line = 💬 Группа команды: <b>{ $title }</b> получает отчёты, оповещения, уведомления трекеров и заявки на вступление.
ws-group-topic-line = 💬 Группа команды: тема в <b>{ $title }</b> получает отчёты, оповещения, уведомления трекеров и заявки на вступление.
ws-group-none = 💬 Группа команды не подключена: отчёты, оповещения, уведомления трекеров и заявки получают владельцы и администраторы. Чтобы это изменить, добавьте @{ $bot } в группу команды и отправьте там /connect (на форуме — внутри нужной темы).
ws-invite-button = ➕ Пригласить
ws-audit-button = 📜 Последние изменения
ws-back-team = ⬅️ Команда
ws-member-title = <b>{ $name }</b> — { $role }, в команде с { $since }
ws-make-role = Сделать { $role ->
    [owner] владельцем
    [admin] администратором
    [editor] редактором
   *[viewer] наблюдателем
}
ws-remove-member = ❌ Убрать из команды
ws-role-changed = { $name } теперь { $role }.
ws-member-removed = { $name } больше не в команде: доступ и API-токены, выпущенные здесь, отключены сразу.
ws-invite-text = Пригласить в <b>{ $name }</b>: выберите роль. Ссылка срабатывает один раз и действует 7 дней.
ws-invite-as = { $role ->
    [owner] Владельцем
    [admin] Администратором
    [editor] Редактором
   *[viewer] Наблюдателем
}
ws-invite-made = 🔗 Приглашение в <b>{ $name }</b> с ролью «{ $role }», для одного человека, до { $until }:
    { $url }
ws-invite-share = 📤 Отправить приглашение
ws-invite-share-text = Присоединяйтесь к { $name } в боте
ws-joined = 👋 Вы в команде <b>{ $name }</b> с ролью «{ $role }» и работаете в ней. Личное пространство — в одно касание в настройках.
ws-audit-empty = Изменений пока нет.
ws-audit-title = <b>📜 Последние изменения</b> (всего { $count }; в приложении — все, с фильтрами)
ws-audit-service = сервис
ws-audit-line = { $at } · { $who }: { $verb ->
    [create] создание
    [update] изменение
    [delete] удаление
    [revoke] отзыв
    [approve] одобрение
    [decline] отклонение
    [role] смена роли
    [join] вступление
    [remove] исключение
    [leave] выход
    [connect] подключение
    [disconnect] отключение
    [rename] переименование
    [chart] отправка графика
    [export] выгрузка
    [invites] новое приглашение
    [links] привязка ссылки
    [verify] проверка
    [share_qr] QR-код
    [test] проверка
    [upload] загрузка
    [read_all] всё прочитано
    [redeliver] повторная доставка
   *[other] { $verb }
} — { $area ->
    [links] ссылка
    [tags] метка
    [pixels] пиксель
    [domains] домен
    [webhooks] вебхук
    [folders] папка
    [files] файл
    [shares] ссылка на файл
    [requests] заявка
    [trackers] трекер
    [tracking] трекер
    [channels] канал
    [invites] приглашение
    [placements] размещение
    [tokens] API-токен
    [members] участник
    [workspaces] пространство
    [settings] настройки
    [team_chat] группа команды
    [conversions] конверсия
    [bulk] ссылки списком
    [send_summary] сводка в чат
    [export] выгрузка
    [postback_keys] ключ конверсий
    [postbacks] постбэк
    [pause] пауза папки
    [restore] восстановление ссылки
    [revoke] отзыв ссылки
    [matches] совпадения трекера
    [deliveries] доставка вебхука
    [rotate] секрет вебхука
    [workspace] команда
    [audit] журнал изменений
    [join] вступление в команду
   *[other] { $area }
} { $id }
ws-group-start-first = Сначала откройте личный чат с @{ $bot } и нажмите «Старт» — тогда я буду знать, кто вы.
ws-connect-anonymous = Не видно, кто это отправил: анонимный администратор не может подключить группу. Отправьте /connect от своего имени.
ws-connect-personal = Сейчас у вас личное пространство: выберите команду в @{ $bot } → Настройки и отправьте /connect здесь снова.
ws-connect-not-admin = Подключить группу к команде могут только администраторы группы.
ws-connected = ✅ Теперь это группа команды <b>{ $workspace }</b>: сюда приходят её отчёты, оповещения, уведомления трекеров и заявки на вступление.
ws-connected-topic = ✅ Теперь в эту тему приходят отчёты, оповещения, уведомления трекеров и заявки на вступление <b>{ $workspace }</b>.
ws-disconnected = Эта группа больше не получает сообщения <b>{ $workspace }</b>: они снова идут владельцам и администраторам.
ws-not-connected = Эта группа не подключена к <b>{ $workspace }</b>.

## Workspaces in the mini-app (miniapp/src/pages/workspace-bar.ts, members.ts, audit.ts)
app-ws-label = Пространство
app-ws-personal = Личное
app-ws-role-owner = владелец
app-ws-role-admin = администратор
app-ws-role-editor = редактор
app-ws-role-viewer = наблюдатель
app-ws-members = Участники
app-ws-audit = Изменения
app-ws-since = с { $date }
app-ws-role = Роль
app-ws-role-saved = Роль изменена
app-ws-remove = Убрать
app-ws-remove-confirm = Убрать { $name } из команды? Доступ и API-токены, выпущенные здесь, отключатся сразу.
app-ws-removed = Убран из команды
app-ws-invite = Пригласить
app-ws-invite-hint = Ссылка срабатывает один раз и действует 7 дней: кто откроет её в боте, войдёт в команду с выбранной здесь ролью.
app-ws-invite-make = Создать приглашение
app-ws-invite-until = Действует до { $date }
app-ws-share = Отправить в Telegram
app-ws-share-text = Присоединяйтесь к { $name } в боте
app-ws-audit-export = Отправить в чат
app-ws-audit-action = Что
app-ws-audit-any = Всё
app-ws-audit-member = Кто
app-ws-audit-anyone = Все
app-ws-audit-from = С
app-ws-audit-to = По
app-ws-audit-none = Подходящих изменений нет.
app-ws-audit-when = Когда
app-ws-audit-who = Кто
app-ws-audit-what = Что
app-ws-audit-subject = Объект
app-ws-audit-service = сервис
app-ws-audit-newer = ← Новее
app-ws-audit-older = Старше →
app-ws-audit-count = { $count ->
    [one] { $count } изменение
    [few] { $count } изменения
   *[other] { $count } изменений
}
app-ws-area-links = Ссылка
app-ws-area-tags = Метка
app-ws-area-pixels = Пиксель
app-ws-area-domains = Домен
app-ws-area-secure = Файлы
app-ws-area-tracking = Трекер
app-ws-area-folders = Папка
app-ws-area-files = Файл
app-ws-area-requests = Заявка
app-ws-area-channels = Канал
app-ws-area-invites = Приглашение
app-ws-area-placements = Размещение
app-ws-area-tokens = API-токен
app-ws-area-members = Участник
app-ws-area-workspaces = Пространство
app-ws-area-conversions = Конверсия
app-ws-area-bulk = Ссылки списком
app-ws-area-send_summary = Сводка в чат
app-ws-area-export = Выгрузка таблицы
app-ws-area-postback_keys = Ключ конверсий
app-ws-area-postbacks = Постбэк
app-ws-area-pause = Пауза папки
app-ws-area-restore = Восстановление ссылки
app-ws-area-revoke = Отзыв ссылки
app-ws-area-matches = Совпадения трекера
app-ws-area-deliveries = Доставка вебхука
app-ws-area-rotate = Секрет вебхука
app-ws-area-workspace = Команда
app-ws-area-audit = Журнал изменений
app-ws-area-join = Вступление в команду
app-ws-area-settings = Настройки
app-ws-area-team_chat = Группа команды
app-ws-area-webhooks = Вебхук
app-ws-area-shares = Ссылка на файл
app-ws-area-trackers = Трекер
app-ws-verb-create = создание
app-ws-verb-update = изменение
app-ws-verb-delete = удаление
app-ws-verb-revoke = отзыв
app-ws-verb-approve = одобрение
app-ws-verb-decline = отклонение
app-ws-verb-role = смена роли
app-ws-verb-join = вступление
app-ws-verb-remove = исключение
app-ws-verb-leave = выход
app-ws-verb-connect = подключение
app-ws-verb-disconnect = отключение
app-ws-verb-rename = переименование
app-ws-verb-chart = график отправлен
app-ws-verb-export = выгружено
app-ws-verb-invites = приглашение создано
app-ws-verb-links = ссылка привязана
app-ws-verb-verify = проверено
app-ws-verb-share_qr = QR-код отправлен
app-ws-verb-test = проверено
app-ws-verb-upload = загружено
app-ws-verb-read_all = всё прочитано
app-ws-verb-redeliver = доставлено повторно

## Workspaces: the audit log's export (ws-)
ws-audit-column-at = Время
ws-audit-column-actor = Кто
ws-audit-column-action = Действие
ws-audit-column-subject = Что
ws-audit-column-details = Подробности
ws-audit-sheet = Изменения
ws-audit-export-caption = { $count ->
        [one] { $count } изменение
        [few] { $count } изменения
       *[other] { $count } изменений
    } в «{ $workspace }»

## Workspaces: what a viewer reads where the buttons that change things are not drawn (ws-read-)
ws-read-tags = <b>🏷 Теги</b> ({ $count }):
ws-read-pixels = <b>📡 Пиксели</b> ({ $count }):
ws-read-requests = 🙋 <b>Заявки на вступление</b> ({ $count }):
ws-read-shares = 🔗 <b>Ссылки на файлы</b> ({ $count }): нажмите на ссылку, чтобы открыть её.
