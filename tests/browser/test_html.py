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
Screenshots, at 1366x900 and 390x844, go to $ARTIFACTS (build/artifacts:
the CI keeps them; they are never committed).  Skips, saying so, when no browser is there.

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

# Hostile names: right-to-left letters with markup (camelog(5) refuses
# the direction controls themselves), the longest name it allows, and a
# name that would end the data's script.
LONG_NAME = "Bartholomew-" * 5 + "Loud"
assert len(LONG_NAME.encode()) == 64
RTL = "\u05e9\u05dc\u05d5\u05dd"
HOSTILE = [RTL + "<img src=x onerror=window.pwned=1>", LONG_NAME,
           "</script><script>window.pwned=1</script>"]
shutil.copy(os.path.join(SAMPLES, "dealer.key"), os.path.join(TMP, "dealer.key"))
os.chmod(os.path.join(TMP, "dealer.key"), 0o600)
hostile_text = camelog("cat", sample("avalon-7"))
for k, (old, new) in enumerate(zip(["Alice", "Bob", "Carol"], HOSTILE)):
    hostile_text = hostile_text.replace('seat p%d "%s"' % (k + 1, old),
                                        'seat p%d %s' % (k + 1, json.dumps(new, ensure_ascii=False)), 1)
with open(os.path.join(TMP, "hostile.txt"), "w", encoding="utf-8") as f:
    f.write(hostile_text)
HOSTILE_LOG = os.path.join(TMP, "avalon-hostile.camelog")
camelog("pack", "--key", os.path.join(TMP, "dealer.key"), "-o", HOSTILE_LOG,
        os.path.join(TMP, "hostile.txt"))
pages["hostile-all"] = make(HOSTILE_LOG, "all", "hostile-all")
pages["avalon-10-all"] = make(sample("avalon-10"), "all", "avalon-10-all")

# The names the page gives to what the data names.
ROLES = {"merlin": "Merlin", "percival": "Percival", "servant": "Loyal Servant",
         "assassin": "Assassin", "morgana": "Morgana", "mordred": "Mordred",
         "oberon": "Oberon", "minion": "Minion of Mordred"}
SOC_KNIGHTS = {"arthur": "King Arthur", "gawain": "Sir Gawain", "galahad": "Sir Galahad",
               "kay": "Sir Kay", "percival": "Sir Percival", "tristan": "Sir Tristan",
               "palamedes": "Sir Palamedes"}
SOC_QUESTS = {"black_knight": "The Black Knight", "lancelot": "Lancelot\u2019s Armor",
              "dragon": "The Dragon", "excalibur": "Excalibur", "grail": "The Holy Grail",
              "picts": "The Picts", "saxons": "The Saxons"}


