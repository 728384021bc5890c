#!/usr/bin/env python3
"""Drives the course site in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium), as a learner would, and checks:

- every page loads without console errors, and no internal link or image is broken;
- the machine switch shows, for each machine, the output that machine's run printed, and keeps
  the cell being read where it was on screen;
- at a phone's width the page does not scroll sideways and timelines keep their own size;
- lesson 10.1 shows each kernel launch its cells make as a picture beside the output, and each
  picture loads;
- search finds a section and leads to it;
- a wrong quiz answer shows why it is wrong; the mastery check passes with every answer right,
  and follows the terminal's rule (6 of 8 does not pass, 7 of 8 does);
- screenshots of a lesson page, of a timeline and of a kernel launch are saved for review.

The right answers come from the TOML banks, not from the page. Exits 77 with a line starting
"SKIPPED:" when chromium, chromedriver or selenium is missing. Chromium keeps its profile and
whatever it writes to the home directory (its settings, dconf's, its caches) in --home, a folder
of the build tree this test empties first and removes at the end: never the tester's own.
"""

import argparse
import json
import pathlib
import re
import os
import shutil
import sys
import tomllib
import urllib.parse

SKIP = 77
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAILED:", message)
    return condition


def start_browser(user_data_dir):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run",
                     "--window-size=1280,1400", f"--user-data-dir={user_data_dir}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def words(text):
    """Text as the page shows it: Markdown's code and emphasis marks gone, spaces squeezed."""
    return " ".join(re.sub(r"[`*]", "", text).split())


class Site:
    def __init__(self, driver, root):
        self.driver = driver
        self.root = root
        self.ids = {}  # page path -> ids on it

    def open(self, page):
        self.driver.get((self.root / page).as_uri())
        return self.errors(page)

    def errors(self, page):
        severe = [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not severe, f"{page}: console errors: {severe}")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)


def check_every_page(site):
    pages = sorted(p.relative_to(site.root) for p in site.root.glob("*.html"))
    check(len(pages) >= 8, f"only {len(pages)} pages")
    links = []
    for page in pages:
        site.open(page)
        site.ids[site.root / page] = set(site.js("return Array.from(document.querySelectorAll('[id]'), e => e.id)"))
        for href in site.js("return Array.from(document.querySelectorAll('a[href]'), a => a.href)"):
            links.append((page, href))
        broken = site.js("return Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
                         ".map(i => i.getAttribute('src'))")
        check(not broken, f"{page}: images that do not load: {broken}")
    checked = 0
    for page, href in links:
        url = urllib.parse.urlparse(href)
        if url.scheme != "file":
            continue  # outside the site: never fetched by the tests (no network)
        target = pathlib.Path(urllib.parse.unquote(url.path))
        if not check(target.exists(), f"{page}: broken link {href}"):
            continue
        if url.fragment and target.suffix == ".html":
            check(url.fragment in site.ids.get(target, set()), f"{page}: link to a missing anchor {href}")
        checked += 1
    glossary = site.root / "glossary.html"
    check(glossary.exists(), "the site has no glossary page, which the lesson pages link")
    glossary_uri = glossary.as_uri()
    lessons = [page for page in pages if re.match(r"\d\d_", page.name) and (site.root / page).read_text().count("lesson-tools")]
    linking = {page for page, href in links if href == glossary_uri}
    unlinked = [str(page) for page in lessons if page not in linking]
    check(lessons and not unlinked, f"lesson pages without a link to the glossary: {unlinked}")
    print(f"{len(pages)} pages load cleanly; {checked} internal links and every image resolve")


def check_machine_switch(site, runs, lesson):
    from selenium.webdriver.support.ui import Select

    site.open(f"{lesson}.html")
    select = Select(site.driver.find_element("id", "machine"))
    machines = [o.get_attribute("value") for o in select.options]
    ran = sorted(path.name for path in (runs / lesson).iterdir() if path.is_dir())
    check(len(machines) > 1 and sorted(machines) == ran,
          f"the switch offers {machines}, the lesson ran on {ran}")
    seen = {}
    for machine in machines:
        select.select_by_value(machine)
        visible = site.js("""
            const shown = {};
            for (const cell of document.querySelectorAll('section.cell[id]')) {
              shown[cell.id] = Array.from(cell.querySelectorAll('.output')).filter(b => b.offsetParent !== null)
                .map(b => b.querySelector('pre.stream, .no-output').innerText);
            }
            return shown;""")
        for cell, shown in visible.items():
            run = json.loads((runs / lesson / machine / f"{cell}.json").read_text())["cells"][0]
            expected = run["output"].rstrip("\n") if run["output"] else "(prints nothing)"
            check(len(shown) == 1, f"{lesson}#{cell} on {machine}: {len(shown)} output blocks visible")
            if len(shown) == 1:
                check(shown[0].rstrip("\n") == expected,
                      f"{lesson}#{cell} on {machine}: shows {shown[0]!r}, the run printed {expected!r}")
                seen.setdefault(cell, set()).add(shown[0])
        summary = site.driver.find_element("id", "machine-summary").text
        check(summary != "", f"no summary for {machine}")
    check(any(len(outputs) > 1 for outputs in seen.values()), f"no cell of {lesson} shows different outputs per machine")
    print(f"{lesson}: the machine switch shows each of {len(machines)} machines' own outputs")


