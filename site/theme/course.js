// The site's behaviour, all offline: the machine switch, search over the index the generator
// wrote (search-index.js), and grading the quizzes in the page.
"use strict";

function remember(key, value) {
  try {
    if (value === undefined) return window.localStorage.getItem(key);
    window.localStorage.setItem(key, value);
  } catch (e) {
    // Storage can be off (private windows, some file:// settings): the page works without it.
  }
  return null;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// The first cell (or heading, or paragraph) still on screen, and how far from the window's top
// it is: switching machines changes the height of the outputs above it, and the page scrolls
// so that it stays where the reader had it.
function readingPlace() {
  for (const element of document.querySelectorAll("main section.cell, main h1, main h2, main h3, main > p")) {
    const box = element.getBoundingClientRect();
    if (box.bottom > 0) return { element, top: box.top };
  }
  return null;
}

// The machine switch: show each cell's output block, and the numbers the prose quotes from
// outputs, for the chosen machine only.
function setUpMachineSwitch() {
  const select = document.getElementById("machine");
  if (!select) return;
  const summary = document.getElementById("machine-summary");
  const stored = remember("course-machine");
  if (stored && Array.from(select.options).some((o) => o.value === stored)) select.value = stored;
  const show = () => {
    const machine = select.value;
    for (const block of document.querySelectorAll(".output")) {
      block.hidden = !block.dataset.machines.split(" ").includes(machine);
    }
    // A number the prose quotes from an output is the chosen machine's, as the output shown is.
    for (const value of document.querySelectorAll(".value[data-values]")) {
      const pair = value.dataset.values.split(" ").find((p) => p.startsWith(machine + "="));
      if (pair) value.textContent = pair.slice(machine.length + 1);
    }
    summary.textContent = select.selectedOptions[0].dataset.summary;
    summary.title = summary.textContent;  // the whole description, where the bar cuts it short
    document.documentElement.dataset.machine = machine;
    remember("course-machine", machine);
  };
  select.addEventListener("change", () => {
    const place = readingPlace();
    show();
    if (place) window.scrollBy(0, place.element.getBoundingClientRect().top - place.top);
  });
  show();
}

// Search: every word of the query must appear in a section; titles count more than text.
function setUpSearch() {
  const input = document.getElementById("search");
  const list = document.getElementById("search-results");
  // A section's text begins with its heading, which the result shows as its title already.
  const body = (e) => (e.text.startsWith(e.title) ? e.text.slice(e.title.length).trimStart() : e.text);
  const index = (window.COURSE_SEARCH_INDEX || []).map((e) => ({ ...e, text: body(e), lowTitle: e.title.toLowerCase(), lowText: body(e).toLowerCase() }));
  const occurrences = (text, word) => {
    let count = 0;
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) count++;
    return count;
  };
  const snippet = (entry, words) => {
    const at = Math.max(0, entry.lowText.indexOf(words[0]));
    const start = Math.max(0, at - 60);
    let text = escapeHtml((start > 0 ? "…" : "") + entry.text.slice(start, at + 100) + "…");
    for (const word of words) {
      text = text.replace(new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), (m) => "<mark>" + m + "</mark>");
    }
    return text;
  };
  const search = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) {
      list.hidden = true;
      return;
    }
    const found = [];
    for (const entry of index) {
      let score = 0;
      for (const word of words) {
        const inTitle = occurrences(entry.lowTitle, word);
        const inText = occurrences(entry.lowText, word);
        if (inTitle + inText === 0) {
          score = 0;
          break;
        }
        score += 10 * inTitle + Math.min(inText, 10);
      }
      if (score > 0) found.push({ entry, score });
    }
    found.sort((a, b) => b.score - a.score);
    list.innerHTML = found.length === 0
      ? `<li class="none">Nothing in the course mentions “${escapeHtml(input.value)}”.</li>`
      : found.slice(0, 8).map(({ entry }) =>
          // A page's own entry is titled as the page: its name is not repeated.
          `<li><a href="${escapeHtml(entry.url)}"><strong>${escapeHtml(entry.title)}</strong>` +
          (entry.page === entry.title ? "" : ` <span class="where">${escapeHtml(entry.page)}</span>`) +
          `<span class="snippet">${snippet(entry, words)}</span></a></li>`).join("");
    list.hidden = false;
  };
  input.addEventListener("input", search);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      list.hidden = true;
    } else if (event.key === "Enter") {
      const first = list.querySelector("a");
      if (first) window.location.href = first.href;
    } else if (event.key === "ArrowDown") {
      const first = list.querySelector("a");
      if (first) first.focus();
      event.preventDefault();
    }
  });
  list.addEventListener("keydown", (event) => {
    const item = document.activeElement.closest("li");
    if (!item) return;
    const next = event.key === "ArrowDown" ? item.nextElementSibling : event.key === "ArrowUp" ? item.previousElementSibling : null;
    if (next) next.querySelector("a").focus();
    if (event.key === "ArrowUp" && !item.previousElementSibling) input.focus();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") event.preventDefault();
    if (event.key === "Escape") {
      list.hidden = true;
      input.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".search")) list.hidden = true;
  });
}