def fight_total(cards, quest):
    """The fight value of cards on a quest, from the rules' card list."""
    t = 0
    for c in cards:
        m = re.match(r"(?:fight|black_knight)_(\d+)$", c)
        l = re.match(r"lancelot_dragon_(\d+)_(\d+)$", c)
        if m:
            t += int(m.group(1))
        elif l:
            t += int(l.group(2) if quest == "dragon" else l.group(1))
    return t


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
            check("(p%d) is dealt a role: " % k not in text,
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
    for key in ('"role":', '"value":', '"sees":', '"loyalty":"traitor"', "role=",
                "is dealt a role: "):
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
    if name.startswith("hostile"):
        check("<img" not in text and "<script><script>" not in text.replace("\n", ""),
              name + ": a name's markup is in the file as markup")
        continue
    check(not re.search(r"(?i)\b(?:https?|wss?|ftp):|//[a-z0-9.-]+\.[a-z]{2,}/|src=|href=",
                        text), name + ": names a URL")
    check(text.count("</script>") == 2, name + ": a </script> inside the data")

# ------------------------------------------------------------- browser

opts = Options()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--window-size=1366,900", "--no-first-run", "--disable-extensions"):
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
    # ---- Avalon, everything: opens on the finished game, keyboard, grid
    name, path = "avalon-7-all", pages["avalon-7-all"]
    export = jsonl("avalon-7")
    text7, data7 = page_data(path)
    steps = steps_of(path)
    driver.set_window_size(1366, 900)
    body = load(path)
    network_ok(name, path)
    # 1: the page opens on the end of play, with the summary and the
    # verification folded to one line
    check(step() == data7["play_steps"] - 1, name + ": does not open on the end of play")
    roles = driver.find_element(By.ID, "roles").text
    for s in r7["seats"]:
        check(ROLES[s["role"]] in roles, name + ": summary lacks p%d's role" % s["seat"])
    failed = driver.find_element(By.ID, "failed").text
    for q in r7["quests"]:
        for c in q["cards"]:
            if c["value"] == "fail":
                check(r7["seats"][c["seat"] - 1]["name"] in failed,
                      name + ": summary does not say p%d failed" % c["seat"])
    ver = driver.find_element(By.ID, "verdict")
    check(ver.tag_name == "details" and ver.get_attribute("open") is None,
          name + ": the verification is not a closed badge")
    check(ver.size["height"] < 40, name + ": the verification badge is %d px high" % ver.size["height"])
    shot("avalon-7-all-1366")
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
    check("proposal" in driver.find_element(By.CSS_SELECTOR, "#timeline .keys").text,
          name + ": the keys do not say \u2191 \u2193 mean proposal")
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
        check(ROLES[s["role"]] in h, name + ": role of p%d" % s["seat"])
    key(body, "Q")
    check(step() == quests[0], name + ": Q")

    # 2: the content is the navigation; the fragment holds the step
    key(body, Keys.END)
    cols = driver.find_elements(By.CSS_SELECTOR, "#vote-grid button.col")
    tally = [i for i, s in enumerate(steps) if any(e["event"] == "team" for e in s["events"])]
    check(len(cols) == len(proposals), name + ": %d grid columns for %d proposals"
          % (len(cols), len(proposals)))
    cols[2].click()
    check(step() == tally[2], name + ": a click on the third column went to %d, not %d"
          % (step(), tally[2]))
    col = driver.find_elements(By.CSS_SELECTOR, "#vote-grid button.col")[2]
    check("cur" in (col.find_element(By.XPATH, "..").get_attribute("class") or ""),
          name + ": the clicked column is not marked")
    driver.find_element(By.CSS_SELECTOR, '.quest[data-slot="2"]').click()
    check(step() == quests[1], name + ": a click on quest 2 went to %d" % step())
    logs = driver.find_elements(By.CSS_SELECTOR, "#log li")
    check(len(logs) == len(steps), name + ": the log lists %d of %d steps" % (len(logs), len(steps)))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", logs[5])
    logs[5].click()
    check(step() == 5, name + ": a click on the sixth log line went to %d" % step())
    check("cur" in logs[5].get_attribute("class"), name + ": the log line is not marked")
    key(body, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    url = driver.current_url
    check(url.endswith("#as=all&step=8"), name + ": the URL is " + url)
    driver.refresh()
    network_ok(name, path)
    check(step() == 7 and driver.find_element(By.TAG_NAME, "body").get_attribute("data-view") == "all",
          name + ": the reload went to %d" % step())
    driver.get("file://" + path + "#as=p3&step=30")
    driver.refresh()
    network_ok(name, path)
    check(step() == 29 and driver.find_element(By.TAG_NAME, "body").get_attribute("data-view") == "p3",
          name + ": a link to p3's step 30 opened %s at %d"
          % (driver.find_element(By.TAG_NAME, "body").get_attribute("data-view"), step()))
    body = driver.find_element(By.TAG_NAME, "body")

    # 3: the perspective changes with the mouse and the keys still step
    driver.find_element(By.CSS_SELECTOR, '#perspective button[data-as="observer"]').click()
    heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody th")]
    check(not any(ROLES[s["role"]] in h for s, h in zip(r7["seats"], heads)),
          name + ": the observer sees roles during play")
    here = step()
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    check(step() == here + 1, name + ": \u2192 after a perspective change")
    ActionChains(driver).send_keys("n").perform()
    check(step() == next(i for i in proposals if i > here + 1), name + ": n after a perspective change")
    ActionChains(driver).send_keys(Keys.END).perform()
    check(step() == len(steps) - 1, name + ": End after a perspective change")
    check(driver.find_element(By.TAG_NAME, "body").get_attribute("data-view") == "observer",
          name + ": End switched the perspective")
    cards = driver.find_elements(By.CSS_SELECTOR, "td[data-card]:not([data-card=''])")
    check(len(cards) == sum(len(q["cards"]) for q in r7["quests"]),
          name + ": quest cards after the reveal")
    # a seat's name in the grid switches to its view
    driver.find_element(By.CSS_SELECTOR, '#vote-grid button.pick[data-as="p2"]').click()
    check(driver.find_element(By.TAG_NAME, "body").get_attribute("data-view") == "p2",
          name + ": a click on p2's name did not switch to p2")
    ActionChains(driver).send_keys(Keys.HOME).perform()
    check(step() == 0, name + ": Home after a click on a name")
    # the range input with the mouse: a click in its middle
    rng = driver.find_element(By.ID, "scrub")
    ActionChains(driver).move_to_element(rng).click().perform()
    frac = step() / (len(steps) - 1)
    check(0.3 < frac < 0.7, name + ": a click in the middle of the range went to %.2f" % frac)

    # 5: the observer sees the Lady's results once revealed, not before
    name, path = "avalon-7-observer", pages["avalon-7-observer"]
    body = load(path)
    network_ok(name, path)
    lady = driver.find_elements(By.CSS_SELECTOR, "#lady [data-lady]")
    check([l.text.strip() for l in lady] == [l["side"] for l in r7["lady"]],
          name + ": the Lady's results after the reveal: %r" % [l.text for l in lady])
    check(driver.find_elements(By.ID, "lady-results"), name + ": no Lady results in the summary")
    key(body, Keys.ARROW_LEFT)
    check(not driver.find_elements(By.CSS_SELECTOR, "#lady [data-lady]") and
          not driver.find_elements(By.ID, "summary"),
          name + ": the Lady's results or the summary before the end of play")
    shot("avalon-7-observer-1366")

    # 4: Percival's marks: Merlin and Morgana as "Merlin or Morgana"
    name, path = "avalon-10-all", pages["avalon-10-all"]
    r10 = reveal("avalon-10")
    perc = next(s for s in r10["seats"] if s["role"] == "percival")
    driver.get("file://%s#as=p%d&step=20" % (path, perc["seat"]))
    network_ok(name, path)
    heads = driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody th")
    for k in perc["sees"]:
        h = heads[k - 1]
        check("Merlin or Morgana" in h.text, name + ": Percival's mark on p%d: %r" % (k, h.text))
    check(not driver.find_elements(By.CSS_SELECTOR, "#vote-grid .mark-evil"),
          name + ": Percival sees a seat marked evil")
    driver.execute_script("document.getElementById('votes').scrollIntoView()")
    shot("avalon-10-percival-grid-1366")
    merl = next(s for s in r10["seats"] if s["role"] == "merlin")
    driver.find_element(By.CSS_SELECTOR, '#perspective button[data-as="p%d"]' % merl["seat"]).click()
    marked = sorted(int(e.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, "button.pick")
                        .get_attribute("data-as")[1:])
                    for e in driver.find_elements(By.CSS_SELECTOR, "#vote-grid .mark-evil"))
    check(marked == sorted(merl["sees"]), name + ": Merlin's evil marks %r" % marked)
    driver.execute_script("document.getElementById('votes').scrollIntoView()")
    shot("avalon-10-merlin-grid-1366")

    # ---- Avalon as a seat: its role, the seats it sees, nobody else's
    name, path = "avalon-7-p2", pages["avalon-7-p2"]
    body = load(path)
    network_ok(name, path)
    check(step() == len(steps_of(path)) - 1, name + ": does not open on the end of play")
    check(not driver.find_elements(By.ID, "summary"), name + ": a seat's page shows the reveal")
    heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#vote-grid tbody th")]
    me = r7["seats"][1]
    check(ROLES[me["role"]] in heads[1] and "(you)" in heads[1], name + ": its own role")
    for s in me["sees"]:
        check("seen evil" in heads[s - 1], name + ": does not mark p%d as seen" % s)
    for s in r7["seats"]:
        if s["seat"] != 2:
            check(ROLES[s["role"]] not in heads[s["seat"] - 1].replace("Merlin or Morgana", ""),
                  name + ": shows p%d's role" % s["seat"])
    check(len(driver.find_elements(By.CSS_SELECTOR, "#log li")) == len(steps_of(path)),
          name + ": the log is not the seat's steps")

    # 8: names can not spoof the page or run a script
    name, path = "hostile-all", pages["hostile-all"]
    driver.set_window_size(1366, 900)
    body = load(path)
    network_ok(name, path)
    check(driver.execute_script("return window.pwned === undefined"), name + ": a name ran a script")
    check(not driver.find_elements(By.CSS_SELECTOR, "#app img, #app script"),
          name + ": a name became an element")
    # every name is isolated: the text after a right-to-left override
    # name reads left to right, its seat number to the right of it
    order = driver.execute_script(r"""
      var out = [];
      document.querySelectorAll('#app bdi').forEach(function (b) {
        if (b.textContent.indexOf('\u05e9') < 0) { return; }
        var t = b.nextSibling;
        if (!t || t.nodeType !== 3 || t.data.indexOf('(p1)') < 0) { out.push(-1); return; }
        var at = t.data.indexOf('(p1)');
        function x(i) { var r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
          return r.getBoundingClientRect(); }
        var rs = b.getClientRects(), br = rs[rs.length - 1];  /* its last line */
        var a = x(at), c = x(at + 1), d = x(at + 2);
        out.push(a.left >= br.right - 1 && a.left < c.left && c.left < d.left ? 1 : 0);
      });
      return out;
    """)
    check(order and all(o == 1 for o in order), name + ": text after the bidi name is out of order: %r" % order)
    li = driver.execute_script(r"""
      var li = Array.prototype.filter.call(document.querySelectorAll('#log li'), function (l) {
        return /proposes/.test(l.textContent) && l.textContent.indexOf('\u05e9') >= 0; })[0];
      if (!li) { return null; }
      var w = document.createTreeWalker(li, NodeFilter.SHOW_TEXT), n, m = null;
      while ((n = w.nextNode())) { if (n.data.indexOf('proposes') >= 0) { m = n; break; } }
      if (!m) { return null; }
      var i = m.data.indexOf('proposes'), xs = [];
      for (var j = 0; j < 8; j++) { var r = document.createRange(); r.setStart(m, i + j);
        r.setEnd(m, i + j + 1); xs.push(r.getBoundingClientRect().left); }
      return xs;
    """)
    check(li and all(a < b for a, b in zip(li, li[1:])),
          name + ": 'proposes' after a bidi name is not left to right: %r" % li)
    # and no right-to-left name anywhere outside its <bdi>
    loose = driver.execute_script(r"""
      var w = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT), n, out = 0;
      while ((n = w.nextNode())) {
        if (n.data.indexOf('\u05e9') >= 0 && !n.parentNode.closest('bdi')) { out++; }
      }
      return out;
    """)
    check(loose == 0, name + ": %d right-to-left names outside a <bdi>" % loose)
    shot("hostile-all-1366")

    # 7: phones: nothing wider than the viewport, names cut with the whole
    # name in the title, the quests on one row
    driver.set_window_size(390, 844)
    for name in ("hostile-all", "avalon-10-all", "soc-accused-all", "avalon-in-progress-observer"):
        path = pages[name]
        body = load(path)
        network_ok(name, path)
        vw = driver.execute_script("return document.documentElement.clientWidth")
        wide = driver.execute_script(r"""
          var vw = document.documentElement.clientWidth, out = [];
          document.querySelectorAll('#app *').forEach(function (e) {
            if (e.closest('.scroll') && !e.classList.contains('scroll')) { return; }
            var r = e.getBoundingClientRect();
            if (r.width > 0 && (r.right > vw + 0.5 || r.left < -0.5)) {
              out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
            }
          });
          return out.slice(0, 5);
        """)
        check(not wide, name + ": at 390 px, wider than the viewport (%d px): %r" % (vw, wide))
        w = driver.execute_script("return document.documentElement.scrollWidth")
        check(w <= vw, name + ": the page is %d px wide at 390" % w)
        tops = {q.location["y"] for q in driver.find_elements(By.CSS_SELECTOR, ".quest")}
        check(len(tops) <= 1, name + ": the quests wrap on a phone")
        shot(name + "-390")
    body = load(pages["hostile-all"])
    network_ok("hostile-all", pages["hostile-all"])
    long = driver.find_element(By.CSS_SELECTOR, '#vote-grid button.pick[data-as="p2"] bdi')
    check(long.get_attribute("title") == LONG_NAME, "hostile-all: the long name's title is not whole")
    check(driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", long),
          "hostile-all: the long name is not cut in the grid on a phone")

    # ---- in progress, on a phone's width
    name, path = "avalon-in-progress-observer", pages["avalon-in-progress-observer"]
    body = load(path)
    network_ok(name, path)
    key(body, Keys.END)
    export = jsonl("avalon-in-progress")
    steps = steps_of(path)
    line = steps[step()]["line"]
    check(grid_cells() == expected_grid(export, line, 7), name + ": grid at the end")
    check(not driver.find_elements(By.ID, "summary"), name + ": a summary in progress")
    # 11: the verdict counts the secrets committed so far, not 0
    made = sum(1 for l in camelog("cat", sample("avalon-in-progress")).splitlines()
               if re.search(r"(?:^| )[0-9a-f]{64}(?: |$)", l))
    driver.find_element(By.CSS_SELECTOR, "#verdict summary").click()
    vt = driver.find_element(By.ID, "verdict").text
    check(made > 0 and ("%d secrets committed" % made) in vt, name + ": the verdict says %r" % vt[:160])
    check(driver.find_element(By.ID, "app").get_attribute("aria-live") is None and
          driver.find_element(By.ID, "now").get_attribute("aria-live") == "polite",
          name + ": aria-live is on the whole page, not on the step's text")
    shot("avalon-in-progress-390")
    driver.set_window_size(1366, 900)

    # ---- Shadows over Camelot: the board at chosen steps
    name, path = "soc-flip-observer", pages["soc-flip-observer"]
    export = jsonl("soc-flip")
    steps = steps_of(path)
    body = load(path)
    network_ok(name, path)
    key(body, Keys.HOME, "q", "q", "q")
    line = steps[step()]["line"]
    pub = next(d for d in export if d["line"] == line)["public"]
    sw = driver.find_element(By.ID, "swords").text
    check(("%d white" % pub["swords"]["white"]) in sw and
          ("%d black" % pub["swords"]["black"]) in sw, name + ": swords " + sw)
    check(("%d of 12" % pub["siege"]) in driver.find_element(By.ID, "siege").text,
          name + ": siege engines")
    for kn in pub["knights"]:
        card = driver.find_element(By.CSS_SELECTOR, '#knights .knight[data-seat="%d"]' % kn["seat"])
        f = {p.get_attribute("data-f"): p.text for p in card.find_elements(By.CSS_SELECTOR, "[data-f]")}
        check(f["lp"].startswith("%d life" % kn["lp"]), name + ": p%d life %r" % (kn["seat"], f["lp"]))
        check(f["hand"].startswith("%d white card" % kn["hand"]), name + ": p%d hand" % kn["seat"])
        check(f["knight"] == SOC_KNIGHTS[kn["knight"]], name + ": p%d knight %r" % (kn["seat"], f["knight"]))
    for qn, q in pub["quests"].items():
        panel = driver.find_element(By.CSS_SELECTOR, '[data-quest="%s"]' % qn)
        check(panel.find_element(By.TAG_NAME, "h2").text == SOC_QUESTS[qn], name + ": quest title " + qn)
        if q and "evil" in q:
            chips = panel.find_elements(By.CSS_SELECTOR, ".chip.black")
            check(len(chips) == len(q["evil"]), name + ": black cards on " + qn)
            fight = panel.find_element(By.CSS_SELECTOR, ".fight")
            check(int(fight.get_attribute("data-white")) == fight_total(q["knights"], qn) and
                  int(fight.get_attribute("data-black")) == fight_total(q["evil"], qn),
                  name + ": the fight totals on " + qn)
            check(all(not re.search(r"\d+ \d+|_", c.text) for c in chips),
                  name + ": a card shows as data on " + qn)
        elif q and "position" in q and q["state"] == "open":
            check(("%d of 10" % q["position"]) in panel.text, name + ": Excalibur's track")
        elif q and "figures" in q:
            check(("%d of 4" % q["figures"]) in panel.text, name + ": the figures of " + qn)
    board_text = driver.find_element(By.ID, "board").text
    check("position:" not in board_text and "figures:" not in board_text and "<commitment>" not in board_text,
          name + ": the board reads as data")
    shot("soc-flip-quest3-1366")
    key(body, Keys.END)
    tr = driver.find_element(By.ID, "traitor").text
    check(rflip["seats"][rflip["traitor"] - 1]["name"] in tr, name + ": the traitor at the end")
    check("turns over" in driver.find_element(By.ID, "accusations").text,
          name + ": the end-of-game flip")

    name, path = "soc-accused-all", pages["soc-accused-all"]
    body = load(path)
    network_ok(name, path)
    acc = driver.find_elements(By.CSS_SELECTOR, "#accusations li[data-accuse]")
    racc = reveal("soc-accused")
    check(len(acc) == 2, name + ": %d accusations" % len(acc))
    for a in acc:
        k = int(a.get_attribute("data-accuse"))
        want = "right" if racc["seats"][k - 1]["loyalty"] == "traitor" else "wrong"
        check(want in a.text, name + ": the accusation of p%d does not say %s: %r" % (k, want, a.text))
    check(all(not re.search(r"\b0:", k.text) for k in driver.find_elements(By.CSS_SELECTOR, ".knight")),
          name + ": a hand shows as '0:'")
    # every step of the play told in words: cards by their names, no token
    play = page_data(path)[1]["play_steps"]
    told = [li.get_attribute("textContent") for li in driver.find_elements(By.CSS_SELECTOR, "#log li")[:play]]
    raw = [t for t in told if re.search(r"\b[a-z]+_[a-z0-9_]+\b|<commitment>", t)]
    check(len(told) == play and not raw, name + ": the log speaks in tokens: %r" % raw[:3])
    # 6: the accuser is the one who "has made an accusation", not the accused
    evs = [e for st in steps_of(path) for e in st["events"] if e["event"] == "accuse"]
    for k in {e["seat"] for e in evs} | {e["target"] for e in evs}:
        t = driver.find_element(By.CSS_SELECTOR, '#knights .knight[data-seat="%d"]' % k).text
        check(("has made an accusation" in t) == (k in {e["seat"] for e in evs}),
              name + ": p%d's card: %r" % (k, t))
    shot("soc-accused-all-1366")

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
    # 10: the role sets read whole and apart; Shadows over Camelot's own figures
    figs = driver.find_elements(By.CSS_SELECTOR, "#game-avalon figure")
    roleset = next(f for f in figs if "role set" in f.find_element(By.TAG_NAME, "h2").text)
    names = [t.text for t in roleset.find_elements(By.CSS_SELECTOR, "svg text")
             if "players:" in t.text]
    check(len(names) == 3 and len(set(names)) == 3, "report: role sets %r" % names)
    check(all("Merlin" in n and "Assassin" in n for n in names), "report: role sets %r" % names)
    check(any("Percival" in n and "Morgana" in n for n in names), "report: role sets %r" % names)
    soc = driver.find_element(By.ID, "game-soc").text
    check("knights won" in driver.find_element(By.ID, "soc-summary").text and
          "\u2013" not in driver.find_element(By.ID, "soc-summary").text,
          "report: the Shadows over Camelot summary: " + soc[:120])
    check("Excalibur" in soc and "The Holy Grail" in soc, "report: no quests in the SoC section")
    check("accusations" in driver.find_element(By.ID, "soc-traitor").text.lower() or
          "No accusation" in driver.find_element(By.ID, "soc-traitor").text,
          "report: no traitor panel")
    shot("archive-report")

    for name in ("avalon-finished-p3", "soc-flip-p1", "avalon-10-observer", "soc-5-observer"):
        body = load(pages[name])
        network_ok(name, pages[name])
        key(body, Keys.END)
        check(step() == len(steps_of(pages[name])) - 1, name + ": End")

    # 11: with JavaScript off, the summary and the whole log still show
    nojs = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1366,900", "--no-first-run", "--disable-extensions"):
        nojs.add_argument(a)
    nojs.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver.quit()
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=nojs)
    for name in ("avalon-7-observer", "hostile-all", "avalon-7-p2"):
        path = pages[name]
        driver.get("file://" + path)
        data = page_data(path)[1]
        items = driver.find_elements(By.CSS_SELECTOR, "#static-log li")
        check(len(items) == data["views"][0]["steps"] and items[0].is_displayed(),
              name + ": with JavaScript off, %d of %d log lines" % (len(items), data["views"][0]["steps"]))
        check(("%s won" % data["winner"]) in driver.find_element(By.ID, "static-outcome").text,
              name + ": with JavaScript off, no outcome")
        rev = driver.find_elements(By.CSS_SELECTOR, "#static-reveal li")
        check(len(rev) > 0 if "reveal" in data else not rev,
              name + ": with JavaScript off, the reveal %s" % ("is missing" if "reveal" in data else "shows"))
        check(not driver.find_elements(By.CSS_SELECTOR, "img, #static script"),
              name + ": with JavaScript off, a name became an element")
        nbdi = len(driver.find_elements(By.CSS_SELECTOR, "#static bdi"))
        check(nbdi > 0, name + ": with JavaScript off, no name is isolated")
    shot("hostile-all-nojs-1366")
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
