#!/usr/bin/env python3
"""test_selfcheck.py - pages of camelog html --wasm verify themselves in
headless Chromium (Selenium with chromedriver), from file://, offline.

Makes pages of samples (complete, in progress; unpinned and with the
dealer key pinned) and of tampered copies of a sample's page (a line of
the log the page carries changed and recompressed; the log replaced by
another game's), opens each and checks:
  - the verdict the page shows (#camelog-selfcheck) is the one camelog
    verify gives for the log the page carries: "ok (...)" with the same
    text, or FAILED with the same line and message;
  - a tampered page still holds the verdict written when it was made
    (valid): the page shows what the browser computed, not that;
  - nothing is fetched and nothing is logged as an error.
Prints the time verify took in the page beside camelog verify's.

Environment: CAMELOG (the binary), WASM_DIR (make wasm's directory).
Without BROWSER_REQUIRED a missing browser skips the test.
"""
import base64
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "samples")
CAMELOG = os.environ.get("CAMELOG", os.path.join(ROOT, "build", "camelog"))
WASM_DIR = os.environ.get("WASM_DIR", os.path.join(ROOT, "build", "wasm"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("selfcheck: FAIL: " + what, file=sys.stderr)


def skip(why):
    if os.environ.get("BROWSER_REQUIRED"):
        print("selfcheck: FAIL: " + why, file=sys.stderr)
        sys.exit(1)
    print("selfcheck: SKIPPED: " + why)
    sys.exit(0)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    skip("no python3 selenium module")

CHROMEDRIVER = shutil.which("chromedriver")
if not CHROMEDRIVER or not (shutil.which("chromium") or shutil.which("chromium-browser")):
    skip("no chromium or chromedriver")


def camelog(*args):
    return subprocess.run([CAMELOG, *args], capture_output=True, text=True)


def native(path, pin=None):
    """camelog verify's JSON object and text for path, and its time."""
    pinargs = ["--pubkey", pin] if pin else []
    t0 = time.monotonic()
    j = camelog("verify", "--json", "-q", *pinargs, path)
    ms = (time.monotonic() - t0) * 1000
    t = camelog("verify", "-q", *pinargs, path)
    # The verdict line; a second line, the seed's provenance seat by
    # seat, is not part of the page's one-line verdict.
    first = t.stdout.strip().split("\n")[0]
    return json.loads(j.stdout), first[len(path) + 2:], ms


def embedded(page, ident):
    m = re.search(r'<script type="[^"]*" id="%s">([^<]*)</script>' % ident, page)
    return m.group(1) if m else None


tmp = tempfile.mkdtemp(prefix="camelog-selfcheck.")
pages = []  # (name, page path, log path, pinned key file or None)


def make(name, log, *args, pin=None):
    out = os.path.join(tmp, name + ".html")
    pinargs = ["--pubkey", pin] if pin else []
    r = camelog("html", "--wasm", WASM_DIR, *pinargs, *args, "-o", out, log)
    check(r.returncode == 0, "%s: camelog html --wasm: %s" % (name, r.stderr))
    pages.append((name, out, log, pin))
    return out


pub = os.path.join(SAMPLES, "dealer.pub")
make("signed", os.path.join(SAMPLES, "avalon-signed.camelog"))
make("signed-pinned", os.path.join(SAMPLES, "avalon-signed.camelog"), pin=pub)
make("soc-all", os.path.join(SAMPLES, "soc-7.camelog"), "--as", "all")
make("in-progress", os.path.join(SAMPLES, "avalon-in-progress.camelog"))

# Tampered: one vote of the log the page carries turned, recompressed.
good = pages[0][1]
with open(good) as f:
    text = f.read()
log_b64 = embedded(text, "camelog-log")
check(log_b64 is not None, "signed: no #camelog-log in the page")
lines = gzip.decompress(base64.b64decode(log_b64)).decode().split("\n")
at = next(i for i, l in enumerate(lines) if re.match(r"vote p\d+ (yes|no)$", l))
lines[at] = lines[at][:-3] + " no" if lines[at].endswith("yes") else lines[at][:-2] + "yes"
bad_log = os.path.join(tmp, "tampered.camelog")
with open(bad_log, "wb") as f:
    f.write(gzip.compress("\n".join(lines).encode()))
with open(bad_log, "rb") as f:
    bad_b64 = base64.b64encode(f.read()).decode()
bad = os.path.join(tmp, "tampered.html")
with open(bad, "w") as f:
    f.write(text.replace(log_b64, bad_b64))
pages.append(("tampered", bad, bad_log, None))
# The pinned page with another dealer's game in it: the key check fails.
with open(pages[1][1]) as f:
    ptext = f.read()
other = os.path.join(tmp, "other.camelog")
camelog("keygen", "-o", os.path.join(tmp, "other"))
r = camelog("simulate", "--game", "avalon", "--players", "5", "--seed", "0b",
            "--key", os.path.join(tmp, "other.key"), "-o", other)
check(r.returncode == 0, "simulate: " + r.stderr)
with open(other, "rb") as f:
    other_b64 = base64.b64encode(f.read()).decode()
swapped = os.path.join(tmp, "swapped.html")
with open(swapped, "w") as f:
    f.write(ptext.replace(embedded(ptext, "camelog-log"), other_b64))
pages.append(("swapped", swapped, other, pub))

opts = Options()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--window-size=1366,900", "--no-first-run", "--disable-extensions"):
    opts.add_argument(a)
opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
try:
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
except Exception as e:
    skip("chromium does not start: %s" % str(e).splitlines()[0])
driver.set_page_load_timeout(60)

try:
    for name, path, log, pin in pages:
        driver.get("file://" + path)
        box = None
        for _ in range(300):
            els = driver.find_elements(By.ID, "camelog-selfcheck")
            if els and els[0].get_attribute("data-valid"):
                box = els[0]
                break
            time.sleep(0.1)
        check(box is not None, name + ": no verdict from the page's own check")
        if box is None:
            continue
        cj, ctext, cms = native(log, pin)
        valid = box.get_attribute("data-valid") == "true"
        shown = box.text
        check(valid == cj["valid"], "%s: page says valid=%s, camelog verify %s"
              % (name, valid, cj["valid"]))
        if cj["valid"]:
            check(box.get_attribute("data-summary") == ctext,
                  "%s: page %r, camelog verify %r"
                  % (name, box.get_attribute("data-summary"), ctext))
            check(ctext in shown and "Verified in this browser" in shown,
                  "%s: shown %r" % (name, shown))
        else:
            check(box.get_attribute("data-line") == str(cj["line"]) and
                  box.get_attribute("data-error") == cj["error"],
                  "%s: page line %s %r, camelog verify line %s %r"
                  % (name, box.get_attribute("data-line"),
                     box.get_attribute("data-error"), cj["line"], cj["error"]))
            check("FAILED" in shown and cj["error"] in shown,
                  "%s: shown %r" % (name, shown))
            data = json.loads(driver.execute_script(
                "return document.getElementById('camelog-data').textContent"))
            check(data["verdict"]["valid"] is True,
                  name + ": the verdict written in the page is not the made one")
        urls = []
        for entry in driver.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg["method"] == "Network.requestWillBeSent":
                urls.append(msg["params"]["request"]["url"])
        check(all(u == "file://" + path for u in urls),
              "%s: requests %r" % (name, [u for u in urls if u != "file://" + path]))
        logs = [l for l in driver.get_log("browser") if l["level"] == "SEVERE"]
        check(not logs, "%s: console: %r" % (name, logs[:3]))
        print("selfcheck: %s: %s; verify in Chromium %.1f ms, camelog verify "
              "%.1f ms (the process)" % (name, "ok" if valid else "FAILED",
                                         float(box.get_attribute("data-ms") or 0), cms))
finally:
    driver.quit()
    shutil.rmtree(tmp, ignore_errors=True)

if failures:
    print("selfcheck: %d failures" % len(failures), file=sys.stderr)
    sys.exit(1)
print("selfcheck: %d pages checked themselves as camelog verify does" % len(pages))
