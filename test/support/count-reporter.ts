/**
 * Mocha's spec reporter plus one closing line "N passed, N failed", which .ci/run repeats as its
 * last line so CI records the count.
 */
import Mocha from 'mocha';

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once('end', () => {
      const stats = runner.stats ?? this.stats;
      console.log(`${stats.passes} passed, ${stats.failures} failed`);
    });
  }
}

export = CountReporter;
