/**
 * The order test files start in. Two workers share the files, so a long file
 * that starts last keeps one worker busy after the other has finished. Vitest
 * orders files by their last recorded duration, which a fresh clone does not
 * have (it then orders them by size, and the slowest files are small). So the
 * files known to run longest start first, longest first; the rest keep
 * vitest's order. A file missing from the list only costs time, never a
 * result.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each over 40 s on the two-core machine (docs/BENCHMARKS.md, suite time), longest first. */
export const LONGEST_FILES = [
  'test/integration/ladders.test.ts',
  'test/integration/chaos.test.ts',
  'test/integration/recall.test.ts',
  'test/integration/eval-loop.test.ts',
  'test/integration/eval.test.ts',
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FILES.findIndex((file) => spec.moduleId.endsWith(file));
      return at < 0 ? LONGEST_FILES.length : at;
    };
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}
