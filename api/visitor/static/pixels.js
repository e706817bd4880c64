// The pixel page: fires each network's standard snippet for the ids in the page's JSON data block
// (#pixel-config: {target, pixels: [{type, pixelId}]}), then sends the visitor to the target after a
// short pause. Served as a file: the page's Content-Security-Policy runs no inline script and allows
// only the hosts of the networks on the page.
(function (w, d) {
  var config = JSON.parse(d.getElementById("pixel-config").textContent);
  function load(src, onload) {
    var s = d.createElement("script");
    s.async = true;
    s.src = src;
    if (onload) s.onload = onload;
    d.head.appendChild(s);
  }
  var fire = {
    facebook: function (id) {
      if (!w.fbq) {
        var n = (w.fbq = function () {
          n.callMethod ? n.callMethod.apply(n, arguments) : n.queue.push(arguments);
        });
        if (!w._fbq) w._fbq = n;
        n.push = n;
        n.loaded = true;
        n.version = "2.0";
        n.queue = [];
        load("https://connect.facebook.net/en_US/fbevents.js");
      }
      w.fbq("init", id);
      w.fbq("track", "PageView");
    },
    google: function (id) {
      w.dataLayer = w.dataLayer || [];
      w.gtag = function () {
        w.dataLayer.push(arguments);
      };
      w.gtag("js", new Date());
      w.gtag("config", id);
      load("https://www.googletagmanager.com/gtag/js?id=" + encodeURIComponent(id));
    },
    tiktok: function (id) {
      w.TiktokAnalyticsObject = "ttq";
      var ttq = (w.ttq = w.ttq || []);
      ttq.methods = ["page", "track"];
      ttq.setAndDefer = function (t, e) {
        t[e] = function () {
          t.push([e].concat(Array.prototype.slice.call(arguments, 0)));
        };
      };
      for (var i = 0; i < ttq.methods.length; i++) ttq.setAndDefer(ttq, ttq.methods[i]);
      load("https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=" + encodeURIComponent(id) + "&lib=ttq");
      ttq.page();
    },
    yandex: function (id) {
      w.ym = w.ym || function () {
        (w.ym.a = w.ym.a || []).push(arguments);
      };
      w.ym.l = Date.now();
      load("https://mc.yandex.ru/metrika/tag.js");
      w.ym(Number(id), "init", {});
    },
    vk: function (id) {
      load("https://vk.com/js/api/openapi.js?169", function () {
        w.VK.Retargeting.Init(id);
        w.VK.Retargeting.Hit();
      });
    },
  };
  config.pixels.forEach(function (p) {
    try {
      if (fire[p.type]) fire[p.type](p.pixelId);
    } catch (e) {
      // one network's failure must not keep the visitor here
    }
  });
  setTimeout(function () {
    location.replace(config.target);
  }, 600);
})(window, document);