def check_prose_values(site, lesson):
    """A number the prose quotes from a cell's output follows the machine switch: on every machine
    it is a number that cell's visible output shows."""
    from selenium.webdriver.support.ui import Select

    site.open(f"{lesson}.html")
    select = Select(site.driver.find_element("id", "machine"))
    shown = set()
    for machine in [o.get_attribute("value") for o in select.options]:
        select.select_by_value(machine)
        values = site.js("""
            return Array.from(document.querySelectorAll('.value[data-cell]')).map(v => [v.dataset.cell, v.innerText,
              Array.from(document.getElementById(v.dataset.cell).querySelectorAll('.output'))
                .filter(b => b.offsetParent !== null).map(b => b.innerText).join('\\n')]);""")
        check(values, f"{lesson} on {machine}: no number in the prose follows the machine switch")
        for cell, value, output in values:
            check(re.search(rf"(?<![\d.]){re.escape(value)}(?![\d])", output),
                  f"{lesson} on {machine}: the prose quotes {value} from {cell}, whose output shows {output!r}")
            shown.add(value)
    check(len(shown) > 1, f"{lesson}: the prose shows the same numbers on every machine; the check proves nothing")
    print(f"{lesson}: the prose quotes each machine's own output ({len(shown)} values)")


def check_switch_keeps_place(site, lesson):
    """Switching machines changes the height of every output above the reader; the cell the reader
    was at stays where it was on screen."""
    from selenium.webdriver.support.ui import Select

    site.open(f"{lesson}.html")
    # Chromium anchors scrolling by itself; Safari, where most learners read, does not: turn it off
    # so that the page's own script is what is tested.
    site.js("document.documentElement.style.overflowAnchor = 'none'; document.body.style.overflowAnchor = 'none'")
    select = Select(site.driver.find_element("id", "machine"))
    select.select_by_value("m3-max-64gb")
    cells = site.driver.find_elements("css selector", "section.cell[id]")
    reading = cells[len(cells) * 2 // 3]
    site.js("arguments[0].scrollIntoView({block: 'start'}); window.scrollBy(0, -120)", reading)
    before = site.js("return arguments[0].getBoundingClientRect().top", reading)
    page_before = site.js("return document.documentElement.scrollHeight")
    select.select_by_value("linux-x86_64")  # no mps: much shorter outputs above
    after = site.js("return arguments[0].getBoundingClientRect().top", reading)
    page_after = site.js("return document.documentElement.scrollHeight")
    check(page_after != page_before, f"{lesson}: switching machines did not change the page's height; the check proves nothing")
    check(abs(after - before) <= 2,
          f"{lesson}: the cell {reading.get_attribute('id')} moved from {before:.0f} to {after:.0f} px on screen when the machine changed")
    print(f"{lesson}: switching machines keeps the cell being read in its place")


def check_phone_width(site, lesson, screenshots):
    """At a phone's width the page does not scroll sideways, and a timeline keeps its own width in a
    frame of its own that does."""
    from selenium.webdriver.support.ui import Select

    size = site.driver.get_window_size()
    site.driver.set_window_size(390, 844)
    try:
        site.open(f"{lesson}.html")
        Select(site.driver.find_element("id", "machine")).select_by_value("m3-max-64gb")
        viewport = site.js("return document.documentElement.clientWidth")
        page = site.js("return document.documentElement.scrollWidth")
        check(page <= viewport, f"{lesson} at 390 px: the page is {page} px wide, wider than the screen's {viewport}")
        pictures = site.driver.find_elements("css selector", ".output:not([hidden]) figure.picture")
        if check(pictures, f"{lesson} shows no timeline"):
            image = pictures[0].find_element("css selector", "img")
            shown, natural = site.js("return [arguments[0].clientWidth, arguments[0].naturalWidth]", image)
            frame = site.js("return arguments[0].parentElement.clientWidth", image)
            check(abs(shown - natural) <= 1, f"{lesson} at 390 px: a timeline is drawn {shown:.0f} px wide, not its own {natural}")
            check(frame <= viewport, f"{lesson} at 390 px: the timeline's frame is {frame} px wide")
            site.js("arguments[0].scrollIntoView({block: 'center'})", pictures[0])
            site.driver.save_screenshot(str(screenshots / "phone_timeline.png"))
        print(f"{lesson} at a phone's width: timelines keep their size and scroll in their own frame")
    finally:
        site.driver.set_window_size(size["width"], size["height"])


def check_search(site):
    site.open("index.html")
    box = site.driver.find_element("id", "search")
    box.send_keys("synchronize")
    results = site.driver.find_elements("css selector", "#search-results a")
    check(len(results) > 0, "searching 'synchronize' finds nothing")
    if results:
        target = results[0].get_attribute("href")
        results[0].click()
        check(site.driver.current_url == target, f"the first result leads to {site.driver.current_url}, not {target}")
        site.errors("search result")
    print(f"search finds {len(results)} sections for 'synchronize'")


def click(site, element):
    """Clicks `element` once scrolled to the middle of the window, clear of the sticky top bar."""
    site.js("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


# The same squeeze as words(), in the page: one script call instead of a round trip per label.
LABEL_WORDS = "label => label.innerText.replace(/[`*]/g, '').split(/\\s+/).filter(Boolean).join(' ')"


def answer(site, bank_name, question, option_text):
    """Ticks the option of `question` whose text is `option_text` (from the bank)."""
    choice = site.js(f"""
        const words = {LABEL_WORDS};
        const labels = document.querySelectorAll(arguments[0]);
        const label = Array.from(labels).find(l => words(l) === arguments[1]);
        return label ? label.querySelector('input') : null;""",
        f"#quiz-{bank_name} fieldset[data-id='{question['id']}'] label", words(option_text))
    if not check(choice is not None, f"{bank_name}/{question['id']}: no option reads {option_text!r}"):
        return None
    click(site, choice)
    return choice.find_element("xpath", "../..")


def take(site, bank_name, bank, wrong):
    """Answers every question right except those in `wrong` (first distractor); returns the score."""
    chosen = {}
    for i, q in enumerate(bank["questions"]):
        text = q["prompt"]["distractors"][0] if i in wrong else q["answer"]["answer"]
        chosen[q["id"]] = answer(site, bank_name, q, text)
    click(site, site.driver.find_element("css selector", f"#quiz-{bank_name} button[type=submit]"))
    return site.driver.find_element("css selector", f"#quiz-{bank_name} .score"), chosen


def check_quizzes(site, banks):
    lesson_bank = tomllib.loads((banks / "lesson02.toml").read_text())
    site.open("02_device_checks.html")
    score, chosen = take(site, "lesson02", lesson_bank, wrong={0, 1})  # 3 of 5: one slip passes
    first = lesson_bank["questions"][0]
    item = chosen[first["id"]]
    if item is not None:
        why = item.find_element("css selector", ".why")
        check(why.is_displayed() and words(first["why"][0]) in words(why.text),
              f"a wrong answer does not show its explanation: {why.text!r}")
    total = len(lesson_bank["questions"])
    check(f"{total - 2} of {total} right" in score.text and "not passed" in score.text, f"lesson 2 score: {score.text!r}")

    # Options are shuffled on every load, as the terminal shuffles them for every attempt: two loads
    # of the mastery check order fifteen questions' options alike with a chance of at most 1 in 6^15.
    orders = []
    for _ in range(2):
        site.open("mastery.html")
        orders.append(site.js(f"return Array.from(document.querySelectorAll('#quiz-mastery label'), {LABEL_WORDS})"))
    check(orders[0] != orders[1] and sorted(orders[0]) == sorted(orders[1]),
          "the mastery check's options are not shuffled when the page loads")

    mastery = tomllib.loads((banks / "mastery.toml").read_text())
    site.open("mastery.html")
    for wrong, verdict in (({0, 1, 2, 3}, "11 of 15 right (73 %): not passed"),
                           ({0, 1, 2}, "12 of 15 right (80 %): passed"), (set(), "15 of 15 right (100 %): passed")):
        score, _ = take(site, "mastery", mastery, wrong)
        check(score.text.startswith(verdict), f"mastery with {len(wrong)} wrong: {score.text!r}, expected {verdict!r}")
        if wrong:
            click(site, site.driver.find_element("css selector", "#quiz-mastery button.retry"))
    site.errors("mastery.html")
    print("quizzes: a wrong answer explains itself; the mastery check passes at 12 and 15 of 15, not at 11")


def check_launch_pictures(site, lesson, screenshots):
    """Each kernel launch of lesson 10.1 is drawn beside its cell's output, and each picture loads."""
    site.open(f"{lesson}.html")
    figures = [f for f in site.driver.find_elements("css selector", ".output:not([hidden]) figure.picture")
               if "launches/" in f.find_element("css selector", "img").get_attribute("src")]
    if not check(figures, f"{lesson} shows no picture of a kernel launch"):
        return
    for figure in figures:
        image = figure.find_element("css selector", "img")
        loaded = site.js("return arguments[0].complete && arguments[0].naturalWidth > 0", image)
        check(loaded, f"{lesson}: the launch picture {image.get_attribute('src')} does not load")
    alts = [f.find_element("css selector", "img").get_attribute("alt") for f in figures]
    check(any("touched no device memory (hatched)" in alt for alt in alts),
          f"{lesson}: no launch picture shows the grid's idle tail: {alts}")
    site.js("arguments[0].scrollIntoView({block: 'center'})", figures[0])
    figures[0].screenshot(str(screenshots / "kernel_launch.png"))
    print(f"{lesson}: {len(figures)} kernel launches drawn beside their cells' outputs, each loads")


def save_screenshots(site, directory):
    directory.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.support.ui import Select
    site.open("05_1_timing_gpu_work.html")
    Select(site.driver.find_element("id", "machine")).select_by_value("m3-max-64gb")  # the switch remembers
    site.driver.save_screenshot(str(directory / "lesson05.png"))
    pictures = site.driver.find_elements("css selector", ".output:not([hidden]) figure.picture")
    if check(pictures, "lesson 5 shows no timeline"):
        site.js("arguments[0].scrollIntoView({block: 'center'})", pictures[0])
        pictures[0].screenshot(str(directory / "timeline.png"))
    site.open("06_1_the_bill_and_the_limits.html")
    Select(site.driver.find_element("id", "machine")).select_by_value("m1-8gb")
    charts = [f for f in site.driver.find_elements("css selector", ".output:not([hidden]) figure.picture")
              if "charts/" in f.find_element("css selector", "img").get_attribute("src")]
    if check(charts, "lesson 6 shows no memory chart on m1-8gb"):
        site.js("arguments[0].scrollIntoView({block: 'center'})", charts[0])
        charts[0].screenshot(str(directory / "memory_chart.png"))
    print(f"screenshots in {directory}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=pathlib.Path, required=True)
    parser.add_argument("--runs", type=pathlib.Path, required=True)
    parser.add_argument("--banks", type=pathlib.Path, required=True)
    parser.add_argument("--screenshots", type=pathlib.Path, required=True)
    parser.add_argument("--home", type=pathlib.Path, required=True)
    arguments = parser.parse_args()
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("SKIPPED: python3-selenium is not installed (sudo apt-get install python3-selenium)")
        return SKIP
    for program, package in (("chromium", "chromium"), ("chromedriver", "chromium-driver")):
        if not shutil.which(program) and not (program == "chromium" and shutil.which("chromium-browser")):
            print(f"SKIPPED: {program} is not installed (sudo apt-get install {package})")
            return SKIP
    shutil.rmtree(arguments.home, ignore_errors=True)
    profile = arguments.home / "profile"
    profile.mkdir(parents=True)
    # chromedriver and Chromium inherit this environment: every file they write is in --home.
    os.environ["HOME"] = str(arguments.home)
    for variable, folder in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                             ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state")):
        os.environ[variable] = str(arguments.home / folder)
    try:
        driver = start_browser(profile)
        try:
            site = Site(driver, arguments.site.resolve())
            check_every_page(site)
            check_machine_switch(site, arguments.runs, "02_device_checks")
            check_machine_switch(site, arguments.runs, "04_cpu_fallback")  # with warnings on stderr
            check_prose_values(site, "01_metal_mps_and_unified_memory")
            check_switch_keeps_place(site, "05_1_timing_gpu_work")
            arguments.screenshots.mkdir(parents=True, exist_ok=True)
            check_phone_width(site, "05_1_timing_gpu_work", arguments.screenshots)
            check_launch_pictures(site, "10_1_a_first_kernel", arguments.screenshots)
            check_search(site)
            check_quizzes(site, arguments.banks)
            save_screenshots(site, arguments.screenshots)
        finally:
            driver.quit()
        written = sorted(str(p.relative_to(arguments.home)) for p in arguments.home.iterdir())
        check(written != ["profile"], f"Chromium wrote nothing to its home ({written}): where did it write?")
        print("Chromium wrote to its own home:", ", ".join(written))
    finally:
        shutil.rmtree(arguments.home, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} checks failed")
        return 1
    print("every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
