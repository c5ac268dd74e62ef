#!/usr/bin/env python3
"""test_html.py - camelog html and camelog archive report in a real browser.

Makes pages of the samples (in progress, finished, complete; as the
observer, as a seat, everything), opens each from file:// in headless
Chromium (Selenium with chromedriver) and checks:
  - what the page shows at chosen steps (the vote grid's cells, the quest
    track, the rejection counter, the Shadows over Camelot board) against
    the samples' exports (samples/*.jsonl, an independent source);
  - the keyboard moves (arrows, p/n, q/Q, Home/End) and the range input;
  - that nothing is fetched (CSP meta, no URL in the file, no resource
    entry, no network event but the page itself) and nothing is logged;
  - that a page for a seat or a game in progress holds no secret of the
    game anywhere in the file (roles of other seats, card values, hands,
    the dealer secret and the opened choices of the reveal).
Screenshots go to $ARTIFACTS.  Skips, saying so, when no browser is there.

Environment: CAMELOG (the binary), ARTIFACTS (a directory).
"""
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
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(ROOT, "build", "artifacts"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("browser: FAIL: " + what, file=sys.stderr)


def skip(why):
    # make check installs the browser first (make deps): there, a browser
    # that cannot be had or started is a failure, not a skip.
    if os.environ.get("BROWSER_REQUIRED"):
        print("browser: FAIL: " + why, file=sys.stderr)
        sys.exit(1)
    print("browser: SKIPPED: " + why + " (as root: make deps installs "
          "chromium chromium-driver python3-selenium)")
    sys.exit(0)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    skip("no python3 selenium module")

CHROMEDRIVER = shutil.which("chromedriver")
if not CHROMEDRIVER or not (shutil.which("chromium") or shutil.which("chromium-browser")):
    skip("no chromium or chromedriver")


def camelog(*args, check_rc=True):
    p = subprocess.run([CAMELOG] + list(args), capture_output=True, text=True)
    if check_rc and p.returncode != 0:
        raise SystemExit("browser: camelog %s: %s" % (" ".join(args), p.stderr))
    return p.stdout


def jsonl(name):
    with open(os.path.join(SAMPLES, name + ".jsonl")) as f:
        return [json.loads(line) for line in f]


def page_data(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="camelog-data">\n(.*?)\n</script>',
                  text, re.S)
    return text, json.loads(m.group(1))


TMP = tempfile.mkdtemp(prefix="camelog-browser.")
os.makedirs(ARTIFACTS, exist_ok=True)
sizes = []


def make(src, who, name):
    out = os.path.join(TMP, name + ".html")
    camelog("html", "--as", who, "-o", out, src)
    sizes.append((name, os.path.getsize(out)))
    return out


def sample(name):
    return os.path.join(SAMPLES, name + ".camelog")


# A finished game (sealed after `end`, not revealed): avalon-5 cut at the
# seal after `end`; its secrets are those of the complete avalon-5.
text5 = camelog("cat", sample("avalon-5")).splitlines()
cut = next(i for i, l in enumerate(text5) if l.startswith("end ")) + 2
with open(os.path.join(TMP, "fin.txt"), "w") as f:
    f.write("\n".join(text5[:cut]) + "\n")
FINISHED = os.path.join(TMP, "avalon-finished.camelog")
camelog("pack", "-o", FINISHED, os.path.join(TMP, "fin.txt"))

pages = {
    "avalon-7-observer": make(sample("avalon-7"), "observer", "avalon-7-observer"),
    "avalon-7-p2": make(sample("avalon-7"), "p2", "avalon-7-p2"),
    "avalon-7-all": make(sample("avalon-7"), "all", "avalon-7-all"),
    "avalon-10-observer": make(sample("avalon-10"), "observer", "avalon-10-observer"),
    "avalon-in-progress-observer": make(sample("avalon-in-progress"), "observer",
                                        "avalon-in-progress-observer"),
    "avalon-in-progress-p1": make(sample("avalon-in-progress"), "p1",
                                  "avalon-in-progress-p1"),
    "avalon-finished-observer": make(FINISHED, "observer", "avalon-finished-observer"),
    "avalon-finished-p3": make(FINISHED, "p3", "avalon-finished-p3"),
    "soc-flip-observer": make(sample("soc-flip"), "observer", "soc-flip-observer"),
    "soc-flip-p1": make(sample("soc-flip"), "p1", "soc-flip-p1"),
    "soc-accused-all": make(sample("soc-accused"), "all", "soc-accused-all"),
    "soc-5-observer": make(sample("soc-5"), "observer", "soc-5-observer"),
}

# ------------------------------------------------------------- secrets


def reveal(name):
    return json.loads(camelog("reveal", "--json", sample(name)))


def reveal_lines(path):
    """The dealer secret and the opened choices of a log's reveal."""
    out = []
    for line in camelog("cat", path).splitlines():
        if line.startswith("reveal "):
            out.append(line.split()[1])
        elif line.startswith("open "):
            out.append(line[len("open "):])
    return out


def no_secrets(page, game, viewer, truth, opened):
    """The file holds no secret viewer (0: the observer) may not know."""
    text, data = page_data(page)
    check("reveal" not in data, page + ": embeds the reveal")
    for s in opened:
        check(s not in text, page + ": holds the reveal's %r" % s[:40])
    for seat in truth["seats"]:
        k = seat["seat"]
        if k == viewer:
            continue
        if game == "avalon":
            pat = '"role":"%s","seat":%d' % (seat["role"], k)
            check(pat not in text, page + ": holds p%d's role" % k)
            check("p%d) is dealt a role: role=" % k not in text,
                  page + ": tells p%d's deal" % k)
        else:
            # what a seat knows of a knight: {"hand":[...],"loyalty":...}
            pat = '],"loyalty":"%s","seat":%d}' % (seat["loyalty"], k)
            check(pat not in text, page + ": holds p%d's loyalty" % k)
            pat = json.dumps({"hand": seat["hand"]}, separators=(",", ":"))[1:-1]
            check(pat + ',"loyalty"' not in text, page + ": holds p%d's hand" % k)
    for q in truth.get("quests", []):
        for c in q.get("cards", []):
            if c["seat"] == viewer:
                continue
            pat = '{"round":%d,"seat":%d,"value":"%s"}' % (q["round"], c["seat"], c["value"])
            check(pat not in text, page + ": holds a quest card of p%d" % c["seat"])
    if viewer == 0:
        check('"role":' not in text, page + ": holds a seat's role")
        check('"value":' not in text, page + ": holds a card's value")


def structurally_public(page):
    """For a game whose secrets this test cannot know (in progress)."""
    text, data = page_data(page)
    check("reveal" not in data, page + ": embeds a reveal")
    for key in ('"role":', '"value":', '"sees":', '"loyalty":"traitor"', "role="):
        check(key not in text, page + ": holds %s" % key)


r7, r5, rflip = reveal("avalon-7"), reveal("avalon-5"), reveal("soc-flip")
no_secrets(pages["avalon-7-p2"], "avalon", 2, r7, reveal_lines(sample("avalon-7")))
no_secrets(pages["avalon-finished-observer"], "avalon", 0, r5, reveal_lines(sample("avalon-5")))
no_secrets(pages["avalon-finished-p3"], "avalon", 3, r5, reveal_lines(sample("avalon-5")))
no_secrets(pages["soc-flip-p1"], "soc", 1, rflip, reveal_lines(sample("soc-flip")))
structurally_public(pages["avalon-in-progress-observer"])
# the seat's own role is not in the log before the reveal: only public
structurally_public(pages["avalon-in-progress-p1"])
# and what is public in a complete game is there: the observer's reveal
text, data = page_data(pages["avalon-7-observer"])
check(data.get("reveal", {}).get("seats") == r7["seats"] or "reveal" in data,
      "avalon-7 observer: no reveal at the end")

for name, path in pages.items():
    with open(path, encoding="utf-8") as f:
        text = f.read()
    check("default-src 'none'" in text, name + ": no CSP")
    check(not re.search(r"(?i)\b(?:https?|wss?|ftp):|//[a-z0-9.-]+\.[a-z]{2,}/|src=|href=",
                        text), name + ": names a URL")
    check(text.count("</script>") == 2, name + ": a </script> inside the data")

# ------------------------------------------------------------- browser

opts = Options()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--window-size=1100,1400", "--no-first-run", "--disable-extensions"):
    opts.add_argument(a)
opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
try:
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
except Exception as e:  # no display, no sandbox, ...
    skip("chromium does not start: %s" % str(e).splitlines()[0])
driver.set_page_load_timeout(30)


def load(path):
    driver.get("file://" + path)
    return driver.find_element(By.TAG_NAME, "body")


def network_ok(name, path):
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    check(all(u == "file://" + path for u in urls),
          name + ": network requests %r" % [u for u in urls if u != "file://" + path])
    n = driver.execute_script("return performance.getEntriesByType('resource').length")
    check(n == 0, name + ": %d resources loaded" % n)
    logs = [l for l in driver.get_log("browser") if l["level"] in ("SEVERE", "WARNING")]
    check(not logs, name + ": console: %r" % logs[:3])


def step():
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-step"))


def key(body, *keys):
    for k in keys:
        body.send_keys(k)


def shot(name):
    driver.save_screenshot(os.path.join(ARTIFACTS, name + ".png"))


def steps_of(path):
    return page_data(path)[1]["steps"]


def expected_grid(export, upto_line, players):
    """The grid's cells from the export: proposals as columns, by seat."""
    cols = []
    for d in export:
        if d["line"] > upto_line:
            break
        for e in d["events"]:
            if e["event"] == "propose":
                cols.append({"leader": e["leader"], "team": e["team"], "votes": {}})
            elif e["event"] == "vote":
                cols[-1]["votes"][e["seat"]] = e["vote"]
    rows = []
    for k in range(1, players + 1):
        row = []
        for c in cols:
            s = ("\u2605" if c["leader"] == k else "") + ("\u25CF" if k in c["team"] else "")
            v = c["votes"].get(k)
            s += {"yes": "\u2713", "no": "\u2717", None: ""}[v]
            row.append(s)
        rows.append(row)
    return rows


def grid_cells():
    out = []
    for tr in driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody tr"):
        out.append([td.text.strip() for td in tr.find_elements(By.CSS_SELECTOR, "td[data-seat]")])
    return out


start = time.time()
try:
    # ---- Avalon, everything: keyboard, grid, quest track, perspective
    name, path = "avalon-7-all", pages["avalon-7-all"]
    export = jsonl("avalon-7")
    steps = steps_of(path)
    body = load(path)
    network_ok(name, path)
    check(step() == 0, name + ": does not open at the first step")
    key(body, Keys.END)
    check(step() == len(steps) - 1, name + ": End")
    key(body, Keys.HOME)
    check(step() == 0, name + ": Home")
    key(body, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    check(step() == 2, name + ": \u2192")
    key(body, Keys.ARROW_LEFT)
    check(step() == 1, name + ": \u2190")
    proposals = [i for i, s in enumerate(steps) if any(e["event"] == "propose" for e in s["events"])]
    quests = [i for i, s in enumerate(steps) if any(e["event"] == "quest" for e in s["events"])]
    key(body, "n")
    check(step() == proposals[0], name + ": n")
    key(body, Keys.ARROW_DOWN)
    check(step() == proposals[1], name + ": \u2193")
    key(body, Keys.ARROW_UP)
    check(step() == proposals[0], name + ": \u2191")
    key(body, Keys.HOME, "q", "q")
    check(step() == quests[1], name + ": q q")
    line = steps[step()]["line"]
    pub = next(d for d in export if d["line"] == line)["public"]
    check(grid_cells() == expected_grid(export, line, 7), name + ": grid at the second quest")
    for q in pub["quests"]:
        el = driver.find_element(By.CSS_SELECTOR, '.quest[data-slot="%d"]' % q["slot"])
        check(el.get_attribute("data-result") == q["result"], name + ": quest %d" % q["slot"])
    check(("%d of 5" % pub["rejections"]) in driver.find_element(By.ID, "rejections").text,
          name + ": rejection counter")
    # roles are there in this view, each seat's from the reveal
    heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody th")]
    for s, h in zip(r7["seats"], heads):
        check(s["role"] in h, name + ": role of p%d" % s["seat"])
    shot("avalon-7-all-quest2")
    key(body, "Q")
    check(step() == quests[0], name + ": Q")
    # the switcher: the observer sees no role during play
    sel = driver.find_element(By.ID, "perspective")
    sel.find_element(By.CSS_SELECTOR, 'option[value="observer"]').click()
    heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody th")]
    check(not any(s["role"] in h for s, h in zip(r7["seats"], heads)),
          name + ": the observer sees roles during play")
    body.send_keys(Keys.END)
    cards = driver.find_elements(By.CSS_SELECTOR, "td[data-card]:not([data-card=''])")
    check(len(cards) == sum(len(q["cards"]) for q in r7["quests"]),
          name + ": quest cards after the reveal")
    shot("avalon-7-observer-end")
    # the range input with the mouse: a click in its middle
    rng = driver.find_element(By.ID, "scrub")
    ActionChains(driver).move_to_element(rng).click().perform()
    frac = step() / (len(steps) - 1)
    check(0.3 < frac < 0.7, name + ": a click in the middle of the range went to %.2f" % frac)

    # ---- Avalon as a seat: its role, the seats it sees, nobody else's
    name, path = "avalon-7-p2", pages["avalon-7-p2"]
    body = load(path)
    network_ok(name, path)
    key(body, Keys.END)
    heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody th")]
    me = r7["seats"][1]
    check(me["role"] in heads[1] and "(you)" in heads[1], name + ": its own role")
    for s in me["sees"]:
        check("seen" in heads[s - 1], name + ": does not mark p%d as seen" % s)
    shot("avalon-7-p2-end")

    # ---- in progress, on a phone's width
    name, path = "avalon-in-progress-observer", pages["avalon-in-progress-observer"]
    driver.set_window_size(390, 900)
    body = load(path)
    network_ok(name, path)
    key(body, Keys.END)
    export = jsonl("avalon-in-progress")
    steps = steps_of(path)
    line = steps[step()]["line"]
    check(grid_cells() == expected_grid(export, line, 7), name + ": grid at the end")
    w = driver.execute_script("return document.documentElement.scrollWidth")
    check(w <= 400, name + ": wider than a phone (%d px)" % w)
    shot("avalon-in-progress-phone")
    driver.set_window_size(1100, 1400)

    # ---- Shadows over Camelot: the board at chosen steps
    name, path = "soc-flip-observer", pages["soc-flip-observer"]
    export = jsonl("soc-flip")
    steps = steps_of(path)
    body = load(path)
    network_ok(name, path)
    key(body, "q", "q", "q")
    line = steps[step()]["line"]
    pub = next(d for d in export if d["line"] == line)["public"]
    sw = driver.find_element(By.ID, "swords").text
    check(("%d white" % pub["swords"]["white"]) in sw and
          ("%d black" % pub["swords"]["black"]) in sw, name + ": swords " + sw)
    check(("%d of 12" % pub["siege"]) in driver.find_element(By.ID, "siege").text,
          name + ": siege engines")
    for kn in pub["knights"]:
        tr = driver.find_element(By.CSS_SELECTOR, '#knights tr[data-seat="%d"]' % kn["seat"])
        tds = [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        check(tds[1].startswith(str(kn["lp"])), name + ": p%d life" % kn["seat"])
        check(tds[3].startswith(str(kn["hand"])), name + ": p%d hand" % kn["seat"])
        check(tds[2] == kn["location"].replace("_", " "), name + ": p%d where" % kn["seat"])
    for qn, q in pub["quests"].items():
        panel = driver.find_element(By.CSS_SELECTOR, '[data-quest="%s"]' % qn)
        if q and "evil" in q:
            chips = panel.find_elements(By.CSS_SELECTOR, ".chip.black")
            check(len(chips) == len(q["evil"]), name + ": black cards on " + qn)
    shot("soc-flip-quest3")
    key(body, Keys.END)
    tr = driver.find_element(By.ID, "traitor").text
    check(("p%d" % rflip["traitor"]) in tr, name + ": the traitor at the end")
    check("turns over" in driver.find_element(By.ID, "accusations").text,
          name + ": the end-of-game flip")
    shot("soc-flip-end")

    name, path = "soc-accused-all", pages["soc-accused-all"]
    body = load(path)
    network_ok(name, path)
    key(body, Keys.END)
    check("accuses" in driver.find_element(By.ID, "accusations").text, name + ": accusation")
    shot("soc-accused-all-end")

    # ---- the archive's report: one section a game, SVG charts
    db = os.path.join(TMP, "games.db")
    camelog("archive", "add", "-q", db, *[sample(n) for n in
            ("avalon-5", "avalon-7", "avalon-10", "soc-flip", "soc-5")])
    rep = os.path.join(TMP, "report.html")
    camelog("archive", "report", db, "-o", rep)
    sizes.append(("archive-report", os.path.getsize(rep)))
    load(rep)
    network_ok("report", rep)
    secs = [s.get_attribute("data-game") for s in driver.find_elements(By.CSS_SELECTOR, "section[data-game]")]
    check(secs == ["avalon", "soc"], "report: sections %r" % secs)
    check(len(driver.find_elements(By.CSS_SELECTOR, "#game-avalon svg rect")) > 0, "report: no chart")
    shot("archive-report")

    for name in ("avalon-finished-p3", "soc-flip-p1", "avalon-10-observer", "soc-5-observer"):
        body = load(pages[name])
        network_ok(name, pages[name])
        key(body, Keys.END)
        check(step() == len(steps_of(pages[name])) - 1, name + ": End")
finally:
    driver.quit()

for name, size in sizes:
    print("browser: %-28s %7d bytes" % (name, size))
elapsed = time.time() - start
shutil.rmtree(TMP, ignore_errors=True)
if failures:
    print("browser: FAILED: %d checks" % len(failures), file=sys.stderr)
    sys.exit(1)
print("browser: %d pages, every check passed in %.1f s; screenshots in %s"
      % (len(pages), elapsed, ARTIFACTS))
