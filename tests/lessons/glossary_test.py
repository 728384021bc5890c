"""Every term of the course's glossary (lessons/glossary.md) is used in the lesson it names: a
term that no lesson uses, or that names the wrong lesson, sends the learner looking in vain.

    glossary_test.py LESSONS_DIR

A term's spellings are its name, the parts of a name such as "im2col, col2im" or
"mixed precision, autocast" or "built / available", and the words in its parentheses; code names count with their
underscores read as spaces ("device_index" uses "device index").
"""

import functools
import pathlib
import re
import sys


@functools.cache
def lesson_text(lessons, number):
    files = list(lessons.glob(f"{number:02d}_*.cpp")) + list(lessons.glob(f"{number:02d}_*/*"))
    text = " ".join(path.read_text() for path in files).lower().replace("_", " ")
    return re.sub(r"\s*\n//\s*", " ", text)  # the lessons' comment lines read as one text


def spellings(term):
    inside = re.findall(r"\((.*?)\)", term)
    outside = re.sub(r"\(.*?\)", "", term)
    return [part.strip().lower() for part in re.split(r",|/| and ", outside) + inside if part.strip()]


def main():
    lessons = pathlib.Path(sys.argv[1])
    glossary = (lessons / "glossary.md").read_text()
    entries = re.findall(r"^- \*\*(.+?)\*\*:(.*?)(?=^- \*\*|\Z)", glossary, re.S | re.M)
    failures = 0
    for term, body in entries:
        named = re.findall(r"lessons? ((?:\d+(?:, | and |-)?)+)", " ".join(body.split()))
        numbers = [int(n) for n in re.findall(r"\d+", named[-1])] if named else []
        if not numbers:
            failures += 1
            print(f"FAILED: '{term}' names no lesson that uses it")
            continue
        text = " ".join(lesson_text(lessons, n) for n in numbers)
        missing = [spelling for spelling in spellings(term) if spelling not in text]
        if missing:
            failures += 1
            print(f"FAILED: '{term}': lesson {', '.join(map(str, numbers))} never says {missing}")
    print(f"{len(entries)} glossary terms, {failures} not used where the glossary says")
    return 1 if failures or not entries else 0


if __name__ == "__main__":
    sys.exit(main())
