import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

// Issue 34: the README is for the first hour and links the docs/ pages by task; every relative
// link of the README and of docs/ leads somewhere (a file, and a heading where it names one).

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces as -. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function links(page: string): { target: string; anchor: string | null }[] {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [path, anchor] = href.split('#');
      return { target: path ? join(dirname(page), path) : page, anchor: anchor ?? null };
    });
}

describe('the README and the docs pages', () => {
  test('the README stays a first hour: under 200 lines, the two quick-start commands first', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(200);
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toContain('npm test ');
  });

  test('the README links a docs page for each task, and every docs page but the generated ones is linked', () => {
    const linked = new Set(links('README.md').map((l) => l.target));
    for (const page of PAGES.filter((p) => p.startsWith('docs/'))) expect(linked.has(page), page).toBe(true);
  });

  test.each(PAGES)('every relative link of %s leads to a file, and to a heading where it names one', (page) => {
    for (const { target, anchor } of links(page)) {
      expect(existsSync(join(ROOT, target)), `${page} links ${relative(ROOT, join(ROOT, target))}`).toBe(true);
      if (anchor && target.endsWith('.md')) {
        const headings = [...readFileSync(join(ROOT, target), 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!));
        expect(headings, `${page} links ${target}#${anchor}`).toContain(anchor);
      }
    }
  });
});
