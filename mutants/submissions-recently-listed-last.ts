import { defineMutant } from './mutant.js';

/**
 * A "recently viewed" feature orders the submission list by when each submission was last shown,
 * least recent first, and listing a page marks its items as shown: each page read moves its items
 * to the end, so the next page is cut from another order. Counts and has_more stay right; a walk
 * sees some submissions twice and others never. The list holds only the run's own submissions, so
 * only a walk after the run's writes can see it (PAG-8, judged on the walks after writes).
 */
export default defineMutant({
  description:
    'orders the submission list by when each submission was last listed, and listing a page marks its items: a walk sees some twice and misses others',
  breaks: { 'PAG-8': 'warn' },
  // The list holds what the submission checks create.
  provokedBy: ['SUB'],
  modify: ({ behaviour }) => {
    const shownAt = new Map<string, number>();
    let shown = 0;
    const isSubmission = (item: unknown): item is { id: string } =>
      typeof item === 'object' && item !== null && 'row_count' in item && typeof (item as { id?: unknown }).id === 'string';
    const faithful = behaviour.listOrder.bind(behaviour);
    const faithfulWindow = behaviour.pageWindow.bind(behaviour);
    let lastWindow: { start: number; end: number } | null = null;
    behaviour.pageWindow = (total, page, limit) => {
      const window = faithfulWindow(total, page, limit);
      lastWindow = window;
      return window;
    };
    behaviour.listOrder = (total, itemAt) => {
      const first = total > 0 ? itemAt(0) : null;
      if (!isSubmission(first)) return faithful(total, itemAt);
      const ids = Array.from({ length: total }, (_, index) => (itemAt(index) as { id: string }).id);
      const order = ids.map((id, index) => ({ index, at: shownAt.get(id) ?? -1 })).sort((a, b) => a.at - b.at || a.index - b.index);
      // The page about to be cut from this order is marked as shown.
      const window = lastWindow ?? { start: 0, end: total };
      for (const { index } of order.slice(window.start, window.end)) shownAt.set(ids[index]!, ++shown);
      return order.map((item) => item.index);
    };
  },
});
