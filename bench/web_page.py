#!/usr/bin/env python3
"""bench/web_page.py - make bench's figures of the browser itself:
  - the bytes the example table's seat page loads (examples/web:
    seat.html, seat.js, seat.css, camelog.js, camelog.wasm), each
    gzipped (-9) as a server would send them;
  - verify in headless Chromium against camelog verify on the same
    files: the module's verify() over every file of a directory, the
    bytes already in the page, one call each, against camelog verify -q
    -j 1 over the same files (one process); three rounds of each, the
    median printed.

    CAMELOG=... WASM_DIR=... python3 bench/web_page.py DIR...

Without a browser (no selenium, no chromium) it prints the bytes and
says why the rest is skipped.
"""
import gzip
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMELOG = os.environ["CAMELOG"]
WASM_DIR = os.environ["WASM_DIR"]
PAGE = [os.path.join(ROOT, "examples", "web", f)
        for f in ("seat.html", "seat.js", "seat.css")] + \
       [os.path.join(WASM_DIR, f) for f in ("camelog.js", "camelog.wasm")]


def gz(path):
    with open(path, "rb") as f:
        return len(gzip.compress(f.read(), 9))


total = 0
parts = []
for p in PAGE:
    n = gz(p)
    total += n
    parts.append("%s %d" % (os.path.basename(p), n))
print("web: the seat page of examples/web loads %d bytes gzipped (%s) "
      "[target < 409600, %s]" % (total, ", ".join(parts),
                                  "met" if total < 409600 else "NOT met"))

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("web: verify in Chromium: skipped (no python3 selenium module)")
    sys.exit(0)
if not shutil.which("chromedriver"):
    print("web: verify in Chromium: skipped (no chromedriver)")
    sys.exit(0)

BENCH_HTML = b"""<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="module">
import { load } from "./camelog.js";
window.bench = async (names, rounds) => {
  const lib = await load();
  const files = [];
  for (const n of names) {
    files.push(new Uint8Array(await (await fetch("/log/" + n)).arrayBuffer()));
  }
  const run = () => {
    const t = performance.now();
    for (const b of files) {
      if (!lib.verify(b).valid) throw new Error("a log did not verify");
    }
    return performance.now() - t;
  };
  run();
  const ms = [];
  for (let i = 0; i < rounds; i++) ms.push(run());
  return ms;
};
window.ready = true;
</script>"""


class Handler(http.server.BaseHTTPRequestHandler):
    logdir = None

    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path == "/":
            body, ctype = BENCH_HTML, "text/html"
        elif self.path in ("/camelog.js", "/camelog.wasm"):
            with open(os.path.join(WASM_DIR, self.path[1:]), "rb") as f:
                body = f.read()
            ctype = "text/javascript" if self.path.endswith(".js") \
                else "application/wasm"
        elif self.path.startswith("/log/"):
            name = os.path.basename(self.path)
            with open(os.path.join(Handler.logdir, name), "rb") as f:
                body = f.read()
            ctype = "application/octet-stream"
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


opts = Options()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
          "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"):
    opts.add_argument(a)
try:
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")),
                              options=opts)
except Exception as e:
    print("web: verify in Chromium: skipped (%s)" % str(e).splitlines()[0])
    sys.exit(0)
httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=httpd.serve_forever, daemon=True).start()
version = driver.capabilities.get("browserVersion", "?")
try:
    for d in sys.argv[1:]:
        Handler.logdir = d
        names = sorted(f for f in os.listdir(d) if f.endswith(".camelog"))
        driver.get("http://127.0.0.1:%d/" % httpd.server_address[1])
        for _ in range(100):
            if driver.execute_script("return window.ready === true"):
                break
            time.sleep(0.05)
        driver.set_script_timeout(300)
        ms = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.bench(arguments[0], 3).then(done, (e) => done(String(e)));",
            names)
        if not isinstance(ms, list):
            print("web: verify in Chromium, %s: %s" % (os.path.basename(d), ms))
            sys.exit(1)
        native = []
        for _ in range(3):
            t = time.monotonic()
            subprocess.run([CAMELOG, "verify", "-q", "-j", "1",
                            *[os.path.join(d, n) for n in names]],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            native.append((time.monotonic() - t) * 1000)
        w, n = statistics.median(ms), statistics.median(native)
        print("web: verify in Chromium %s, %s: %d logs: page %.0f games/s, "
              "camelog verify -j 1 %.0f games/s; page / native time %.2fx"
              % (version, os.path.basename(d), len(names),
                 len(names) / (w / 1000), len(names) / (n / 1000), w / n))
finally:
    driver.quit()
    httpd.shutdown()