// The course's pass rule, as the terminal quiz has it: strictly more than 75 %.
function passes(correct, total) {
  return total > 0 && 4 * correct > 3 * total;
}

function gradeQuiz(form) {
  const questions = Array.from(form.querySelectorAll("fieldset.question"));
  const score = form.querySelector(".score");
  const unanswered = questions.filter((q) => !q.querySelector("input:checked"));
  if (unanswered.length > 0) {
    score.className = "score incomplete";
    score.textContent = `Answer every question first: ${unanswered.length} left.`;
    return;
  }
  let correct = 0;
  for (const question of questions) {
    const chosen = question.querySelector("input:checked").closest("li");
    const right = chosen.dataset.correct === "true";
    if (right) correct++;
    question.classList.add(right ? "right" : "wrong");
    chosen.classList.add("chosen");
    question.querySelector("li[data-correct]").classList.add("answer");
    const why = chosen.querySelector(".why");
    if (why) why.hidden = false;
    question.querySelector(".context").hidden = false;
    const verdict = document.createElement("p");
    verdict.className = "verdict";
    verdict.textContent = right ? "✔ Right." : "✘ Not this one: the answer is marked ✔.";
    question.querySelector("legend").after(verdict);
    for (const input of question.querySelectorAll("input")) input.disabled = true;
  }
  const total = questions.length;
  const percent = Math.floor((correct * 100 + Math.floor(total / 2)) / total);
  const passed = passes(correct, total);
  score.className = "score " + (passed ? "passed" : "failed");
  score.textContent = `${correct} of ${total} right (${percent} %): ` +
    (passed ? "passed." : `not passed yet. More than 75 % passes: ${form.dataset.needed} of ${total}.`);
  form.querySelector("button[type=submit]").hidden = true;
  form.querySelector(".retry").hidden = false;
}

// A question's options in a new random order, as the terminal quiz shuffles them for every
// attempt: where the answer sits gives nothing away.
function shuffleOptions(question) {
  const options = question.querySelector(".options");
  const items = Array.from(options.children);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  for (const item of items) options.appendChild(item);
}

// A new attempt: answers cleared and each question's options in a new order.
function resetQuiz(form) {
  for (const question of form.querySelectorAll("fieldset.question")) {
    question.classList.remove("right", "wrong");
    for (const verdict of question.querySelectorAll(".verdict")) verdict.remove();
    for (const hidden of question.querySelectorAll(".why, .context")) hidden.hidden = true;
    for (const item of question.querySelectorAll(".options > li")) {
      item.classList.remove("chosen", "answer");
      const input = item.querySelector("input");
      input.checked = false;
      input.disabled = false;
    }
    shuffleOptions(question);
  }
  const score = form.querySelector(".score");
  score.className = "score";
  score.textContent = "";
  form.querySelector("button[type=submit]").hidden = false;
  form.querySelector(".retry").hidden = true;
}

function setUpQuizzes() {
  for (const form of document.querySelectorAll("form.quiz-form")) {
    for (const question of form.querySelectorAll("fieldset.question")) shuffleOptions(question);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      gradeQuiz(form);
    });
    form.querySelector(".retry").addEventListener("click", () => resetQuiz(form));
  }
}

setUpMachineSwitch();
setUpSearch();
setUpQuizzes();
