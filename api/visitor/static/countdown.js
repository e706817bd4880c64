// The countdown page of a link that opens later: counts the seconds in #left's data-seconds down,
// then reloads. Served as a file: the pages' Content-Security-Policy runs no inline script.
(() => {
  var el = document.getElementById("left");
  if (!el) return;
  var s = Math.max(0, Math.floor(Number(el.getAttribute("data-seconds")) || 0));
  function pad(v) {
    return v < 10 ? "0" + v : String(v);
  }
  function format(n) {
    var d = Math.floor(n / 86400), h = Math.floor((n % 86400) / 3600), m = Math.floor((n % 3600) / 60), x = n % 60;
    return (d ? d + "d " : "") + [h, m, x].map(pad).join(":");
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
