// Fractional ordering keys, byte for byte what charlotte.page.ordering mints
// (and fancy-cms before it): a key is a base-62 fraction in (0, 1). New keys
// must sort against stored ones forever, so the quirks are kept too.

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RADIX = ALPHABET.length; // 62
const MID = Math.floor(RADIX / 2); // 31, the digit "V"
const VALUE = new Map(Array.from(ALPHABET, (c, i) => [c, i]));

// Past the end, or a character outside the alphabet, reads as 0.
function digit(key, i) {
  return i < key.length ? VALUE.get(key[i]) ?? 0 : 0;
}

/** A key strictly between `a` and `b` (null is an open bound); throws when a >= b. */
export function keyBetween(a, b) {
  const lo = a === null || a === undefined ? "" : a;
  if (b === null || b === undefined) return lo + ALPHABET[MID];
  if (lo >= b) throw new RangeError("keyBetween: lower bound is not below upper bound");
  let out = "";
  let i = 0;
  for (;;) {
    const ca = digit(lo, i);
    const cb = i < b.length ? VALUE.get(b[i]) ?? 0 : RADIX;
    if (cb - ca > 1) return out + ALPHABET[ca + Math.floor((cb - ca) / 2)];
    out += ALPHABET[ca];
    i += 1;
    if (ca === cb) continue;
    // Adjacent digits: keep the lower one, then descend into the rest of `a`
    // with an open upper bound until a gap opens.
    for (;;) {
      const da = digit(lo, i);
      if (RADIX - da > 1) return out + ALPHABET[da + Math.floor((RADIX - da) / 2)];
      out += ALPHABET[da];
      i += 1;
    }
  }
}
