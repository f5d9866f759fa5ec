// A key the target cannot know, made from one it knows: how AUTH-3's probes and the transports
// catalogue's unknown key are spelled.

/** A key with one secret character changed: same length, same alphabet, unknown. */
export function oneCharacterChanged(key: string, prefix: string | null): string {
  const start = prefix && key.startsWith(prefix) ? prefix.length : 0;
  const classes = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  for (let i = start + Math.floor((key.length - start) / 2); i < key.length; i++) {
    const c = key[i]!;
    const alphabet = classes.find((k) => k.includes(c));
    if (!alphabet) continue;
    const next = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]!;
    return key.slice(0, i) + next + key.slice(i + 1);
  }
  return key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
}
