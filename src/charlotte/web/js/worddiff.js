// A word-level diff of two texts for the review: which words stayed, which
// went (<del>) and which came (<ins>). A longest common subsequence over the
// words, after the common start and end are set aside; bounded, so a long
// text falls back to a plain before/after.

/** The most words (both sides together, after the common start and end) the diff compares. */
export const MAX_WORDS = 2000;

// Words (letters, digits, apostrophes), single marks of punctuation and the
// runs of white space between them, all kept, so the pieces put together give
// back the text exactly; "Bakery" and "Bakery," share their word.
const tokens = (text) => text.match(/\s+|[\p{L}\p{N}\p{M}'’]+|[^\s\p{L}\p{N}\p{M}'’]/gu) || [];
const isSpace = (token) => /^\s/.test(token);

/**
 * The pieces of `before` → `after`: `[{kind: "same" | "del" | "ins", text}]`,
 * in reading order (a change reads as its deletion, then its insertion), or
 * null when the texts are too long to compare word by word.
 */
export function wordDiff(before, after) {
  const a = tokens(String(before));
  const b = tokens(String(after));
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  const left = a.slice(start, a.length - end);
  const right = b.slice(start, b.length - end);
  if (wordCount(left) + wordCount(right) > MAX_WORDS) return null;
  const pieces = [];
  const push = (kind, text) => {
    const last = pieces[pieces.length - 1];
    if (last && last.kind === kind) last.text += text;
    else if (text) pieces.push({ kind, text });
  };
  push("same", a.slice(0, start).join(""));
  for (const [kind, token] of middle(left, right)) push(kind, token);
  push("same", a.slice(a.length - end).join(""));
  return tidy(pieces);
}

function wordCount(list) {
  let count = 0;
  for (const token of list) if (!isSpace(token)) count += 1;
  return count;
}

// The classic table: lengths[i][j] = the LCS of left[i:] and right[j:], one
// row per token of `left` (at most MAX_WORDS words and the spaces between).
function middle(left, right) {
  const n = left.length;
  const m = right.length;
  const width = m + 1;
  const lengths = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lengths[i * width + j] = left[i] === right[j]
        ? lengths[(i + 1) * width + j + 1] + 1
        : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    }
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (left[i] === right[j]) {
      out.push(["same", left[i]]);
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
      out.push(["del", left[i]]);
      i += 1;
    } else {
      out.push(["ins", right[j]]);
      j += 1;
    }
  }
  for (; i < n; i += 1) out.push(["del", left[i]]);
  for (; j < m; j += 1) out.push(["ins", right[j]]);
  return out;
}

// Runs of changes read better whole: a space alone kept between two changes
// joins them ("<del>quick brown</del><ins>slow red</ins>", not word by word),
// and each run says its deletion before its insertion.
function tidy(pieces) {
  const out = [];
  let del = "";
  let ins = "";
  const flush = () => {
    if (del) out.push({ kind: "del", text: del });
    if (ins) out.push({ kind: "ins", text: ins });
    del = "";
    ins = "";
  };
  pieces.forEach((piece, index) => {
    const changing = del || ins;
    const next = pieces[index + 1];
    if (piece.kind === "del") del += piece.text;
    else if (piece.kind === "ins") ins += piece.text;
    else if (changing && next && next.kind !== "same" && /^\s+$/.test(piece.text)) {
      del += piece.text;
      ins += piece.text;
    } else {
      flush();
      out.push(piece);
    }
  });
  flush();
  return out;
}

/** `before` → `after` as one element: kept words as text, the others in <del> and <ins> (text only). */
export function diffElement(before, after, tag = "p") {
  const holder = document.createElement(tag);
  holder.className = "word-diff";
  const pieces = wordDiff(before, after);
  if (pieces === null) {
    // Too long to compare word by word: the two texts, one after the other.
    holder.classList.add("is-plain");
    const old = document.createElement("del");
    old.textContent = String(before);
    const now = document.createElement("ins");
    now.textContent = String(after);
    holder.append(old, now);
    return holder;
  }
  for (const piece of pieces) {
    if (piece.kind === "same") {
      holder.append(document.createTextNode(piece.text));
      continue;
    }
    const mark = document.createElement(piece.kind);
    mark.textContent = piece.text;
    holder.append(mark);
  }
  return holder;
}
