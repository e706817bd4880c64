// The countdown page of a link that opens later: counts the seconds in #left's data-seconds down,
// then reloads. Days are written with #left's data-day, the page language's own short word ("d",
// "дн."), and the opening time (<time datetime>, written in UTC by the server) is shown again in the
// visitor's own time zone, in the page's language. Served as a file: the pages' Content-Security-Policy
// runs no inline script.
(() => {
  var el = document.getElementById("left");
  if (!el) return;
  var s = Math.max(0, Math.floor(Number(el.getAttribute("data-seconds")) || 0));
  var day = el.getAttribute("data-day") || "d";
  var lang = document.documentElement.lang || undefined;
  var at = document.querySelector("time[datetime]");
  if (at) {
    try {
      at.textContent = new Date(at.getAttribute("datetime")).toLocaleString(lang, {
        day: "numeric",
        month: "long",
        hour: "2-digit",
        minute: "2-digit",
        timeZoneName: "short",
      });
    } catch {
      // an old browser keeps the server's UTC time
    }
  }
  function pad(v) {
    return v < 10 ? "0" + v : String(v);
  }
  function format(n) {
    var d = Math.floor(n / 86400), h = Math.floor((n % 86400) / 3600), m = Math.floor((n % 3600) / 60), x = n % 60;
    return (d ? d + "\u00a0" + day + " " : "") + [h, m, x].map(pad).join(":");
  }
  el.textContent = format(s);
  var timer = setInterval(() => {
    s--;
    if (s <= 0) {
      clearInterval(timer);
      location.reload();
      return;
    }
    el.textContent = format(s);
  }, 1000);
})();
